// The seed-004 toolbox (pebble/primitives.hpp) against the brute-force oracle in long double
// (tests/oracle/primitives.hpp), plus the degenerate cases the seed warns about and agreement with
// the general Shape queries.
//
// Random inputs come in three regimes, cycled case by case:
//   float  uniform floats in [-10, 10]: answers may differ from the exact ones only where the
//          exact margin is below 1e-9 (float rounding of the inputs is exact; the toolbox's
//          double arithmetic is good to ~1e-16 relative);
//   fine   multiples of 1/4 in [-10, 10];
//   coarse multiples of 1/2 in [-4, 4]: lots of exact touching, on-edge, collinear and
//          degenerate inputs, where the oracle is exact and the answer must match exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <pebble/distance.hpp>
#include <pebble/mass.hpp>
#include <pebble/point.hpp>
#include <pebble/primitives.hpp>

#include "oracle/exact.hpp"
#include "oracle/primitives.hpp"
#include "random_cases.hpp"

using namespace pebble;
using namespace pebble::prim;
using oracle::real;
using oracle::V;
namespace op = oracle::prim;

namespace {

enum class Regime { kFloat, kFine, kCoarse };

V ov(Position v) { return {v.x, v.y}; }  // a Vec2 too
std::vector<V> ov(const Segment& s) { return {ov(s.a), ov(s.b)}; }
std::vector<V> ov(const Triangle& t) { return {ov(t.a), ov(t.b), ov(t.c)}; }
// Rectangles as four corners, computed in long double (exact from float inputs).
std::vector<V> ov(const Box& b) {
  const real hx = std::max(0.0f, b.half_extents.x), hy = std::max(0.0f, b.half_extents.y);
  return op::corners({b.center.x - hx, b.center.y - hy}, {b.center.x + hx, b.center.y + hy});
}
std::vector<V> ov(const Aabb& a) { return op::corners(ov(a.lower), ov(a.upper)); }
std::vector<V> ov(const Rect& r) {
  return op::corners(ov(r.origin),
                     {real(r.origin.x) + std::max(0.0f, r.size.x), real(r.origin.y) + std::max(0.0f, r.size.y)});
}
real dist(V a, V b) { return op::length(a - b); }
bool finite(Position v) { return std::isfinite(v.x) && std::isfinite(v.y); }  // a Vec2 too
// The lower/upper form of any rectangle form (the identity for an Aabb).
Aabb as_aabb(const Box& b) { return to_aabb(b); }
Aabb as_aabb(const Rect& r) { return to_aabb(r); }
Aabb as_aabb(const Aabb& a) { return a; }

class Gen {
public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  Regime regime = Regime::kFloat;

  float coord() {
    switch (regime) {
      case Regime::kFloat:
        return std::uniform_real_distribution<float>(-10, 10)(rng_);
      case Regime::kFine:
        return float(std::uniform_int_distribution<int>(-40, 40)(rng_)) / 4;
      case Regime::kCoarse:
        return float(std::uniform_int_distribution<int>(-8, 8)(rng_)) / 2;
    }
    return 0;
  }
  Vec2 point() { return {coord(), coord()}; }
  // A point within reach of center on each axis (on the grid's steps in the grid regimes).
  Vec2 point_around(Vec2 center, float reach) { return {center.x + offset(reach), center.y + offset(reach)}; }
  float offset(float reach) {
    switch (regime) {
      case Regime::kFloat:
        return std::uniform_real_distribution<float>(-reach, reach)(rng_);
      case Regime::kFine:
        return float(integer(-int(reach * 4), int(reach * 4))) / 4;
      case Regime::kCoarse:
        return float(integer(-int(reach * 2), int(reach * 2))) / 2;
    }
    return 0;
  }
  // A non-negative size up to hi; zero now and then.
  float size(float hi) {
    if (uniform() < 0.03) return 0;
    switch (regime) {
      case Regime::kFloat:
        return std::uniform_real_distribution<float>(0.01f, hi)(rng_);
      case Regime::kFine:
        return float(std::uniform_int_distribution<int>(1, int(hi * 4))(rng_)) / 4;
      case Regime::kCoarse:
        return float(std::uniform_int_distribution<int>(1, int(hi))(rng_)) / 2;
    }
    return 0;
  }
  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  Circle circle() { return {point(), size(5)}; }
  Box box() { return {point(), {size(5), size(5)}}; }
  Aabb aabb() {
    const Vec2 lo = point();
    return {lo, {lo.x + size(8), lo.y + size(8)}};
  }
  Rect rect() { return {point(), {size(8), size(8)}}; }
  // Segments: a point now and then, and (on the grids) often parallel to another segment.
  Segment segment() {
    const Vec2 a = point();
    if (uniform() < 0.05) return {a, a};
    return {a, point()};
  }
  // Triangles of either winding; on the grids, collinear and repeated vertices now and then.
  Triangle triangle() {
    const Vec2 a = point(), b = point();
    const double u = uniform();
    if (regime != Regime::kFloat && u < 0.05) return {a, b, a};
    if (regime != Regime::kFloat && u < 0.10) {
      const Vec2 d = b - a;
      const float k = float(integer(-2, 3));
      return {a, b, a + k * d};  // exactly collinear: small integer multiples stay on the grid
    }
    return {a, b, point()};
  }
  // A point near the given ones: on the grids often exactly on an edge, a vertex or a lattice
  // point between them.
  Vec2 point_near(Vec2 a, Vec2 b) {
    const double u = uniform();
    if (regime != Regime::kFloat && u < 0.1) return a;
    if (regime != Regime::kFloat && u < 0.3) return a + 0.5f * (b - a);
    return point();
  }

private:
  std::mt19937 rng_;
};

Regime regime_of(int i) { return static_cast<Regime>(i % 3); }

// Checks a predicate against its exact value: exact agreement on the grids, and off the grids
// disagreement only within 1e-9 of the boundary (margin: the oracle's signed distance to it).
class PredicateCheck {
public:
  void check(bool got, bool exact, real margin, Regime regime, const char* what, int i) {
    ++cases_;
    if (exact) ++positives_;
    if (margin == 0) ++touching_;
    if (got == exact) return;
    if (regime != Regime::kFloat) {
      ADD_FAILURE() << what << " case " << i << ": got " << got << ", exact " << exact << " on the grid";
      return;
    }
    ++near_misses_;
    EXPECT_LE(std::fabs(margin), 1e-9L) << what << " case " << i << ": got " << got << ", margin " << double(margin);
  }
  // Both outcomes, and exact touching, must be well represented, or the test says little.
  void expect_balanced() const {
    EXPECT_GT(touching_, 20);
    EXPECT_GT(positives_, cases_ / 10);
    EXPECT_LT(positives_, cases_ - cases_ / 10);
    EXPECT_LE(near_misses_, cases_ / 1000);
  }

private:
  // touching_: cases exactly on the boundary (the oracle's margin is exactly 0).
  int cases_ = 0, positives_ = 0, near_misses_ = 0, touching_ = 0;
};

constexpr int kCases = 6000;
constexpr real kPointTol = 1e-5L;  // nearest points: float rounding of results near 10 is ~1e-6

// ---------------------------------------------------------------------------------------------
// Compile-time evaluation: the toolbox works in constant expressions.

static_assert(contains(Circle{{0, 0}, 5}, Vec2{3, 4}));
static_assert(!contains(Circle{{0, 0}, 5}, Vec2{3, 4.001f}));
static_assert(nearest_point(Segment{{1, 1}, {1, 1}}, Vec2{3, 4}) == Vec2{1, 1});
static_assert(nearest_point(Triangle{{0, 0}, {4, 0}, {0, 4}}, Vec2{4, 4}) == Vec2{2, 2});
static_assert(intersect(Segment{{0, 0}, {2, 2}}, Segment{{0, 2}, {2, 0}}).point == Vec2{1, 1});
static_assert(overlaps(Triangle{{0, 0}, {1, 0}, {0, 1}}, Triangle{{1, 0}, {2, 0}, {2, 1}}));
static_assert(penetration(Box{{0, 0}, {1, 1}}, Box{{1.5f, 0.25f}, {1, 1}}).separation == Vec2{0.5f, 0});
static_assert(nearest_edge(Box{{0, 0}, {2, 1}}, Vec2{0, 0}).normal == Vec2{0, 1});
static_assert(bounds(Triangle{{0, 3}, {-1, 0}, {2, 1}}) == Aabb{{-1, 0}, {2, 3}});

// ---------------------------------------------------------------------------------------------
// Nearest points

TEST(NearestPoint, SegmentMatchesDenseSampling) {
  Gen g(101);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Segment s = g.segment();
    const Vec2 p = g.point_near(s.a, s.b);
    const Vec2 got = nearest_point(s, p);
    EXPECT_LE(dist(ov(got), op::nearest_on_segment(ov(s.a), ov(s.b), ov(p))), kPointTol) << i;
  }
}

TEST(NearestPoint, ZeroLengthSegmentGivesItsPoint) {
  const Segment s{{1.5f, -2}, {1.5f, -2}};
  EXPECT_EQ(nearest_point(s, Vec2{7, 7}), s.a);
  EXPECT_EQ(nearest_point(s, s.a), s.a);
  // Tiny but not zero: still no division trouble, and the answer is one of the ends.
  const Segment tiny{{1, 1}, {1 + 1e-38f, 1}};
  EXPECT_TRUE(finite(nearest_point(tiny, Vec2{-3, 2})));
  const Segment denormal{{0, 0}, {1e-45f, 0}};
  EXPECT_EQ(nearest_point(denormal, Vec2{5, 5}), denormal.b);
}

TEST(NearestPoint, SegmentEndsAndInteriorAreExact) {
  const Segment s{{0, 0}, {4, 0}};
  EXPECT_EQ(nearest_point(s, Vec2{-1, 3}), s.a);
  EXPECT_EQ(nearest_point(s, Vec2{9, -3}), s.b);
  EXPECT_EQ(nearest_point(s, Vec2{1, 5}), (Vec2{1, 0}));
  EXPECT_EQ(nearest_point(s, Vec2{2, 0}), (Vec2{2, 0}));  // on the segment: itself
}

TEST(NearestPoint, CircleMatchesDenseSampling) {
  Gen g(102);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Circle c = g.circle();
    const Vec2 p = g.point();
    const Vec2 got = nearest_point(c, p);
    const V want = op::nearest_on_disc(ov(c.center), c.radius, ov(p));
    EXPECT_LE(dist(ov(got), want), kPointTol) << i;
    if (contains(c, p)) {
      EXPECT_EQ(got, p) << i;  // inside: the point itself, bit for bit
    }
  }
}

template <class R>
void check_rectangle_nearest(uint32_t seed, R (Gen::*make)()) {
  Gen g(seed);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const R r = (g.*make)();
    const Vec2 p = g.point();
    const Vec2 got = nearest_point(r, p);
    const std::vector<V> poly = ov(r);
    EXPECT_LE(dist(ov(got), op::nearest_on_filled(poly, ov(p))), kPointTol) << i;
    // The clamp never rounds: a point inside comes back unchanged, one outside lands on a side.
    if (op::hull_gap({ov(p)}, poly) <= 0) {
      EXPECT_EQ(got, p) << i;
    }
    // The three forms of the same rectangle agree.
    EXPECT_LE(dist(ov(got), ov(nearest_point(as_aabb(r), p))), kPointTol) << i;
  }
}

