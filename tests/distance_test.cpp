// distance() and overlap() against the long double oracle (tests/oracle/distance.hpp): random
// pairs of every kind near contact, nearly parallel edges, exact touching, containment,
// degenerate cores, tiny and far-away shapes, symmetry, rigid-motion invariance, continuity and
// invalid input. The oracle itself is cross-checked first (exact formula against sampling).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include <pebble/distance.hpp>
#include <pebble/manifold.hpp>

#include "cast_cases.hpp"
#include "contact_cases.hpp"
#include "oracle/cast.hpp"
#include "random_cases.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

using namespace contact_cases;

namespace {

bool finite(const pebble::DistanceResult& r) {
  return std::isfinite(r.distance) && pebble::is_finite(r.normal) && pebble::is_finite(r.point_a) &&
         pebble::is_finite(r.point_b);
}

using DistanceQuery = pebble::DistanceResult (*)(const Shape&, const Transform&, const Shape&,
                                                 const Transform&) noexcept;

/// Everything the contract says about one answer of `query` (distance() or the generic path),
/// checked against the oracle. Returns an empty string when all holds, else what failed.
std::string check_distance_with(const Pair& p, DistanceQuery query) {
  const pebble::DistanceResult r = query(p.a.shape, p.xa, p.b.shape, p.xb);
  const bool ov = pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb);
  const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
  const Tolerance tol = tolerance_for(wa, wb);
  const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
  std::ostringstream err;
  err.precision(9);
  if (!finite(r)) {
    err << "non-finite field; ";
    return err.str();
  }
  if (std::fabs(r.distance - o.distance) > tol.length) {
    err << "distance " << r.distance << " oracle " << double(o.distance) << " (tol " << double(tol.length) << "); ";
  }
  check_normal(err, r.normal, wa, wb, o, tol);
  const V n = oracle::normalize(v(r.normal));
  const V pa = v(r.point_a), pb = v(r.point_b);
  const real sa = oracle::signed_distance_to_surface(wa, pa), sb = oracle::signed_distance_to_surface(wb, pb);
  if (std::fabs(sa) > tol.length) err << "point_a off A's surface by " << double(sa) << "; ";
  if (std::fabs(sb) > tol.length) err << "point_b off B's surface by " << double(sb) << "; ";
  const V diff = pb - pa - real(r.distance) * n;
  if (oracle::length(diff) > tol.length)
    err << "point_b - point_a != normal * distance (off by " << double(oracle::length(diff)) << "); ";
  // Witnesses are the extreme points along the normal (closest points when separated, deepest
  // points when overlapping). A normal off by the allowed angle moves the support of a flat
  // side by up to that angle times the shape's diameter.
  const real ha = oracle::support(wa, n), hb = -oracle::support(wb, V{-n.x, -n.y});
  const real slack_a = tol.length + tol.angle * 2 * oracle::half_diameter(wa);
  const real slack_b = tol.length + tol.angle * 2 * oracle::half_diameter(wb);
  if (std::fabs(oracle::dot(pa, n) - ha) > slack_a) err << "point_a not A's support along the normal; ";
  if (std::fabs(oracle::dot(pb, n) - hb) > slack_b) err << "point_b not B's support against the normal; ";
  if (query == static_cast<DistanceQuery>(&pebble::distance) && ov != (r.distance <= 0))
    err << "overlap() " << ov << " but distance " << r.distance << "; ";
  if (std::fabs(o.distance) > tol.length && ov != (o.distance <= 0))
    err << "overlap() " << ov << " but oracle " << double(o.distance) << "; ";
  return err.str();
}

std::string check_distance(const Pair& p) { return check_distance_with(p, pebble::distance); }

// per_kind_pair / kSanitizerScale of each kind pair: the sanitizer build runs this file three times.
std::vector<Pair> random_pairs(unsigned seed, int per_kind_pair, float size = 1, Vec2 origin = {}) {
  std::mt19937 rng(seed);
  std::vector<Pair> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_kind_pair / test_random::kSanitizerScale; ++i) {
        out.push_back(random_pair(ka, kb, rng, size, origin));
      }
    }
  }
  return out;
}

const Transform kId = Transform::identity();

}  // namespace

// ---------------------------------------------------------------------------------------------
// The oracle checks itself: two independent methods, and answers worked out by hand.

