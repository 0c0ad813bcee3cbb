// Internal: the library's hooks for its own tests, benchmarks, fuzzers and determinism digest,
// which reach this header through the build tree (the CMake target pebble::test_hooks). Not
// installed: a user's program sees only the API. Each hook gives another way to the same answer,
// so that a test can check the two agree bit for bit.
#pragma once

#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"
#include "pebble/mass.hpp"
#include "pebble/simd.hpp"

namespace pebble::detail {

/// collide() without its fast paths (two capsules, two circles, a circle against a core): the one
/// generic algorithm, which every fast path must agree with.
Manifold collide_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                         float margin = 0) noexcept;

/// distance() without its fast path (a circle or point against anything): the one generic algorithm.
DistanceResult distance_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept;

/// bounds() in plain C++, the code every CPU without SSE2 runs: the same float operations, so the
/// same box bit for bit.
Aabb bounds_portable(const Shape& shape, const Transform& xf) noexcept;

/// Switches the contact and batch queries to `path` if this build and CPU have it and returns
/// whether it did, so that one process can compare every copy of the kernels. Queries already
/// running finish on the copy they started on.
bool use_simd_path(SimdPath path) noexcept;

}  // namespace pebble::detail