TEST(NearestPoint, BoxMatchesDenseSampling) { check_rectangle_nearest<Box>(103, &Gen::box); }
TEST(NearestPoint, AabbMatchesDenseSampling) { check_rectangle_nearest<Aabb>(104, &Gen::aabb); }
TEST(NearestPoint, RectMatchesDenseSampling) { check_rectangle_nearest<Rect>(105, &Gen::rect); }

TEST(NearestPoint, RectUsesItsOwnOriginAndSize) {
  // Seed 004's point_on_rect computes r, b from undefined x, y instead of l, t; the intent is
  // the rect's own corners.
  const Rect r{{2, 3}, {4, 1}};
  EXPECT_EQ(nearest_point(r, Vec2{0, 0}), (Vec2{2, 3}));
  EXPECT_EQ(nearest_point(r, Vec2{10, 10}), (Vec2{6, 4}));
  EXPECT_EQ(nearest_point(r, Vec2{4, 0}), (Vec2{4, 3}));
  EXPECT_EQ(nearest_point(r, Vec2{3, 3.5f}), (Vec2{3, 3.5f}));
}

TEST(NearestPoint, TriangleMatchesDenseSamplingInEitherWinding) {
  Gen g(106);
  int degenerate = 0;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Triangle t = g.triangle();
    if (cross(t.b - t.a, t.c - t.a) == 0) ++degenerate;
    const Vec2 p = g.point_near(t.a, i % 2 ? t.b : t.c);
    const Vec2 got = nearest_point(t, p);
    EXPECT_LE(dist(ov(got), op::nearest_on_filled(ov(t), ov(p))), kPointTol) << i;
    const Triangle flipped{t.a, t.c, t.b};
    EXPECT_LE(dist(ov(got), ov(nearest_point(flipped, p))), kPointTol) << i;
    if (g.regime != Regime::kFloat && op::hull_gap({ov(p)}, ov(t)) <= 0) {
      EXPECT_EQ(got, p) << i;
    }
  }
  EXPECT_GT(degenerate, kCases / 50);
}

TEST(NearestPoint, TriangleVoronoiRegions) {
  const Triangle t{{0, 0}, {4, 0}, {0, 2}};
  EXPECT_EQ(nearest_point(t, Vec2{-1, -1}), t.a);               // vertex a
  EXPECT_EQ(nearest_point(t, Vec2{6, -1}), t.b);                // vertex b
  EXPECT_EQ(nearest_point(t, Vec2{-1, 5}), t.c);                // vertex c
  EXPECT_EQ(nearest_point(t, Vec2{2, -3}), (Vec2{2, 0}));       // edge ab
  EXPECT_EQ(nearest_point(t, Vec2{-2, 1}), (Vec2{0, 1}));       // edge ca
  EXPECT_EQ(nearest_point(t, Vec2{3, 2}), (Vec2{2.4f, 0.8f}));  // edge bc
  EXPECT_EQ(nearest_point(t, Vec2{1, 0.5f}), (Vec2{1, 0.5f}));  // inside
}

TEST(NearestPoint, SliverTriangleStaysAccurate) {
  // Ericson's dot-product form of the edge test cancels badly for slivers; the cross-product
  // form used here does not.
  const Triangle t{{0, 0}, {1000, 0}, {500, 1e-3f}};
  for (const Vec2 p : {Vec2{500, -3}, Vec2{500, 3}, Vec2{-2, 1e-4f}, Vec2{250, 1e-4f}}) {
    EXPECT_LE(dist(ov(nearest_point(t, p)), op::nearest_on_filled(ov(t), ov(p))), 1e-4L);
  }
}

TEST(NearestPoint, DegenerateTriangleIsItsSegmentOrPoint) {
  const Triangle line{{0, 0}, {2, 2}, {1, 1}};
  EXPECT_EQ(nearest_point(line, Vec2{0, 2}), (Vec2{1, 1}));
  EXPECT_EQ(nearest_point(line, Vec2{5, 5}), (Vec2{2, 2}));
  EXPECT_EQ(nearest_point(line, Vec2{0.5f, 0.5f}), (Vec2{0.5f, 0.5f}));
  const Triangle point{{3, -1}, {3, -1}, {3, -1}};
  EXPECT_EQ(nearest_point(point, Vec2{0, 0}), (Vec2{3, -1}));
}

// ---------------------------------------------------------------------------------------------
// Point containment (boundary included)

TEST(Contains, CircleAgreesWithExactPredicate) {
  Gen g(201);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Circle c = g.circle();
    const Vec2 p = g.point_around(c.center, 1.5f * c.radius + 0.5f);
    const V d = ov(p) - ov(c.center);
    const real r = c.radius;
    check.check(contains(c, p), oracle::dot(d, d) <= r * r, op::length(d) - r, g.regime, "circle", i);
  }
  check.expect_balanced();
}

TEST(Contains, PointsExactlyOnTheCircleAreInside) {
  // Pythagorean triples scaled by powers of two lie exactly on the circle.
  for (const float k : {1e-3f, 0.25f, 1.0f, 64.0f, 1024.0f}) {
    const float kk = std::ldexp(1.0f, std::ilogb(k));
    const Circle c{{1.5f, -2.25f}, 5 * kk};
    for (const Vec2 d : {Vec2{3, 4}, Vec2{-4, 3}, Vec2{0, -5}, Vec2{5, 0}, Vec2{-3, -4}}) {
      const Vec2 p = c.center + kk * d;
      EXPECT_TRUE(contains(c, p)) << kk;
      EXPECT_TRUE(overlaps(c, Circle{p, 0}));
      EXPECT_EQ(nearest_point(c, p), p);
      EXPECT_FALSE(contains(c, Vec2{p.x + 1e-3f * kk * d.x, p.y + 1e-3f * kk * d.y}));
    }
  }
}

template <class R>
void check_rectangle_contains(uint32_t seed, R (Gen::*make)()) {
  Gen g(seed);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const R r = (g.*make)();
    const Aabb box = as_aabb(r);
    const Vec2 mid = to_vec2(box.lower + 0.5f * (box.upper - box.lower));
    const Vec2 p =
        g.point_around(mid, 0.7f * std::max(float(box.upper.x - box.lower.x), float(box.upper.y - box.lower.y)) + 0.3f);
    const real gap = op::hull_gap({ov(p)}, ov(r));
    check.check(contains(r, p), gap <= 0, gap, g.regime, "rectangle", i);
    EXPECT_EQ(contains(r, p), contains(as_aabb(r), p)) << i;
  }
  check.expect_balanced();
}

TEST(Contains, BoxAgreesWithExactPredicate) { check_rectangle_contains<Box>(202, &Gen::box); }
TEST(Contains, AabbAgreesWithExactPredicate) { check_rectangle_contains<Aabb>(203, &Gen::aabb); }
TEST(Contains, RectAgreesWithExactPredicate) { check_rectangle_contains<Rect>(204, &Gen::rect); }

TEST(Contains, RectangleEdgesAndCornersAreInside) {
  const Box b{{1, 1}, {2, 0.5f}};
  const Aabb a{{-1, 0.5f}, {3, 1.5f}};
  const Rect r{{-1, 0.5f}, {4, 1}};
  for (const Vec2 p : {Vec2{-1, 0.5f}, Vec2{3, 1.5f}, Vec2{0, 1.5f}, Vec2{3, 1}, Vec2{-1, 1.5f}}) {
    EXPECT_TRUE(contains(b, p));
    EXPECT_TRUE(contains(a, p));
    EXPECT_TRUE(contains(r, p));
  }
  for (const Vec2 p : {Vec2{-1.001f, 0.5f}, Vec2{3, 1.501f}}) {
    EXPECT_FALSE(contains(b, p));
    EXPECT_FALSE(contains(a, p));
    EXPECT_FALSE(contains(r, p));
  }
}

TEST(Contains, TriangleAgreesWithExactPredicate) {
  Gen g(205);
  PredicateCheck check;
  int on_boundary = 0;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Triangle t = g.triangle();
    const Vec2 p = g.point_near(i % 2 ? t.b : t.c, t.a);
    const real gap = op::hull_gap({ov(p)}, ov(t));
    if (gap == 0) ++on_boundary;
    check.check(contains(t, p), gap <= 0, gap, g.regime, "triangle", i);
    EXPECT_EQ(contains(t, p), contains(Triangle{t.c, t.b, t.a}, p)) << i;  // either winding
  }
  check.expect_balanced();
  EXPECT_GT(on_boundary, kCases / 20);  // the grids put many points exactly on an edge
}

TEST(Contains, TriangleEdgesAndVerticesAreInside) {
  const Triangle t{{-0.3f, 0.1f}, {0.7f, 0.35f}, {0.1f, 0.9f}};
  EXPECT_TRUE(contains(t, t.a));
  EXPECT_TRUE(contains(t, t.b));
  EXPECT_TRUE(contains(t, t.c));
  // Exact points of the edges: a lattice triangle and its edge points.
  const Triangle u{{0, 0}, {6, 3}, {2, 8}};
  EXPECT_TRUE(contains(u, Vec2{2, 1}));
  EXPECT_TRUE(contains(u, Vec2{4, 5.5f}));
  EXPECT_TRUE(contains(u, Vec2{1, 4}));
  EXPECT_FALSE(contains(u, Vec2{2, 0.999f}));
  EXPECT_FALSE(contains(u, Vec2{8, 4}));  // on the line of edge ab, beyond b
}

TEST(Contains, DegenerateTriangleContainsOnlyItsSegment) {
  const Triangle t{{0, 0}, {3, 3}, {1, 1}};
  EXPECT_TRUE(contains(t, Vec2{2, 2}));
  EXPECT_TRUE(contains(t, Vec2{3, 3}));
  EXPECT_FALSE(contains(t, Vec2{4, 4}));  // on the line, past the end
  EXPECT_FALSE(contains(t, Vec2{2, 2.5f}));
  const Triangle p{{1, 2}, {1, 2}, {1, 2}};
  EXPECT_TRUE(contains(p, Vec2{1, 2}));
  EXPECT_FALSE(contains(p, Vec2{1, 2.0001f}));
}

// ---------------------------------------------------------------------------------------------
// Segment against segment

