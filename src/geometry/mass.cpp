// Mass properties and bounding boxes of rounded shapes (core ⊕ disc of radius r).
//
// The rounded shape is cut into pieces that meet only along their borders (docs/mass.md has
// the picture and the derivation): the core polygon (a fan of triangles), one rectangle of
// width r on the outer side of every core edge, and one circular sector of radius r at every
// core vertex whose angle is the exterior angle there (the sectors add up to one full disc).
// Each piece has a closed-form area, first moment and polar second moment. The seed [seed-rounded §9]
// models the shapes this way but leaves the integrals out; Box2D 2.4.1 ignores the radius of
// polygons altogether, so the formulas here are our own.
//
// Everything is summed in double about a reference point inside the core (the vertex
// average), then the parallel-axis theorem moves the second moment to the centroid. Working
// relative to the core keeps a small shape far from its local origin exact: with coordinates
// of 1e3 and a size of 0.01, moments about the origin would cancel away ten digits.
#include "pebble/mass.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <sstream>
#include <vector>

#include "geometry/invalid.hpp"
#include "geometry/trig.hpp"
#include "pebble/detail/exact.hpp"
#include "simd/config.hpp"
#include "simd/wide.hpp"
#include "test_hooks.hpp"
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

/// 1.0 / n for the vertex counts (the same doubles the division gives, without its latency).
constexpr double kInverseCount[kMaxPolygonVertices + 1] = {0,       1.0 / 1, 1.0 / 2, 1.0 / 3, 1.0 / 4,
                                                           1.0 / 5, 1.0 / 6, 1.0 / 7, 1.0 / 8};

/// Mass properties of a sharp polygon (3..8 vertices, radius 0): the core triangles of
/// rounded_moments() about vertex 0 rather than the vertex average (no sum over the vertices
/// before the loop can start; a vertex is as close to the shape as the average, so the moments
/// keep their digits), two edges per step in the two lanes of a double vector, and the centroid
/// and the parallel-axis theorem folded into one division.
struct SharpMass {
  double area, cx, cy, inertia;  // about the centroid (cx, cy) relative to ref
  D2 ref;
};

SharpMass sharp_polygon_moments(const Shape& shape) {
  using V2 = double __attribute__((vector_size(16)));
  const Vec2* v = shape.padded_vertices();
  const int n = shape.vertex_count();
  // x and y relative to vertex 0 (exact: differences of floats in double); slots n and n + 1
  // repeat vertex 0, so that a step past the last edge adds the empty triangle (ref, p0, p0), 0.
  const D2 ref{v[0].x, v[0].y};
  double px[kMaxPolygonVertices + 2], py[kMaxPolygonVertices + 2];
  for (int i = 0; i < n; ++i) {
    px[i] = double(v[i].x) - ref.x;
    py[i] = double(v[i].y) - ref.y;
  }
  px[n] = px[n + 1] = px[0];
  py[n] = py[n + 1] = py[0];
  const auto load = [](const double* p) {
    V2 out;
    std::memcpy(&out, p, sizeof out);
    return out;
  };
  // Triangle (ref, a, b), c = cross(a, b): twice its area c, 6 x its first moment c (a + b),
  // 12 x its polar moment about ref c (a·a + a·b + b·b).
  V2 twice_area{}, six_first_x{}, six_first_y{}, twelve_second{};
  for (int i = 0; i < n; i += 2) {
    const V2 ax = load(px + i), ay = load(py + i), bx = load(px + i + 1), by = load(py + i + 1);
    const V2 c = ax * by - ay * bx;
    twice_area += c;
    six_first_x += c * (ax + bx);
    six_first_y += c * (ay + by);
    twelve_second += c * (((ax * ax + ay * ay) + (ax * bx + ay * by)) + (bx * bx + by * by));
  }
  const double area2 = twice_area[0] + twice_area[1];
  const double fx = six_first_x[0] + six_first_x[1], fy = six_first_y[0] + six_first_y[1];
  const double second12 = twelve_second[0] + twelve_second[1];
  // centroid = first / area = (f / 6) / (area2 / 2) = f / (3 area2); the polar moment about it is
  // second - centroid · first = (second12 - 2 centroid · f) / 12.
  const double to_centroid = 1.0 / (3.0 * area2);
  const double cx = fx * to_centroid, cy = fy * to_centroid;
  return {0.5 * area2, cx, cy, (second12 - 2.0 * (cx * fx + cy * fy)) * (1.0 / 12.0), ref};
}

