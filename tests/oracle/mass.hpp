// tests/oracle/mass.hpp — area, centroid and polar inertia of a rounded convex shape by
// Green's theorem over its exact boundary, plus dense boundary samples for bounding boxes.
//
// Deliberately a different method from src/geometry/mass.cpp (which sums closed-form pieces): here the
// boundary of hull ⊕ disc is walked as straight offset edges and circular arcs, and the
// boundary integrals are evaluated by Gauss–Legendre quadrature whose nodes are computed in
// long double at start-up. The convex hull is computed here too (gift wrapping).
#pragma once

#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

/// Convex hull of points, counter-clockwise from the lowest (then leftmost) point, with exact
/// duplicates and collinear points dropped: 1 point, 2 points (all collinear) or a polygon.
std::vector<V> gift_wrap_hull(const std::vector<V>& points);

/// Mass properties of a rounded shape at unit density.
struct RMass {
  real area = 0;
  V centroid;        ///< area centroid; for a zero-area shape the centroid of its hull points
  real inertia = 0;  ///< polar second moment ∫|x - centroid|² dA
};

/// Area, centroid and polar inertia of hull(shape.core) ⊕ disc(shape.radius).
RMass rounded_mass(const RShape& shape);

/// Points on the outer boundary of hull(shape.core) ⊕ disc(shape.radius): every offset edge
/// sampled at edge_samples + 1 evenly spaced points, every vertex arc at steps of at most
/// max_arc_step radians (both ends included). Radius 0 gives the hull's edges.
std::vector<V> sample_rounded_boundary(const RShape& shape, int edge_samples, real max_arc_step);

}  // namespace oracle
