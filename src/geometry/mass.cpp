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
#include <limits>
#include <numbers>
#include <sstream>

#include "pebble/detail/exact.hpp"
#include "tolerances.hpp"

// x86-64 always has SSE2; bounds() uses it there (PEBBLE_NO_SIMD asks for the portable code).
#if !defined(PEBBLE_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define PEBBLE_BOUNDS_SSE 1
#else
#define PEBBLE_BOUNDS_SSE 0
#endif

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

#if PEBBLE_BOUNDS_SSE
namespace {
// bounds()'s constants as whole registers, so that each is one memory operand.
alignas(16) constexpr float kSignXY[4] = {-0.0f, -0.0f, 0.0f, 0.0f};     // negates the lower corner
alignas(16) constexpr float kSignSine[4] = {-0.0f, 0.0f, -0.0f, 0.0f};   // (-s, s, -s, s)
alignas(16) constexpr std::uint32_t kAbs[4] = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
alignas(16) constexpr float kOne[4] = {1, 1, 1, 1};
alignas(16) constexpr float kPad[4] = {kBoundsPad, kBoundsPad, kBoundsPad, kBoundsPad};
alignas(16) constexpr float kPadFloor[4] = {kBoundsPadFloor, kBoundsPadFloor, kBoundsPadFloor, kBoundsPadFloor};
alignas(16) constexpr float kLimit[4] = {kMaxWorldCoordinate, kMaxWorldCoordinate, kRotationTolerance, kRotationTolerance};
}  // namespace
#endif

Aabb bounds(const Shape& shape, const Transform& xf) noexcept {
#if PEBBLE_BOUNDS_SSE
  // bounds_portable()'s float operations, two vertices (x, y, x, y) per register: the same
  // results bit for bit (tests/mass_test.cpp compares them).
  static_assert(sizeof(Transform) == 4 * sizeof(float) && sizeof(Aabb) == 4 * sizeof(float));
  const __m128 abs_mask = _mm_load_ps(reinterpret_cast<const float*>(kAbs));
  const __m128 t = _mm_loadu_ps(&xf.p.x);  // p.x p.y c s
  const __m128 c4 = _mm_shuffle_ps(t, t, _MM_SHUFFLE(2, 2, 2, 2));
  const __m128 s4 = _mm_xor_ps(_mm_shuffle_ps(t, t, _MM_SHUFFLE(3, 3, 3, 3)), _mm_load_ps(kSignSine));
  const float* v = &shape.padded_vertices()[0].x;
  // Rotates vertices i and i + 1: (c x - s y, c y + s x) for each.
  const auto turn = [&](int i) {
    const __m128 xy = _mm_loadu_ps(v + 2 * i);
    return _mm_add_ps(_mm_mul_ps(c4, xy), _mm_mul_ps(s4, _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(2, 3, 0, 1))));
  };
  __m128 box;  // lo.x lo.y hi.x hi.y, about the origin
  if (shape.vertex_count() == 1) {
    box = turn(0);  // slot 1 repeats vertex 0
  } else {
    const __m128 w0 = turn(0), w1 = turn(2), w2 = turn(4), w3 = turn(6);
    __m128 lo = _mm_min_ps(_mm_min_ps(w0, w1), _mm_min_ps(w2, w3));
    __m128 hi = _mm_max_ps(_mm_max_ps(w0, w1), _mm_max_ps(w2, w3));
    lo = _mm_min_ps(lo, _mm_movehl_ps(lo, lo));
    hi = _mm_max_ps(hi, _mm_movehl_ps(hi, hi));
    box = _mm_movelh_ps(lo, hi);
  }
  const __m128 abs_t = _mm_and_ps(t, abs_mask);  // |p.x| |p.y| |c| |s|
  const Vec2 centroid = shape.core_centroid();
  const float reach = std::fabs(centroid.x) + std::fabs(centroid.y) + shape.extent();
  const __m128 pad = _mm_add_ps(_mm_mul_ps(_mm_load_ps(kPad), _mm_add_ps(_mm_movelh_ps(abs_t, abs_t), _mm_set1_ps(reach))),
                                _mm_load_ps(kPadFloor));
  const __m128 grow = _mm_xor_ps(_mm_add_ps(_mm_set1_ps(shape.radius()), pad), _mm_load_ps(kSignXY));
  // is_valid(xf), lane by lane: |p| <= kMaxWorldCoordinate, |c*c + s*s - 1| <= kRotationTolerance.
  const __m128 sq = _mm_mul_ps(t, t);
  const __m128 deviation = _mm_sub_ps(_mm_add_ps(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(2, 3, 0, 1))), _mm_load_ps(kOne));
  const __m128 checked = _mm_shuffle_ps(abs_t, _mm_and_ps(deviation, abs_mask), _MM_SHUFFLE(3, 2, 1, 0));
  if (_mm_movemask_ps(_mm_cmple_ps(checked, _mm_load_ps(kLimit))) != 0xf) return {};
  const __m128 out = _mm_add_ps(_mm_add_ps(_mm_movelh_ps(t, t), box), grow);
  const __m128 upper = _mm_movehl_ps(out, out);
  return {{_mm_cvtss_f32(out), _mm_cvtss_f32(_mm_shuffle_ps(out, out, 1))}, {_mm_cvtss_f32(upper), _mm_cvtss_f32(_mm_shuffle_ps(upper, upper, 1))}};
#else
  return detail::bounds_portable(shape, xf);
#endif
}

}  // namespace pebble
