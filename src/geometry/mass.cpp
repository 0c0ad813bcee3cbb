// Mass properties and bounding boxes of rounded shapes (core ⊕ disc of radius r).
//
// The rounded shape is cut into pieces that meet only along their borders (docs/mass.md has
// the picture and the derivation): the core polygon (a fan of triangles), one rectangle of
// width r on the outer side of every core edge, and one circular sector of radius r at every
// core vertex whose angle is the exterior angle there (the sectors add up to one full disc).
// Each piece has a closed-form area, first moment and polar second moment. Seed 000 models
// the shapes this way but leaves the integrals out; Box2D 2.4.1 ignores the radius of
// polygons altogether, so the formulas here are our own.
//
// Everything is summed in double about a reference point inside the core (the vertex
// average), then the parallel-axis theorem moves the second moment to the centroid. Working
// relative to the core keeps a small shape far from its local origin exact: with coordinates
// of 1e3 and a size of 0.01, moments about the origin would cancel away ten digits.
#include "pebble/mass.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <vector>
#include <limits>
#include <numbers>
#include <sstream>

#include "pebble/detail/exact.hpp"
#include "simd/config.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

using detail::D2;  // double vector and its operations: pebble/detail/exact.hpp

// Area, first moment and polar second moment of a region about the reference point.
struct Moments {
  double area = 0;
  D2 first{};
  double second = 0;

  void add(double piece_area, D2 piece_first, double piece_second) {
    area += piece_area;
    first = first + piece_first;
    second += piece_second;
  }
};

// The moments of the rounded shape about ref, a point inside the core.
Moments rounded_moments(const Shape& shape, D2& ref) {
  const auto vertices = shape.vertices();
  const int n = shape.vertex_count();
  const double r = shape.radius();
  const double r2 = r * r;

  ref = {};
  for (Vec2 v : vertices) ref = ref + D2{v.x, v.y};
  ref = (1.0 / n) * ref;

  D2 p[kMaxPolygonVertices];
  for (int i = 0; i < n; ++i) p[i] = D2{vertices[size_t(i)].x, vertices[size_t(i)].y} - ref;

  Moments m;
  if (n == 1) {
    // A disc: A = πr², second moment πr⁴/2 about its centre, shifted to ref.
    const double a = std::numbers::pi * r2;
    m.add(a, a * p[0], a * dot(p[0], p[0]) + 0.5 * a * r2);
    return m;
  }

  // Outward unit normals of the edges p[i] -> p[i+1]. A 2-vertex core has the two edges
  // a->b and b->a, whose rectangles lie on the two sides of the segment.
  D2 normal[kMaxPolygonVertices];
  for (int i = 0; i < n; ++i) {
    const D2 a = p[i], b = p[i + 1 == n ? 0 : i + 1];

    // Core triangle (ref, a, b): area c/2, centroid (a + b)/3, polar moment about ref
    // (c/12)(a·a + a·b + b·b). For a 2-vertex core ref is the midpoint and c = 0.
    const double c = cross(a, b);
    m.add(0.5 * c, (c / 6.0) * (a + b), (c / 12.0) * (dot(a, a) + dot(a, b) + dot(b, b)));
    if (r == 0) continue;  // a sharp core has no strips and no sectors

    const D2 e = b - a;
    const double len = std::sqrt(dot(e, e));
    normal[i] = len > 0 ? (1.0 / len) * right_perp(e) : D2{};

    // Edge rectangle len × r: centroid at the edge midpoint pushed out by r/2, polar moment
    // about its own centroid (area/12)(len² + r²), then parallel-axis to ref.
    const double strip = len * r;
    const D2 centroid = 0.5 * (a + b) + (0.5 * r) * normal[i];
    m.add(strip, strip * centroid, strip * ((len * len + r2) / 12.0 + dot(centroid, centroid)));
  }

  if (r == 0) return m;  // no rectangles' width, no sectors: the core alone
  for (int i = 0; i < n; ++i) {
    // Vertex sector between the normals of the edges before and after vertex i, angle θ in
    // [0, π]. About its apex: area θr²/2, polar moment θr⁴/4, and first moment
    // ∫(cos φ, sin φ)ρ² dρ dφ = (r³/3) right_perp(n_after - n_before), which needs no
    // division by θ and is exact for the half discs of a capsule (θ = π).
    const D2 before = normal[i == 0 ? n - 1 : i - 1], after = normal[i];
    const double theta = std::atan2(std::fabs(cross(before, after)), dot(before, after));
    const double wedge = 0.5 * theta * r2;
    const D2 apex_first = (r * r2 / 3.0) * right_perp(after - before);
    m.add(wedge, wedge * p[i] + apex_first,
          0.25 * theta * r2 * r2 + 2.0 * dot(p[i], apex_first) + wedge * dot(p[i], p[i]));
  }
  return m;
}

