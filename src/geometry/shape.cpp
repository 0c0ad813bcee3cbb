// Shape makers and the convex hull they rest on.
//
// The hull is Andrew's monotone chain (de Berg et al., "Computational Geometry", 1.1) on the
// float input, its turns decided by the exact orient() (pebble/detail/exact.hpp), followed by a
// clean-up pass in double that removes the flattest vertex while every input point stays within
// a tolerance of the hull (which welds near-equal points and drops nearly collinear ones). The
// tolerance is kWeldFraction x the point set's size, floored at 4 float ulps of its largest
// coordinate (kHullRoundingFraction) and at kMinWeldDistance (so that no edge is so short that
// the queries would square it into a denormal). Degenerate inputs shrink to the smaller core
// instead of failing: a cluster of equal points becomes a 1-vertex core, collinear points a
// 2-vertex core.
#include "pebble/shape.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "geometry/invalid.hpp"
#include "pebble/detail/exact.hpp"
#include "tolerances.hpp"

namespace pebble {

static_assert(sizeof(Shape) == 5 * sizeof(float) + (kMaxPolygonVertices + 1) * sizeof(Vec2) +
                                   3 * kMaxPolygonVertices * sizeof(float),
              "Shape: the sliver flag shares the vertex count's word; the size stays 188 bytes");

namespace {

using detail::describe;
[[noreturn]] void fail(const std::string& message) { detail::fail({}, message); }

void check_radius(float radius, const char* what) {
  if (!std::isfinite(radius)) {
    std::ostringstream out;
    out << what << " is not finite (" << radius << ")";
    fail(out.str());
  }
  if (radius < 0) {
    std::ostringstream out;
    out << what << " is negative (" << radius << ")";
    fail(out.str());
  }
  if (radius > kMaxShapeExtent) {
    std::ostringstream out;
    out << what << " " << radius << " exceeds the largest supported extent " << kMaxShapeExtent;
    fail(out.str());
  }
}

inline void check_point(Vec2 p, size_t index) { detail::check_point({}, p, index); }

using detail::D2;  // double vector and the exact orient(): pebble/detail/exact.hpp
using detail::d2;
using detail::orient;

// Distance of p from the segment ab, in double.
double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const D2 e = d2(b) - d2(a), w = d2(p) - d2(a);
  const double len2 = dot(e, e);
  double t = len2 > 0 ? dot(w, e) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  const D2 q{a.x + t * e.x, a.y + t * e.y}, d = d2(p) - q;
  return std::sqrt(dot(d, d));
}

}  // namespace

namespace {

/// compute_hull() on scratch buffers: ps holds points.size() points, hull twice that.
int hull_of(std::span<const Vec2> points, Vec2* ps, Vec2* hull, Vec2 (&out)[kMaxPolygonVertices]) {
  const size_t count = points.size();
  std::copy(points.begin(), points.end(), ps);

  // Tolerance: a fraction of the point set's size, and never below what float rounding of the
  // coordinates can produce (4 units in the last place of the largest coordinate: points that
  // were computed collinear in float scatter by about one). Far from the local origin this floor
  // exceeds kWeldFraction x size for tiny shapes; float cannot do better there.
  double lo_x = ps[0].x, hi_x = ps[0].x, lo_y = ps[0].y, hi_y = ps[0].y, biggest = 0;
  for (size_t i = 0; i < count; ++i) {
    const Vec2 p = ps[i];
    lo_x = std::min(lo_x, double(p.x));
    hi_x = std::max(hi_x, double(p.x));
    lo_y = std::min(lo_y, double(p.y));
    hi_y = std::max(hi_y, double(p.y));
    biggest = std::max({biggest, std::fabs(double(p.x)), std::fabs(double(p.y))});
  }
  const double size = std::max(hi_x - lo_x, hi_y - lo_y);
  const double tol =
      std::max({double(kWeldFraction) * size, kHullRoundingFraction * biggest, double(kMinWeldDistance)});
  // A vertex whose distance to its neighbours' line squared exceeds this times that chord's
  // squared length is farther than tol from the chord, whatever the rounding of
  // segment_distance() (relative 1e-8 at worst: tol is at least 4.8e-7 of every coordinate).
  const double clearly_beyond = tol * tol * (1 + 1e-6);

  // By x, then y. Points that compare equal are equal, so any sort gives the same array; a plain
  // insertion sort for the usual few points (std::sort's set-up costs more than the sorting).
  const auto before = [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); };
  if (count <= 16) {
    for (size_t i = 1; i < count; ++i) {
      const Vec2 p = ps[i];
      size_t j = i;
      for (; j > 0 && before(p, ps[j - 1]); --j) ps[j] = ps[j - 1];
      ps[j] = p;
    }
  } else {
    std::sort(ps, ps + count, before);
  }

