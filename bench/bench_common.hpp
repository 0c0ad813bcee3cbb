// bench/bench_common.hpp — what every side-by-side benchmark shares: one fixed random set of
// inputs per query, built once and handed to pebble and to Box2D 2.4.1 as the very same floats;
// the timing loop that cycles through that set; and the registry of pebble/Box2D pairs from
// which main.cpp prints the ratio table. docs/benchmarks.md describes the method.
#pragma once

#include <benchmark/benchmark.h>
#include <box2d/b2_distance.h>  // not part of box2d.h in 2.4.1
#include <box2d/box2d.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "pebble/pebble.hpp"

namespace bench {

/// Cases per query. A power of two, so the case index wraps with a mask; large enough that the
/// branch predictor cannot learn the sequence, small enough (about 300 KB for two shapes per
/// case) to stay in the L2 cache so that we time geometry, not memory.
inline constexpr std::size_t kCaseCount = 1024;

/// One seed for everything: the inputs are the same on every run of the same binary.
inline constexpr std::uint32_t kSeed = 0x9e3779b9u;

using Rng = std::mt19937;

// ---------------------------------------------------------------------------------------------
// The pair registry read by main.cpp.

/// One row of the table: benchmarks `name + "/pebble"` and `name + "/box2d"`.
struct Pair {
  std::string name;   ///< e.g. "BM_Hull"
  std::string label;  ///< what the row measures, for the table's "query" column
};

/// Every registered pair, in registration order (defined in main.cpp).
std::vector<Pair>& pairs();

/// Registers `name/pebble` and `name/box2d` with Google Benchmark and records the table label.
template <class PebbleFn, class Box2dFn>
int add_pair(const char* name, const char* label, PebbleFn pebble_fn, Box2dFn box2d_fn) {
  pairs().push_back({name, label});
  benchmark::RegisterBenchmark((std::string(name) + "/pebble").c_str(), pebble_fn);
  benchmark::RegisterBenchmark((std::string(name) + "/box2d").c_str(), box2d_fn);
  return 0;
}

/// Registers `name/pebble` alone (a row with no Box2D counterpart) and records the table label.
template <class PebbleFn>
int add_pebble_only(const char* name, const char* label, PebbleFn pebble_fn) {
  pairs().push_back({name, label});
  benchmark::RegisterBenchmark((std::string(name) + "/pebble").c_str(), pebble_fn);
  return 0;
}

/// The benchmarks of each source file, registered by main() in the order of the table.
void register_foundation_benchmarks();
void register_mover_benchmarks();
void register_batch_benchmarks();
void register_contact_benchmarks();
void register_cast_benchmarks();
void register_world_benchmarks();
void register_primitives_benchmarks();
void register_terrain_benchmarks();
void register_tiles_benchmarks();
void register_decompose_benchmarks();
void register_scene_benchmarks();

/// Times f on one case per iteration, walking the whole set in order and wrapping around, so
/// that each library answers exactly the same sequence of queries. f returns its result, which
/// DoNotOptimize forces into memory so that the query cannot be skipped.
template <class Case, class F>
void run_cases(benchmark::State& state, const std::vector<Case>& cases, F f) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto result = f(cases[i]);
    benchmark::DoNotOptimize(result);
    i = (i + 1) & (kCaseCount - 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Random draws.

inline float uniform(Rng& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

inline constexpr float kPi = 3.14159265358979f;

/// A rotation with an angle uniform in [-pi, pi); both libraries receive these exact c and s.
inline pebble::Rot random_rotation(Rng& rng) { return pebble::Rot::from_angle(uniform(rng, -kPi, kPi)); }

/// A transform with translation in [-5, 5]^2 and a uniform angle.
inline pebble::Transform random_transform(Rng& rng) {
  return {{uniform(rng, -5, 5), uniform(rng, -5, 5)}, random_rotation(rng)};
}

// ---------------------------------------------------------------------------------------------
// The same input in both libraries' types.

inline b2Vec2 to_b2(pebble::Vec2 v) { return b2Vec2(v.x, v.y); }

/// The same rigid motion as a Box2D transform (identical c and s, not recomputed from an angle).
inline b2Transform to_b2(const pebble::Transform& xf) {
  b2Transform out;
  out.p = to_b2(xf.p);
  out.q.c = xf.q.c;
  out.q.s = xf.q.s;
  return out;
}

/// A shape described once and made by both libraries.
template <class B2Shape>
struct Made {
  pebble::Shape pebble;
  B2Shape box2d;
};

/// A sharp convex polygon: pebble takes the hull of points, Box2D's Set takes the same points.
/// Box2D's polygon skin (b2_polygonRadius, 0.01) is set to 0 so that both see the same shape.
inline Made<b2PolygonShape> make_polygon(const std::vector<pebble::Vec2>& points) {
  b2PolygonShape poly;
  std::vector<b2Vec2> b2_points;
  for (pebble::Vec2 p : points) b2_points.push_back(to_b2(p));
  poly.Set(b2_points.data(), static_cast<int32>(b2_points.size()));
  poly.m_radius = 0;
  return {pebble::Shape::polygon(points), poly};
}

/// 8 points on an ellipse with semi-axes in [0.5, 1.5], angles jittered around multiples of 45
/// degrees: always strictly convex, so both hulls keep all 8 vertices.
inline std::vector<pebble::Vec2> octagon_points(Rng& rng) {
  const float rx = uniform(rng, 0.5f, 1.5f), ry = uniform(rng, 0.5f, 1.5f);
  const float phase = uniform(rng, 0, 2 * kPi);
  std::vector<pebble::Vec2> points;
  for (int k = 0; k < 8; ++k) {
    const float angle = phase + (static_cast<float>(k) + uniform(rng, -0.3f, 0.3f)) * (kPi / 4);
    points.push_back({rx * std::cos(angle), ry * std::sin(angle)});
  }
  return points;
}

inline Made<b2PolygonShape> make_octagon(Rng& rng) { return make_polygon(octagon_points(rng)); }

/// A box with half extents in [0.25, 1]; Box2D's SetAsBox with the skin set to 0.
inline Made<b2PolygonShape> make_box(Rng& rng) {
  const float hw = uniform(rng, 0.25f, 1), hh = uniform(rng, 0.25f, 1);
  b2PolygonShape poly;
  poly.SetAsBox(hw, hh);
  poly.m_radius = 0;
  return {pebble::Shape::box(hw, hh), poly};
}

/// A circle of radius [0.25, 1] whose centre is off the body origin by up to 0.25 per axis.
inline Made<b2CircleShape> make_circle(Rng& rng) {
  const float r = uniform(rng, 0.25f, 1);
  const pebble::Vec2 c{uniform(rng, -0.25f, 0.25f), uniform(rng, -0.25f, 0.25f)};
  b2CircleShape circle;
  circle.m_p = to_b2(c);
  circle.m_radius = r;
  return {pebble::Shape::circle(r, c), circle};
}

/// Box2D 2.4.1 has no capsule; its closest analogue is a polygon with a radius. The capsule of
/// half length L and radius r becomes a b2PolygonShape box of half extents (L, h) with m_radius
/// r - h, h = b2_linearSlop: the long sides coincide exactly, the ends differ by < 0.003.
inline constexpr float kCapsuleCoreHalfThickness = b2_linearSlop;

inline Made<b2PolygonShape> make_capsule(Rng& rng) {
  const float half_length = uniform(rng, 0.25f, 1), r = uniform(rng, 0.1f, 0.5f);
  b2PolygonShape poly;
  poly.SetAsBox(half_length, kCapsuleCoreHalfThickness);
  poly.m_radius = r - kCapsuleCoreHalfThickness;
  return {pebble::Shape::capsule({-half_length, 0}, {half_length, 0}, r), poly};
}

/// A rounded box of outer half extents in [0.25, 1] and corner radius 5..50% of the smaller
/// one; Box2D gets the same core box and m_radius = the corner radius (the same shape exactly).
inline Made<b2PolygonShape> make_rounded_box(Rng& rng) {
  const float hw = uniform(rng, 0.25f, 1), hh = uniform(rng, 0.25f, 1);
  const float corner = uniform(rng, 0.05f, 0.5f) * std::min(hw, hh);
  b2PolygonShape poly;
  poly.SetAsBox(hw - corner, hh - corner);
  poly.m_radius = corner;
  return {pebble::Shape::rounded_box(hw, hh, corner), poly};
}

// ---------------------------------------------------------------------------------------------
// Placing two shapes near contact. Set-up only, never timed, and independent of the queries
// under test: a brute-force signed distance in double on the shapes' world cores.

struct D2 {
  double x, y;
};

/// A shape's core in world coordinates, with its radius.
struct WorldCore {
  std::array<D2, pebble::kMaxPolygonVertices> v{};
  int n = 0;
  double r = 0;
};

inline WorldCore world_core(const pebble::Shape& shape, const pebble::Transform& xf) {
  WorldCore out;
  for (pebble::Vec2 local : shape.vertices()) {
    const pebble::Vec2 w = pebble::transform_point(xf, local);
    out.v[static_cast<std::size_t>(out.n++)] = {w.x, w.y};
  }
  out.r = shape.radius();
  return out;
}

inline double point_segment_distance(D2 p, D2 a, D2 b) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  const double len2 = ex * ex + ey * ey;
  double t = len2 > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p.x - (a.x + t * ex), p.y - (a.y + t * ey));
}

/// Least distance from a's vertices to b's edges (a 1-vertex core is its point, a 2-vertex core
/// its segment). With the same taken the other way round, this is the exact distance between
/// two disjoint convex cores.
inline double vertex_edge_distance(const WorldCore& a, const WorldCore& b) {
  double best = INFINITY;
  for (int i = 0; i < a.n; ++i) {
    for (int j = 0; j < b.n; ++j) {
      const D2 e0 = b.v[static_cast<std::size_t>(j)], e1 = b.v[static_cast<std::size_t>((j + 1) % b.n)];
      best = std::min(best, point_segment_distance(a.v[static_cast<std::size_t>(i)], e0, e1));
    }
  }
  return best;
}

/// Signed distance of two rounded shapes (< 0: minus the penetration depth). Separating axes:
/// every edge normal and, for segment cores, the segment direction; the cores are disjoint iff
/// one axis separates them, and when they overlap the least overlap over the edge normals of
/// both cores is the penetration depth (extra axes only give larger overlaps).
inline double signed_distance(const WorldCore& a, const WorldCore& b) {
  std::vector<D2> axes;
  auto add_edges = [&](const WorldCore& c) {
    for (int i = 0; i < c.n && c.n > 1; ++i) {
      const D2 p = c.v[static_cast<std::size_t>(i)], q = c.v[static_cast<std::size_t>((i + 1) % c.n)];
      const double len = std::hypot(q.x - p.x, q.y - p.y);
      if (len == 0) continue;
      axes.push_back({(q.y - p.y) / len, -(q.x - p.x) / len});
      if (c.n == 2) axes.push_back({(q.x - p.x) / len, (q.y - p.y) / len});
    }
  };
  add_edges(a);
  add_edges(b);
  if (a.n == 1 && b.n == 1) {
    const double dx = b.v[0].x - a.v[0].x, dy = b.v[0].y - a.v[0].y, len = std::hypot(dx, dy);
    if (len > 0) axes.push_back({dx / len, dy / len});
  }
  double least_overlap = INFINITY;
  for (D2 u : axes) {
    double lo_a = INFINITY, hi_a = -INFINITY, lo_b = INFINITY, hi_b = -INFINITY;
    for (int i = 0; i < a.n; ++i) {
      const double s = a.v[static_cast<std::size_t>(i)].x * u.x + a.v[static_cast<std::size_t>(i)].y * u.y;
      lo_a = std::min(lo_a, s);
      hi_a = std::max(hi_a, s);
    }
    for (int i = 0; i < b.n; ++i) {
      const double s = b.v[static_cast<std::size_t>(i)].x * u.x + b.v[static_cast<std::size_t>(i)].y * u.y;
      lo_b = std::min(lo_b, s);
      hi_b = std::max(hi_b, s);
    }
    least_overlap = std::min(least_overlap, std::min(hi_a - lo_b, hi_b - lo_a));
  }
  if (axes.empty()) least_overlap = 0;  // two coincident points
  const double core =
      least_overlap < 0 ? std::min(vertex_edge_distance(a, b), vertex_edge_distance(b, a)) : -least_overlap;
  return core - a.r - b.r;
}

/// Two shapes placed so that their signed distance is a chosen target.
struct Placement {
  pebble::Transform xa, xb;
  bool ok;
};

/// Puts b, rotated by qb, on the ray from a's core centroid along dir, at the point where the
/// signed distance equals target (bisection: the signed distance is convex along the ray and
/// below target at the start). ok is false when the shapes overlap by less than |target| even
/// with their centroids together.
inline Placement place_at_distance(const pebble::Shape& a, const pebble::Transform& xa, const pebble::Shape& b,
                                   pebble::Rot qb, pebble::Vec2 dir, double target) {
  const pebble::Vec2 ca = pebble::transform_point(xa, a.core_centroid());
  const pebble::Vec2 cb = pebble::rotate(qb, b.core_centroid());
  const WorldCore wa = world_core(a, xa);
  auto place = [&](double t) {
    return pebble::Transform{{static_cast<float>(ca.x + t * dir.x - cb.x), static_cast<float>(ca.y + t * dir.y - cb.y)},
                             qb};
  };
  auto distance_at = [&](double t) { return signed_distance(wa, world_core(b, place(t))); };
  double lo = 0, hi = static_cast<double>(a.extent() + b.extent()) + std::fabs(target) + 1;
  if (!(distance_at(lo) < target)) return {xa, place(lo), false};
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double mid = 0.5 * (lo + hi);
    (distance_at(mid) < target ? lo : hi) = mid;
  }
  return {xa, place(0.5 * (lo + hi)), true};
}