[[noreturn]] void fail_density(float density, const char* problem) {
  std::ostringstream out;
  out << "pebble: density " << problem << " (got " << density << ")";
  throw InvalidShape(out.str());
}

}  // namespace

MassProperties mass_properties(const Shape& shape, float density) {
  if (!std::isfinite(density)) fail_density(density, "must be finite");
  if (density < 0) fail_density(density, "must be >= 0");

  const double rho = density == 0 ? 0.0 : double(density);  // -0 counts as 0

  if (shape.vertex_count() == 1) {
    // A disc: the same closed form rounded_moments() uses, without the general machinery.
    const double r = shape.radius(), a = std::numbers::pi * r * r;
    const double mass = rho * a, inertia = mass * 0.5 * r * r;
    const double max_float = std::numeric_limits<float>::max();
    if (mass > max_float || inertia > max_float)
      fail_density(density, "makes the mass or inertia of this shape overflow a float");
    return {float(mass), shape.vertices()[0], float(inertia)};
  }
  D2 ref;
  const Moments m = rounded_moments(shape, ref);
  // Zero area only for a segment or point of radius 0 (a core of 3+ vertices always has
  // area after the makers' collinearity clean-up).
  if (!(m.area > 0)) return {0, shape.core_centroid(), 0};

  const D2 c = (1.0 / m.area) * m.first;  // centroid relative to ref
  // Parallel-axis theorem: J_centroid = J_ref - A|c|². Non-negative in exact arithmetic.
  const double inertia = std::max(0.0, m.second - dot(c, m.first));
  const double max_float = std::numeric_limits<float>::max();
  if (rho * m.area > max_float || rho * inertia > max_float)
    fail_density(density, "makes the mass or inertia of this shape overflow a float");

  const D2 center = ref + c;
  return {float(rho * m.area), Vec2{float(center.x), float(center.y)}, float(rho * inertia)};
}

float area(const Shape& shape) noexcept {
  D2 ref;
  return float(rounded_moments(shape, ref).area);
}

// bounds(): the box of core ⊕ disc is the box of the core grown by r on every side, exactly
// (the support function of a Minkowski sum is the sum of the support functions). It is computed
// in float and padded by kBoundsPad × (|p| + reach) per axis, reach = |centroid|₁ + extent >=
// max |vertex| + r: the float rounding of the box stays below half of that pad (docs/mass.md,
// "Bounds"), so the box always holds the shape. This gives up a few float steps of tightness
// (rounding a double sum outward gave one) for the speed of Box2D's ComputeAABB: the world calls
// bounds() for every moved collider on every update.

Aabb detail::bounds_portable(const Shape& shape, const Transform& xf) noexcept {
  const float c = xf.q.c, s = xf.q.s;
  const Vec2* v = shape.padded_vertices();
  float lo_x = c * v[0].x - s * v[0].y, lo_y = s * v[0].x + c * v[0].y;
  float hi_x = lo_x, hi_y = lo_y;
  if (shape.vertex_count() != 1) {
    // All kMaxPolygonVertices slots: the ones past the count repeat vertex 0 (shape.hpp).
    for (int i = 1; i < kMaxPolygonVertices; ++i) {
      const float x = c * v[i].x - s * v[i].y, y = s * v[i].x + c * v[i].y;
      lo_x = std::min(lo_x, x); hi_x = std::max(hi_x, x);
      lo_y = std::min(lo_y, y); hi_y = std::max(hi_y, y);
    }
  }
  const Vec2 centroid = shape.core_centroid();
  const float reach = std::fabs(centroid.x) + std::fabs(centroid.y) + shape.extent();
  const float grow_x = shape.radius() + (kBoundsPad * (std::fabs(xf.p.x) + reach) + kBoundsPadFloor);
  const float grow_y = shape.radius() + (kBoundsPad * (std::fabs(xf.p.y) + reach) + kBoundsPadFloor);
  if (!is_valid(xf)) return {};
  return {{(xf.p.x + lo_x) - grow_x, (xf.p.y + lo_y) - grow_y}, {(xf.p.x + hi_x) + grow_x, (xf.p.y + hi_y) + grow_y}};
}

