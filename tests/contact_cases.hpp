// Shared by distance_test.cpp and manifold_test.cpp: random shapes of every kind, placed near
// contact by bisection on the oracle's signed distance, their conversion to oracle shapes, the
// tolerances the contract promises, and C++ literals for reproducing a failing case.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <pebble/shape.hpp>

#include "oracle/distance.hpp"

namespace contact_cases {

using oracle::real;
using oracle::V;
using pebble::Rot;
using pebble::Shape;
using pebble::Transform;
using pebble::Vec2;

// ---------------------------------------------------------------------------------------------
// Literals for reproducers: floats with 9 significant digits round-trip exactly.

/// Transforms every query must answer with its empty result: non-finite, absurd (1e30) and
/// non-unit rotations.
inline const std::vector<Transform>& invalid_transforms() {
  static const std::vector<Transform> list = [] {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    return std::vector<Transform>{
        {{nan, 0}, pebble::Rot::identity()},
        {{0, inf}, pebble::Rot::identity()},
        {{-inf, 0}, pebble::Rot::identity()},
        {{1e30f, 0}, pebble::Rot::identity()},
        {{0, -1e30f}, pebble::Rot::identity()},
        {{0, 0}, pebble::Rot{nan, 0}},
        {{0, 0}, pebble::Rot{1, inf}},
        {{0, 0}, pebble::Rot{1e30f, 0}},
        {{0, 0}, pebble::Rot{2, 0}},
        {{0, 0}, pebble::Rot{0, 0}},
    };
  }();
  return list;
}

/// Calls f(a, xa, b, xb, bad) for every invalid transform `bad`, on A's side and on B's (the
/// other side at the identity), with A of every core size (circle, box, capsule, segment, 8-gon)
/// and B a box, a circle or an 8-gon: every path of collide() and distance(), including the
/// circle/circle one and the 8-lane scans. All pairs overlap at the identity, so a query that
/// ignored a bad transform would usually report contact.
template <class F>
void for_each_invalid_placement(F f) {
  const Vec2 octagon_points[] = {{1, 0},  {0.7f, 0.7f},   {0, 1},  {-0.7f, 0.7f},
                                 {-1, 0}, {-0.7f, -0.7f}, {0, -1}, {0.7f, -0.7f}};
  const Shape octagon = Shape::polygon(octagon_points);
  const Shape shapes[] = {Shape::circle(1), Shape::box(1, 0.5f), Shape::capsule({0, 0}, {1, 0}, 0.2f),
                          Shape::segment({0, 0}, {1, 1}), octagon};
  const Shape others[] = {Shape::box(1, 0.5f), Shape::circle(0.5f, {0.25f, 0}), octagon};
  const Transform id = Transform::identity();
  for (const Transform& bad : invalid_transforms()) {
    for (const Shape& s : shapes) {
      for (const Shape& other : others) {
        f(s, bad, other, id, bad);
        f(s, id, other, bad, bad);
      }
    }
  }
}

inline std::string lit(float x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9gf", double(x));
  return buf;
}
inline std::string lit(Vec2 v) {
  std::string out = "{";
  out += lit(v.x);
  out += ", ";
  out += lit(v.y);
  out += "}";
  return out;
}
#if PEBBLE_DOUBLE_POSITIONS
inline std::string lit(pebble::Position p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "Position{%.17g, %.17g}", p.x, p.y);
  return buf;
}
#endif
inline std::string lit(const Transform& xf) {
  return "Transform{" + lit(xf.p) + ", Rot{" + lit(xf.q.c) + ", " + lit(xf.q.s) + "}}";
}

// ---------------------------------------------------------------------------------------------
// Shapes with the C++ expression that makes them.

// The oracle works on the core the maker produced (after its documented welding of near-equal
// points and removal of nearly collinear ones, shape.hpp): that cleaned shape is the object the
// queries promise answers about. The oracle still computes its own hull of those points.
struct ShapeSpec {
  Shape shape;
  std::string maker;  // a C++ expression that rebuilds `shape`
};

