// The queries' defined empty answers, written once: what a noexcept query returns for bad input
// or when there is nothing to report (docs/robustness.md). Internal to the library.
#pragma once

#include "pebble/cast.hpp"
#include "pebble/constants.hpp"
#include "pebble/distance.hpp"
#include "pebble/ray.hpp"

namespace pebble::detail {

/// No hit: fraction 1, zero point and normal.
inline constexpr CastResult kNoHit{false, 1, {0, 0}, {0, 0}};
/// No approach: never closer, distance kHugeDistance.
inline constexpr ApproachResult kNoApproach{false, 0, kHugeDistance, {0, 0}, {0, 0}, {0, 0}};
/// No distance: kHugeDistance, zero points and normal.
inline constexpr DistanceResult kNoDistance{kHugeDistance, {0, 0}, {0, 0}, {0, 0}};

}  // namespace pebble::detail
