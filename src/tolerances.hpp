// The internal tolerances, slacks and fractions of pebble, each with the reason for its value,
// grouped by the query that uses them. The public ones (weld fraction, linear slop, limits on
// coordinates) are in pebble/constants.hpp. A "fraction" multiplies a size (a shape's extent, a
// pair's scale or the numbers a value was computed from), so that the tolerance scales with it.
#pragma once

#include <limits>

#include "pebble/constants.hpp"

namespace pebble {

/// Not a tolerance, but said once here: the float infinity, where a search for a least value starts
/// (the tree's costs, an empty box's lower corner) and where a value means "none" (a pair's lever).
inline constexpr float kInfinity = std::numeric_limits<float>::infinity();

// ---- Shapes: the hull and bounds() (geometry/)

/// The hull's weld tolerance is never below this fraction of the largest coordinate (4 float
/// ulps): points computed collinear in float scatter by about one ulp.
inline constexpr double kHullRoundingFraction = 4.0 * 1.2e-7;

/// bounds() pads its float box by this fraction of |translation| + the shape's reach. The float
/// rounding of the box (two products, a difference, a sum and a difference per side) is at most
/// about 4.01 × 2⁻²⁴ of that sum; 2⁻²¹ leaves a factor of two for the rounding of the reach
/// itself (centroid and extent are floats) and of the pad.
inline constexpr float kBoundsPad = 0x1p-21f;
/// Added to the pad so that it covers the absolute rounding of results that underflow below the
/// normal floats (shapes of size 1e-38): the smallest normal float.
inline constexpr float kBoundsPadFloor = std::numeric_limits<float>::min();

// ---- Point queries: contains() (geometry/point.cpp)

/// contains() first decides in float and falls back to its exact double test only when the float
/// answer lies within this fraction (times the numbers it was computed from) of the boundary, plus
/// 4x the rotation's deviation from unit length (the double test normalizes the rotation, the
/// float one does not). The float rounding is at most about 13 x 2^-24 (disc) and 17 x 2^-24
/// (polygon planes) of those numbers (docs/point.md, "Float filter"); 2e-6 and 4e-6 leave a
/// factor of two and more, which also covers the double test's own rounding (below 1e-11).
inline constexpr float kDiscFilterFraction = 2e-6f;
inline constexpr float kPlaneFilterFraction = 4e-6f;
/// Added to both filters so that they also cover results rounded below the normal floats.
inline constexpr float kFilterFloor = 1e-30f;

// ---- Contacts: collide() and distance() (contact/core.hpp, contact/manifold.cpp)

/// Relative preference for A's axis, as a fraction of the smaller shape's size: B's axis is
/// chosen only when it separates clearly more. Keeps the reference stable under float noise
/// (warm-started ids depend on it) and is far below the accuracy bound.
inline constexpr float kAxisPreference = 2e-5f;

/// The preference when A's best face and B's best face are nearly parallel (their normals
/// opposite within kParallelFaceSine): the resting contact of a stack. There the two separations
/// differ by about the tilt times the sideways offset of the faces, and they cross as the tilt
/// changes sign, so a small preference lets the reference (and with it every feature id) flip
/// back and forth under jitter [issue-contacts]. At 4e-4 of the smaller shape's size (a unit box
/// pyramid keeps A's face for tilts up to about 5e-4 rad) the separation stays within the
/// contract's 1e-3 of the size (Shape::extent() is at most twice the half diameter the contract
/// measures size by), and the normal within the faces' tilt.
inline constexpr float kParallelFacePreference = 4e-4f;
/// Faces whose normals are opposite within this sine of the angle count as nearly parallel for
/// kParallelFacePreference: well above the jitter of a resting stack (about 1e-4 rad), well below
/// the angle at which a tilted face stops resting on the other.
inline constexpr float kParallelFaceSine = 9.5e-4f;

/// stop_bound()'s slack, a fraction of the LARGER shape's size: near the bound the separation is
/// computed from coordinates about as large as both shapes together and rounds like them (a
/// point has size 0; a small triangle on a 15000-long segment rounds like the segment). A larger
/// slack only stops fewer pairs early.
inline constexpr float kStopSlackFraction = 1e-5f;

/// The scale of a pair (the smaller shape's size) is never below this, so that fractions of it
/// stay positive for points and circles of radius 0.
inline constexpr float kMinPairScale = 1e-6f;

/// Incident points within this fraction of the pair's size outside the reference edge's side
/// planes count as on the edge (a corner exactly in line with the edge's end is an edge contact).
inline constexpr float kClipFraction = 1e-5f;

/// Cores that overlap by less than this fraction of the pair's size are measured with the
/// closest-points path, which is exact for touching and for degenerate (collinear) cores.
inline constexpr float kOverlapFraction = 1e-6f;

/// Two witness points closer than this fraction of the pair's size give no direction of their
/// own (their difference is mostly rounding): the face normal is taken instead.
inline constexpr float kWitnessNormalFraction = 1e-5f;

// ---- Casts: cast_ray(), cast_shape(), time_of_impact(), closest_approach() (cast/)

/// A corner's normal, computed as the radial vector over the radius, is made unit again when its
/// squared length is off 1 by more than this: a few float roundings of the radius-sized numbers
/// stay well within it, so the common case costs one compare.
inline constexpr float kRadialSlack = 1e-6f;

/// How far beyond an edge's end a clip's entry point may lie through float rounding alone,
/// relative to the size of the numbers it was computed from. An entry point that close to the
/// end whose corner circle is missed (a sharp corner has none; a tiny radius is smaller than the
/// rounding) is taken as an edge hit: the ray passes within rounding of the corner.
inline constexpr float kEntryRoundingFraction = 1e-6f;

/// A polygon core has a sliver vertex (Shape::has_slivers()) when two adjacent edge normals have
/// a dot product below minus this, cos(45 degrees): an interior angle below 45 degrees. Only then
/// can a clip's entry lie past an edge's end by more than the check in sharp_entry_holds() allows
/// (cast/ray_core.hpp): a point within rounding d of both planes at a vertex of interior angle a
/// lies within d / sin(a) of the vertex when a is acute (within d of the next edge when it is
/// not), so at 45 degrees or more within 1.5 d, and d, the rounding of the entry point against the
/// planes (a few float ulps of the coordinates), stays below the check's kEntryRoundingFraction of
/// them. The ray cast skips the check for shapes without one.
inline constexpr float kSliverCosine = 0.70710678f;

/// Two core vertices within this fraction of a body's reach of its greatest height along the
/// normal make the normal one of its faces (a face normal is computed from its vertices, so
/// they tie only to rounding).
inline constexpr float kFaceTieFraction = 1e-5f;

/// Two fractions of the path count as the same least distance when their distances differ by
/// less than this fraction of the sizes involved (float rounding of the projections): the earlier
/// one is taken, so that a path parallel to an edge gives the start of its closest stretch.
inline constexpr float kApproachTieFraction = 1e-6f;

// ---- Float range (contacts and casts)

/// Squared lengths below this (lengths below about 1e-18) are float denormals or 0 and keep only a
/// few bits: directions and inside tests there rescale first.
inline constexpr float kTinySquare = 0x1p-120f;
/// A radius below this is tiny in the same sense (its square is below kTinySquare).
inline constexpr float kTinyLength = 0x1p-60f;

// ---- The world (world/)

/// A collider's box is its bounds() grown by half the contact margin plus these slacks, so that two
/// boxes overlap whenever collide() could report a contact: collide() is accurate to 1e-3 of the
/// smaller shape's size (so a point may come up to that much beyond the margin), and the float sums
/// of the growth round by up to a few steps of the coordinates.
inline constexpr float kBoxSizeSlack = 1e-3f;
inline constexpr float kBoxCoordinateSlack = 0x1p-20f;
/// A world cast's swept box is grown by this fraction of the largest coordinate the cast reaches:
/// cast_ray() and cast_shape() far from the origin place their hits up to about 4.2 x 2^-20 of the
/// coordinates off the shape (docs/robustness.md, decompose-far-ray-false-hit), so the world keeps
/// four times that.
inline constexpr float kCastCoordinateSlack = 0x1p-16f;

/// overlap_aabb() tests a query box too large for one Shape as tiles at most kTileSpan wide, which
/// leaves room below the box maker's 2 kMaxShapeExtent for the tiles' overlap and rounding;
/// neighbouring tiles overlap by kTileOverlap of a tile, far more than the rounding of their edges,
/// so that their union is the whole box.
inline constexpr float kTileSpan = 1.8f * kMaxShapeExtent;
inline constexpr float kTileOverlap = 1e-3f;

// --- Chains (src/contact/chain.cpp, docs/terrain.md).

/// A chain segment's contact normal within this sine of the segment's face normal counts as the face
/// normal: collide() computes a face normal from the rotated shape normal, which differs from the
/// segment's own normalized perpendicular by float rounding, and the accuracy contract allows 1e-3 rad.
inline constexpr float kChainFaceSine = 1e-3f;

}  // namespace pebble