inline ShapeSpec make_circle(float r, Vec2 c = {}) {
  return {Shape::circle(r, c), "Shape::circle(" + lit(r) + ", " + lit(c) + ")"};
}
inline ShapeSpec make_capsule(Vec2 a, Vec2 b, float r) {
  return {Shape::capsule(a, b, r), "Shape::capsule(" + lit(a) + ", " + lit(b) + ", " + lit(r) + ")"};
}
inline ShapeSpec make_segment(Vec2 a, Vec2 b) {
  return {Shape::segment(a, b), "Shape::segment(" + lit(a) + ", " + lit(b) + ")"};
}
inline ShapeSpec make_box(float hw, float hh) {
  return {Shape::box(hw, hh), "Shape::box(" + lit(hw) + ", " + lit(hh) + ")"};
}
inline ShapeSpec make_rounded_box(float hw, float hh, float r) {
  return {Shape::rounded_box(hw, hh, r), "Shape::rounded_box(" + lit(hw) + ", " + lit(hh) + ", " + lit(r) + ")"};
}
inline ShapeSpec make_polygon(const std::vector<Vec2>& pts, float r = 0) {
  std::string list;
  for (Vec2 p : pts) list += (list.empty() ? "" : ", ") + lit(p);
  return {Shape::polygon(pts, r),
          "[] { const Vec2 p[] = {" + list + "}; return Shape::polygon(p, " + lit(r) + "); }()"};
}

enum class Kind { circle, capsule, segment, box, rounded_box, polygon, rounded_polygon };
inline constexpr Kind kAllKinds[] = {Kind::circle,      Kind::capsule, Kind::segment,        Kind::box,
                                     Kind::rounded_box, Kind::polygon, Kind::rounded_polygon};
inline const char* kind_name(Kind k) {
  switch (k) {
    case Kind::circle:
      return "circle";
    case Kind::capsule:
      return "capsule";
    case Kind::segment:
      return "segment";
    case Kind::box:
      return "box";
    case Kind::rounded_box:
      return "rounded_box";
    case Kind::polygon:
      return "polygon";
    case Kind::rounded_polygon:
      return "rounded_polygon";
  }
  return "?";
}

inline float uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

/// A random convex polygon: 3..8 points on a random ellipse around a random local offset.
inline std::vector<Vec2> random_polygon_points(std::mt19937& rng, float size) {
  const int n = std::uniform_int_distribution<int>(3, 8)(rng);
  std::vector<float> angles;
  for (int i = 0; i < n; ++i) angles.push_back(uniform(rng, 0, 6.2831853f));
  std::sort(angles.begin(), angles.end());
  const float rx = size * uniform(rng, 0.4f, 1.0f), ry = size * uniform(rng, 0.4f, 1.0f);
  const Vec2 off{size * uniform(rng, -0.3f, 0.3f), size * uniform(rng, -0.3f, 0.3f)};
  std::vector<Vec2> pts;
  for (float a : angles) pts.push_back({off.x + rx * std::cos(a), off.y + ry * std::sin(a)});
  return pts;
}

/// A random shape of the given kind whose size (half diameter) is roughly `size`.
inline ShapeSpec random_shape(Kind kind, std::mt19937& rng, float size) {
  auto point = [&](float reach) { return Vec2{uniform(rng, -reach, reach), uniform(rng, -reach, reach)}; };
  switch (kind) {
    case Kind::circle:
      return make_circle(size * uniform(rng, 0.3f, 1.0f), point(0.3f * size));
    case Kind::capsule: {
      const Vec2 a = point(0.8f * size), b = point(0.8f * size);
      return make_capsule(a, b, size * uniform(rng, 0.05f, 0.5f));
    }
    case Kind::segment:
      return make_segment(point(size), point(size));
    case Kind::box:
      return make_box(size * uniform(rng, 0.15f, 1.0f), size * uniform(rng, 0.15f, 1.0f));
    case Kind::rounded_box: {
      const float hw = size * uniform(rng, 0.2f, 1.0f), hh = size * uniform(rng, 0.2f, 1.0f);
      const float smaller = std::min(hw, hh);
      // One in ten at the limit, where the core degenerates to a segment.
      const float r =
          std::uniform_int_distribution<int>(0, 9)(rng) == 0 ? smaller : smaller * uniform(rng, 0.05f, 0.9f);
      return make_rounded_box(hw, hh, r);
    }
    case Kind::polygon:
      return make_polygon(random_polygon_points(rng, size), 0);
    case Kind::rounded_polygon:
      return make_polygon(random_polygon_points(rng, size), size * uniform(rng, 0.02f, 0.4f));
  }
  return make_circle(size);
}

// ---------------------------------------------------------------------------------------------
// World placement.

/// The shape at xf as an oracle shape (long double world coordinates of the core vertices).
inline oracle::RShape world(const ShapeSpec& s, const Transform& xf) {
  oracle::RShape out;
  out.radius = s.shape.radius();
  const real c = xf.q.c, sn = xf.q.s;
  for (Vec2 p : s.shape.vertices())
    out.core.push_back({c * p.x - sn * p.y + real(xf.p.x), sn * p.x + c * p.y + real(xf.p.y)});
  return out;
}