TEST(SegmentIntersection, AgreesWithExactPredicateAndThePointLiesOnBoth) {
  Gen g(301);
  PredicateCheck check;
  int collinear = 0;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Segment s = g.segment();
    Segment t = g.segment();
    if (g.regime != Regime::kFloat && i % 5 == 0) {
      // Parallel or collinear with s: the seed's d == 0 case.
      const Vec2 d = s.b - s.a;
      const Vec2 base = g.uniform() < 0.5 ? s.a : g.point();
      t = {base + float(g.integer(-2, 2)) * d, base + float(g.integer(-2, 2)) * d};
    }
    const SegmentHit hit = intersect(s, t);
    const real gap = op::hull_gap(ov(s), ov(t));
    check.check(hit.hit, gap <= 0, gap, g.regime, "segment", i);
    EXPECT_EQ(hit.hit, overlaps(s, t));
    EXPECT_EQ(hit.hit, intersect(t, s).hit);
    if (!hit.hit) {
      EXPECT_EQ(hit.point, (Vec2{})) << i;
      continue;
    }
    EXPECT_LE(op::distance_to_segment(ov(s.a), ov(s.b), ov(hit.point)), kPointTol) << i;
    EXPECT_LE(op::distance_to_segment(ov(t.a), ov(t.b), ov(hit.point)), kPointTol) << i;
    const V ds = ov(s.b) - ov(s.a), dt = ov(t.b) - ov(t.a);
    if (g.regime != Regime::kFloat && oracle::cross(ds, ov(t.a) - ov(s.a)) == 0 &&
        oracle::cross(ds, ov(t.b) - ov(s.a)) == 0 && oracle::cross(dt, ov(s.a) - ov(t.a)) == 0 &&
        oracle::cross(dt, ov(s.b) - ov(t.a)) == 0) {
      // Collinear: the shared point nearest s.a, which is s.a itself or an end of t.
      ++collinear;
      V want{};
      real best = std::numeric_limits<real>::infinity();
      for (const V c : {ov(s.a), ov(t.a), ov(t.b)}) {
        if (op::on_segment(ov(s.a), ov(s.b), c) && op::on_segment(ov(t.a), ov(t.b), c) && dist(c, ov(s.a)) < best) {
          want = c;
          best = dist(c, ov(s.a));
        }
      }
      EXPECT_EQ(ov(hit.point).x, want.x) << i;
      EXPECT_EQ(ov(hit.point).y, want.y) << i;
    }
  }
  check.expect_balanced();
  EXPECT_GT(collinear, kCases / 100);
}

TEST(SegmentIntersection, CrossingPointIsExact) {
  const SegmentHit h = intersect({{0, 0}, {4, 4}}, {{0, 4}, {4, 0}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.point, (Vec2{2, 2}));
  const SegmentHit tee = intersect({{0, 0}, {4, 0}}, {{1, 0}, {1, 5}});  // end on the interior
  EXPECT_TRUE(tee.hit);
  EXPECT_EQ(tee.point, (Vec2{1, 0}));
  const SegmentHit ends = intersect({{0, 0}, {1, 1}}, {{1, 1}, {2, 0}});  // shared end
  EXPECT_TRUE(ends.hit);
  EXPECT_EQ(ends.point, (Vec2{1, 1}));
}

TEST(SegmentIntersection, ParallelSegmentsMissUnlessCollinearAndOverlapping) {
  EXPECT_FALSE(intersect({{0, 0}, {4, 0}}, {{0, 1}, {4, 1}}).hit);         // parallel
  EXPECT_FALSE(intersect({{0, 0}, {1, 0}}, {{2, 0}, {3, 0}}).hit);         // collinear, apart
  const SegmentHit touch = intersect({{0, 0}, {2, 0}}, {{2, 0}, {3, 0}});  // collinear, touching
  EXPECT_TRUE(touch.hit);
  EXPECT_EQ(touch.point, (Vec2{2, 0}));
  const SegmentHit over = intersect({{5, 5}, {1, 1}}, {{0, 0}, {3, 3}});  // overlap [1,3]
  EXPECT_TRUE(over.hit);
  EXPECT_EQ(over.point, (Vec2{3, 3}));  // nearest s.a = (5,5)
  const SegmentHit inside = intersect({{1, 1}, {2, 2}}, {{0, 0}, {3, 3}});
  EXPECT_TRUE(inside.hit);
  EXPECT_EQ(inside.point, (Vec2{1, 1}));
  const SegmentHit vertical = intersect({{0, 0}, {0, 4}}, {{0, 6}, {0, 3}});
  EXPECT_TRUE(vertical.hit);
  EXPECT_EQ(vertical.point, (Vec2{0, 3}));
}

TEST(SegmentIntersection, ZeroLengthSegmentsActAsPoints) {
  EXPECT_TRUE(intersect({{1, 1}, {1, 1}}, {{0, 0}, {2, 2}}).hit);
  EXPECT_EQ(intersect({{1, 1}, {1, 1}}, {{0, 0}, {2, 2}}).point, (Vec2{1, 1}));
  EXPECT_TRUE(intersect({{0, 0}, {2, 2}}, {{1, 1}, {1, 1}}).hit);
  EXPECT_EQ(intersect({{0, 0}, {2, 2}}, {{1, 1}, {1, 1}}).point, (Vec2{1, 1}));
  EXPECT_FALSE(intersect({{1, 1.5f}, {1, 1.5f}}, {{0, 0}, {2, 2}}).hit);
  EXPECT_FALSE(intersect({{3, 3}, {3, 3}}, {{0, 0}, {2, 2}}).hit);  // on the line, past the end
  EXPECT_TRUE(intersect({{3, 3}, {3, 3}}, {{3, 3}, {3, 3}}).hit);
  EXPECT_FALSE(intersect({{3, 3}, {3, 3}}, {{3, 4}, {3, 4}}).hit);
}

// ---------------------------------------------------------------------------------------------
// Shape pairs

TEST(Overlaps, SegmentCircleAgreesWithExactPredicate) {
  Gen g(401);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Segment s = g.segment();
    const Circle c = g.circle();
    const bool exact = op::segment_meets_disc(ov(s.a), ov(s.b), ov(c.center), c.radius);
    const real margin = op::distance_to_segment(ov(s.a), ov(s.b), ov(c.center)) - c.radius;
    check.check(overlaps(s, c), exact, margin, g.regime, "segment-circle", i);
    EXPECT_EQ(overlaps(s, c), overlaps(c, s));
  }
  check.expect_balanced();
}

TEST(Overlaps, CircleCircleAgreesWithExactPredicate) {
  Gen g(402);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Circle a = g.circle(), b = g.circle();
    const V d = ov(b.center) - ov(a.center);
    const real r = real(a.radius) + b.radius;
    check.check(overlaps(a, b), oracle::dot(d, d) <= r * r, op::length(d) - r, g.regime, "circle-circle", i);
    EXPECT_EQ(overlaps(a, b), overlaps(b, a));
    EXPECT_EQ(overlaps(a, b), contains(Circle{a.center, a.radius + b.radius}, b.center)) << i;
  }
  check.expect_balanced();
}

TEST(Overlaps, TouchingCirclesOverlap) {
  // Seed 004's expanded circle_vs_circle reads undefined px, py; the intent is this.
  EXPECT_TRUE(overlaps(Circle{{0, 0}, 1}, Circle{{3, 4}, 4}));
  EXPECT_FALSE(overlaps(Circle{{0, 0}, 1}, Circle{{3, 4}, 3.999f}));
  EXPECT_TRUE(overlaps(Circle{{2, 2}, 0}, Circle{{2, 2}, 0}));
}

// Circle against a polygon, decided exactly: the center inside, or an edge within reach.
bool exact_circle_meets_polygon(const Circle& c, const std::vector<V>& poly) {
  if (op::hull_gap({ov(c.center)}, poly) <= 0) return true;
  for (size_t k = 0; k < poly.size(); ++k)
    if (op::segment_meets_disc(poly[k], poly[(k + 1) % poly.size()], ov(c.center), c.radius)) return true;
  return false;
}

template <class R>
void check_circle_rectangle(uint32_t seed, R (Gen::*make)()) {
  Gen g(seed);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const R r = (g.*make)();
    const Circle c = g.circle();
    const std::vector<V> poly = ov(r);
    const real margin = dist(op::nearest_on_filled(poly, ov(c.center)), ov(c.center)) - c.radius;
    check.check(overlaps(c, r), exact_circle_meets_polygon(c, poly), margin, g.regime, "circle-rectangle", i);
    EXPECT_EQ(overlaps(c, r), overlaps(r, c));
    EXPECT_EQ(overlaps(c, r), overlaps(c, as_aabb(r))) << i;
  }
  check.expect_balanced();
}

TEST(Overlaps, CircleBoxAgreesWithExactPredicate) { check_circle_rectangle<Box>(403, &Gen::box); }
TEST(Overlaps, CircleAabbAgreesWithExactPredicate) { check_circle_rectangle<Aabb>(404, &Gen::aabb); }
TEST(Overlaps, CircleRectAgreesWithExactPredicate) { check_circle_rectangle<Rect>(405, &Gen::rect); }

TEST(Overlaps, CircleTriangleAgreesWithExactPredicate) {
  Gen g(406);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Triangle t = g.triangle();
    const Circle c = g.circle();
    const std::vector<V> poly = ov(t);
    const real margin = dist(op::nearest_on_filled(poly, ov(c.center)), ov(c.center)) - c.radius;
    check.check(overlaps(c, t), exact_circle_meets_polygon(c, poly), margin, g.regime, "circle-triangle", i);
    EXPECT_EQ(overlaps(c, t), overlaps(t, c));
    EXPECT_EQ(overlaps(c, t), overlaps(c, Triangle{t.b, t.a, t.c})) << i;
  }
  check.expect_balanced();
}

TEST(Overlaps, ZeroRadiusCircleIsAPoint) {
  const Triangle t{{0, 0}, {6, 3}, {2, 8}};
  EXPECT_TRUE(overlaps(Circle{{2, 1}, 0}, t));  // exactly on an edge
  EXPECT_FALSE(overlaps(Circle{{8, 4}, 0}, t));
  EXPECT_TRUE(overlaps(Circle{{1, 1}, 0}, Box{{0, 0}, {1, 1}}));
  EXPECT_TRUE(overlaps(Circle{{1, 1}, 0}, Segment{{0, 0}, {2, 2}}));
}

TEST(Overlaps, TriangleTriangleAgreesWithExactPredicate) {
  Gen g(407);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Triangle s = g.triangle(), t = g.triangle();
    const real gap = op::hull_gap(ov(s), ov(t));
    check.check(overlaps(s, t), gap <= 0, gap, g.regime, "triangle-triangle", i);
    EXPECT_EQ(overlaps(s, t), overlaps(t, s));
    EXPECT_EQ(overlaps(s, t), overlaps(Triangle{s.c, s.b, s.a}, t)) << i;
  }
  check.expect_balanced();
}

TEST(Overlaps, NestedAndTouchingTriangles) {
  const Triangle big{{0, 0}, {10, 0}, {0, 10}};
  EXPECT_TRUE(overlaps(big, Triangle{{1, 1}, {2, 1}, {1, 2}}));  // inside, no edge crossing
  EXPECT_TRUE(overlaps(Triangle{{1, 1}, {2, 1}, {1, 2}}, big));
  EXPECT_TRUE(overlaps(big, Triangle{{10, 0}, {12, 0}, {12, 3}}));  // shared vertex
  EXPECT_TRUE(overlaps(big, Triangle{{5, 5}, {9, 9}, {9, 5}}));     // vertex on the hypotenuse
  EXPECT_FALSE(overlaps(big, Triangle{{5.5f, 5}, {9, 9}, {9, 5}}));
}

