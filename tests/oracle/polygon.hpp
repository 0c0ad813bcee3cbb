// tests/oracle/polygon.hpp — brute-force facts about a polygon given as float points, for checking
// pebble's decompose(): is it simple (all pairs of edges, exactly), its area, its reflex
// vertices, whether a point lies inside it and how far from its boundary.
// Shares no code with include/pebble: plain floats in, each answer from its definition.
#pragma once

#include <string>
#include <vector>

#include "oracle/exact.hpp"
#include "oracle/oracle.hpp"

namespace oracle::polygon {

using exact::F2;

/// The sign (-1, 0, 1) of cross(b - a, c - a), exactly: long double when the value is clearly
/// away from zero, else the exact integers of exact.hpp.
int orient(F2 a, F2 b, F2 c);

/// The closed segments ab and cd share a point, exactly.
bool segments_meet(F2 a, F2 b, F2 c, F2 d);

/// Why a point list is not a simple polygon of positive area, or an empty string when it is one.
/// The definition, on the list with exact repeats of the previous point dropped: at least 3
/// points, not all collinear; two edges that are not neighbours share no point; two neighbouring
/// edges share only their common point (they do not fold back along each other). O(n^2).
std::string why_not_simple(const std::vector<F2>& points);

/// Twice the signed area (shoelace, long double): > 0 for counter-clockwise.
real twice_signed_area(const std::vector<F2>& points);

/// The number of reflex and of strictly convex corners of a simple polygon (collinear points are
/// neither), exactly.
struct Corners {
  int reflex = 0, convex = 0;
};
Corners corners(const std::vector<F2>& points);

/// The winding number of the closed polygon around p (long double; p on the boundary gives
/// either neighbouring value).
int winding_number(const std::vector<F2>& points, V p);

/// Distance from p to the polygon's boundary (long double).
real boundary_distance(const std::vector<F2>& points, V p);

/// Distance from p to the closed segment ab (long double).
real segment_distance(V p, V a, V b);

/// The fewest convex pieces of at most max_corners corners (collinear points of a piece do not
/// count) that a simple polygon without repeated or collinear consecutive points can be cut into
/// along diagonals (no new points), by dynamic programming over the chords: the piece holding
/// chord (i, j) is a convex chain i < a1 < ... < j of chords, and the parts it cuts off are
/// solved the same way. About n^5 steps: for small polygons only. Returns -1 when the polygon has
/// a repeated or collinear consecutive point.
int fewest_convex_pieces(const std::vector<F2>& points, int max_corners);

}  // namespace oracle::polygon
