// pebble/cast.hpp — two shapes in motion: when a translating shape first touches another
// (cast_shape), when rotating and translating shapes first touch (time_of_impact), and how close
// two shapes in linear motion come (closest_approach). docs/casts.md explains the algorithms.
#pragma once

#include <limits>

#include "pebble/constants.hpp"
#include "pebble/ray.hpp"

namespace pebble {

/// Options of cast_shape().
struct ShapeCastOptions {
  /// Length (>= 0, world units): the cast stops where the shapes' distance falls to this
  /// instead of 0, leaving them that far apart. 0 (the default) is the first touch; a physics
  /// engine or a character mover passes a small gap such as kLinearSlop so that the bodies stay
  /// clear of contact.
  float target_separation = 0;
};

/// First fraction in [0, 1] of both motions at which shape a (at xa, moved by translation_a) and
/// shape b (at xb, moved by translation_b) touch, all in world space ([seed-detection §4] [seed-cpa §2]: a ray
/// along the relative motion against the Minkowski difference of the cores, grown by both
/// radii). point: the contact point at that time (both shapes moved), on both surfaces; normal:
/// unit, from A to B. Already touching or overlapping: hit at fraction 0 with the
/// minimum-translation direction as normal and the point midway between the deepest points. No
/// hit: {false, 1, {0,0}, {0,0}}, also for invalid input.
CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                      Vec2 translation_b) noexcept;

/// cast_shape() that stops at options.target_separation: the first fraction at which the
/// distance is at most that much (fraction 0 when it already is at the start, with the normal
/// of the closest points or of the minimum translation). point: midway between the two surfaces
/// at that time, which are target_separation apart along the normal. A negative or non-finite
/// target gives no hit.
CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                      Vec2 translation_b, const ShapeCastOptions& options) noexcept;

/// The old name of cast_shape() (docs/api-changes.md).
[[deprecated("use cast_shape")]] inline CastResult shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a,
                                                              const Shape& b, const Transform& xb,
                                                              Vec2 translation_b) noexcept {
  return cast_shape(a, xa, translation_a, b, xb, translation_b);
}
/// The old name of cast_shape() with options (docs/api-changes.md).
[[deprecated("use cast_shape")]] inline CastResult shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a,
                                                              const Shape& b, const Transform& xb, Vec2 translation_b,
                                                              const ShapeCastOptions& options) noexcept {
  return cast_shape(a, xa, translation_a, b, xb, translation_b, options);
}

/// A body's motion over one step, for time_of_impact(): its rotation centre (in the shape's
/// frame, usually the centre of mass) moves in a straight line from c0 to c1 (world) while the
/// body turns from angle a0 to a1 (radians, at constant rate; more than a turn is allowed).
struct Sweep {
  Vec2 local_center;  ///< rotation centre, shape frame
  ///@{
  Position c0, c1;  ///< world position of the rotation centre at t = 0 and t = 1
  ///@}
  ///@{
  float a0, a1;  ///< angle at t = 0 and t = 1 (radians, counter-clockwise)
  ///@}
};

/// The shape's transform at time t in [0, 1] of the sweep: angle a0 + t (a1 - a0), rotation
/// centre at c0 + t (c1 - c0). (The rotation is a0's composed with the turn by t (a1 - a0), which
/// keeps float precision when the angles are large.)
Transform sweep_transform(const Sweep& sweep, float t) noexcept;

/// The answer of time_of_impact(), world space.
struct ToiResult {
  /// How the search ended, which says what fraction means.
  enum class State {
    hit,           ///< the shapes come within the target (+ tolerance) at `fraction` and not before
    separated,     ///< they stay apart up to t_max; fraction = t_max
    overlapped,    ///< they overlap at t = 0; fraction = 0
    failed,        ///< the iteration cap was reached; no contact before `fraction`
  } state;         ///< how the search ended
  float fraction;  ///< time in [0, t_max], see state
  Position point;  ///< hit or overlapped: midway between the closest (or deepest) points; else {0,0}
  Vec2 normal;     ///< hit or overlapped: unit, from A to B; else {0,0}

  /// True when the shapes touch at `fraction` (State::hit or State::overlapped), as a cast's
  /// hit is true for a first touch, at fraction 0 when they start overlapped.
  explicit constexpr operator bool() const noexcept { return state == State::hit || state == State::overlapped; }
};