TEST(DistanceOracle, ExactFormulaAgreesWithDirectionSampling) {
  std::mt19937 rng(101);
  int checked = 0;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < 10; ++i) {
        const Pair p = random_pair(ka, kb, rng);
        const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
        const oracle::DistanceAnswer o = oracle::distance(wa, wb);
        V sampled_normal;
        const real sampled = oracle::sampled_core_distance(wa, wb, &sampled_normal);
        const real size = oracle::half_diameter(wa) + oracle::half_diameter(wb);
        EXPECT_NEAR(double(o.core_distance), double(sampled), double(1e-9L * size)) << describe(p);
        // The oracle's own answer is consistent: witnesses on the surfaces, along the normal.
        const V diff = o.point_b - o.point_a - o.distance * o.normal;
        EXPECT_LT(double(oracle::length(diff)), 1e-12 * double(size)) << describe(p);
        EXPECT_NEAR(double(oracle::signed_distance_to_surface(wa, o.point_a)), 0, 1e-12 * double(size)) << describe(p);
        EXPECT_NEAR(double(oracle::signed_distance_to_surface(wb, o.point_b)), 0, 1e-12 * double(size)) << describe(p);
        EXPECT_NEAR(double(oracle::separation_along(wa, wb, o.normal)), double(o.distance), 1e-12 * double(size))
            << describe(p);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 49 * 10);
}

TEST(DistanceOracle, ExactFormulaAgreesWithSamplingOnHardFamilies) {
  // Nearly parallel edges put two kinks of the gap function a hair apart; containment makes the
  // depth large; zero-length cores have no edge normals at all.
  std::vector<Pair> pairs = nearly_parallel_pairs(102, {1e-3f, 1e-5f, 0.0f}, {-0.1f, -1e-4f, 0.0f, 1e-4f});
  for (Pair& p : containment_pairs(103, 2)) pairs.push_back(std::move(p));
  for (Pair& p : zero_length_pairs(104, 3)) pairs.push_back(std::move(p));
  for (const Pair& p : pairs) {
    const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
    const real size = oracle::half_diameter(wa) + oracle::half_diameter(wb);
    EXPECT_NEAR(double(oracle::distance(wa, wb).core_distance), double(oracle::sampled_core_distance(wa, wb)),
                double(1e-9L * size))
        << describe(p);
  }
}

TEST(DistanceOracle, HandWorkedAnswers) {
  using oracle::RShape;
  const RShape unit_box{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, 0};
  auto moved = [](RShape s, real dx, real dy) {
    for (V& p : s.core) p = p + V{dx, dy};
    return s;
  };
  // Separated faces, separated corners, overlap, containment, circles, crossing segments.
  EXPECT_NEAR(double(oracle::distance(unit_box, moved(unit_box, 3, 0.5L)).distance), 1, 1e-15);
  EXPECT_NEAR(double(oracle::distance(unit_box, moved(unit_box, 3, 3)).distance), std::sqrt(2.0), 1e-15);
  const oracle::DistanceAnswer o = oracle::distance(unit_box, moved(unit_box, 1.5L, 0.25L));
  EXPECT_NEAR(double(o.distance), -0.5, 1e-15);
  EXPECT_NEAR(double(o.normal.x), 1, 1e-15);
  EXPECT_TRUE(o.normal_unique);
  const RShape inner{{{-0.1L, -0.2L}, {0.1L, -0.2L}, {0, 0.3L}}, 0};
  EXPECT_NEAR(double(oracle::distance(unit_box, moved(inner, 0.5L, 0)).distance), -(0.5 + 0.1), 1e-15);
  EXPECT_NEAR(double(oracle::distance(RShape{{{0, 0}}, 1}, RShape{{{3, 4}}, 2}).distance), 2, 1e-15);
  EXPECT_NEAR(double(oracle::distance(RShape{{{-1, 0}, {1, 0}}, 0}, RShape{{{0, -1}, {0, 2}}, 0}).distance), -1, 1e-15);
  // Deep symmetric overlap: equal boxes at the same place tie in four directions.
  EXPECT_FALSE(oracle::distance(unit_box, unit_box, 1e-6L).normal_unique);
  EXPECT_NEAR(double(oracle::distance(unit_box, unit_box).distance), -2, 1e-15);
  // Rounded: a capsule over a box, corner radius included.
  EXPECT_NEAR(
      double(oracle::distance(RShape{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, 0.25L}, RShape{{{-1, 2}, {1, 2}}, 0.5L})
                 .distance),
      0.25, 1e-15);
  EXPECT_NEAR(double(oracle::signed_distance_to_surface(unit_box, V{0.5L, 0})), -0.5, 1e-15);
  EXPECT_NEAR(double(oracle::signed_distance_to_surface(unit_box, V{4, 5})), 5, 1e-15);
}

