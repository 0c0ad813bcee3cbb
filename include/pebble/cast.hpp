// pebble/cast.hpp — two shapes in motion: when a translating shape first touches another
// (shape_cast), when rotating and translating shapes first touch (time_of_impact), and how close
// two shapes in linear motion come (closest_approach). docs/casts.md explains the algorithms.
#pragma once

#include "pebble/ray.hpp"

namespace pebble {

/// Options of shape_cast().
struct ShapeCastOptions {
  /// Length (>= 0, world units): the cast stops where the shapes' distance falls to this
  /// instead of 0, leaving them that far apart. 0 (the default) is the first touch; a physics
  /// engine or a character mover passes a small gap such as kLinearSlop so that the bodies stay
  /// clear of contact.
  float target_separation = 0;
};

/// First fraction in [0, 1] of both motions at which shape a (at xa, moved by translation_a) and
/// shape b (at xb, moved by translation_b) touch, all in world space (seeds 002 and 003: a ray
/// along the relative motion against the Minkowski difference of the cores, grown by both
/// radii). point: the contact point at that time (both shapes moved), on both surfaces; normal:
/// unit, from A to B. Already touching or overlapping: hit at fraction 0 with the
/// minimum-translation direction as normal and the point midway between the deepest points. No
/// hit: {false, 1, {0,0}, {0,0}}, also for invalid input.
CastHit shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                   Vec2 translation_b) noexcept;

/// shape_cast() that stops at options.target_separation: the first fraction at which the
/// distance is at most that much (fraction 0 when it already is at the start, with the normal
/// of the closest points or of the minimum translation). point: midway between the two surfaces
/// at that time, which are target_separation apart along the normal. A negative or non-finite
/// target gives no hit.
CastHit shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                   Vec2 translation_b, const ShapeCastOptions& options) noexcept;

}  // namespace pebble
