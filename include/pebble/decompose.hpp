// pebble/decompose.hpp — a simple polygon (terrain, a level's outline, a concave body) cut into
// convex Shapes of at most kMaxPolygonVertices vertices, for a compound collider
// (CollisionWorld::add(std::span<const Shape>, ...)) or a set of fixed colliders.
// docs/decompose.md describes the algorithm, its tolerance and its cost.
#pragma once

#include <span>
#include <vector>

#include "pebble/shape.hpp"

namespace pebble {

/// Cuts a simple polygon into convex pieces, each Shape::polygon(piece, radius) with at most
/// kMaxPolygonVertices core vertices, whose union is the polygon grown by radius.
///
/// polygon: 3 or more points in either winding (clockwise input is reversed); exactly repeated
/// consecutive points and exactly collinear middle points are dropped first. The pieces' corners
/// are input points (no new points are made), cut along diagonals of the polygon: a
/// triangulation (monotone pieces), then Hertel-Mehlhorn merging while a piece stays convex and
/// has at most kMaxPolygonVertices corners. O(n log n) time.
///
/// Each piece is cleaned as Shape::polygon documents (near-equal points welded, nearly collinear
/// ones dropped, within kWeldFraction x the piece's size), which only ever shrinks a piece: the
/// cores lie inside the polygon without overlapping, and every point of the polygon lies within
/// the weld tolerance of its piece from that piece's core. A piece thinner than its weld tolerance (a sliver at a
/// needle-thin spike, or a polygon far smaller than the float spacing of its coordinates) becomes a 2-vertex (segment)
/// or 1-vertex core, which is kept.
///
/// Throws InvalidShape, naming the problem and where it is, for fewer than 3 points, a
/// non-finite coordinate or one beyond kMaxShapeExtent, a radius that is negative, not finite or
/// beyond kMaxShapeExtent, a polygon of zero area (all points collinear), and a polygon that is
/// not simple: two edges that cross or touch (the edges' input indices and the point where they
/// meet), a point repeated, or an edge that folds back along the previous one.
std::vector<Shape> decompose(std::span<const Vec2> polygon, float radius = 0);

}  // namespace pebble