// ---------------------------------------------------------------------------------------------
// Accuracy against the oracle.

TEST(Distance, MatchesOracleForEveryKindPairNearContact) {
  expect_all(random_pairs(1, 60), check_distance, "random pairs");
}

TEST(Distance, MatchesOracleForNearlyParallelEdges) {
  expect_all(nearly_parallel_pairs(2, {1e-3f, 3e-4f, 1e-4f, 1e-5f, 1e-6f, 0.0f},
                                   {-0.2f, -0.01f, -1e-4f, 0.0f, 1e-4f, 0.01f, 0.2f}),
             check_distance, "nearly parallel");
}

TEST(Distance, MatchesOracleForTinyShapes) { expect_all(random_pairs(3, 20, 0.01f), check_distance, "size 0.01"); }

TEST(Distance, MatchesOracleFarFromTheOrigin) {
  expect_all(random_pairs(4, 20, 1, {1e4f, -1e4f}), check_distance, "coordinates 1e4");
}

TEST(Distance, MatchesOracleWhenOneShapeIsInsideTheOther) {
  const std::vector<Pair> pairs = containment_pairs(5, 10);
  EXPECT_GT(pairs.size(), 300u);
  expect_all(pairs, check_distance, "containment");
}

TEST(Distance, ZeroLengthCapsuleActsAsCircle) {
  expect_all(zero_length_pairs(6, 40), check_distance, "zero-length capsule");
}

TEST(Distance, ExactTouchingGivesZeroAndOverlaps) {
  for (const Pair& p : touching_pairs()) {
    const pebble::DistanceResult r = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
    EXPECT_NEAR(r.distance, 0, 1e-6) << describe(p);
    EXPECT_TRUE(pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb)) << describe(p);
    EXPECT_TRUE(pebble::overlap(p.b.shape, p.xb, p.a.shape, p.xa)) << describe(p);
    const std::string e = check_distance(p);
    EXPECT_TRUE(e.empty()) << e << "\n    " << describe(p);
  }
}