/// Options of time_of_impact().
struct ToiOptions {
  /// Length (>= 0, world units) at which the shapes count as touching. 0 (the default) is contact
  /// itself; a physics engine passes kLinearSlop, like Box2D, so that a contact exists after it
  /// moves the bodies to the time of impact.
  float target_separation = 0;
  /// Length (> 0): a hit is reported once the distance is within this of the target. 0 (the
  /// default) picks kToiToleranceFraction x the smaller shape's extent, at most kToiTolerance.
  float tolerance = 0;
  /// Most distance evaluations before giving up with State::failed (at least 1).
  int max_iterations = kMaxToiIterations;
};

/// First time in [0, t_max] at which shape a moving by sweep sa and shape b moving by sweep sb
/// touch ([seed-detection §5], conservative advancement: from the distance d and normal n at time t, no
/// point can close the gap along n faster than the relative speed along n plus each body's
/// angular speed times its reach from its rotation centre, so the time can advance by d over
/// that bound without passing the contact). Never later than the true first touch: fast
/// spinning and grazing motions make it take more iterations, or fail, but not tunnel. Without
/// rotation the answer is exact (cast_shape()). Invalid input (sweeps with a non-finite value
/// or one beyond kMaxWorldCoordinate, angles included, or whose shape frame may leave those
/// coordinates: |c|_inf + |local_center|_1 > kMaxWorldCoordinate; t_max not in [0, 1]) gives
/// State::failed at fraction 0 with zero point and normal.
ToiResult time_of_impact(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max = 1) noexcept;

/// time_of_impact() with a target separation, tolerance and iteration cap.
ToiResult time_of_impact(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max,
                         const ToiOptions& options) noexcept;

/// The answer of closest_approach(), world space.
struct ApproachResult {
  bool hit;          ///< the shapes touch or overlap at some time in [0, horizon]
  float time;        ///< hit: the first time they touch (0 when they start so); else the time of least distance
  float distance;    ///< signed distance at that time: 0 at a touch (to rounding), < 0 when starting overlapped
  Position point_a;  ///< on A's surface at that time
  Position point_b;  ///< on B's surface at that time; point_b - point_a = normal * distance
  Vec2 normal;       ///< unit, from A to B

  /// True when there is an answer: the closest approach was found (distance < kHugeDistance).
  /// False only for the empty answer of invalid input (and of a chain segment seen from behind).
  /// Whether the shapes touch is `hit`.
  explicit constexpr operator bool() const noexcept { return distance < kHugeDistance; }
};

/// The old name of ApproachResult (docs/api-changes.md).
using Approach [[deprecated("use ApproachResult")]] = ApproachResult;

/// How close shape a (at xa, moving at velocity_a) and shape b (at xb, velocity_b) come over
/// the times [0, horizon], world space ([seed-cpa §3], the closest point of approach, for any pair of
/// shapes): the first time they touch, or the time of least distance when they never do, with
/// the distance and witness points at that time. Shapes moving apart have their closest
/// approach at time 0; the earliest time is given when the distance stays least for a while.
/// Invalid input (non-finite or absurd transforms or velocities, horizon not finite and >= 0, or
/// motions that carry a shape's position beyond kMaxWorldCoordinate by the horizon):
/// {false, 0, kHugeDistance, {0,0}, {0,0}, {0,0}}.
ApproachResult closest_approach(const Shape& a, const Transform& xa, Vec2 velocity_a, const Shape& b,
                                const Transform& xb, Vec2 velocity_b, float horizon) noexcept;

/// time_to_collision()'s answer when the shapes do not touch within the horizon.
inline constexpr float kNoCollision = std::numeric_limits<float>::infinity();

/// The first time in [0, horizon] at which shape a (at xa, moving at velocity_a) and shape b (at
/// xb, velocity_b) touch: 0 when they start touching or overlapping, kNoCollision when they do
/// not touch by the horizon. It is closest_approach()'s time when that reports a hit, and
/// kNoCollision exactly when it does not, at less cost (no witness points, no least distance):
/// the query a crowd asks of its neighbours. Invalid input (as for closest_approach()):
/// kNoCollision.
float time_to_collision(const Shape& a, const Transform& xa, Vec2 velocity_a, const Shape& b, const Transform& xb,
                        Vec2 velocity_b, float horizon) noexcept;

}  // namespace pebble