inline V mean(const std::vector<V>& ps) {
  V m{};
  for (V p : ps) m = m + p;
  return (real(1) / real(ps.size())) * m;
}

/// Translation of B (with rotation qb) that puts B's signed distance to A at `target`, moving B
/// along `dir` from A's centre (plus `offset`): bisection on the oracle's distance (the distance along such a ray
/// grows once B has left the deepest position). When even the deepest position is shallower than
/// target, B stays there.
inline Vec2 place(const ShapeSpec& a, const Transform& xa, const ShapeSpec& b, Rot qb, real target, V dir,
                  V offset = {}) {
  const oracle::RShape wa = world(a, xa);
  const V ca = mean(wa.core);
  const oracle::RShape b_local = world(b, Transform{{0, 0}, qb});
  const V cb = mean(b_local.core);
  auto at = [&](real t) {
    const V shift = ca - cb + offset + t * dir;
    oracle::RShape wb = b_local;
    for (V& p : wb.core) p = p + shift;
    return std::pair{oracle::distance(wa, wb).distance, shift};
  };
  real lo = 0;
  real hi = oracle::half_diameter(wa) * 2 + oracle::half_diameter(b_local) * 2 + std::fabs(target) + 1;
  if (at(lo).first >= target) {
    const V s = at(lo).second;
    return {float(s.x), float(s.y)};
  }
  for (int i = 0; i < 64; ++i) {
    const real mid = (lo + hi) / 2;
    (at(mid).first < target ? lo : hi) = mid;
  }
  const V s = at((lo + hi) / 2).second;
  return {float(s.x), float(s.y)};
}

inline V random_direction(std::mt19937& rng) {
  const real a = uniform(rng, 0, 6.2831853f);
  return {std::cos(a), std::sin(a)};
}

struct Pair {
  ShapeSpec a, b;
  Transform xa, xb;
};

inline std::string describe(const Pair& p) {
  return "Shape a = " + p.a.maker + "; Transform xa = " + lit(p.xa) + ";\n    Shape b = " + p.b.maker +
         "; Transform xb = " + lit(p.xb) + ";";
}

/// A random pair of the given kinds near contact: signed distance drawn in +-0.5 of the smaller
/// size, A at a random pose within `reach` of `origin`, B placed by bisection.
inline Pair random_pair(Kind ka, Kind kb, std::mt19937& rng, float size = 1, Vec2 origin = {}, float reach = 3) {
  ShapeSpec a = random_shape(ka, rng, size * uniform(rng, 0.5f, 1.5f));
  ShapeSpec b = random_shape(kb, rng, size * uniform(rng, 0.5f, 1.5f));
  const Transform xa{{origin.x + uniform(rng, -reach, reach) * size, origin.y + uniform(rng, -reach, reach) * size},
                     Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))};
  const Rot qb = Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f));
  const real smaller = std::min(oracle::half_diameter(world(a, xa)), oracle::half_diameter(world(b, xa)));
  const real target = smaller * uniform(rng, -0.5f, 0.5f);
  const Vec2 pb = place(a, xa, b, qb, target, random_direction(rng));
  return {std::move(a), std::move(b), xa, Transform{pb, qb}};
}

// ---------------------------------------------------------------------------------------------
// Families of hand-shaped configurations, shared by the distance and manifold tests.

/// Facing edges nearly parallel: flat shapes (box, rounded box, capsule, segment) with B turned
/// from A by a tiny angle (or that plus half a turn), placed along A's up or down direction at a
/// chosen signed distance, slid along the edge by a random amount.
inline std::vector<Pair> nearly_parallel_pairs(unsigned seed, const std::vector<float>& offsets,
                                               const std::vector<float>& gaps) {
  std::mt19937 rng(seed);
  std::vector<Pair> out;
  auto flat = [&](int kind, float w, float h, float r) {
    switch (kind) {
      case 0:
        return make_box(w, h);
      case 1:
        return make_rounded_box(w, h, r);
      case 2:
        return make_capsule({-w, 0}, {w, 0}, r);
      default:
        return make_segment({-w, 0}, {w, 0});
    }
  };
  for (int ka = 0; ka < 4; ++ka) {
    for (int kb = 0; kb < 4; ++kb) {
      for (float off : offsets) {
        for (float g : gaps) {
          const float w = uniform(rng, 0.5f, 1.5f), h = uniform(rng, 0.3f, 0.8f);
          ShapeSpec a = flat(ka, w, h, 0.2f * h);
          ShapeSpec b = flat(kb, uniform(rng, 0.3f, 1.5f), uniform(rng, 0.3f, 0.8f), 0.1f);
          const float angle = uniform(rng, -3.14f, 3.14f);
          const Transform xa{{uniform(rng, -2, 2), uniform(rng, -2, 2)}, Rot::from_angle(angle)};
          const float sign = (rng() & 1) ? 1.0f : -1.0f;
          const Rot qb = Rot::from_angle(angle + sign * off + ((rng() & 1) ? 3.14159265f : 0.0f));
          const V up{-std::sin(real(angle)), std::cos(real(angle))};
          const V along{std::cos(real(angle)), std::sin(real(angle))};
          const real slide = uniform(rng, -1.5f, 1.5f);
          const Vec2 pb = place(a, xa, b, qb, g, (rng() & 1) ? up : V{-up.x, -up.y}, slide * along);
          out.push_back({std::move(a), std::move(b), xa, Transform{pb, qb}});
        }
      }
    }
  }
  return out;
}