// The moments of the rounded shape about ref, a point inside the core.
Moments rounded_moments(const Shape& shape, D2& ref) {
  const Vec2* v = shape.padded_vertices();
  const int n = shape.vertex_count();
  const double r = shape.radius();
  const double r2 = r * r;

  // The vertices in double relative to ref, as plain arrays (no zeroing, one conversion each).
  double px[kMaxPolygonVertices + 1], py[kMaxPolygonVertices + 1];
  double sum_x = 0, sum_y = 0;
  for (int i = 0; i < n; ++i) {
    px[i] = v[i].x;
    py[i] = v[i].y;
    sum_x += px[i];
    sum_y += py[i];
  }
  ref = kInverseCount[n] * D2{sum_x, sum_y};
  for (int i = 0; i < n; ++i) {
    px[i] -= ref.x;
    py[i] -= ref.y;
  }
  px[n] = px[0];
  py[n] = py[0];
  const auto p = [&](int i) { return D2{px[i], py[i]}; };

  Moments m;
  if (n == 1) {
    // A disc: A = πr², second moment πr⁴/2 about its centre, shifted to ref.
    const double a = std::numbers::pi * r2;
    m.add(a, a * p(0), a * dot(p(0), p(0)) + 0.5 * a * r2);
    return m;
  }

  // Core triangles (ref, a, b) with c = cross(a, b): area c/2, centroid (a + b)/3, polar moment
  // about ref (c/12)(a·a + a·b + b·b). Summed as c, c(a + b) and c(a·a + a·b + b·b), then
  // divided once (a division per triangle cost more than the rest of the loop). For a 2-vertex
  // core ref is the midpoint and c = 0.
  double twice_area = 0, six_first_x = 0, six_first_y = 0, twelve_second = 0;
  double aa = px[0] * px[0] + py[0] * py[0];
  for (int i = 0; i < n; ++i) {
    const double ax = px[i], ay = py[i], bx = px[i + 1], by = py[i + 1];
    const double c = ax * by - ay * bx;
    const double bb = bx * bx + by * by;
    twice_area += c;
    six_first_x += c * (ax + bx);
    six_first_y += c * (ay + by);
    twelve_second += c * ((aa + (ax * bx + ay * by)) + bb);
    aa = bb;
  }
  m.add(0.5 * twice_area, D2{six_first_x / 6.0, six_first_y / 6.0}, twelve_second / 12.0);
  if (r == 0) return m;  // a sharp core has no strips and no sectors

  // Outward unit normals of the edges p[i] -> p[i+1]. A 2-vertex core has the two edges
  // a->b and b->a, whose rectangles lie on the two sides of the segment.
  D2 normal[kMaxPolygonVertices];
  for (int i = 0; i < n; ++i) {
    const D2 a = p(i), b = p(i + 1);
    const D2 e = b - a;
    const double len = std::sqrt(dot(e, e));
    normal[i] = len > 0 ? (1.0 / len) * right_perp(e) : D2{};

    // Edge rectangle len × r: centroid at the edge midpoint pushed out by r/2, polar moment
    // about its own centroid (area/12)(len² + r²), then parallel-axis to ref.
    const double strip = len * r;
    const D2 centroid = 0.5 * (a + b) + (0.5 * r) * normal[i];
    m.add(strip, strip * centroid, strip * ((len * len + r2) / 12.0 + dot(centroid, centroid)));
  }

  for (int i = 0; i < n; ++i) {
    // Vertex sector between the normals of the edges before and after vertex i, angle θ in
    // [0, π]. About its apex: area θr²/2, polar moment θr⁴/4, and first moment
    // ∫(cos φ, sin φ)ρ² dρ dφ = (r³/3) right_perp(n_after - n_before), which needs no
    // division by θ and is exact for the half discs of a capsule (θ = π).
    const D2 before = normal[i == 0 ? n - 1 : i - 1], after = normal[i];
    const double theta =
        detail::atan2(std::fabs(cross(before, after)), dot(before, after));  // own: same bits everywhere
    const double wedge = 0.5 * theta * r2;
    const D2 apex_first = (r * r2 / 3.0) * right_perp(after - before);
    m.add(wedge, wedge * p(i) + apex_first,
          0.25 * theta * r2 * r2 + 2.0 * dot(p(i), apex_first) + wedge * dot(p(i), p(i)));
  }
  return m;
}

[[noreturn]] void fail_density(float density, const char* problem) {
  std::ostringstream out;
  out << "density " << problem << " (got " << density << ")";
  detail::fail({}, out.str());
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
  if (shape.vertex_count() >= 3 && shape.radius() == 0) {
    // Three or more vertices always have area (the makers remove collinear points).
    const SharpMass sm = sharp_polygon_moments(shape);
    if (sm.area > 0) {
      const double inertia = std::max(0.0, sm.inertia);
      const double max_float = std::numeric_limits<float>::max();
      if (rho * sm.area > max_float || rho * inertia > max_float)
        fail_density(density, "makes the mass or inertia of this shape overflow a float");
      return {float(rho * sm.area), Vec2{float(sm.ref.x + sm.cx), float(sm.ref.y + sm.cy)}, float(rho * inertia)};
    }
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
      lo_x = std::min(lo_x, x);
      hi_x = std::max(hi_x, x);
      lo_y = std::min(lo_y, y);
      hi_y = std::max(hi_y, y);
    }
  }
  const Vec2 centroid = shape.core_centroid();
  const float reach = std::fabs(centroid.x) + std::fabs(centroid.y) + shape.extent();
