// pebble/ray.hpp — ray casts and circle casts against one shape [seed-rounded §8]: where a ray segment first meets a
// shape's rounded surface, and the surface normal there. A circle cast is the same ray against the shape grown by the
// circle's radius. docs/casts.md explains the algorithm.
#pragma once

#include "pebble/shape.hpp"

namespace pebble {

/// A ray segment in world space: from origin to origin + translation (fractions 0 to 1).
struct Ray {
  Position origin;   ///< where the ray starts, world
  Vec2 translation;  ///< the whole ray: its end is origin + translation (may be zero)
};

/// The answer of a cast (cast_ray(), cast_shape()), world space. With no hit: {false, 1, {0,0}, {0,0}}.
struct CastResult {
  bool hit;        ///< the ray (or moving shape) meets the target within its translation
  float fraction;  ///< of the translation at the first touch, in [0, 1]; 1 when there is no hit
  Position point;  ///< the touching point on the target's surface (see each query)
  Vec2 normal;     ///< unit outward normal of the target at point; {0,0} when starting inside

  /// True when there is a hit (`hit`): the answer every pebble result gives to "is there one?".
  explicit constexpr operator bool() const noexcept { return hit; }
};

/// The old name of CastResult (docs/api-changes.md).
using CastHit [[deprecated("use CastResult")]] = CastResult;

/// First point of the ray on the surface of shape placed at xf, and the outward surface normal
/// there (world space). A ray starting inside the shape or on its surface hits at fraction 0
/// with point = ray.origin and normal {0,0}. A zero translation hits only from inside. Touching
/// counts: a ray grazing a corner or running along an edge hits where it first meets the shape.
/// Invalid input (non-finite or absurd transform, origin or translation) gives no hit.
CastResult cast_ray(const Shape& shape, const Transform& xf, const Ray& ray) noexcept;

/// Circle cast: the first position (fraction of the translation) at which a disc of the given
/// radius (>= 0) whose centre moves along the ray touches shape placed at xf ([seed-rounded §8]: a ray
/// against the shape grown by radius). point: where the disc touches the shape, on the shape's
/// surface; normal: the shape's outward normal there. A disc that overlaps or touches the
/// shape at the start hits at fraction 0 with point = ray.origin and normal {0,0}. A negative or
/// non-finite radius gives no hit. radius 0 is cast_ray() without a radius.
CastResult cast_ray(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept;

/// The old name of cast_ray() (docs/api-changes.md).
[[deprecated("use cast_ray")]] inline CastResult raycast(const Shape& shape, const Transform& xf,
                                                         const Ray& ray) noexcept {
  return cast_ray(shape, xf, ray);
}
/// The old name of cast_ray() with a radius (docs/api-changes.md).
[[deprecated("use cast_ray")]] inline CastResult raycast(const Shape& shape, const Transform& xf, const Ray& ray,
                                                         float radius) noexcept {
  return cast_ray(shape, xf, ray, radius);
}

}  // namespace pebble