  // All points within the weld tolerance of each other: a 1-vertex core at their centre.
  if (size <= tol) {
    out[0] = Vec2{float(0.5 * (lo_x + hi_x)), float(0.5 * (lo_y + hi_y))};
    return 1;
  }

  // Andrew's monotone chain; points on a hull edge are not kept (strict turn).
  size_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    while (k >= 2 && orient(hull[k - 2], hull[k - 1], ps[i]) <= 0) --k;
    hull[k++] = ps[i];
  }
  for (size_t i = count - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && orient(hull[k - 2], hull[k - 1], ps[i]) <= 0) --k;
    hull[k++] = ps[i];
  }
  size_t n = k > 1 ? k - 1 : 1;

  // Clean-up: remove the flattest vertex (least distance to the segment joining its
  // neighbours), as long as that is within tol and every input point stays within tol of the
  // new edge; repeat. Welding near-equal neighbours is the special case of a very short edge.
  // Removing a vertex of a strictly convex polygon keeps it strictly convex.
  while (n > 2) {
    size_t best = n;
    double best_loss = tol;
    for (size_t i = 0; i < n; ++i) {
      // Neighbours by comparison, not by % (an integer division each).
      const Vec2 a = hull[i == 0 ? n - 1 : i - 1], b = hull[i + 1 == n ? 0 : i + 1];
      // The distance to the chord's line first (no division, no square root): most vertices
      // are clearly beyond tol, and the segment's distance is never less.
      const D2 e = d2(b) - d2(a), w = d2(hull[i]) - d2(a);
      const double c = cross(e, w);
      if (c * c > clearly_beyond * dot(e, e)) continue;
      const double loss = segment_distance(hull[i], a, b);
      if (loss <= best_loss && (best == n || loss < best_loss)) {
        best = i;
        best_loss = loss;
      }
    }
    if (best == n) break;
    const Vec2 a = hull[best == 0 ? n - 1 : best - 1];
    const Vec2 c = hull[best + 1 == n ? 0 : best + 1];
    const bool keeps_points =
        std::all_of(ps, ps + count, [&](Vec2 p) { return orient(a, c, p) >= 0 || segment_distance(p, a, c) <= tol; });
    if (!keeps_points) break;
    std::copy(hull + best + 1, hull + n, hull + best);
    --n;
  }

  if (n <= 2) {
    // Collinear within tol: the two remaining hull points hold every input point within tol.
    out[0] = hull[0];
    out[1] = hull[1 % n];
    return 2;
  }

  if (n > size_t(kMaxPolygonVertices)) {
    std::ostringstream msg;
    msg << "the convex hull has " << n << " vertices, more than kMaxPolygonVertices (" << kMaxPolygonVertices << ")";
    fail(msg.str());
  }
  for (size_t i = 0; i < n; ++i) out[i] = hull[i];
  return int(n);
}

}  // namespace