TEST(Distance, CornerToCornerIsTheTrueDistance) {
  // Two boxes corner to corner: the separating axes of the edges give only 1, the true answer
  // is sqrt(2) (a Box2D-style SAT-only result would report 1).
  const Shape a = Shape::box(1, 1), b = Shape::box(1, 1);
  const pebble::DistanceResult r = pebble::distance(a, kId, b, Transform{{3, 3}, Rot::identity()});
  EXPECT_NEAR(r.distance, std::sqrt(2.0f), 1e-6f);
  EXPECT_NEAR(r.normal.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(r.normal.y, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(r.point_a.x, 1, 1e-6f);
  EXPECT_NEAR(r.point_b.y, 2, 1e-6f);
}

TEST(Distance, TouchingAtADifferenceVertexGivesANormalInItsCone) {
  // Corner against corner (tests/oracle/cone.hpp), exactly touching or within 1e-5 of the size:
  // the normal lies in the cone of the difference's vertex, and the cores' overlap is not a gap.
  expect_all(
      cast_cases::corner_touches(81, 30),
      [](const cast_cases::CornerTouch& c) {
        const Pair& p = c.pair;
        const pebble::DistanceResult r = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
        const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
        const std::string cone = cast_cases::check_in_cone(r.normal, wa, wb, c.from);
        // Within the corner slack of a touch, a normal outside the cone is still right when the shapes
        // are as far apart along it as along the best axis, to that slack: distance() takes A's face
        // where another axis beats it by less than kAxisPreference (docs/contacts.md), and a segment
        // corner touching a box face, the segment 2.6 degrees off parallel, is such a near tie (found by
        // the ARM64 build's inputs: the segment's normal, 0.046 rad off the face's, at an overlap of 9e-6).
        const bool near_tie = oracle::separation_along(wa, wb, v(r.normal)) >=
                              oracle::signed_distance_between(wa, wb) - cast_cases::corner_slack(wa, wb);
        return check_distance(p) + (near_tie ? std::string() : cone);
      },
      "corner touches");
}

TEST(Distance, SegmentCornerOnABoxFaceNearlyParallelIsANearTie) {
  // The ARM64 build's test inputs (its long double is 128-bit, so its random cases differ) found
  // this corner touch; pebble's answer has the same bits on x86-64. The segment's end is 9e-6 into
  // the box's face and the segment runs 2.6 degrees off the face: the segment's normal is within
  // the axis preference of the face's, and distance() reports it. Both axes give the distance.
  const Shape a = Shape::segment({0.494722784f, 0.325244129f}, {0.205479205f, 0.178017735f});
  const Transform xa{{0.953719378f, 1.37690449f}, Rot{0.223548248f, -0.974692881f}};
  const Shape b = Shape::box(0.440195769f, 0.397307426f);
  const Transform xb{{1.49099147f, 1.55012119f}, Rot{0.795725048f, 0.605658054f}};
  const pebble::DistanceResult r = pebble::distance(a, xa, b, xb);
  const oracle::RShape wa = world(ShapeSpec{a, ""}, xa), wb = world(ShapeSpec{b, ""}, xb);
  const real exact = oracle::signed_distance_between(wa, wb);
  EXPECT_NEAR(r.distance, double(exact), 1e-6);
  EXPECT_GE(oracle::separation_along(wa, wb, v(r.normal)), exact - 1e-5L);
}

TEST(Distance, BoxCornerInsideATurnedBoxCornerIsAnOverlap) {
  // A unit box's corner (1, 1) a hair inside the corner of a box turned by 30 degrees, whose own
  // corner c lies a hair beyond A's top face's end. The difference's vertex has the cone from
  // 30 degrees (B's face) to 90 (A's top). A's top, within the axis preference of B's face, is
  // the reference, and its incident edge (B's, from c) lies beside it: the closest points of
  // those two edges once gave a gap of 3.8e-6 and the normal of that edge, at 120 degrees.
  const float e = 0x1p-20f;
  const Rot q{0.866025404f, 0.5f};
  const Vec2 c{1 + e, 1 - 4 * e};
  const Transform xb{c - pebble::rotate(q, Vec2{-1, -1}), q};
  const pebble::DistanceResult r = pebble::distance(Shape::box(1, 1), kId, Shape::box(1, 1), xb);
  EXPECT_LE(r.distance, 0);
  // B's face: -1.13 e. (Overlaps below 1e-6 of the size may read as touching, 0.)
  EXPECT_NEAR(r.distance, -(2 - std::sqrt(3.0f) / 2) * e, 1.5e-6f);
  const float angle = std::atan2(r.normal.y, r.normal.x);
  EXPECT_GE(angle, 0.5235988f - 1e-3f) << r.normal.x << " " << r.normal.y;
  EXPECT_LE(angle, 1.5707963f + 1e-3f) << r.normal.x << " " << r.normal.y;
  const pebble::Manifold m = pebble::collide(Shape::box(1, 1), kId, Shape::box(1, 1), xb);
  ASSERT_GT(m.count, 0);
  const float m_angle = std::atan2(m.normal.y, m.normal.x);
  EXPECT_GE(m_angle, 0.5235988f - 1e-3f) << m.normal.x << " " << m.normal.y;
  EXPECT_LE(m_angle, 1.5707963f + 1e-3f) << m.normal.x << " " << m.normal.y;
}

TEST(Distance, FastPathsAgreeWithTheGenericPath) {
  // Circles and points take a fast path; detail::distance_generic() is the one general
  // algorithm. Both must meet the contract, and agree with each other to float rounding.
  const std::vector<Pair> pairs = fast_path_pairs(13, 14);
  expect_all(
      pairs, [](const Pair& p) { return check_distance_with(p, pebble::detail::distance_generic); }, "generic path");
  expect_all(
      pairs,
      [](const Pair& p) {
        const pebble::DistanceResult fast = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
        const pebble::DistanceResult slow = pebble::detail::distance_generic(p.a.shape, p.xa, p.b.shape, p.xb);
        const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
        const Tolerance tol = tolerance_for(wa, wb);
        const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
        std::ostringstream err;
        err.precision(9);
        // Float rounding of two different routes through the same geometry.
        const real close = 4 * tol.noise + 1e-5L * std::min(oracle::half_diameter(wa), oracle::half_diameter(wb));
        if (std::fabs(real(fast.distance) - slow.distance) > close)
          err << "distance " << fast.distance << " generic " << slow.distance << "; ";
        if (o.normal_unique && angle_between(v(fast.normal), v(slow.normal)) > tol.angle) err << "normals differ; ";
        if (o.normal_unique && (oracle::length(v(fast.point_a) - v(slow.point_a)) > tol.length ||
                                oracle::length(v(fast.point_b) - v(slow.point_b)) > tol.length)) {
          err << "witnesses differ; ";
        }
        return err.str();
      },
      "fast vs generic");
}

// ---------------------------------------------------------------------------------------------
// Symmetry, invariance, continuity.

TEST(Distance, SwappingTheShapesNegatesTheNormal) {
  int failures = 0;
  for (const Pair& p : random_pairs(7, 40)) {
    const pebble::DistanceResult ab = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
    const pebble::DistanceResult ba = pebble::distance(p.b.shape, p.xb, p.a.shape, p.xa);
    const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
    const Tolerance tol = tolerance_for(wa, wb);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    std::string e;
    if (std::fabs(ab.distance - ba.distance) > tol.length) e += "distances differ; ";
    if (o.normal_unique && angle_between(v(ab.normal), V{-ba.normal.x, -ba.normal.y}) > tol.angle)
      e += "normals not opposite; ";
    if (std::fabs(ab.distance) > tol.noise &&
        pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb) != pebble::overlap(p.b.shape, p.xb, p.a.shape, p.xa)) {
      e += "overlap not symmetric; ";
    }
    if (!e.empty() && ++failures <= 6)
      ADD_FAILURE() << e << ab.distance << " vs " << ba.distance << "\n    " << describe(p);
  }
  EXPECT_EQ(failures, 0);
}

TEST(Distance, MovingBothShapesRigidlyChangesNothing) {
  std::mt19937 rng(8);
  int failures = 0;
  for (const Pair& p : random_pairs(9, 40)) {
    const Transform m{{uniform(rng, -20, 20), uniform(rng, -20, 20)}, Rot::from_angle(uniform(rng, -3.14f, 3.14f))};
    const Pair q{p.a, p.b, pebble::mul(m, p.xa), pebble::mul(m, p.xb)};
    const pebble::DistanceResult r0 = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
    const pebble::DistanceResult r1 = pebble::distance(q.a.shape, q.xa, q.b.shape, q.xb);
    const oracle::RShape wa = world(q.a, q.xa), wb = world(q.b, q.xb);
    const Tolerance tol = tolerance_for(wa, wb);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    std::string e = check_distance(q);
    if (std::fabs(r0.distance - r1.distance) > tol.length) e += "distance changed; ";
    if (o.normal_unique && angle_between(v(pebble::rotate(m.q, r0.normal)), v(r1.normal)) > tol.angle)
      e += "normal not carried along; ";
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(p) << "\n    motion " << lit(m);
  }
  EXPECT_EQ(failures, 0);
}

TEST(Distance, TinyMotionGivesTinyChange) {
  std::mt19937 rng(10);
  int failures = 0;
  for (const Pair& p : random_pairs(11, 40)) {
    const float size =
        float(std::min(oracle::half_diameter(world(p.a, p.xa)), oracle::half_diameter(world(p.b, p.xb))));
    const float step = 1e-4f * size, turn = 1e-4f;
    const V dir = random_direction(rng);
    const Transform xb2{{p.xb.p.x + step * float(dir.x), p.xb.p.y + step * float(dir.y)},
                        Rot::from_angle(p.xb.q.angle() + turn)};
    const pebble::DistanceResult r0 = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
    const pebble::DistanceResult r1 = pebble::distance(p.a.shape, p.xa, p.b.shape, xb2);
    // The exact distance moves by at most the largest displacement of a point of B; allow float
    // rounding and a little for the implementation's choice between near-equal axes.
    real reach = 0;
    for (V c : world(p.b, p.xb).core) reach = std::max(reach, oracle::length(c - v(p.xb.p)));
    reach += p.b.shape.radius();
    const Tolerance tol = tolerance_for(world(p.a, p.xa), world(p.b, p.xb));
    const real bound = step + turn * reach + 4 * tol.noise + 1e-4L * size;
    if (std::fabs(real(r1.distance) - r0.distance) > bound) {
      if (++failures <= 6)
        ADD_FAILURE() << "distance jumped " << r0.distance << " -> " << r1.distance << "\n    " << describe(p)
                      << "\n    moved xb = " << lit(xb2);
    }
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Invalid and extreme input.

TEST(Distance, InvalidTransformsGiveTheEmptyResult) {
  for_each_invalid_placement(
      [](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& x) {
        const pebble::DistanceResult r = pebble::distance(a, xa, b, xb);
        EXPECT_EQ(r.distance, pebble::kHugeDistance) << lit(x);
        EXPECT_EQ(r.normal, Vec2{}) << lit(x);
        EXPECT_EQ(r.point_a, Vec2{}) << lit(x);
        EXPECT_EQ(r.point_b, Vec2{}) << lit(x);
        EXPECT_FALSE(pebble::overlap(a, xa, b, xb)) << lit(x);
      });
}

TEST(Distance, HugeButValidCoordinatesStayFinite) {
  std::mt19937 rng(12);
  for (const float far : {1e6f, 1e8f, 9e8f}) {
    for (int i = 0; i < 50; ++i) {
      const Pair p = random_pair(kAllKinds[i % 7], kAllKinds[(i / 7) % 7], rng, 1, {far, -far}, 3);
      const pebble::DistanceResult r = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
      EXPECT_TRUE(finite(r)) << describe(p);
      EXPECT_LT(std::fabs(r.distance), 1e3f) << describe(p);
      EXPECT_EQ(pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb), r.distance <= 0) << describe(p);
    }
  }
}

TEST(Distance, ExtremeShapeSizesStayFinite) {
  const Shape big = Shape::box(1e6f, 1e6f), small = Shape::circle(1e-6f),
              far_segment = Shape::segment({-1e7f, 0}, {1e7f, 1});
  const Transform xs[] = {kId, Transform{{5e5f, 2e6f}, Rot::from_angle(0.3f)},
                          Transform{{-1e6f, 1e6f}, Rot::from_angle(2)}};
  for (const Transform& x1 : xs) {
    for (const Transform& x2 : xs) {
      for (const Shape* s1 : {&big, &small, &far_segment}) {
        for (const Shape* s2 : {&big, &small, &far_segment}) {
          const pebble::DistanceResult r = pebble::distance(*s1, x1, *s2, x2);
          EXPECT_TRUE(finite(r));
          EXPECT_EQ(pebble::overlap(*s1, x1, *s2, x2), r.distance <= 0);
        }
      }
    }
  }
}

// Regressions found by the oracle on earlier versions, each exact to far better than the
// tolerance now: nearly parallel segments (the line-parameter closest points cancelled), the
// axis preference deciding the sign of a tiny distance, and a 3e-8 overlap of nearly parallel
// boxes measured as 2e-4 apart.
TEST(Distance, NearlyParallelSegmentsAreExact) {
  const Shape a = Shape::segment({-1, 0}, {1, 0});
  const pebble::DistanceResult d =
      pebble::distance(a, Transform::identity(), a, Transform{{0.5f, 0.2f}, pebble::Rot::from_angle(2e-4f)});
  // The closest pair is b's left end (0.5 - cos, 0.2 - sin) against a: height 0.2 - sin(2e-4).
  EXPECT_NEAR(d.distance, 0.2 - std::sin(2e-4), 2e-7);
}

TEST(Distance, AxisPreferenceNeverDecidesTheSign) {
  const Shape a = Shape::segment({-0.825445652f, 0}, {0.825445652f, 0});
  const Transform xa{{-1.77294338f, -0.390968084f}, pebble::Rot{0.198083967f, -0.980185032f}};
  const Shape b = Shape::segment({-1.09526777f, 0}, {1.09526777f, 0});
  const Transform xb{{-1.55702329f, -1.45941246f}, pebble::Rot{0.198093787f, -0.980183065f}};
  const pebble::DistanceResult d = pebble::distance(a, xa, b, xb);
  EXPECT_NEAR(d.distance, 2.7e-6, 1e-6);
  EXPECT_FALSE(pebble::overlap(a, xa, b, xb));
}

TEST(Distance, TinyOverlapOfNearlyParallelBoxesIsNotAGap) {
  const Shape a = Shape::box(1.04620731f, 0.547118425f);
  const Transform xa{{-1.68141818f, 1.87852955f}, pebble::Rot{-0.441922307f, -0.897053301f}};
  const Shape b = Shape::box(1.31587386f, 0.503653944f);
  const Transform xb{{-0.161310479f, 2.58347201f}, pebble::Rot{-0.442819089f, -0.896610975f}};
  EXPECT_NEAR(pebble::distance(a, xa, b, xb).distance, 0.0, 2e-6);
  EXPECT_GT(pebble::collide(a, xa, b, xb, 1e-4f).count, 0);
}
