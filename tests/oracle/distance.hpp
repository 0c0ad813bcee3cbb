// tests/oracle/distance.hpp — reference signed distance, penetration depth and overlap between
// two rounded convex shapes, in long double, by the most direct methods: convex hulls of the
// raw core points, all pairs of core features for separated cores, the minimum over the edge
// normals of both hulls for overlapping cores, and (as a cross-check) dense direction sampling
// refined by golden-section search. No pebble header is included.
#pragma once

#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

real length(V v);
/// v / |v|, or {0, 0} for the zero vector.
V normalize(V v);
/// v rotated by +90 degrees.
inline V left_perp(V v) { return {-v.y, v.x}; }

/// Convex hull of points, counter-clockwise, exact duplicates and collinear points removed.
/// One point when all points are equal, the two extremes when all are collinear.
std::vector<V> convex_hull(const std::vector<V>& points);

/// The outward unit normals of a hull's edges (edge i runs from v[i] to v[i+1]); both normals
/// of a 2-point hull; none for a 1-point hull.
std::vector<V> edge_normals(const std::vector<V>& hull);

/// Largest x . u over the shape, radius included (u unit).
real support(const RShape& s, V u);
/// A point of the shape's surface where x . u is largest (radius included, u unit).
V support_point(const RShape& s, V u);

/// The gap between the shapes along unit direction u (from A to B): the least value of
/// u . (b - a) over a in A and b in B, radii included. Positive when the slab normal to u
/// separates them. Its maximum over all u is the signed distance.
real separation_along(const RShape& a, const RShape& b, V u);

/// The largest separation_along over the directions within max_angle (radians) of unit u,
/// sampled at `samples` + 1 evenly spaced directions and refined by golden-section search around
/// the best: "is there a near-optimal direction this close to u?".
real best_separation_within(const RShape& a, const RShape& b, V u, real max_angle, int samples = 64);

/// Closest points of segments p1q1 and p2q2 (either may be a point); distance 0 when they meet.
struct SegmentClosest {
  real distance;
  V on_first, on_second;
};
SegmentClosest closest_segments(V p1, V q1, V p2, V q2);

/// Signed distance from p to the boundary of the hull of s.core (negative inside a hull with
/// area; never negative for a 1- or 2-point core) and the closest boundary point.
struct CoreProjection {
  real signed_distance;
  V closest;
};
CoreProjection project_to_core(const RShape& s, V p);

/// Signed distance from p to the shape's surface (core distance minus radius; negative inside).
real signed_distance_to_surface(const RShape& s, V p);

/// The exact answer for a pair.
struct DistanceAnswer {
  real distance = 0;       ///< signed surface distance (minus the penetration depth when < 0)
  V normal;                ///< unit, from A to B (a minimum-translation direction when < 0)
  V point_a, point_b;      ///< surface witnesses: point_b - point_a = normal * distance
  real core_distance = 0;  ///< signed distance of the cores (distance + ra + rb)
  V core_a, core_b;        ///< core witnesses
  bool cores_overlap = false;
  /// False when another direction, more than kDistinctAngle from normal, reaches the optimum
  /// within the tie tolerance, or when the cores are separated by less than the conditioning
  /// threshold (nearly coincident features): then the normal is not a well-posed answer.
  bool normal_unique = false;
  /// Best value of separation_along over the candidate directions (edge normals of both cores)
  /// that are more than kDistinctAngle away from normal; -huge when there is none.
  real runner_up = 0;
};

/// Directions closer than this (radians) count as the same answer.
inline constexpr real kDistinctAngle = 1e-3L;

/// Exact signed distance. tie_tolerance: how close (length) a different direction must come to
/// the optimum to count as a tie; conditioning: separated cores closer than this have an
/// ill-posed normal.
DistanceAnswer distance(const RShape& a, const RShape& b, real tie_tolerance = 0, real conditioning = 0);

/// Signed core distance (radii NOT subtracted) by dense sampling of directions (samples evenly
/// spaced) refined by golden-section search around every sampled local maximum of
/// separation_along. Independent of distance(); used to cross-check it.
real sampled_core_distance(const RShape& a, const RShape& b, V* normal = nullptr, int samples = 4096);

/// True when the shapes touch or overlap (signed distance <= 0).
bool overlap(const RShape& a, const RShape& b);

/// Diameter of the shape / 2 (half the largest distance between two of its points).
real half_diameter(const RShape& s);

}  // namespace oracle
