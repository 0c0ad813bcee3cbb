// pebble/simd.hpp — which instruction set the contact queries run on.
//
// The kernels of collide(), distance() and overlap() are compiled more than once on x86-64 with
// GCC or Clang: for the build's own target (SSE2), for AVX2, whose 8-wide registers hold all the
// edge lanes of an 8-gon at once, and as the portable scalar loops that other CPUs run. The AVX2
// copy is chosen once, when the library loads, if the CPU and the OS support it. All copies do
// the same float operations in the same order (no fused multiply-add), so they give the same
// results: a simulation does not change with the machine.
#pragma once

#include <atomic>
#include <cstdint>

namespace pebble {

class Shape;
struct Transform;
struct Manifold;
struct DistanceResult;

/// An instruction set the contact queries can run on.
enum class SimdPath : std::uint8_t {
  scalar,  ///< plain C++: the only copy off x86-64 or with PEBBLE_NO_SIMD; on x86-64, for tests
  sse2,    ///< 4-wide, every x86-64 CPU
  avx2,    ///< 8-wide, chosen at load time when the CPU and OS support it
};

/// The path the contact queries use now. The environment variable PEBBLE_SIMD (scalar, sse2
/// or avx2), read once at load time, asks for a path; a path this build or CPU lacks is
/// ignored and the best available one is used.
SimdPath simd_path() noexcept;

/// "scalar", "sse2" or "avx2".
const char* simd_path_name(SimdPath path) noexcept;

namespace detail {

/// The entry points of one copy of the contact kernels (src/kernels.hpp). Not part of the API:
/// collide() and distance() are inline functions that pick an entry by the pair's core sizes and
/// call it, so that a query costs one call. (A wrapper function would cost a second: GCC does not
/// turn a call that returns a struct into a jump. It measured 4% of an 8-gon/circle collide().)
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

/// The copy in use (src/simd.cpp): the base copy from the start (constant initialization, so a
/// query made by another library's static initializer works), AVX2 from load time on when the
/// CPU has it.
extern std::atomic<const ContactKernels*> active_contact_kernels;

inline const ContactKernels& contact_kernels() noexcept {
  return *active_contact_kernels.load(std::memory_order_relaxed);
}

/// Switches the contact queries to `path` if this build and CPU have it and returns whether it
/// did. For tests and benchmarks that compare the paths; queries already running finish on the
/// path they started on.
bool use_simd_path(SimdPath path) noexcept;
}  // namespace detail

}  // namespace pebble
