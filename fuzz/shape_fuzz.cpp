// Fuzz target: the shape makers on arbitrary arguments (shape.hpp). A maker either throws
// pebble::InvalidShape naming the problem (and does so for every argument the header calls
// invalid), or returns a shape that keeps the class's promises: 1..8 finite core vertices,
// strictly convex and counter-clockwise, unit outward edge normals, padded slots, an extent that
// holds the shape, every input point within the weld tolerance of the core; and the mass and
// bounds of that shape are sane.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "invariants.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

namespace pebble_fuzz::shape_target {
namespace {

using real = long double;

bool valid_length(float v) { return std::isfinite(v) && v >= 0 && v <= pebble::kMaxShapeExtent; }
bool valid_half_extent(float v) { return std::isfinite(v) && v > 0 && v <= pebble::kMaxShapeExtent; }
bool valid_point(Vec2 p) {
  return finite(p) && std::fabs(p.x) <= pebble::kMaxShapeExtent && std::fabs(p.y) <= pebble::kMaxShapeExtent;
}

real cross(Vec2 o, Vec2 a, Vec2 b) {
  return (real(a.x) - o.x) * (real(b.y) - o.y) - (real(a.y) - o.y) * (real(b.x) - o.x);
}

// Distance from p to the segment ab, in long double.
real segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const real ex = real(b.x) - a.x, ey = real(b.y) - a.y, len2 = ex * ex + ey * ey;
  real t = len2 > 0 ? ((real(p.x) - a.x) * ex + (real(p.y) - a.y) * ey) / len2 : 0;
  t = std::clamp<real>(t, 0, 1);
  const real dx = real(p.x) - (a.x + t * ex), dy = real(p.y) - (a.y + t * ey);
  return std::sqrt(dx * dx + dy * dy);
}

// How far p lies outside the core (0 inside): the largest distance beyond an edge line for a
// polygon, the distance to the segment or point for smaller cores.
real outside_core(const Shape& s, Vec2 p) {
  const auto v = s.vertices();
  if (v.size() == 1) return std::hypot(real(p.x) - v[0].x, real(p.y) - v[0].y);
  if (v.size() == 2) return segment_distance(p, v[0], v[1]);
  real worst = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % v.size()];
    const real len = std::hypot(real(b.x) - a.x, real(b.y) - a.y);
    if (cross(a, b, p) < 0) worst = std::max(worst, std::min(-cross(a, b, p) / len, segment_distance(p, a, b)));
  }
  return worst;
}