template <class R>
void check_rectangle_pair(uint32_t seed, R (Gen::*make)()) {
  Gen g(seed);
  PredicateCheck check;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const R a = (g.*make)(), b = (g.*make)();
    const std::vector<V> pa = ov(a), pb = ov(b);
    const real gap = op::hull_gap(pa, pb);
    const Penetration pen = penetration(a, b);
    check.check(overlaps(a, b), gap <= 0, gap, g.regime, "rectangle-rectangle", i);
    EXPECT_EQ(pen.hit, overlaps(a, b)) << i;
    EXPECT_EQ(overlaps(a, b), overlaps(b, a));
    if (!pen.hit) {
      EXPECT_EQ(pen.separation, (Vec2{})) << i;
      continue;
    }
    // Axis-aligned, as long as the least translation over all directions (the oracle's depth),
    // and moving b by it leaves the two just touching.
    EXPECT_TRUE(pen.separation.x == 0 || pen.separation.y == 0) << i;
    const real length = op::length(ov(pen.separation));
    std::vector<V> moved = pb;
    for (V& p : moved) p = p + ov(pen.separation);
    const real after = op::hull_gap(pa, moved);
    if (g.regime == Regime::kFloat) {
      EXPECT_NEAR(double(length), double(-gap), 1e-5) << i;
      EXPECT_NEAR(double(after), 0.0, 1e-5) << i;
    } else {
      EXPECT_EQ(length, -gap) << i;
      EXPECT_EQ(after, 0) << i;
    }
  }
  check.expect_balanced();
}

TEST(Penetration, BoxPairAgreesWithExactPredicateAndLeastTranslation) { check_rectangle_pair<Box>(501, &Gen::box); }
TEST(Penetration, AabbPairAgreesWithExactPredicateAndLeastTranslation) { check_rectangle_pair<Aabb>(502, &Gen::aabb); }
TEST(Penetration, RectPairAgreesWithExactPredicateAndLeastTranslation) { check_rectangle_pair<Rect>(503, &Gen::rect); }

TEST(Penetration, SeparationMovesTheSecondRectangleAlongTheLeastOverlap) {
  const Box a{{0, 0}, {2, 1}};
  EXPECT_EQ(penetration(a, Box{{2.5f, 0.5f}, {1, 1}}).separation, (Vec2{0.5f, 0}));    // right
  EXPECT_EQ(penetration(a, Box{{-2.5f, 0.5f}, {1, 1}}).separation, (Vec2{-0.5f, 0}));  // left
  EXPECT_EQ(penetration(a, Box{{0.5f, 1.75f}, {1, 1}}).separation, (Vec2{0, 0.25f}));  // up
  EXPECT_EQ(penetration(a, Box{{0.5f, -1.75f}, {1, 1}}).separation, (Vec2{0, -0.25f}));
  // b deep inside a: out through the nearer side.
  EXPECT_EQ(penetration(a, Box{{1.5f, 0}, {0.25f, 0.25f}}).separation, (Vec2{0.75f, 0}));
  // Same centre: positive side of the axis of least overlap; a tie goes to x.
  EXPECT_EQ(penetration(a, Box{{0, 0}, {1, 1}}).separation, (Vec2{0, 2}));
  EXPECT_EQ(penetration(Box{{0, 0}, {1, 1}}, Box{{0, 0}, {1, 1}}).separation, (Vec2{2, 0}));
  // Touching: a hit with nothing to undo (and +0, never -0).
  const Penetration touch = penetration(a, Box{{-3, 0}, {1, 1}});
  EXPECT_TRUE(touch.hit);
  EXPECT_EQ(touch.separation, (Vec2{}));
  EXPECT_FALSE(std::signbit(touch.separation.x));
  EXPECT_FALSE(penetration(a, Box{{-3.01f, 0}, {1, 1}}).hit);
  // The three forms agree.
  const Aabb aa = to_aabb(a), bb{{1.5f, -0.5f}, {3.5f, 1.5f}};
  EXPECT_EQ(penetration(aa, bb).separation, (Vec2{0.5f, 0}));
  EXPECT_EQ(penetration(to_rect(aa), to_rect(bb)).separation, (Vec2{0.5f, 0}));
  EXPECT_EQ(penetration(a, to_box(bb)).separation, (Vec2{0.5f, 0}));
}

// ---------------------------------------------------------------------------------------------
// Nearest edge from a point inside

TEST(NearestEdge, CircleMatchesDenseSampling) {
  Gen g(601);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Circle c{g.point(), g.size(5) + 0.1f};
    // Points inside, away from the centre (where the answer jumps).
    const float angle = float(g.uniform() * 6.283185307179586), frac = float(0.01 + 0.99 * g.uniform());
    const Vec2 p = c.center + (frac * c.radius) * Vec2{std::cos(angle), std::sin(angle)};
    const NearestEdge e = nearest_edge(c, p);
    const V want = op::nearest_on_circle(ov(c.center), c.radius, ov(p));
    EXPECT_LE(dist(ov(e.point), want), kPointTol) << i;
    const V n = (1 / real(c.radius)) * (want - ov(c.center));
    EXPECT_LE(dist(ov(e.normal), n), 1e-5L) << i;
  }
}

TEST(NearestEdge, BoxMatchesEdgeDistances) {
  Gen g(602);
  int checked = 0;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Box b = g.box();
    const Vec2 p{b.center.x + float((2 * g.uniform() - 1) * b.half_extents.x),
                 b.center.y + float((2 * g.uniform() - 1) * b.half_extents.y)};
    if (!contains(b, p)) continue;
    const std::vector<V> poly = ov(b);
    // Sides counter-clockwise from the bottom: normals -y, +x, +y, -x.
    const V normals[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    real d[4];
    for (int k = 0; k < 4; ++k) d[k] = op::distance_to_segment(poly[k], poly[(k + 1) % 4], ov(p));
    int best = 0;
    for (int k = 1; k < 4; ++k)
      if (d[k] < d[best]) best = k;
    real second = std::numeric_limits<real>::infinity();
    for (int k = 0; k < 4; ++k)
      if (k != best) second = std::min(second, d[k]);
    const NearestEdge e = nearest_edge(b, p);
    EXPECT_LE(dist(ov(e.point), ov(p)), d[best] + kPointTol) << i;
    EXPECT_LE(op::distance_to_segment(poly[best], poly[(best + 1) % 4], ov(e.point)), kPointTol) << i;
    if (second - d[best] > 1e-5L) {
      ++checked;
      EXPECT_EQ(ov(e.normal).x, normals[best].x) << i;
      EXPECT_EQ(ov(e.normal).y, normals[best].y) << i;
    }
    const NearestEdge ea = nearest_edge(to_aabb(b), p), er = nearest_edge(to_rect(to_aabb(b)), p);
    EXPECT_EQ(ea.normal, e.normal) << i;
    EXPECT_EQ(er.normal, e.normal) << i;
  }
  EXPECT_GT(checked, kCases / 2);
}

TEST(NearestEdge, CentreGetsAFixedNormal) {
  EXPECT_EQ(nearest_edge(Circle{{1, 2}, 3}, Vec2{1, 2}).normal, (Vec2{1, 0}));
  EXPECT_EQ(nearest_edge(Circle{{1, 2}, 3}, Vec2{1, 2}).point, (Vec2{4, 2}));
  EXPECT_EQ(nearest_edge(Circle{{1, 2}, 0}, Vec2{1, 2}).point, (Vec2{1, 2}));
  // A box: the axis of the smaller half extent, positive side; a square: +x.
  EXPECT_EQ(nearest_edge(Box{{1, 2}, {3, 1}}, Vec2{1, 2}).normal, (Vec2{0, 1}));
  EXPECT_EQ(nearest_edge(Box{{1, 2}, {3, 1}}, Vec2{1, 2}).point, (Vec2{1, 3}));
  EXPECT_EQ(nearest_edge(Box{{1, 2}, {1, 3}}, Vec2{1, 2}).normal, (Vec2{1, 0}));
  EXPECT_EQ(nearest_edge(Box{{1, 2}, {2, 2}}, Vec2{1, 2}).normal, (Vec2{1, 0}));
  EXPECT_EQ(nearest_edge(Aabb{{0, 0}, {2, 2}}, Vec2{1, 1}).normal, (Vec2{1, 0}));
  EXPECT_EQ(nearest_edge(Rect{{0, 0}, {4, 2}}, Vec2{2, 1}).normal, (Vec2{0, 1}));
  EXPECT_EQ(nearest_edge(Box{{5, 5}, {0, 0}}, Vec2{5, 5}).normal, (Vec2{1, 0}));  // zero size
  // On the midline of the long axis, the nearer side wins with its own sign.
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {3, 1}}, Vec2{0, -0.5f}).normal, (Vec2{0, -1}));
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {3, 1}}, Vec2{-2.5f, 0}).normal, (Vec2{-1, 0}));
}