int compute_hull(std::span<const Vec2> points, Vec2 (&out)[kMaxPolygonVertices]) {
  if (points.empty()) fail("a shape needs at least 1 point, got 0");
  for (size_t i = 0; i < points.size(); ++i) check_point(points[i], i);
  // Scratch on the stack for the usual few points; beyond that buffers kept per thread, so
  // that building shapes in a loop allocates only while they grow.
  constexpr size_t kOnStack = 16;
  if (points.size() <= kOnStack) {
    Vec2 ps[kOnStack], hull[2 * kOnStack];
    return hull_of(points, ps, hull, out);
  }
  thread_local std::vector<Vec2> ps_buffer, hull_buffer;
  ps_buffer.resize(points.size());
  hull_buffer.resize(2 * points.size());
  return hull_of(points, ps_buffer.data(), hull_buffer.data(), out);
}

Shape Shape::from_core(const Vec2* points, int count, float radius) {
  Shape shape;
  shape.count_ = static_cast<std::int16_t>(count);
  shape.radius_ = radius;
  for (int i = 0; i < count; ++i) shape.vertices_[i] = points[i];

  shape.finish();
  return shape;
}

void Shape::finish() {
  const int count = count_;
  const Vec2* points = vertices_;
  // Unused slots (and the extra one past them) repeat vertex 0, so queries may scan all the
  // slots with a fixed trip count (vectorizable, no loop-exit mispredictions) without changing
  // any minimum, and edge i always ends at slot i + 1.
  for (int i = count; i <= kMaxPolygonVertices; ++i) vertices_[i] = vertices_[0];
  for (int i = 0; i < kMaxPolygonVertices; ++i) {
    normal_x_[i] = 0;
    normal_y_[i] = 0;
    offset_[i] = kHugeDistance;
  }
  if (count == 1) {
    centroid_ = points[0];
    extent_ = radius_;
    return;
  }
  for (int i = 0; i < count; ++i) {
    const Vec2 edge = points[i + 1 == count ? 0 : i + 1] - points[i];
    const Vec2 normal = normalize(right_perp(edge));
    normal_x_[i] = normal.x;
    normal_y_[i] = normal.y;
    offset_[i] = dot(normal, points[i]);
  }
  // A sliver vertex (has_slivers()): edges i-1 and i meet at an interior angle below 45 degrees,
  // that is their outward normals are more than 135 degrees apart. Computed from the normals the
  // queries use, so that the flag describes the planes a ray is clipped by.
  slivers_ = false;
  for (int i = 0; count >= 3 && i < count; ++i) {
    const int prev = i == 0 ? count - 1 : i - 1;
    if (normal_x_[prev] * normal_x_[i] + normal_y_[prev] * normal_y_[i] < -kSliverCosine) slivers_ = true;
  }
  if (count == 2) {
    centroid_ = 0.5f * (points[0] + points[1]);
    extent_ = 0.5f * distance(points[0], points[1]) + radius_;
    return;
  }
  // Area centroid by triangle fan around the first vertex (in double: thin slivers cancel): each
  // triangle's twice area times the sum of its two far vertices (3 x its centroid), divided once.
  double twice_area = 0, cx = 0, cy = 0;
  const Vec2 o = points[0];
  for (int i = 1; i + 1 < count; ++i) {
    const double ax = points[i].x - o.x, ay = points[i].y - o.y;
    const double bx = points[i + 1].x - o.x, by = points[i + 1].y - o.y;
    const double a = ax * by - ay * bx;
    twice_area += a;
    cx += a * (ax + bx);
    cy += a * (ay + by);
  }
  const double to_centroid = 1.0 / (3.0 * twice_area);
  centroid_ = Vec2{float(o.x + cx * to_centroid), float(o.y + cy * to_centroid)};
  // The farthest vertex: one square root of the greatest squared distance (the square root is
  // monotone, so this is the greatest distance() exactly) unless that is so small that
  // distance() would rescale it.
  float far2 = 0;
  for (int i = 0; i < count; ++i) far2 = std::max(far2, distance_squared(points[i], centroid_));
  float far = 0;
  if (far2 >= 0x1p-118f) {
    far = std::sqrt(far2);
  } else {
    for (int i = 0; i < count; ++i) far = std::max(far, distance(points[i], centroid_));
  }
  extent_ = far + radius_;
}