/// What every shape promises (shape.hpp), whatever maker made it.
void check_shape(const Shape& s) {
  const int n = s.vertex_count();
  FUZZ_REQUIRE(n >= 1 && n <= pebble::kMaxPolygonVertices);
  FUZZ_REQUIRE(valid_length(s.radius()));
  const auto v = s.vertices();
  for (const Vec2 p : v) FUZZ_REQUIRE(valid_point(p));
  for (int i = n; i <= pebble::kMaxPolygonVertices; ++i) FUZZ_REQUIRE(same_bits(s.padded_vertices()[i], v[0]));
  FUZZ_REQUIRE(s.edge_count() == (n == 1 ? 0 : n));
  if (n == 2) FUZZ_REQUIRE(!(v[0] == v[1]));
  if (n >= 3) {
    for (int i = 0; i < n; ++i)
      FUZZ_REQUIRE(cross(v[std::size_t(i)], v[std::size_t((i + 1) % n)], v[std::size_t((i + 2) % n)]) > 0);
  }
  for (int i = 0; i < s.edge_count(); ++i) {
    const Vec2 nrm = s.normal(i), a = v[std::size_t(i)], b = v[std::size_t((i + 1) % n)];
    FUZZ_REQUIRE(is_unit(nrm));
    // Outward (to the right of the CCW edge) and perpendicular to it, to float precision.
    const real ex = real(b.x) - a.x, ey = real(b.y) - a.y, len = std::hypot(ex, ey);
    FUZZ_REQUIRE(ex * nrm.y - ey * nrm.x < 0);
    FUZZ_REQUIRE(std::fabs(ex * nrm.x + ey * nrm.y) <= 1e-5L * len);
  }
  for (int i = s.edge_count(); i < pebble::kMaxPolygonVertices; ++i) {
    FUZZ_REQUIRE(s.normal_lanes_x()[i] == 0 && s.normal_lanes_y()[i] == 0 &&
                 s.offset_lanes()[i] == pebble::kHugeDistance);
  }
  // The extent holds every vertex (grown by the radius) around the core centroid.
  const Vec2 c = s.core_centroid();
  FUZZ_REQUIRE(finite(c) && finite(s.extent()) && s.extent() >= 0);
  real biggest = std::fabs(real(c.x)) + std::fabs(real(c.y));
  for (const Vec2 p : v) {
    biggest = std::max({biggest, std::fabs(real(p.x)), std::fabs(real(p.y))});
    FUZZ_REQUIRE(std::hypot(real(p.x) - c.x, real(p.y) - c.y) + s.radius() <=
                 real(s.extent()) * (1 + 1e-6L) + 1e-6L * biggest);
  }
  // The centroid lies in the core's box.
  Vec2 lo = v[0], hi = v[0];
  for (const Vec2 p : v) {
    lo = pebble::min(lo, p);
    hi = pebble::max(hi, p);
  }
  const real slack = 1e-6L * biggest;
  FUZZ_REQUIRE(c.x >= lo.x - slack && c.x <= hi.x + slack && c.y >= lo.y - slack && c.y <= hi.y + slack);

  // Mass and area (density 1 never overflows for a valid shape) and the bounds at the identity.
  const pebble::MassProperties m = pebble::mass_properties(s, 1);
  check_mass(m);
  const float area = pebble::area(s);
  FUZZ_REQUIRE(finite(area) && area >= 0);
  FUZZ_REQUIRE(std::fabs(real(m.mass) - area) <= 1e-5L * area);
  const pebble::Transform id = pebble::Transform::identity();
  const Aabb box = pebble::bounds(s, id);
  check_box(box);
  const Aabb portable = pebble::detail::bounds_portable(s, id);
  FUZZ_REQUIRE(same_bits(box.lower, portable.lower) && same_bits(box.upper, portable.upper));
  for (const Vec2 p : v) {
    FUZZ_REQUIRE(box.lower.x <= real(p.x) - s.radius() && real(p.x) + s.radius() <= box.upper.x);
    FUZZ_REQUIRE(box.lower.y <= real(p.y) - s.radius() && real(p.y) + s.radius() <= box.upper.y);
  }
}

/// The makers' documented cleaning of a point set (shape.hpp): every input point lies within
/// tol of the core, tol = kWeldFraction x the set's size but at least 4 float ulps of its largest
/// coordinate and kMinWeldDistance; a core of 2 or more vertices is made of input points.
void check_points_kept(const Shape& s, const std::vector<Vec2>& points) {
  real lo_x = points[0].x, hi_x = lo_x, lo_y = points[0].y, hi_y = lo_y, biggest = 0;
  for (const Vec2 p : points) {
    lo_x = std::min<real>(lo_x, p.x), hi_x = std::max<real>(hi_x, p.x);
    lo_y = std::min<real>(lo_y, p.y), hi_y = std::max<real>(hi_y, p.y);
    biggest = std::max({biggest, std::fabs(real(p.x)), std::fabs(real(p.y))});
  }
  const real size = std::max(hi_x - lo_x, hi_y - lo_y);
  const real tol =
      std::max({real(pebble::kWeldFraction) * size, 4 * 1.2e-7L * biggest, real(pebble::kMinWeldDistance)});
  // The 1-vertex core's centre is rounded to float: a float step of the largest coordinate.
  const real rounding = 2 * real(std::numeric_limits<float>::epsilon()) * biggest;
  for (const Vec2 p : points) FUZZ_REQUIRE(outside_core(s, p) <= tol * (1 + 1e-9L) + rounding);
  if (s.vertex_count() >= 2) {
    for (const Vec2 q : s.vertices()) FUZZ_REQUIRE(std::find(points.begin(), points.end(), q) != points.end());
  }
}