TEST(NearestEdge, OutsidePointsGetTheNearestBoundaryPointAndTheFaceTheyAreFurthestBeyond) {
  const Box b{{0, 0}, {2, 1}};
  const NearestEdge right = nearest_edge(b, Vec2{5, 0.5f});
  EXPECT_EQ(right.point, (Vec2{2, 0.5f}));
  EXPECT_EQ(right.normal, (Vec2{1, 0}));
  const NearestEdge corner = nearest_edge(b, Vec2{3, 4});  // 1 beyond in x, 3 beyond in y
  EXPECT_EQ(corner.point, (Vec2{2, 1}));
  EXPECT_EQ(corner.normal, (Vec2{0, 1}));
  Gen g(603);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Box box = g.box();
    const Vec2 p = g.point();
    EXPECT_EQ(nearest_edge(box, p).point, contains(box, p) ? nearest_edge(box, p).point : nearest_point(box, p));
    const Circle c = g.circle();
    if (!contains(c, p)) {
      EXPECT_LE(dist(ov(nearest_edge(c, p).point), ov(nearest_point(c, p))), kPointTol);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Bounding boxes and conversions

TEST(Bounds, PointSetBoxIsTheExactMinAndMax) {
  Gen g(701);
  for (int i = 0; i < 2000; ++i) {
    g.regime = regime_of(i);
    std::vector<Vec2> pts(size_t(g.integer(1, 20)));
    for (Vec2& p : pts) p = g.point();
    const Aabb box = bounds(pts);
    real lx = pts[0].x, ly = pts[0].y, ux = lx, uy = ly;
    for (const Vec2 p : pts) {
      lx = std::min<real>(lx, p.x);
      ly = std::min<real>(ly, p.y);
      ux = std::max<real>(ux, p.x);
      uy = std::max<real>(uy, p.y);
    }
    EXPECT_EQ(real(box.lower.x), lx);
    EXPECT_EQ(real(box.lower.y), ly);
    EXPECT_EQ(real(box.upper.x), ux);
    EXPECT_EQ(real(box.upper.y), uy);
    // The union of the boxes of two halves is the box of all.
    const size_t half = pts.size() / 2;
    if (half > 0) {
      const Aabb u = combine(bounds(std::span(pts).first(half)), bounds(std::span(pts).subspan(half)));
      EXPECT_EQ(u, box);
    }
  }
  EXPECT_EQ(bounds(std::span<const Vec2>{}), (Aabb{}));
}

TEST(Bounds, ShapesAndConversions) {
  EXPECT_EQ(bounds(Circle{{1, 2}, 0.5f}), (Aabb{{0.5f, 1.5f}, {1.5f, 2.5f}}));
  EXPECT_EQ(bounds(Segment{{3, -1}, {1, 2}}), (Aabb{{1, -1}, {3, 2}}));
  EXPECT_EQ(bounds(Triangle{{0, 0}, {-2, 5}, {4, 1}}), (Aabb{{-2, 0}, {4, 5}}));
  EXPECT_EQ(bounds(Box{{1, 1}, {2, 0.5f}}), (Aabb{{-1, 0.5f}, {3, 1.5f}}));
  EXPECT_EQ(bounds(Rect{{-1, 0.5f}, {4, 1}}), (Aabb{{-1, 0.5f}, {3, 1.5f}}));
  EXPECT_EQ(to_box(Aabb{{-1, 0.5f}, {3, 1.5f}}).center, (Vec2{1, 1}));
  EXPECT_EQ(to_box(Aabb{{-1, 0.5f}, {3, 1.5f}}).half_extents, (Vec2{2, 0.5f}));
  EXPECT_EQ(to_rect(Aabb{{-1, 0.5f}, {3, 1.5f}}).size, (Vec2{4, 1}));
  Gen g(702);
  for (int i = 0; i < 2000; ++i) {
    g.regime = regime_of(i);
    const Aabb a = g.aabb();
    const Aabb via_box = to_aabb(to_box(a)), via_rect = to_aabb(to_rect(a));
    const real tol = g.regime == Regime::kFloat ? 4e-6L : 0;
    EXPECT_LE(dist(ov(via_box.lower), ov(a.lower)), tol) << i;
    EXPECT_LE(dist(ov(via_box.upper), ov(a.upper)), tol) << i;
    EXPECT_LE(dist(ov(via_rect.upper), ov(a.upper)), tol) << i;
    EXPECT_EQ(via_rect.lower, a.lower);
  }
}

// ---------------------------------------------------------------------------------------------
// Degenerate and extreme input: defined, finite answers everywhere

TEST(Degenerate, EveryFunctionGivesFiniteAnswers) {
  constexpr float kBig = std::numeric_limits<float>::max();
  const float values[] = {0, -0.0f, 1, -1, 1e-45f, -1e-38f, 1e9f, -1e9f, 1e30f, -3e38f, kBig, -kBig};
  std::mt19937 rng(801);
  const auto pick = [&] { return values[rng() % std::size(values)]; };
  const auto v = [&] { return Vec2{pick(), pick()}; };
  for (int i = 0; i < 20000; ++i) {
    const Vec2 p = v();
    const Circle c{v(), pick()};
    const Segment s{v(), v()}, s2{v(), v()};
    const Triangle t{v(), v(), v()};
    const Box b{v(), v()};
    const Aabb a{v(), v()};
    const Rect r{v(), v()};
    for (const Position q : std::initializer_list<Position>{nearest_point(s, p),
                                                            nearest_point(c, p),
                                                            nearest_point(b, p),
                                                            nearest_point(a, p),
                                                            nearest_point(r, p),
                                                            nearest_point(t, p),
                                                            intersect(s, s2).point,
                                                            penetration(b, Box{v(), v()}).separation,
                                                            penetration(a, Aabb{v(), v()}).separation,
                                                            penetration(r, Rect{v(), v()}).separation,
                                                            nearest_edge(c, p).point,
                                                            nearest_edge(c, p).normal,
                                                            nearest_edge(b, p).point,
                                                            nearest_edge(a, p).point,
                                                            nearest_edge(r, p).point,
                                                            to_aabb(b).lower,
                                                            to_aabb(b).upper,
                                                            to_aabb(r).upper,
                                                            to_box(a).center,
                                                            to_box(a).half_extents,
                                                            to_rect(a).size,
                                                            bounds(c).lower,
                                                            bounds(c).upper}) {
      ASSERT_TRUE(finite(q)) << i << ": " << q.x << ", " << q.y;
    }
    // The booleans just have to be computed; make sure the calls are not optimized away.
    volatile bool sink = overlaps(s, c) || overlaps(c, c) || overlaps(c, b) || overlaps(c, a) || overlaps(c, r) ||
                         overlaps(c, t) || overlaps(t, t) || overlaps(b, b) || overlaps(r, r) || contains(t, p) ||
                         contains(c, p) || contains(b, p) || contains(r, p);
    (void)sink;
  }
}

TEST(Degenerate, NegativeSizesCountAsZero) {
  EXPECT_TRUE(contains(Circle{{1, 1}, -2}, Vec2{1, 1}));
  EXPECT_FALSE(contains(Circle{{1, 1}, -2}, Vec2{2, 1}));
  EXPECT_EQ(nearest_point(Circle{{1, 1}, -2}, Vec2{5, 1}), (Vec2{1, 1}));
  EXPECT_EQ(nearest_point(Box{{1, 1}, {-1, 2}}, Vec2{5, 5}), (Vec2{1, 3}));
  EXPECT_EQ(to_aabb(Rect{{1, 1}, {-3, 2}}), (Aabb{{1, 1}, {1, 3}}));
  EXPECT_FALSE(overlaps(Circle{{0, 0}, -1}, Circle{{1.5f, 0}, 1}));
}

// ---------------------------------------------------------------------------------------------
// Agreement with the general Shape queries where both answer the same question

TEST(ShapeAgreement, BoxAgreesWithShapeBox) {
  Gen g(901);
  int inside_checked = 0;
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Box b{g.point(), {g.size(5) + 0.05f, g.size(5) + 0.05f}};
    const Shape shape = Shape::box(b.half_extents.x, b.half_extents.y);
    const Transform xf{b.center, Rot::identity()};
    const Vec2 p = g.point();
    const ProjectionResult proj = project_point(shape, xf, p);
    const real tol = 1e-5L * (1 + std::fabs(b.center.x) + std::fabs(b.center.y) + std::fabs(p.x) + std::fabs(p.y));
    // Containment: equal except within rounding of the boundary.
    const real gap = op::hull_gap({ov(p)}, ov(b));
    if (std::fabs(gap) > tol) {
      EXPECT_EQ(contains(b, p), pebble::contains(shape, xf, p)) << i;
      EXPECT_EQ(contains(b, p), proj.inside) << i;
    }
    if (gap > tol) {
      // Outside: the nearest point of the box is the boundary point project_point finds.
      EXPECT_LE(dist(ov(nearest_point(b, p)), ov(proj.point)), tol) << i;
    } else if (gap < -tol) {
      // Inside: nearest_edge gives project_point's boundary point and normal wherever the
      // nearest side is unique. (Where two sides are equally near both answers are right and
      // the two pick differently: nearest_edge takes x, project_point the lower edge index.)
      const NearestEdge e = nearest_edge(b, p);
      const real dx = real(b.half_extents.x) - std::fabs(real(p.x) - b.center.x);
      const real dy = real(b.half_extents.y) - std::fabs(real(p.y) - b.center.y);
      if (std::fabs(dx - dy) > tol && std::fabs(p.x - b.center.x) > tol && std::fabs(p.y - b.center.y) > tol) {
        ++inside_checked;
        EXPECT_LE(dist(ov(e.point), ov(proj.point)), tol) << i;
        EXPECT_LE(dist(ov(e.normal), ov(proj.normal)), 1e-5L) << i;
      }
    }
    // Bounds.
    const Aabb sb = pebble::bounds(shape, xf), pb = to_aabb(b);
    EXPECT_LE(dist(ov(sb.lower), ov(pb.lower)), tol) << i;
    EXPECT_LE(dist(ov(sb.upper), ov(pb.upper)), tol) << i;
  }
  EXPECT_GT(inside_checked, kCases / 20);
}

TEST(ShapeAgreement, CircleAgreesWithShapeCircle) {
  Gen g(902);
  for (int i = 0; i < kCases; ++i) {
    g.regime = regime_of(i);
    const Circle c{g.point(), g.size(5)};
    const Shape shape = Shape::circle(c.radius);
    const Transform xf{c.center, Rot::identity()};
    const Vec2 p = g.point();
    const ProjectionResult proj = project_point(shape, xf, p);
    const real tol = 1e-5L * (1 + std::fabs(c.center.x) + std::fabs(c.center.y) + std::fabs(p.x) + std::fabs(p.y));
    const real margin = dist(ov(p), ov(c.center)) - c.radius;
    if (std::fabs(margin) > tol) {
      EXPECT_EQ(contains(c, p), pebble::contains(shape, xf, p)) << i;
    }
    if (margin > tol) {
      EXPECT_LE(dist(ov(nearest_point(c, p)), ov(proj.point)), tol) << i;
    }
    if (dist(ov(p), ov(c.center)) > tol) {
      const NearestEdge e = nearest_edge(c, p);
      EXPECT_LE(dist(ov(e.point), ov(proj.point)), tol) << i;
      EXPECT_LE(dist(ov(e.normal), ov(proj.normal)), 1e-5L) << i;
    }
    const Aabb sb = pebble::bounds(shape, xf), pb = bounds(c);
    EXPECT_LE(dist(ov(sb.lower), ov(pb.lower)), tol) << i;
    EXPECT_LE(dist(ov(sb.upper), ov(pb.upper)), tol) << i;
  }
  // Both pick +x at the exact centre.
  const Shape unit = Shape::circle(2);
  EXPECT_EQ(nearest_edge(Circle{{1, 1}, 2}, Vec2{1, 1}).normal, project_point(unit, {{1, 1}, {}}, Vec2{1, 1}).normal);
}

TEST(ShapeAgreement, PairTestsAgreeWithOverlap) {
  Gen g(903);
  for (int i = 0; i < 3000; ++i) {
    g.regime = regime_of(i);
    const Circle c1{g.point(), g.size(5)}, c2{g.point(), g.size(5)};
    const Box b1{g.point(), {g.size(5) + 0.05f, g.size(5) + 0.05f}},
        b2{g.point(), {g.size(5) + 0.05f, g.size(5) + 0.05f}};
    const Shape s_c1 = Shape::circle(c1.radius), s_c2 = Shape::circle(c2.radius);
    const Shape s_b1 = Shape::box(b1.half_extents.x, b1.half_extents.y),
                s_b2 = Shape::box(b2.half_extents.x, b2.half_extents.y);
    const Transform x_c1{c1.center, {}}, x_c2{c2.center, {}}, x_b1{b1.center, {}}, x_b2{b2.center, {}};
    constexpr real kTol = 1e-4L;
    // Exact margins (the distance between the shapes; negative when they overlap) decide
    // whether a disagreement could be rounding.
    const real m_cc = dist(ov(c1.center), ov(c2.center)) - c1.radius - c2.radius;
    if (std::fabs(m_cc) > kTol) {
      EXPECT_EQ(overlaps(c1, c2), pebble::overlap(s_c1, x_c1, s_c2, x_c2)) << i;
    }
    const real m_cb = dist(op::nearest_on_filled(ov(b1), ov(c1.center)), ov(c1.center)) - c1.radius;
    if (std::fabs(m_cb) > kTol) {
      EXPECT_EQ(overlaps(c1, b1), pebble::overlap(s_c1, x_c1, s_b1, x_b1)) << i;
    }
    const real m_bb = op::hull_gap(ov(b1), ov(b2));
    if (std::fabs(m_bb) > kTol) {
      EXPECT_EQ(overlaps(b1, b2), pebble::overlap(s_b1, x_b1, s_b2, x_b2)) << i;
    }
    // The separation vector is the minimum translation distance() reports for the boxes.
    const Penetration pen = penetration(b1, b2);
    if (pen.hit && m_bb < -kTol) {
      const DistanceResult d = pebble::distance(s_b1, x_b1, s_b2, x_b2);
      EXPECT_NEAR(double(op::length(ov(pen.separation))), -double(d.distance), 1e-4) << i;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Exactness, checked in integer arithmetic (tests/oracle/exact.hpp): every predicate on 100k
// cases per regime, where long double could not decide (products of doubles, sums of floats
// 2^30 apart). The regimes:
//   unit   uniform floats in [-1, 1];
//   large  uniform floats in [-1e4, 1e4];
//   mixed  each coordinate either in [-1, 1] or in [-2^30, 2^30], so one query mixes both;
//   near   the query placed on the boundary as nearly as floats allow (a boundary point rounded
//          to float), at a scale drawn from the three above: the exact path runs here;
//   built  exact touching by construction (Pythagorean triples scaled by powers of two, points
//          on lines of small rational slope, rectangle ends that round alike), must be true.

namespace ex = oracle::exact;

enum class ExactRegime { kUnit, kLarge, kMixed, kNear, kBuilt };
constexpr ExactRegime kExactRegimes[] = {ExactRegime::kUnit, ExactRegime::kLarge, ExactRegime::kMixed,
                                         ExactRegime::kNear, ExactRegime::kBuilt};
// Under the sanitizers a quarter of them (25,000 per regime): the exact integer arithmetic is most
// of the sanitizer run's time, and the release run checks all 100,000 against the same predicates.
constexpr int kExactCases = test_random::kSanitizerScale == 1 ? 100000 : 25000;

const char* name(ExactRegime r) {
  switch (r) {
    case ExactRegime::kUnit:
      return "unit";
    case ExactRegime::kLarge:
      return "large";
    case ExactRegime::kMixed:
      return "mixed";
    case ExactRegime::kNear:
      return "near";
    case ExactRegime::kBuilt:
      return "built";
  }
  return "?";
}

class ExactGen {
public:
  explicit ExactGen(uint32_t seed) : rng_(seed) {}
  // The scale of the current case's random coordinates (near and built draw one per case).
  ExactRegime scale = ExactRegime::kUnit;

  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  float coord() {
    const float u = std::uniform_real_distribution<float>(-1, 1)(rng_);
    switch (scale) {
      case ExactRegime::kLarge:
        return 1e4f * u;
      case ExactRegime::kMixed:
        return uniform() < 0.5 ? u : std::ldexp(u, 30);
      default:
        return u;
    }
  }
  Vec2 point() { return {coord(), coord()}; }
  float size() { return std::fabs(coord()); }
  void pick_scale() { scale = kExactRegimes[integer(0, 2)]; }
  // A boundary point computed in double, rounded to float: within an ulp of the boundary.
  static Vec2 rounded(double x, double y) { return {float(x), float(y)}; }
  Vec2 lerp(Vec2 a, Vec2 b) {
    const double t = uniform();
    return rounded(a.x + t * (double(b.x) - a.x), a.y + t * (double(b.y) - a.y));
  }
  // A point of the circle (center, r), rounded.
  Vec2 on_circle(Vec2 center, float r) {
    const double angle = 6.283185307179586 * uniform();
    return rounded(center.x + r * std::cos(angle), center.y + r * std::sin(angle));
  }
  // A Pythagorean triple (a, b, h), a^2 + b^2 = h^2, with random signs and order.
  std::array<int, 3> triple() {
    static constexpr int kTriples[][3] = {{3, 4, 5},    {5, 12, 13},  {8, 15, 17}, {7, 24, 25},
                                          {20, 21, 29}, {12, 35, 37}, {9, 40, 41}, {28, 45, 53},
                                          {11, 60, 61}, {33, 56, 65}, {0, 1, 1}};
    const auto& t = kTriples[integer(0, 10)];
    int a = t[0], b = t[1];
    if (integer(0, 1)) std::swap(a, b);
    return {integer(0, 1) ? a : -a, integer(0, 1) ? b : -b, t[2]};
  }
  // A power of two for built cases, 2^-6 .. 2^6.
  float power() { return std::ldexp(1.0f, integer(-6, 6)); }
  // A float of at most `bits` significant bits between 2^-6 and 2^(bits + 6), so that sums of
  // a few of them, and of small multiples of power(), stay exact in float.
  float short_float(int bits) { return std::ldexp(float(integer(-(1 << bits), 1 << bits)), integer(-6, 6)); }

private:
  std::mt19937 rng_;
};

// Counts cases and answers per regime and checks them; both answers must be well represented.
class ExactCheck {
public:
  explicit ExactCheck(const char* what) : what_(what) {}
  void check(bool got, bool exact, ExactRegime regime, int i) {
    ++cases_;
    if (exact) ++positives_;
    if (got != exact && failures_++ < 10) {
      ADD_FAILURE() << what_ << " [" << name(regime) << "] case " << i << ": got " << got << ", exact " << exact;
    }
  }
  void expect_both_answers(ExactRegime regime) const {
    EXPECT_EQ(failures_, 0) << what_ << " [" << name(regime) << "]";
    if (regime == ExactRegime::kBuilt) return;  // built cases all touch
    EXPECT_GT(positives_, cases_ / 20) << what_ << " [" << name(regime) << "]";
    EXPECT_LT(positives_, cases_ - cases_ / 20) << what_ << " [" << name(regime) << "]";
  }

private:
  const char* what_;
  int cases_ = 0, positives_ = 0, failures_ = 0;
};

ex::F2 ef(Vec2 v) { return {v.x, v.y}; }
std::vector<float> floats_of(std::initializer_list<Vec2> points, std::initializer_list<float> more = {}) {
  std::vector<float> out;
  for (const Vec2 p : points) {
    out.push_back(p.x);
    out.push_back(p.y);
  }
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

// Runs make_case(gen, regime, i) -> {got, exact} over every regime.
template <class F>
void run_exact(const char* what, uint32_t seed, F make_case) {
  for (const ExactRegime regime : kExactRegimes) {
    ExactGen g(seed + 1000 * static_cast<uint32_t>(regime));
    ExactCheck check(what);
    for (int i = 0; i < kExactCases; ++i) {
      if (regime == ExactRegime::kNear || regime == ExactRegime::kBuilt)
        g.pick_scale();
      else
        g.scale = regime;
      const auto [got, exact] = make_case(g, regime, i);
      check.check(got, exact, regime, i);
      if (regime == ExactRegime::kBuilt) check.check(exact, true, regime, i);  // the construction touches
    }
    check.expect_both_answers(regime);
  }
}

struct Answer {
  bool got, exact;
};

bool exact_contains(const Circle& c, Vec2 p) {
  const ex::Scale s(floats_of({c.center, p}, {c.radius}));
  const ex::I2 d = ex::to_int(s, ef(p)) - ex::to_int(s, ef(c.center));
  const ex::Int r = s(std::max(c.radius, 0.0f));
  return (ex::dot(d, d) - r * r).sign() <= 0;
}

TEST(Exactness, CircleContains) {
  run_exact("contains(Circle)", 1, [](ExactGen& g, ExactRegime regime, int) {
    Circle c{g.point(), g.size()};
    Vec2 p = g.point();
    if (regime == ExactRegime::kNear) p = g.on_circle(c.center, c.radius);
    if (regime == ExactRegime::kBuilt) {
      const auto [a, b, h] = g.triple();
      const float k = g.power();
      c = {{g.short_float(8), g.short_float(8)}, float(h) * k};
      p = {c.center.x + float(a) * k, c.center.y + float(b) * k};
    }
    return Answer{contains(c, p), exact_contains(c, p)};
  });
}

TEST(Exactness, CircleCircle) {
  run_exact("overlaps(Circle, Circle)", 2, [](ExactGen& g, ExactRegime regime, int) {
    Circle c1{g.point(), g.size()}, c2{g.point(), g.size()};
    if (regime == ExactRegime::kNear) c2.radius = float(op::length(ov(c2.center) - ov(c1.center)) - c1.radius);
    if (regime == ExactRegime::kBuilt) {
      const auto [a, b, h] = g.triple();
      const float k = g.power();
      const int h1 = g.integer(0, h);
      c1 = {{g.short_float(8), g.short_float(8)}, float(h1) * k};
      c2 = {{c1.center.x + float(a) * k, c1.center.y + float(b) * k}, float(h - h1) * k};
    }
    const ex::Scale s(floats_of({c1.center, c2.center}, {c1.radius, c2.radius}));
    const ex::I2 d = ex::to_int(s, ef(c2.center)) - ex::to_int(s, ef(c1.center));
    const ex::Int r = s(std::max(c1.radius, 0.0f)) + s(std::max(c2.radius, 0.0f));
    return Answer{overlaps(c1, c2), (ex::dot(d, d) - r * r).sign() <= 0};
  });
}

// The exact ends of a rectangle form (scaled integers), for the oracle.
struct ExactRect {
  ex::I2 lo, hi;
};
ExactRect exact_rect(const ex::Scale& s, const Box& b) {
  const ex::I2 c = ex::to_int(s, ef(b.center));
  const ex::Int hx = s(std::max(b.half_extents.x, 0.0f)), hy = s(std::max(b.half_extents.y, 0.0f));
  return {{c.x - hx, c.y - hy}, {c.x + hx, c.y + hy}};
}
ExactRect exact_rect(const ex::Scale& s, const Rect& r) {
  const ex::I2 o = ex::to_int(s, ef(r.origin));
  return {o, {o.x + s(std::max(r.size.x, 0.0f)), o.y + s(std::max(r.size.y, 0.0f))}};
}
// The toolbox reads an Aabb's corners as floats, also with double positions (primitives.hpp); the
// boxes here hold floats, so to_vec2() rounds nothing.
ExactRect exact_rect(const ex::Scale& s, const Aabb& a) {
  return {ex::to_int(s, ef(to_vec2(a.lower))), ex::to_int(s, ef(to_vec2(a.upper)))};
}
std::vector<float> floats_of(const Box& b) { return floats_of({b.center, b.half_extents}); }
std::vector<float> floats_of(const Rect& r) { return floats_of({r.origin, r.size}); }
std::vector<float> floats_of(const Aabb& a) { return floats_of({to_vec2(a.lower), to_vec2(a.upper)}); }

// A random rectangle of each form; "built" ones have an end that rounds to a float (a center
// 2^30 from its half extent), the case where the double sum alone cannot decide.
Box random_rect(ExactGen& g, Box*) { return {g.point(), {g.size(), g.size()}}; }
Rect random_rect(ExactGen& g, Rect*) { return {g.point(), {2 * g.size(), 2 * g.size()}}; }
Aabb random_rect(ExactGen& g, Aabb*) {
  const Vec2 a = g.point(), b = g.point();
  return {min(a, b), max(a, b)};
}
// A float at or next to the rounded end a + b of a rectangle.
float near_end(ExactGen& g, double end) {
  float v = float(end);
  const int step = g.integer(-1, 1);
  if (step != 0) v = std::nextafter(v, step * std::numeric_limits<float>::infinity());
  return v;
}
template <class R>
R far_apart_rect(ExactGen& g) {
  // Size ~2^30 and position ~1 (or the reverse): the ends need more than double's 53 bits.
  const float big = std::ldexp(float(g.integer(1, 1 << 20)), 10 + g.integer(0, 3));
  const float small = float(g.integer(-(1 << 20), 1 << 20)) * std::ldexp(1.0f, -g.integer(20, 40));
  if constexpr (std::is_same_v<R, Box>)
    return Box{{small, -small}, {big, big}};
  else if constexpr (std::is_same_v<R, Rect>)
    return Rect{{small, -small}, {big, big}};
  else
    return Aabb{{-big, small}, {small, big}};
}
template <class R>
std::array<double, 4> rounded_ends(const R& r) {
  // The ends in double (rounded when a center and its half extent are 2^30 apart).
  if constexpr (std::is_same_v<R, Box>)
    return {double(r.center.x) - r.half_extents.x, double(r.center.y) - r.half_extents.y,
            double(r.center.x) + r.half_extents.x, double(r.center.y) + r.half_extents.y};
  else if constexpr (std::is_same_v<R, Rect>)
    return {r.origin.x, r.origin.y, double(r.origin.x) + r.size.x, double(r.origin.y) + r.size.y};
  else
    return {r.lower.x, r.lower.y, r.upper.x, r.upper.y};
}

// A rectangle of the form R whose sides are short floats (exact sums), and a point exactly on
// its boundary.
template <class R>
std::pair<R, Vec2> touching_rect(ExactGen& g) {
  const Vec2 lo{g.short_float(8), g.short_float(8)};
  const Vec2 size{std::fabs(g.short_float(8)), std::fabs(g.short_float(8))};
  const Vec2 hi = lo + size;  // exact: few significant bits
  const float t = float(g.integer(0, 4)) / 4;
  const Vec2 p = g.integer(0, 1) ? Vec2{g.integer(0, 1) ? lo.x : hi.x, lo.y + t * size.y}
                                 : Vec2{lo.x + t * size.x, g.integer(0, 1) ? lo.y : hi.y};
  if constexpr (std::is_same_v<R, Box>)
    return {Box{lo + 0.5f * size, 0.5f * size}, p};
  else if constexpr (std::is_same_v<R, Rect>)
    return {Rect{lo, size}, p};
  else
    return {Aabb{lo, hi}, p};
}

template <class R>
ex::Scale scale_of(const R& r, std::initializer_list<Vec2> points, std::initializer_list<float> more = {}) {
  std::vector<float> v = floats_of(r), w = floats_of(points, more);
  v.insert(v.end(), w.begin(), w.end());
  return ex::Scale(v);
}

template <class R>
void check_rectangle_contains_exactly(const char* what, uint32_t seed) {
  run_exact(what, seed, [](ExactGen& g, ExactRegime regime, int) {
    R r = random_rect(g, static_cast<R*>(nullptr));
    Vec2 p = g.point();
    if (regime == ExactRegime::kNear) {
      if (g.uniform() < 0.5) r = far_apart_rect<R>(g);
      const auto e = rounded_ends(r);
      p = {near_end(g, e[g.integer(0, 1) * 2]), near_end(g, e[1 + g.integer(0, 1) * 2])};
    }
    if (regime == ExactRegime::kBuilt) std::tie(r, p) = touching_rect<R>(g);
    const ex::Scale s = scale_of(r, {p});
    const ExactRect x = exact_rect(s, r);
    const ex::I2 q = ex::to_int(s, ef(p));
    const bool exact = x.lo.x <= q.x && q.x <= x.hi.x && x.lo.y <= q.y && q.y <= x.hi.y;
    return Answer{contains(r, p), exact};
  });
}
TEST(Exactness, BoxContains) { check_rectangle_contains_exactly<Box>("contains(Box)", 3); }
TEST(Exactness, RectContains) { check_rectangle_contains_exactly<Rect>("contains(Rect)", 4); }
TEST(Exactness, AabbContains) { check_rectangle_contains_exactly<Aabb>("contains(Aabb)", 5); }

// Two rectangles of one form: overlaps() and penetration().hit against the exact intervals.
template <class R>
void check_rectangles_overlap_exactly(const char* what, uint32_t seed) {
  run_exact(what, seed, [](ExactGen& g, ExactRegime regime, int i) {
    R a = random_rect(g, static_cast<R*>(nullptr)), b = random_rect(g, static_cast<R*>(nullptr));
    if (regime == ExactRegime::kNear) {
      // b's lower corner on or next to a's rounded upper corner (or the reverse).
      if (g.uniform() < 0.5) a = far_apart_rect<R>(g);
      const auto e = rounded_ends(a);
      const Vec2 corner{near_end(g, e[2]), near_end(g, e[3])};
      const Aabb bb = as_aabb(b);
      const Vec2 shift = corner - bb.lower;
      if constexpr (std::is_same_v<R, Box>)
        b.center = b.center + shift;
      else if constexpr (std::is_same_v<R, Rect>)
        b.origin = b.origin + shift;
      else
        b = Aabb{corner, corner + (bb.upper - bb.lower)};
    }
    if (regime == ExactRegime::kBuilt) {
      Vec2 p;
      std::tie(a, p) = touching_rect<R>(g);
      const float w = std::fabs(g.short_float(8)), h = std::fabs(g.short_float(8));
      // b has p as a corner, on the outer side of a's boundary point p.
      const Aabb box = as_aabb(a);
      const float x0 = p.x == box.lower.x ? p.x - w : p.x, y0 = p.y == box.lower.y ? p.y - h : p.y;
      if constexpr (std::is_same_v<R, Box>)
        b = Box{{x0 + 0.5f * w, y0 + 0.5f * h}, {0.5f * w, 0.5f * h}};
      else if constexpr (std::is_same_v<R, Rect>)
        b = Rect{{x0, y0}, {w, h}};
      else
        b = Aabb{{x0, y0}, {x0 + w, y0 + h}};
    }
    const ex::Scale s = [&] {
      std::vector<float> v = floats_of(a), w = floats_of(b);
      v.insert(v.end(), w.begin(), w.end());
      return ex::Scale(v);
    }();
    const ExactRect x = exact_rect(s, a), y = exact_rect(s, b);
    const bool exact = x.lo.x <= y.hi.x && y.lo.x <= x.hi.x && x.lo.y <= y.hi.y && y.lo.y <= x.hi.y;
    const bool got = overlaps(a, b);
    EXPECT_EQ(penetration(a, b).hit, got) << i;
    return Answer{got, exact};
  });
}
TEST(Exactness, BoxBox) { check_rectangles_overlap_exactly<Box>("overlaps(Box, Box)", 6); }
TEST(Exactness, RectRect) { check_rectangles_overlap_exactly<Rect>("overlaps(Rect, Rect)", 7); }
TEST(Exactness, AabbAabb) { check_rectangles_overlap_exactly<Aabb>("overlaps(Aabb, Aabb)", 8); }

// Circle against each rectangle form: the exact squared distance from the center to the
// rectangle against r^2.
template <class R>
void check_circle_rectangle_exactly(const char* what, uint32_t seed) {
  run_exact(what, seed, [](ExactGen& g, ExactRegime regime, int) {
    R r = random_rect(g, static_cast<R*>(nullptr));
    Circle c{g.point(), g.size()};
    if (regime == ExactRegime::kNear) {
      if (g.uniform() < 0.5) r = far_apart_rect<R>(g);
      const auto e = rounded_ends(r);
      // A corner (rounded), and the center at distance r from it, rounded.
      const Vec2 corner{float(e[g.integer(0, 1) * 2]), float(e[1 + g.integer(0, 1) * 2])};
      c.center = g.on_circle(corner, c.radius);
    }
    if (regime == ExactRegime::kBuilt) {
      // The circle touches a corner of a short-float rectangle along a Pythagorean direction
      // pointing away from the rectangle.
      Vec2 p;
      std::tie(r, p) = touching_rect<R>(g);
      const Aabb box = as_aabb(r);
      const Vec2 corner{float(g.integer(0, 1) ? box.lower.x : box.upper.x),
                        float(g.integer(0, 1) ? box.lower.y : box.upper.y)};
      auto [a, b, h] = g.triple();
      a = std::abs(a) * (corner.x == box.lower.x ? -1 : 1);
      b = std::abs(b) * (corner.y == box.lower.y ? -1 : 1);
      const float k = std::ldexp(1.0f, g.integer(-2, 4));
      c = {{corner.x + float(a) * k, corner.y + float(b) * k}, float(h) * k};
    }
    const ex::Scale s = scale_of(r, {c.center}, {c.radius});
    const ExactRect x = exact_rect(s, r);
    const ex::Int rr = s(std::max(c.radius, 0.0f));
    const bool exact =
        (ex::squared_distance_to_rectangle(x.lo, x.hi, ex::to_int(s, ef(c.center))) - rr * rr).sign() <= 0;
    const bool got = overlaps(c, r);
    EXPECT_EQ(overlaps(r, c), got);
    return Answer{got, exact};
  });
}
TEST(Exactness, CircleBox) { check_circle_rectangle_exactly<Box>("overlaps(Circle, Box)", 9); }
TEST(Exactness, CircleRect) { check_circle_rectangle_exactly<Rect>("overlaps(Circle, Rect)", 10); }
TEST(Exactness, CircleAabb) { check_circle_rectangle_exactly<Aabb>("overlaps(Circle, Aabb)", 11); }

// Points on a line of small rational slope: (q t, p t) times a power of two.
// The line is through the origin and t keeps 20 significant bits, so (q t, p t) is exact for
// any t, however far from 1.
struct LineGen {
  int p, q;
  float unit;
  Vec2 at(float t) const {
    int e = 0;
    const float m = std::frexp(t, &e);
    t = std::ldexp(std::round(std::ldexp(m, 20)), e - 20);
    return {float(q) * t * unit, float(p) * t * unit};
  }
};
// t0 + u (t1 - t0) for u in [0, 1], rounded, and kept between t0 and t1 (when they are 2^60
// apart the double arithmetic itself rounds).
float between(float t0, float t1, float u) {
  const float t = u == 1 ? t1 : float(t0 + double(u) * (double(t1) - t0));
  return std::clamp(t, std::min(t0, t1), std::max(t0, t1));
}
LineGen random_line(ExactGen& g) {
  LineGen l{g.integer(-7, 7), g.integer(-7, 7), g.power()};
  if (l.p == 0 && l.q == 0) l.q = 1;
  return l;
}
// A parameter: short (few bits), and in the mixed scale 2^30 or 2^-30 times that now and then,
// so that differences of points round in double.
float line_t(ExactGen& g) {
  const float t = float(g.integer(-64, 64)) / 8;
  return g.scale == ExactRegime::kMixed ? std::ldexp(t, 30 * g.integer(-1, 1)) : t;
}

bool exact_triangle_contains(const Triangle& t, Vec2 p) {
  const ex::Scale s(floats_of({t.a, t.b, t.c, p}));
  return ex::hull_contains({ex::to_int(s, ef(t.a)), ex::to_int(s, ef(t.b)), ex::to_int(s, ef(t.c))},
                           ex::to_int(s, ef(p)));
}

TEST(Exactness, TriangleContains) {
  run_exact("contains(Triangle)", 12, [](ExactGen& g, ExactRegime regime, int) {
    Triangle t{g.point(), g.point(), g.point()};
    Vec2 p = g.point();
    if (regime == ExactRegime::kNear) p = g.lerp(t.a, t.b);
    if (regime == ExactRegime::kBuilt) {
      // a, b and p on one line, p between a and b; c anywhere.
      const LineGen l = random_line(g);
      float ta = line_t(g), tb = line_t(g);
      if (ta == tb) tb = ta + 1;
      const float u = float(g.integer(0, 8)) / 8;
      t = {l.at(ta), l.at(tb), g.point()};
      p = g.uniform() < 0.5 ? l.at(between(ta, tb, u)) : (g.uniform() < 0.5 ? t.a : t.b);
      if (g.integer(0, 1)) std::swap(t.a, t.c);  // the edge in another place
    }
    return Answer{contains(t, p), exact_triangle_contains(t, p)};
  });
}

TEST(Exactness, SegmentSegment) {
  run_exact("intersect(Segment, Segment).hit", 13, [](ExactGen& g, ExactRegime regime, int) {
    Segment s{g.point(), g.point()}, u{g.point(), g.point()};
    if (regime == ExactRegime::kNear) u.a = g.lerp(s.a, s.b);  // an end of u (nearly) on s
    if (regime == ExactRegime::kBuilt) {
      // u's end exactly on s (or s's end on u, or collinear overlapping).
      const LineGen l = random_line(g);
      const float t0 = line_t(g), t1 = line_t(g) + 1, tm = between(t0, t1, float(g.integer(0, 8)) / 8);
      s = {l.at(t0), l.at(t1)};
      u = {l.at(tm), g.integer(0, 3) == 0 ? l.at(line_t(g)) : g.point()};
      if (g.integer(0, 1)) std::swap(s, u);
    }
    const ex::Scale sc(floats_of({s.a, s.b, u.a, u.b}));
    const bool exact = ex::segments_meet(ex::to_int(sc, ef(s.a)), ex::to_int(sc, ef(s.b)), ex::to_int(sc, ef(u.a)),
                                         ex::to_int(sc, ef(u.b)));
    const SegmentHit hit = intersect(s, u);
    EXPECT_TRUE(finite(hit.point));
    return Answer{hit.hit, exact};
  });
}

bool exact_segment_meets_disc(Vec2 a, Vec2 b, const Circle& c) {
  const ex::Scale s(floats_of({a, b, c.center}, {c.radius}));
  const ex::Int r = s(std::max(c.radius, 0.0f));
  return ex::segment_meets_disc(ex::to_int(s, ef(a)), ex::to_int(s, ef(b)), ex::to_int(s, ef(c.center)), r * r);
}

// A circle and a segment exactly tangent to it, the touching point inside the segment or
// beyond an end (then it does not meet the disc unless an end is inside).
std::pair<Circle, Segment> tangent_pair(ExactGen& g) {
  auto [a, b, h] = g.triple();
  const float k = g.power();
  const Circle c{{g.short_float(8), g.short_float(8)}, float(h) * k};
  // The touching point c + k (a, b); the tangent direction (-b, a).
  const Vec2 touch{c.center.x + float(a) * k, c.center.y + float(b) * k};
  const float s0 = -float(g.integer(1, 16)) / 4, s1 = float(g.integer(1, 16)) / 4;
  const Vec2 dir{-float(b) * k, float(a) * k};
  return {c, Segment{touch + s0 * dir, touch + s1 * dir}};
}

TEST(Exactness, SegmentCircle) {
  run_exact("overlaps(Segment, Circle)", 14, [](ExactGen& g, ExactRegime regime, int i) {
    Segment s{g.point(), g.point()};
    Circle c{g.point(), g.size()};
    if (regime == ExactRegime::kNear) {
      // The radius is the distance to the segment, rounded to float.
      c.radius = float(op::distance_to_segment(ov(s.a), ov(s.b), ov(c.center)));
    }
    if (regime == ExactRegime::kBuilt) std::tie(c, s) = tangent_pair(g);
    const bool got = overlaps(s, c);
    EXPECT_EQ(overlaps(c, s), got) << i;
    return Answer{got, exact_segment_meets_disc(s.a, s.b, c)};
  });
}

TEST(Exactness, CircleTriangle) {
  run_exact("overlaps(Circle, Triangle)", 15, [](ExactGen& g, ExactRegime regime, int i) {
    Triangle t{g.point(), g.point(), g.point()};
    Circle c{g.point(), g.size()};
    if (regime == ExactRegime::kNear) {
      c.radius = float(op::distance_to_segment(ov(t.b), ov(t.c), ov(c.center)));
    }
    if (regime == ExactRegime::kBuilt) {
      // The tangent segment is an edge; the third vertex lies on the far side from the center.
      Segment s;
      std::tie(c, s) = tangent_pair(g);
      const Vec2 mid = s.a + 0.5f * (s.b - s.a), out = mid - c.center;
      t = {s.a, s.b, mid + float(g.integer(1, 4)) * out};
      if (g.integer(0, 1)) std::swap(t.a, t.c);
    }
    const bool got = overlaps(c, t);
    EXPECT_EQ(overlaps(t, c), got) << i;
    const bool exact = exact_triangle_contains(t, c.center) || exact_segment_meets_disc(t.a, t.b, c) ||
                       exact_segment_meets_disc(t.b, t.c, c) || exact_segment_meets_disc(t.c, t.a, c);
    return Answer{got, exact};
  });
}

TEST(Exactness, TriangleTriangle) {
  run_exact("overlaps(Triangle, Triangle)", 16, [](ExactGen& g, ExactRegime regime, int) {
    Triangle s{g.point(), g.point(), g.point()}, t{g.point(), g.point(), g.point()};
    if (regime == ExactRegime::kNear) t.a = g.lerp(s.a, s.b);  // a vertex (nearly) on an edge
    if (regime == ExactRegime::kBuilt) {
      // t's vertex exactly on s's edge, t's other vertices beyond that edge's line.
      const LineGen l = random_line(g);
      const float t0 = line_t(g), t1 = t0 + 1 + float(g.integer(0, 8));
      const Vec2 a = l.at(t0), b = l.at(t1), d = b - a;
      const Vec2 n{-d.y, d.x};
      s = {a, b, a + 0.5f * d + n};
      const Vec2 p = l.at(between(t0, t1, float(g.integer(0, 8)) / 8));
      t = {p, p - n + 0.25f * d, p - n - 0.25f * d};
    }
    const ex::Scale sc(floats_of({s.a, s.b, s.c, t.a, t.b, t.c}));
    const auto pts = [&](const Triangle& u) {
      return std::vector<ex::I2>{ex::to_int(sc, ef(u.a)), ex::to_int(sc, ef(u.b)), ex::to_int(sc, ef(u.c))};
    };
    return Answer{overlaps(s, t), ex::hulls_meet(pts(s), pts(t))};
  });
}

TEST(Exactness, ReportedCases) {
  // Issue 15: an exact tangency inside the segment that rounding in double reported as a miss.
  const Segment s{{35.7326126f, 14.0712948f}, {-11.557127f, -5.63276339f}};
  const Circle c{{22.544775f, -5.50697088f}, 13};
  EXPECT_TRUE(exact_segment_meets_disc(s.a, s.b, c));
  EXPECT_TRUE(overlaps(s, c));
  // A point exactly on a triangle's edge, with coordinates 2^30 apart in one query.
  const float big = std::ldexp(1.0f, 30);
  const float tiny = std::ldexp(1.0f, -30);
  const Triangle t{{3 * big, big}, {3 * tiny, tiny}, {0, big}};
  const Vec2 p{3 * 0.5f, 0.5f};
  EXPECT_TRUE(exact_triangle_contains(t, p));
  EXPECT_TRUE(contains(t, p));
  EXPECT_EQ(nearest_point(t, p), p);
  // A box whose upper end (-2^-30 + 2^30) is not a double: the point 2^30 is just outside.
  const Box b{{-std::ldexp(1.0f, -30), 0}, {big, 1}};
  EXPECT_FALSE(contains(b, Vec2{big, 0}));
  EXPECT_TRUE(contains(b, Vec2{std::nextafter(big, 0.0f), 0}));
}

TEST(Aabb, InvertedBoxGetsItsFormulasAsWritten) {
  // lower.x = 5 > upper.x = 3: not repaired; each function applies its formula (the header's
  // and docs/primitives.md's "Inverted boxes").
  const Aabb inv{{5, 0}, {3, 2}};
  EXPECT_FALSE(contains(inv, Vec2{4, 1}));  // no p has 5 <= p.x <= 3
  EXPECT_FALSE(contains(inv, Vec2{6, 1}));
  EXPECT_TRUE(pebble::overlaps(inv, Aabb{{0, 0}, {10, 2}}));  // covers [3, 5]
  EXPECT_FALSE(pebble::overlaps(inv, Aabb{{3.5f, 0}, {4.5f, 2}}));
  EXPECT_TRUE(penetration(inv, Aabb{{0, 0}, {10, 2}}).hit);
  // The clamp tests the lower end first: below lower gives lower, anything else upper.
  EXPECT_EQ(nearest_point(inv, Vec2{4, 1}).x, 5);
  EXPECT_EQ(nearest_point(inv, Vec2{9, 1}).x, 3);
  EXPECT_FALSE(overlaps(Circle{{4, 1}, 0.5f}, inv));
  EXPECT_TRUE(overlaps(Circle{{4, 1}, 1}, inv));  // 1 from the clamp point (5, 1)
  EXPECT_EQ(to_box(inv).half_extents.x, 0);
  EXPECT_EQ(to_box(inv).center.x, 4);
  EXPECT_EQ(to_rect(inv).size.x, 0);
  EXPECT_EQ(to_rect(inv).origin.x, 5);
}

TEST(Ties, PenetrationAndNearestEdgeFollowTheirStatedOrder) {
  // penetration: on each axis the positive way out wins a tie, then x wins a tie of the axes.
  const Box a{{0, 0}, {1, 1}};
  EXPECT_EQ(penetration(a, Box{{0, 0}, {1, 1}}).separation, (Vec2{2, 0}));        // all four equal: +x
  EXPECT_EQ(penetration(a, Box{{0, 0.5f}, {1, 1}}).separation, (Vec2{0, 1.5f}));  // +y is shallower
  EXPECT_EQ(penetration(a, Box{{-0.5f, 0}, {1, 1}}).separation, (Vec2{-1.5f, 0}));
  // nearest_edge: positive side, then x.
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {1, 1}}, Vec2{0, 0}).normal, (Vec2{1, 0}));
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {2, 1}}, Vec2{0, 0}).normal, (Vec2{0, 1}));
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {1, 1}}, Vec2{0.5f, 0.5f}).normal, (Vec2{1, 0}));  // diagonal
  EXPECT_EQ(nearest_edge(Box{{0, 0}, {1, 1}}, Vec2{-0.5f, -0.5f}).normal, (Vec2{-1, 0}));
}
}  // namespace