/// The near-contact mix used by every contact benchmark: 3 cases in 4 touch (target signed
/// distance uniform in [-s/2, 0]), the rest are apart by up to s/2, with s the smaller shape's
/// extent (radius of its bounding circle about the core centroid).
inline double near_contact_target(Rng& rng, float size) {
  const double s = static_cast<double>(size);
  return uniform(rng, 0, 1) < 0.75f ? -0.5 * s * uniform(rng, 0, 1) : 0.5 * s * uniform(rng, 0, 1);
}

/// Only separated pairs, target distance uniform in (0, s/2]: what b2Distance answers fully.
inline double separated_target(Rng& rng, float size) {
  return 0.5 * static_cast<double>(size) * uniform(rng, 0.02f, 1);
}

/// One pair in both libraries' types, same geometry, same placement.
template <class SA, class SB>
struct PairCase {
  pebble::Shape pa;
  pebble::Transform xa;
  pebble::Shape pb;
  pebble::Transform xb;
  SA ba;
  b2Transform bxa;
  SB bb;
  b2Transform bxb;
};

/// kCaseCount pairs made by make_a and make_b (each returning a Made<...>), placed by target.
template <class MakeA, class MakeB, class Target>
auto make_pair_cases(std::uint32_t seed, MakeA make_a, MakeB make_b, Target target) {
  using SA = decltype(make_a(std::declval<Rng&>()).box2d);
  using SB = decltype(make_b(std::declval<Rng&>()).box2d);
  Rng rng(seed);
  std::vector<PairCase<SA, SB>> cases;
  cases.reserve(kCaseCount);
  while (cases.size() < kCaseCount) {
    auto a = make_a(rng);
    auto b = make_b(rng);
    const pebble::Transform xa = random_transform(rng);
    const pebble::Rot qb = random_rotation(rng);
    const float angle = uniform(rng, -kPi, kPi);
    const pebble::Vec2 dir{std::cos(angle), std::sin(angle)};
    const double goal = target(rng, std::min(a.pebble.extent(), b.pebble.extent()));
    const Placement placed = place_at_distance(a.pebble, xa, b.pebble, qb, dir, goal);
    if (!placed.ok) continue;
    cases.push_back({a.pebble, placed.xa, b.pebble, placed.xb, a.box2d, to_b2(placed.xa), b.box2d, to_b2(placed.xb)});
  }
  return cases;
}

}  // namespace bench