Aabb bounds(const Shape& shape, const Transform& xf) noexcept {
  // bounds_portable()'s float operations, two vertices (x, y, x, y) per 4-lane value: the same
  // results bit for bit (tests/mass_test.cpp compares them).
  using F = detail::base::Float4;
  static_assert(sizeof(Transform) == 4 * sizeof(float) && sizeof(Aabb) == 4 * sizeof(float));
  const F t = F::load(&xf.p.x);  // p.x p.y c s
  const F c4 = detail::base::broadcast<2>(t);
  const F s4 = flip_signs(detail::base::broadcast<3>(t), F::lanes(-0.0f, 0.0f, -0.0f, 0.0f));  // (-s, s, -s, s)
  const float* v = &shape.padded_vertices()[0].x;
  // Rotates vertices i and i + 1: (c x - s y, c y + s x) for each.
  const auto turn = [&](int i) {
    const F xy = F::load(v + 2 * i);
    return c4 * xy + s4 * swap_pairs(xy);
  };
  F box;  // lo.x lo.y hi.x hi.y, about the origin
  if (shape.vertex_count() == 1) {
    box = turn(0);  // slot 1 repeats vertex 0
  } else {
    const F w0 = turn(0), w1 = turn(2), w2 = turn(4), w3 = turn(6);
    F lo = min(min(w0, w1), min(w2, w3));
    F hi = max(max(w0, w1), max(w2, w3));
    lo = min(lo, high_halves(lo, lo));
    hi = max(hi, high_halves(hi, hi));
    box = low_halves(lo, hi);
  }
  const F abs_t = abs(t);  // |p.x| |p.y| |c| |s|
  const Vec2 centroid = shape.core_centroid();
  const float reach = std::fabs(centroid.x) + std::fabs(centroid.y) + shape.extent();
  const F pad = F::splat(kBoundsPad) * (low_halves(abs_t, abs_t) + F::splat(reach)) + F::splat(kBoundsPadFloor);
  const F grow = flip_signs(F::splat(shape.radius()) + pad, F::lanes(-0.0f, -0.0f, 0.0f, 0.0f));  // the lower corner negated
  // is_valid(xf), lane by lane: |p| <= kMaxWorldCoordinate, |c*c + s*s - 1| <= kRotationTolerance.
  const F sq = t * t;
  const F deviation = (sq + swap_pairs(sq)) - F::splat(1);
  const F checked = join_halves(abs_t, abs(deviation));
  if (!all(checked <= F::lanes(kMaxWorldCoordinate, kMaxWorldCoordinate, kRotationTolerance, kRotationTolerance))) return {};
  Aabb out;
  detail::base::store(&out.lower.x, (low_halves(t, t) + box) + grow);
  return out;
}

MassProperties mass_properties(std::span<const Shape> parts, float density) {
  if (parts.empty()) throw InvalidShape("pebble: mass_properties: a compound needs at least one part");
  // Each part exactly, then the parallel axis theorem in double.
  double mass = 0, mx = 0, my = 0, sx = 0, sy = 0;
  std::vector<MassProperties> each;
  each.reserve(parts.size());
  for (const Shape& part : parts) {
    const MassProperties p = mass_properties(part, density);
    each.push_back(p);
    mass += p.mass;
    mx += double(p.mass) * p.center.x;
    my += double(p.mass) * p.center.y;
    sx += p.center.x;
    sy += p.center.y;
  }
  const double cx = mass > 0 ? mx / mass : sx / double(parts.size());
  const double cy = mass > 0 ? my / mass : sy / double(parts.size());
  double inertia = 0;
  for (const MassProperties& p : each) {
    const double dx = p.center.x - cx, dy = p.center.y - cy;
    inertia += p.inertia + double(p.mass) * (dx * dx + dy * dy);
  }
  const double max_float = std::numeric_limits<float>::max();
  if (mass > max_float || inertia > max_float) fail_density(density, "makes the mass or inertia of this compound overflow a float");
  return {float(mass), Vec2{float(cx), float(cy)}, float(inertia)};
}

}  // namespace pebble
