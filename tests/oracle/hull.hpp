// tests/oracle/hull.hpp — a brute-force convex hull in long double, for checking pebble's hull.
#pragma once

#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

/// The convex hull of points, counter-clockwise, without repeated or collinear vertices, by the
/// O(n^3) definition: the directed pair (a, b) is a hull edge when every point lies left of the
/// line ab or on the closed segment ab. Exact for float inputs of similar magnitude (their
/// differences and the products of two differences fit in long double's 64-bit significand).
/// Returns 1 point when all points are equal, the 2 extreme points when all are collinear, and
/// an empty vector for empty input or if rounding made the edges inconsistent (never seen for
/// float inputs; callers treat it as a failed case).
std::vector<V> hull(const std::vector<V>& points);

/// Orientation of c relative to the directed line ab: > 0 left (counter-clockwise), < 0 right.
inline real orient(V a, V b, V c) { return cross(b - a, c - a); }

}  // namespace oracle
