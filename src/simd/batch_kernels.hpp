// Internal: the entry points of one copy of the batch kernels (src/batch/batch.cpp, compiled once
// per instruction set like the contact kernels, simd/config.hpp) and the copy in use. The public
// one-at-a-time closest_approach() and time_to_collision() of two discs call the single-pair
// entries, so that a batch lane and a single query are one computation. The table lives here, with
// the dispatch (simd/dispatch.cpp picks the copy), so that cast/cast.cpp reaches the batch's
// single-pair entries through a lower layer, as collide() reaches the contact kernels. Not installed.
#pragma once

#include <cstddef>

#include "pebble/batch.hpp"
#include "pebble/simd.hpp"

namespace pebble::detail {

struct BatchKernels {
  SimdPath path;
  // Two discs (both cores 1 vertex), inputs already checked by the caller for the horizon only.
  ApproachResult (*approach_discs)(const BatchBody& a, const BatchBody& b, float horizon) noexcept;
  float (*time_to_collision_discs)(const BatchBody& a, const BatchBody& b, float horizon) noexcept;
  // The batch forms: `a` null means pairs[i].a, b from pairs[i].b; else a against others[i].
  void (*approach)(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, float horizon,
                   ApproachResult* out) noexcept;
  void (*time_to_collision)(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                            float horizon, float* out) noexcept;
  void (*distance)(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                   DistanceResult* out) noexcept;
  void (*overlap)(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                  bool* out) noexcept;
};

/// The copy of the same instruction set as the contact kernels in use (simd/dispatch.cpp).
const BatchKernels& batch_kernels() noexcept;

}  // namespace pebble::detail