/// Runs one maker; returns the shape, or nothing when it threw InvalidShape (any other exception
/// is a violation). `must_work`: the arguments are valid, so the maker may not throw.
template <class Make>
std::optional<Shape> attempt(Make make, bool must_work) {
  try {
    Shape s = make();
    check_shape(s);
    return s;
  } catch (const pebble::InvalidShape& e) {
    FUZZ_REQUIRE(!must_work);
    FUZZ_REQUIRE(std::strncmp(e.what(), "pebble: ", 8) == 0);
    return std::nullopt;
  } catch (...) {
    FUZZ_REQUIRE(!"a shape maker threw something other than pebble::InvalidShape");
  }
  return std::nullopt;
}

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  while (!in.empty()) {
    switch (in.below(7)) {
      case 0: {
        const float r = in.number();
        const Vec2 c = in.vec2();
        attempt([&] { return Shape::circle(r, c); }, valid_length(r) && valid_point(c));
        break;
      }
      case 1: {
        const Vec2 a = in.vec2(), b = in.vec2();
        const float r = in.number();
        const auto s =
            attempt([&] { return Shape::capsule(a, b, r); }, valid_length(r) && valid_point(a) && valid_point(b));
        if (s) check_points_kept(*s, {a, b});
        break;
      }
      case 2: {
        const Vec2 a = in.vec2(), b = in.vec2();
        const auto s = attempt([&] { return Shape::segment(a, b); }, valid_point(a) && valid_point(b));
        if (s) check_points_kept(*s, {a, b});
        break;
      }
      case 3: {
        const float hw = in.number(), hh = in.number();
        attempt([&] { return Shape::box(hw, hh); }, valid_half_extent(hw) && valid_half_extent(hh));
        break;
      }
      case 4: {
        const float hw = in.number(), hh = in.number(), angle = in.number();
        const Vec2 c = in.vec2();
        // The turned corners must stay within kMaxShapeExtent too; well inside it they do.
        const bool inside =
            valid_point(c) && std::fabs(c.x) + std::fabs(c.y) + 2 * (real(hw) + hh) < 0.99L * pebble::kMaxShapeExtent;
        attempt([&] { return Shape::box(hw, hh, c, angle); },
                valid_half_extent(hw) && valid_half_extent(hh) && std::isfinite(angle) && inside);
        break;
      }
      case 5: {
        const float hw = in.number(), hh = in.number(), r = in.number();
        attempt([&] { return Shape::rounded_box(hw, hh, r); },
                valid_half_extent(hw) && valid_half_extent(hh) && valid_length(r) && r <= std::min(hw, hh));
        break;
      }
      default: {
        const std::vector<Vec2> points = in.points();
        const float r = in.number();
        const bool valid = !points.empty() && points.size() <= std::size_t(pebble::kMaxPolygonVertices) &&
                           valid_length(r) && std::all_of(points.begin(), points.end(), valid_point);
        const auto s = attempt([&] { return Shape::polygon(points, r); }, valid);
        if (s) {
          check_points_kept(*s, points);
          // compute_hull() gives the polygon's core.
          Vec2 hull[pebble::kMaxPolygonVertices];
          const int n = pebble::compute_hull(points, hull);
          FUZZ_REQUIRE(n == s->vertex_count());
          for (int i = 0; i < n; ++i) FUZZ_REQUIRE(same_bits(hull[i], s->vertices()[std::size_t(i)]));
        }
        break;
      }
    }
  }
  return 0;
}

}  // namespace pebble_fuzz::shape_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::shape_target::run(data, size);
}
#endif
