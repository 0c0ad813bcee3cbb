// pebble/shape.hpp — the one collider representation: a convex core (1 to kMaxPolygonVertices
// points, counter-clockwise) grown by a disc of radius r [seed-rounded §4]. A circle is a 1-vertex core, a capsule or
// segment a 2-vertex core, a box or any convex polygon a 3..8-vertex core; any of them may be rounded.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "pebble/math.hpp"

namespace pebble {

/// Thrown by the shape makers for input they cannot turn into a valid shape. The message
/// names the problem and the offending value.
class InvalidShape : public std::invalid_argument {
public:
  /// what: the message, naming the problem and the value.
  explicit InvalidShape(const std::string& what) : std::invalid_argument(what) {}
};

/// Thrown for settings that are not a shape but cannot be used (CharacterMover's MoverSettings).
/// The message names the setting and the problem. For one release it derives from InvalidShape, so
/// that code catching InvalidShape for these keeps working; from the next release it derives from
/// std::invalid_argument directly (docs/api-changes.md).
class InvalidSettings : public InvalidShape {
public:
  /// what: the message, naming the setting and the problem.
  explicit InvalidSettings(const std::string& what) : InvalidShape(what) {}
};

/// A convex core grown by a radius: a small copyable value (no heap memory).
///
/// Makers validate and clean their input. With tol = kWeldFraction x the size of the point set
/// (but at least 4 float ulps of its largest coordinate, which only matters for tiny shapes far
/// from their local origin, and at least kMinWeldDistance), the hull's flattest vertex is removed while every input
/// point stays within tol of the hull: near-equal points are welded and nearly collinear points dropped. The result is
/// strictly convex and counter-clockwise, and no input point lies more than tol outside it. A core that degenerates
/// becomes the smaller core (all points within tol: 1 vertex, their centre; all within tol of a segment: 2 vertices).
class Shape {
public:
  /// A disc of the given radius (>= 0) centred at center (local frame).
  static Shape circle(float radius, Vec2 center = {});
  /// The set of points within radius of segment ab. capsule(a, a, r) is a circle.
  static Shape capsule(Vec2 a, Vec2 b, float radius);
  /// A capsule of radius 0.
  static Shape segment(Vec2 a, Vec2 b);
  /// A box centred on the origin with the given half extents (> 0).
  static Shape box(float half_width, float half_height);
  /// A box centred on the origin with rotated-frame offset and angle.
  static Shape box(float half_width, float half_height, Vec2 center, float angle);
  /// A box of OUTER half extents whose corners are rounded by corner_radius (like CSS
  /// border-radius): the core is the box of half extents minus corner_radius. corner_radius
  /// may be at most the smaller half extent; at equality the core degenerates to a segment
  /// (a capsule) or a point (a circle).
  static Shape rounded_box(float half_width, float half_height, float corner_radius);
  /// The convex hull of points (welded, collinear points removed), grown outward by radius.
  static Shape polygon(std::span<const Vec2> points, float radius = 0);
  /// The shape whose core is exactly these vertices in this order, grown by radius: the shape a
  /// stored vertices() and radius() came from, bit for bit (recordings and snapshots keep shapes
  /// so). Throws InvalidShape unless polygon(core, radius) keeps every vertex (the same vertices,
  /// perhaps starting at another one): the core is already a welded, strictly convex,
  /// counter-clockwise hull.
  static Shape from_vertices(std::span<const Vec2> core, float radius);

  /// Number of core vertices: 1, 2, or 3..kMaxPolygonVertices.
  int vertex_count() const { return count_; }
  /// Core vertices in the local frame, counter-clockwise.
  std::span<const Vec2> vertices() const { return {vertices_, static_cast<size_t>(count_)}; }
  /// Outward unit normal of edge i, 0 <= i < edge_count() (the edge from vertex i to vertex
  /// i+1), local frame. A 2-vertex core has two edges (a->b and b->a) with opposite normals; a
  /// 1-vertex core has none. (Stored only as the lanes below, which keeps a Shape at three
  /// cache lines.)
  Vec2 normal(int i) const { return {normal_x_[i], normal_y_[i]}; }
  /// Number of core edges: 0 for a point, 2 for a segment (both sides), else vertex_count().
  int edge_count() const { return count_ == 1 ? 0 : count_; }
  /// Radius of the disc the core is grown by (>= 0).
  float radius() const { return radius_; }
  /// Area centroid of the core (of the segment or point for degenerate cores), local frame.
  Vec2 core_centroid() const { return centroid_; }
  /// Radius of the smallest disc around core_centroid() holding the whole shape (radius
  /// included): the shape's size, which scales every tolerance of the queries.
  float extent() const { return extent_; }
  /// Whether the core has a sliver vertex: a polygon core (3+ vertices) with an interior angle
  /// below 45 degrees (kSliverCosine). cast_ray() checks a sharp polygon's entry point against the
  /// edges only for such shapes (src/cast/ray_core.hpp, sharp_entry_holds); computed by every
  /// maker from the edge normals, never stored or read from outside.
  bool has_slivers() const { return slivers_; }

  /// kMaxPolygonVertices + 1 vertex slots; those past vertex_count() repeat vertex 0, so a scan
  /// for an extreme vertex may run over all of them with a fixed trip count, and edge i always
  /// runs from slot i to slot i + 1.
  const Vec2* padded_vertices() const { return vertices_; }
  /// Edge normals and offsets as kMaxPolygonVertices lanes (x, y, and dot(normal, vertex)), for
  /// vectorized separating-axis scans. Lanes past edge_count() hold a zero normal and a huge
  /// offset, so they never separate anything.
  ///@{
  /// kMaxPolygonVertices floats each: x, y of the edge normals, and the offsets.
  const float* normal_lanes_x() const { return normal_x_; }
  const float* normal_lanes_y() const { return normal_y_; }
  const float* offset_lanes() const { return offset_; }
  ///@}

  /// The core vertex furthest along direction d (local frame); ties go to the lower index.
  int support_index(Vec2 d) const {
    int best = 0;
    float best_value = dot(vertices_[0], d);
    for (int i = 1; i < count_; ++i) {
      const float value = dot(vertices_[i], d);
      if (value > best_value) {
        best = i;
        best_value = value;
      }
    }
    return best;
  }

private:
  Shape() = default;
  static Shape from_core(const Vec2* points, int count, float radius);
  void finish();  // normals, centroid and extent from vertices_, count_ and radius_

  // The scalars every query reads come first, in the cache line with the first vertices.
  // count_ and slivers_ share the first word (a Shape stays at 188 bytes, under three cache lines).
  std::int16_t count_ = 1;
  bool slivers_ = false;  // has_slivers(), set by finish()
  std::uint8_t reserved_ = 0;
  float radius_ = 0;
  float extent_ = 0;
  Vec2 centroid_{};
  Vec2 vertices_[kMaxPolygonVertices + 1]{};  // slots past count_ repeat vertex 0 (see finish())
  float normal_x_[kMaxPolygonVertices]{};
  float normal_y_[kMaxPolygonVertices]{};
  float offset_[kMaxPolygonVertices]{};
};

/// The convex hull of points, counter-clockwise, with near-equal points welded and collinear
/// points removed, as Shape::polygon computes it. Returns the number of hull points written to
/// out (1, 2 or 3..kMaxPolygonVertices). Throws InvalidShape for non-finite or too many points.
int compute_hull(std::span<const Vec2> points, Vec2 (&out)[kMaxPolygonVertices]);

}  // namespace pebble
