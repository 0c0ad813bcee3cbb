// tests/oracle/cone.hpp — the normals that are right when two shapes touch, measured on the
// geometry in long double: the normal cone of the Minkowski difference B - A where the origin
// meets it. No pebble header is included.
//
// B moved by s touches A where the origin lies on the boundary of (B - A) + s, grown by ra + rb.
// The normal from A to B is minus the outward normal of that difference at the touching point
// (the origin lies outside it, on the side facing A). A rounded difference has one normal
// there (towards the nearest core point). A sharp one has a whole cone at a vertex: every
// direction between the outward normals of the two edges that meet there (a corner of A against
// a corner of B), and a sharp segment's end a half plane.
#pragma once

#include <cstddef>
#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

/// The core of B - A: the hull of every difference b - a of core points, counter-clockwise.
std::vector<V> core_difference(const RShape& a, const RShape& b);

/// The outward unit normal of edge k (from h[k] to h[k + 1]) of a counter-clockwise hull of 2 or
/// more points (for 2 points the two edges are the segment's two sides).
V hull_edge_normal(const std::vector<V>& h, std::size_t k);

/// A set of directions: those within half_angle of centre (half_angle pi: all of them).
struct NormalCone {
  V centre;
  real half_angle = 0;
};

/// The normal cone (normals from A to B) of shapes A and B touching, or within `corner` of
/// touching: the point of the difference's core nearest the origin, p (or, origin within the
/// core, its nearest boundary point). A difference grown by more than `corner` (ra + rb >
/// corner) with the origin outside its core has the one normal p / |p|. Else the cone spanned by
/// the core's edges that pass within `corner` of p (one edge: its normal; the two edges at a
/// vertex: the vertex's cone). A segment touched inside is touched on the side facing `from`
/// (where the origin came from, relative to the difference).
NormalCone touch_normal_cone(const RShape& a, const RShape& b, real corner, V from);

/// How far (radians) unit u lies outside the cone; 0 inside.
real angle_outside(const NormalCone& cone, V u);

/// A vertex of the core of B - A with its outward normal cone (counter-clockwise from the normal
/// of the edge before it to that of the edge after it), from which approaches are built.
struct DifferenceVertex {
  V at;
  V before, after;  ///< outward normals of the edges meeting at it; equal and opposite for a
                    ///< segment's end; both {0, 0} for a difference that is one point
};
std::vector<DifferenceVertex> difference_vertices(const RShape& a, const RShape& b);

}  // namespace oracle
