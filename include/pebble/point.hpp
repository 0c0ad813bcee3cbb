// pebble/point.hpp — point queries [seed-rounded §7]: the closest point on a
// shape's boundary, the outward normal there, the signed distance and containment.
#pragma once

#include "pebble/constants.hpp"
#include "pebble/shape.hpp"

namespace pebble {

/// Result of project_point, in world space.
struct ProjectionResult {
  Position point;  ///< closest point on the shape's boundary (world)
  Vec2 normal;     ///< outward unit normal of the boundary at point
  float distance;  ///< signed distance from the boundary to the query point (< 0 inside)
  bool inside;     ///< true when the query point is inside or on the boundary (distance <= 0)

  /// True when there is an answer (distance < kHugeDistance): false only for invalid input.
  explicit constexpr operator bool() const noexcept { return distance < kHugeDistance; }
};

/// The old name of ProjectionResult (docs/api-changes.md).
using PointProjection [[deprecated("use ProjectionResult")]] = ProjectionResult;

/// Projects the world point p onto the boundary of shape placed at xf; every field of the
/// result is in world space and the distance is negative inside. Invalid input (non-finite or
/// absurd transform or point, see is_valid) gives {{0,0}, {0,0}, kHugeDistance, false}.
ProjectionResult project_point(const Shape& shape, const Transform& xf, Position p) noexcept;

/// True when the world point p is inside the shape placed at xf or on its boundary; always
/// equal to project_point(shape, xf, p).inside, and cheaper. False for invalid input.
bool contains(const Shape& shape, const Transform& xf, Position p) noexcept;

}  // namespace pebble