#if PEBBLE_DOUBLE_POSITIONS
  // The position is added in double: the core's float rounding needs the pad about the core
  // alone, and the two double roundings (each at most |p| x 2^-53) a pad of |p| x 2^-50, so a box
  // far from the origin is about as tight as one at it.
  const float grow = shape.radius() + (kBoundsPad * reach + kBoundsPadFloor);
  const double grow_x = double(grow) + std::fabs(xf.p.x) * 0x1p-50, grow_y = double(grow) + std::fabs(xf.p.y) * 0x1p-50;
  if (!is_valid(xf)) return {};
  return {{(xf.p.x + double(lo_x)) - grow_x, (xf.p.y + double(lo_y)) - grow_y},
          {(xf.p.x + double(hi_x)) + grow_x, (xf.p.y + double(hi_y)) + grow_y}};
#else
  const float grow_x = shape.radius() + (kBoundsPad * (std::fabs(xf.p.x) + reach) + kBoundsPadFloor);
  const float grow_y = shape.radius() + (kBoundsPad * (std::fabs(xf.p.y) + reach) + kBoundsPadFloor);
  if (!is_valid(xf)) return {};
  return {{(xf.p.x + lo_x) - grow_x, (xf.p.y + lo_y) - grow_y}, {(xf.p.x + hi_x) + grow_x, (xf.p.y + hi_y) + grow_y}};
#endif
}

Aabb bounds(const Shape& shape, const Transform& xf) noexcept {
#if PEBBLE_DOUBLE_POSITIONS
  // The core turned and boxed in float lanes as in the other build below (written out twice: a
  // shared inline helper changed that build's register allocation), the position added in double
  // as bounds_portable() does: the same bits (tests/mass_test.cpp compares them).
  using F = detail::base::Float4;
  const F c4 = F::splat(xf.q.c);
  const F s4 = F::lanes(-xf.q.s, xf.q.s, -xf.q.s, xf.q.s);
  const float* v = &shape.padded_vertices()[0].x;
  const auto turn = [&](int i) {
    const F xy = F::load(v + 2 * i);
    return c4 * xy + s4 * swap_pairs(xy);
  };
  F core;  // lo.x lo.y hi.x hi.y, about the origin
  if (shape.vertex_count() == 1) {
    core = turn(0);
  } else {
    const F w0 = turn(0), w1 = turn(2), w2 = turn(4), w3 = turn(6);
    F lo = min(min(w0, w1), min(w2, w3));
    F hi = max(max(w0, w1), max(w2, w3));
    lo = min(lo, high_halves(lo, lo));
    hi = max(hi, high_halves(hi, hi));
    core = low_halves(lo, hi);
  }
  float box[4];
  detail::base::store(box, core);
  const Vec2 centroid = shape.core_centroid();
  const float reach = std::fabs(centroid.x) + std::fabs(centroid.y) + shape.extent();
  const float grow = shape.radius() + (kBoundsPad * reach + kBoundsPadFloor);
  const double grow_x = double(grow) + std::fabs(xf.p.x) * 0x1p-50, grow_y = double(grow) + std::fabs(xf.p.y) * 0x1p-50;
  if (!is_valid(xf)) return {};
  return {{(xf.p.x + double(box[0])) - grow_x, (xf.p.y + double(box[1])) - grow_y},
          {(xf.p.x + double(box[2])) + grow_x, (xf.p.y + double(box[3])) + grow_y}};
#else
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
  const F grow =
      flip_signs(F::splat(shape.radius()) + pad, F::lanes(-0.0f, -0.0f, 0.0f, 0.0f));  // the lower corner negated
  // is_valid(xf), lane by lane: |p| <= kMaxWorldCoordinate, |c*c + s*s - 1| <= kRotationTolerance.
  const F sq = t * t;
  const F deviation = (sq + swap_pairs(sq)) - F::splat(1);
  const F checked = join_halves(abs_t, abs(deviation));
  if (!all(checked <= F::lanes(kMaxWorldCoordinate, kMaxWorldCoordinate, kRotationTolerance, kRotationTolerance)))
    return {};
  Aabb out;
  detail::base::store(&out.lower.x, (low_halves(t, t) + box) + grow);
  return out;
#endif
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
  if (mass > max_float || inertia > max_float)
    fail_density(density, "makes the mass or inertia of this compound overflow a float");
  return {float(mass), Vec2{float(cx), float(cy)}, float(inertia)};
}

}  // namespace pebble
