// pebble/detail/kernels.hpp — not API: how the inline collide() and distance() reach the copy of
// the contact kernels in use (src/simd/dispatch.cpp picks it at load time; pebble/simd.hpp is the
// public side). Installed only because collide() and distance() are inline, which saves a call's
// instructions (docs/architecture.md). The test hooks are in src/test_hooks.hpp.
#pragma once

#include <atomic>

#include "pebble/simd.hpp"

namespace pebble {

class Shape;
struct Transform;
struct Manifold;
struct DistanceResult;

namespace detail {

/// The entry points of one copy of the contact kernels (src/simd/config.hpp). Not part of the API:
/// collide() and distance() are inline functions that pick an entry by the pair's core sizes and
/// call it, so that a query costs one call. (A wrapper function would cost a second: GCC does not
/// turn a call that returns a struct into a jump.)
struct ContactKernels {
  using Collide = Manifold (*)(const Shape&, const Transform&, const Shape&, const Transform&, float) noexcept;
  using Distance = DistanceResult (*)(const Shape&, const Transform&, const Shape&, const Transform&) noexcept;
  SimdPath path;
  Collide collide_generic;     ///< any pair (the one generic algorithm)
  Collide collide_capsules;    ///< two 2-vertex cores (capsules, segments)
  Collide collide_circles;     ///< two 1-vertex cores
  Collide collide_point_core;  ///< exactly one 1-vertex core
  Distance distance_generic;   ///< any pair
  Distance distance_point;     ///< at least one 1-vertex core
};

/// The copy in use (src/simd/dispatch.cpp): the base copy from the start (constant initialization, so a
/// query made by another library's static initializer works), AVX2 from load time on when the
/// CPU has it.
extern std::atomic<const ContactKernels*> active_contact_kernels;

inline const ContactKernels& contact_kernels() noexcept {
  return *active_contact_kernels.load(std::memory_order_relaxed);
}
}  // namespace detail

}  // namespace pebble