/// A small shape wholly inside a big one (kept only when the oracle confirms containment: the
/// penetration depth exceeds the small shape's diameter), in both orders.
inline std::vector<Pair> containment_pairs(unsigned seed, int per_kind_pair) {
  std::mt19937 rng(seed);
  std::vector<Pair> out;
  for (Kind ka : {Kind::box, Kind::rounded_box, Kind::polygon, Kind::rounded_polygon, Kind::circle}) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_kind_pair; ++i) {
        ShapeSpec a = random_shape(ka, rng, 2.0f);
        ShapeSpec b = random_shape(kb, rng, 0.2f);
        const Transform xa{{uniform(rng, -1, 1), uniform(rng, -1, 1)}, Rot::from_angle(uniform(rng, -3, 3))};
        const V c = mean(world(a, xa).core);
        const Rot qb = Rot::from_angle(uniform(rng, -3, 3));
        const V cb = mean(world(b, Transform{{0, 0}, qb}).core);
        const Transform xb{
            {float(c.x - cb.x) + uniform(rng, -0.1f, 0.1f), float(c.y - cb.y) + uniform(rng, -0.1f, 0.1f)}, qb};
        const oracle::RShape wb = world(b, xb);
        if (oracle::distance(world(a, xa), wb).distance < -2 * oracle::half_diameter(wb)) {
          out.push_back({a, b, xa, xb});
          out.push_back({std::move(b), std::move(a), xb, xa});
        }
      }
    }
  }
  return out;
}

/// A zero-length capsule (welded to a 1-vertex core) against every kind, in both orders, and
/// a zero-length segment (a bare point) too.
inline std::vector<Pair> zero_length_pairs(unsigned seed, int per_kind) {
  std::mt19937 rng(seed);
  std::vector<Pair> out;
  for (Kind kb : kAllKinds) {
    for (int i = 0; i < per_kind; ++i) {
      Pair p = random_pair(Kind::circle, kb, rng);
      const Vec2 c = p.a.shape.vertices()[0];
      p.a = make_capsule(c, c, p.a.shape.radius());
      out.push_back(p);
      out.push_back({p.b, p.a, p.xb, p.xa});
      out.push_back({p.b, make_segment(c, c), p.xb, p.xa});
    }
  }
  return out;
}

/// The pairs that take collide()'s and distance()'s fast paths (a circle or point against every
/// kind, both orders, plus zero-length capsules), for checking them against the generic path.
inline std::vector<Pair> fast_path_pairs(unsigned zero_length_seed, unsigned random_seed) {
  std::vector<Pair> pairs = zero_length_pairs(zero_length_seed, 40);
  std::mt19937 rng(random_seed);
  for (Kind kb : kAllKinds) {
    for (int i = 0; i < 100; ++i) {
      pairs.push_back(random_pair(Kind::circle, kb, rng));
      pairs.push_back(random_pair(kb, Kind::circle, rng));
    }
  }
  return pairs;
}

