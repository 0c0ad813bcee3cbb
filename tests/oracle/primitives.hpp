// tests/oracle/primitives.hpp — brute-force answers for the seed-004 toolbox, in long double.
//
// Deliberately other methods than include/pebble/primitives.hpp: overlap and containment come
// from one separating-axis routine that tries every direction spanned by two of the input points
// (and its perpendicular), so it also sees through degenerate (collinear, zero-length) inputs;
// nearest points come from dense sampling of the boundary refined by ternary search; shapes are
// plain point lists (a rectangle is its four corners, a segment its two ends).
#pragma once

#include <vector>

#include "oracle/oracle.hpp"

namespace oracle::prim {

/// Largest separating gap between the convex hulls of a and b over every candidate direction
/// (differences of two input points and their perpendiculars, unit length). > 0: disjoint, and
/// then it is their distance; <= 0: they share a point (touching gives 0).
real hull_gap(const std::vector<V>& a, const std::vector<V>& b);

/// The unit direction whose gap hull_gap reported (from a toward b); {1, 0} when all points
/// coincide.
V hull_gap_axis(const std::vector<V>& a, const std::vector<V>& b);

/// Length of v.
real length(V v);

/// True when p lies on the closed segment ab (exact sign tests; exact for grid inputs).
bool on_segment(V a, V b, V p);

/// Closest point of the segment ab to p: 1024 samples, then ternary search around the best.
V nearest_on_segment(V a, V b, V p);

/// Distance from p to the segment ab (via nearest_on_segment).
real distance_to_segment(V a, V b, V p);

/// Closest point of the closed polygon boundary (edges between consecutive points, closing
/// edge included) to p.
V nearest_on_boundary(const std::vector<V>& polygon, V p);

/// Closest point of the filled convex hull of polygon (points in boundary order) to p: p when
/// hull_gap({p}, polygon) <= 0, else nearest_on_boundary.
V nearest_on_filled(const std::vector<V>& polygon, V p);

/// True when the segment ab and the disc share a point, decided without division or root
/// (exact for inputs on a coarse grid).
bool segment_meets_disc(V a, V b, V center, real radius);

/// Closest point of the circle (the boundary of the disc) to p: 256 samples refined by ternary
/// search on the angle.
V nearest_on_circle(V center, real radius, V p);

/// Closest point of the disc (center, radius) to p: p inside, else nearest_on_circle.
V nearest_on_disc(V center, real radius, V p);

/// The corners of the axis-aligned rectangle [lo, hi], counter-clockwise from lo.
std::vector<V> corners(V lo, V hi);

}  // namespace oracle::prim
