// pebble/constants.hpp — every tolerance and limit of pebble, each with the reason for it.
// Lengths are meters-like; shapes of size 0.01 to 100 at coordinates up to 1e4 are supported.
#pragma once

namespace pebble {

/// Most vertices a polygon core may have (Box2D uses the same number).
inline constexpr int kMaxPolygonVertices = 8;

/// A physics engine keeps contacts this far apart; used by the world's default margin
/// and by collision systems to decide when edges count as touching.
inline constexpr float kLinearSlop = 0.005f;

/// The contact margin of CollisionWorld by default (WorldSettings::contact_margin): contacts() then
/// holds pairs up to this far apart, so that a physics engine sees a contact a step before it
/// closes (Box2D v3's speculative distance is also 4 linear slops).
inline constexpr float kDefaultContactMargin = 4 * kLinearSlop;

/// Hull points closer than this fraction of the shape's size are welded into one, and a
/// vertex closer than this fraction to the line of its neighbours is dropped as collinear.
/// Small enough that welding moves the boundary by less than the accuracy we promise (1e-3).
inline constexpr float kWeldFraction = 1e-4f;

/// Hull points closer than this are welded whatever the shape's size (the floor of the weld
/// tolerance). Below it the squares and cross products of coordinate differences that the queries
/// form fall to float's denormal range, where they keep few bits or vanish: a normal computed from
/// them is not unit. Far below any size pebble supports (0.01 and up).
inline constexpr float kMinWeldDistance = 1e-15f;

/// Queries treat a transform or point with a coordinate beyond this as absurd and return
/// their empty result. Squares of such values still fit in a float, so nothing overflows.
inline constexpr float kMaxWorldCoordinate = 1e9f;

/// Largest shape extent (core coordinates and radius) a shape maker accepts; beyond it the
/// products queries form could overflow.
inline constexpr float kMaxShapeExtent = 1e7f;

/// A rotation whose c*c + s*s is off 1 by more than this is rejected by queries as invalid
/// (empty result) rather than silently scaling the shape. Queries use an accepted rotation as
/// given, so a frame change scales an offset by up to kRotationTolerance / 2: 0.05 at 1e4, where
/// 1e-3 (before 0.2) scaled it by 5 units. Rotations from Rot::from_angle, normalize(Rot) and
/// double-precision cos/sin are within 3e-7; a product of n of them within about 2.5e-7 sqrt(n)
/// (128 products: 2.7e-6), so a rotation composed every step for minutes should be normalized
/// now and then (docs/robustness.md, Rotations).
inline constexpr float kRotationTolerance = 1e-5f;

/// The distance reported by empty results (no hit, invalid input): finite, never NaN.
inline constexpr float kHugeDistance = 3.0e38f;

/// time_of_impact() reports a hit once the distance is within this of the target (when no
/// tolerance is given): Box2D's 0.25 x linear slop, a quarter of the gap a physics engine keeps.
inline constexpr float kToiTolerance = 0.25f * kLinearSlop;

/// The default time_of_impact() tolerance is also never more than this fraction of the smaller
/// shape's extent, so that small shapes get the accuracy pebble promises (1e-3 x their size).
inline constexpr float kToiToleranceFraction = 1e-3f;

/// Default cap on time_of_impact()'s distance evaluations. An approach converges in a few; a
/// grazing pass of a fast-spinning body takes the most, as every step is bounded by the spin.
inline constexpr int kMaxToiIterations = 64;

}  // namespace pebble
