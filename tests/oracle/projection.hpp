// tests/oracle/projection.hpp — the point query of a rounded shape, by brute force in long
// double, and a dense boundary sampler that checks the brute force itself.
#pragma once

#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

/// The answer to "where is p relative to shape s": all in the frame of s's points.
struct Projection {
  V point;        ///< closest point on the boundary of s
  V normal;       ///< outward unit normal of the boundary at point
  real distance;  ///< signed distance from the boundary to p, negative inside
  bool inside;    ///< p inside s or on its boundary
  /// How well defined normal is: 0 where several directions are equally right (p on the core
  /// or equidistant from two edges); else the core distance (outside the core) or the gap
  /// between the nearest and second-nearest edge line (inside). A perturbation of p by e turns
  /// the correct normal by at most about e / normal_margin.
  real normal_margin;
};

/// Signed distance, closest boundary point and normal of p to the hull of s.core grown by
/// s.radius. Outside the core hull: the nearest point over every segment between two core
/// points (the hull's edges are among them, the other chords lie inside it). Inside or on the
/// hull: the nearest hull edge line (oracle::hull), the inside test being exact orientation
/// tests in long double.
Projection project(const RShape& s, V p);

/// Distance from p to the closed segment ab, and the nearest point of the segment in *closest.
real segment_distance(V a, V b, V p, V* closest);

/// A closed counter-clockwise polyline through the boundary of s, by the support function: for
/// `count` equally spaced directions u, the core point furthest along u, plus radius * u. Knows
/// nothing of hulls or edges; its chords stay within about radius * 2 pi / count of the true
/// boundary (exact on straight parts when radius is 0).
std::vector<V> sample_boundary(const RShape& s, int count);

/// Unsigned distance from p to the closed polyline loop.
real loop_distance(const std::vector<V>& loop, V p);

/// Even-odd crossing test of p against the closed polyline loop.
bool loop_contains(const std::vector<V>& loop, V p);

}  // namespace oracle