Shape Shape::circle(float radius, Vec2 center) {
  check_radius(radius, "circle radius");
  const Vec2 c[1] = {center};
  check_point(center, 0);
  return from_core(c, 1, radius);
}

Shape Shape::capsule(Vec2 a, Vec2 b, float radius) {
  check_radius(radius, "capsule radius");
  const Vec2 pts[2] = {a, b};
  Vec2 core[kMaxPolygonVertices];
  const int n = compute_hull(pts, core);
  return from_core(core, n, radius);
}

Shape Shape::segment(Vec2 a, Vec2 b) { return capsule(a, b, 0); }

Shape Shape::polygon(std::span<const Vec2> points, float radius) {
  check_radius(radius, "polygon radius");
  Vec2 core[kMaxPolygonVertices];
  const int n = compute_hull(points, core);
  return from_core(core, n, radius);
}

Shape Shape::from_vertices(std::span<const Vec2> core, float radius) {
  check_radius(radius, "radius");
  if (core.empty() || core.size() > std::size_t(kMaxPolygonVertices)) {
    std::ostringstream out;
    out << "a core has 1 to " << kMaxPolygonVertices << " vertices, got " << core.size();
    fail(out.str());
  }
  Vec2 hull[kMaxPolygonVertices];
  const int n = compute_hull(core, hull);
  // The hull may start at another vertex; it must hold the same vertices in the same cyclic order.
  const int count = int(core.size());
  bool same = n == count;
  int start = 0;
  while (same && start < n && !(hull[start] == core[0])) ++start;
  same = same && start < n;
  for (int i = 0; same && i < n; ++i) same = hull[(start + i) % n] == core[std::size_t(i)];
  if (!same)
    fail("the vertices are not a welded, strictly convex, counter-clockwise core (polygon() would change them)");
  return from_core(core.data(), count, radius);
}

namespace {
void check_half_extent(float h, const char* what) {
  if (!std::isfinite(h) || h <= 0 || h > kMaxShapeExtent) {
    std::ostringstream out;
    out << what << " must be finite, positive and at most " << kMaxShapeExtent << " (got " << h << ")";
    fail(out.str());
  }
}
}  // namespace

Shape Shape::box(float half_width, float half_height) {
  check_half_extent(half_width, "box half_width");
  check_half_extent(half_height, "box half_height");
  const Vec2 pts[4] = {
      {-half_width, -half_height}, {half_width, -half_height}, {half_width, half_height}, {-half_width, half_height}};
  return polygon(pts, 0);
}

Shape Shape::box(float half_width, float half_height, Vec2 center, float angle) {
  check_half_extent(half_width, "box half_width");
  check_half_extent(half_height, "box half_height");
  if (!std::isfinite(angle)) {
    std::ostringstream out;
    out << "box angle is not finite (" << angle << ")";
    fail(out.str());
  }
  check_point(center, 0);
  const Transform xf{center, Rot::from_angle(angle)};
  const Vec2 pts[4] = {relative_point(xf, {-half_width, -half_height}), relative_point(xf, {half_width, -half_height}),
                       relative_point(xf, {half_width, half_height}), relative_point(xf, {-half_width, half_height})};
  return polygon(pts, 0);
}

Shape Shape::rounded_box(float half_width, float half_height, float corner_radius) {
  check_half_extent(half_width, "rounded_box half_width");
  check_half_extent(half_height, "rounded_box half_height");
  check_radius(corner_radius, "rounded_box corner_radius");
  const float smaller = std::min(half_width, half_height);
  if (corner_radius > smaller) {
    std::ostringstream out;
    out << "rounded_box corner_radius " << corner_radius << " is larger than the smaller half extent " << smaller;
    fail(out.str());
  }
  const float w = half_width - corner_radius, h = half_height - corner_radius;
  const Vec2 pts[4] = {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
  Vec2 core[kMaxPolygonVertices];
  const int n = compute_hull(pts, core);
  return from_core(core, n, corner_radius);
}

}  // namespace pebble