/// Axis-aligned placements with dyadic coordinates that touch exactly (signed distance 0 also
/// in float): face on face, corner on corner, circles, capsules, collinear segment ends.
inline std::vector<Pair> touching_pairs() {
  const Transform id = Transform::identity();
  auto at = [](float x, float y) { return Transform{{x, y}, Rot::identity()}; };
  return {
      {make_box(1, 1), make_box(1, 1), id, at(2, 0.5f)},
      {make_box(1, 1), make_box(0.5f, 0.25f), id, at(0.25f, 1.25f)},
      {make_box(1, 1), make_box(1, 1), id, at(2, 2)},
      {make_box(1, 1), make_circle(0.5f), id, at(1.5f, 0.25f)},
      {make_circle(1), make_circle(2), id, at(3, 0)},
      {make_circle(1), make_circle(0.5f), id, at(0, -1.5f)},
      {make_capsule({-1, 0}, {1, 0}, 0.5f), make_capsule({-1, 0}, {1, 0}, 0.25f), id, at(1.5f, 0.75f)},
      {make_capsule({-1, 0}, {1, 0}, 0.5f), make_box(0.5f, 0.5f), id, at(0, -1)},
      {make_segment({-1, 0}, {1, 0}), make_box(0.5f, 0.5f), id, at(0.75f, 0.5f)},
      {make_segment({-1, 0}, {1, 0}), make_segment({1, 0}, {2, 0}), id, id},
      {make_segment({-1, 0}, {1, 0}), make_segment({0, 0}, {0, 1}), id, id},
      {make_rounded_box(1, 1, 0.25f), make_rounded_box(1, 1, 0.5f), id, at(2, 0.5f)},
      {make_rounded_box(1, 0.5f, 0.25f), make_circle(0.5f), id, at(0, -1)},
      {make_box(2, 1), make_box(1, 1), at(100, -50), at(100, -48)},
  };
}

// ---------------------------------------------------------------------------------------------
// Tolerances of the contract.

struct Tolerance {
  real length;        ///< 1e-3 x the smaller size + float rounding of the coordinates
  real noise;         ///< float rounding alone: 8 ulp of the largest coordinate
  real conditioning;  ///< separated cores closer than this have an ill-posed normal
  real angle = 1e-3L;
};

inline Tolerance tolerance_for(const oracle::RShape& wa, const oracle::RShape& wb) {
  real biggest = 0;
  for (const oracle::RShape* s : {&wa, &wb}) {
    for (V p : s->core) biggest = std::max({biggest, std::fabs(p.x), std::fabs(p.y)});
    biggest = std::max(biggest, s->radius);
  }
  biggest += std::max(wa.radius, wb.radius);
  const real noise = 8 * real(FLT_EPSILON) * biggest;
  const real smaller = std::min(oracle::half_diameter(wa), oracle::half_diameter(wb));
  return {1e-3L * smaller + noise, noise, 2000 * noise};
}

inline real angle_between(V a, V b) { return std::atan2(std::fabs(oracle::cross(a, b)), oracle::dot(a, b)); }

inline V v(Vec2 p) { return {p.x, p.y}; }
#if PEBBLE_DOUBLE_POSITIONS
inline V v(pebble::Position p) { return {p.x, p.y}; }
#endif

/// The contract's rule for a reported normal (distance() and collide() alike): unit, within the
/// angle tolerance of a direction along which the shapes' gap reaches the oracle distance (so
/// ties pass), and within the tolerance of the oracle's normal when that one is unique. Appends
/// what fails to err.
inline void check_normal(std::ostream& err, Vec2 normal, const oracle::RShape& wa, const oracle::RShape& wb,
                         const oracle::DistanceAnswer& o, const Tolerance& tol) {
  const real nlen = oracle::length(v(normal));
  if (std::fabs(nlen - 1) > 1e-5L) err << "normal not unit (" << double(nlen) << "); ";
  const V n = oracle::normalize(v(normal));
  const real gap = oracle::best_separation_within(wa, wb, n, tol.angle);
  if (gap < o.distance - tol.length) {
    err << "no direction within " << double(tol.angle) << " rad of the normal reaches the distance (best gap "
        << double(gap) << ", distance " << double(o.distance) << "); ";
  }
  if (o.normal_unique && angle_between(n, o.normal) > tol.angle) {
    err << "normal (" << normal.x << ", " << normal.y << ") off the oracle's (" << double(o.normal.x) << ", "
        << double(o.normal.y) << ") by " << double(angle_between(n, o.normal)) << " rad; ";
  }
}

// ---------------------------------------------------------------------------------------------
// Running many cases.

/// How many failures of one test to print (the environment variable CONTACT_TEST_REPORTS
/// overrides the default 6).
inline int max_reports() {
  const char* env = std::getenv("CONTACT_TEST_REPORTS");
  return env ? std::atoi(env) : 6;
}

/// Runs check (returning "" or what failed) on every case; reports the first few failures with
/// a reproducer (describe(case), found by argument-dependent lookup) and the failure count.
template <class T, class Check>
void expect_all(const std::vector<T>& cases, Check check, const char* what) {
  int failures = 0;
  for (const T& c : cases) {
    const std::string e = check(c);
    if (e.empty()) continue;
    if (++failures <= max_reports()) ADD_FAILURE() << what << ": " << e << "\n    " << describe(c);
  }
  EXPECT_EQ(failures, 0) << what << ": " << failures << " of " << cases.size() << " cases failed";
}

}  // namespace contact_cases
