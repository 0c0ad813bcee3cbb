// shape_cast() against the long double oracle (tests/oracle/cast.hpp): random casts of every kind
// pair, casts that start touching or overlapping, grazing motions, tiny and far-away shapes,
// target separations, published cases of other libraries' test suites, symmetry, rigid-motion
// invariance and invalid input. Along a translation the signed distance of two convex shapes is
// convex in time (the distance of a point moving on a line from their Minkowski difference), so
// the oracle's first touch is exact.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <sstream>

#include <pebble/cast.hpp>
#include <pebble/distance.hpp>

#include "contact_cases.hpp"
#include "oracle/cast.hpp"

using namespace contact_cases;
using pebble::CastHit;

namespace {

const Transform kId = Transform::identity();

bool finite(const CastHit& h) {
  return std::isfinite(h.fraction) && pebble::is_finite(h.point) && pebble::is_finite(h.normal);
}

bool is_no_hit(const CastHit& h) { return !h.hit && h.fraction == 1 && h.point == Vec2{} && h.normal == Vec2{}; }

oracle::RShape moved(oracle::RShape s, V by) {
  for (V& p : s.core) p = p + by;
  return s;
}

/// Shape a at xa moving by ta, shape b at xb moving by tb, cast to a target separation.
struct CastCase {
  ShapeSpec a, b;
  Transform xa, xb;
  Vec2 ta, tb;
  float target = 0;
};

std::string describe(const CastCase& c) {
  std::string out = "Shape a = " + c.a.maker + "; Transform xa = " + lit(c.xa) + "; Vec2 ta = " + lit(c.ta) + ";\n    Shape b = " +
                    c.b.maker + "; Transform xb = " + lit(c.xb) + "; Vec2 tb = " + lit(c.tb) + ";";
  if (c.target > 0) out += " float target = " + lit(c.target) + ";";
  return out;
}

CastHit run(const CastCase& c) {
  return c.target > 0 ? pebble::shape_cast(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, c.tb, pebble::ShapeCastOptions{c.target})
                      : pebble::shape_cast(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, c.tb);
}

/// The oracle's view of a cast: the signed distance over the motion, minus the target.
struct CastOracle {
  oracle::RShape wa, wb;
  V ta, tb;
  oracle::RoundedHull diff;
  oracle::ConvexTrack track;
  real tol, tol_t, noise;

  explicit CastOracle(const CastCase& c)
      : wa(world(c.a, c.xa)), wb(world(c.b, c.xb)), ta(v(c.ta)), tb(v(c.tb)), diff(oracle::minkowski_difference(wa, wb)),
        track([this, target = real(c.target)](real t) { return diff.signed_distance(t * (tb - ta)) - target; }),
        tol(0), tol_t(0), noise(0) {
    // 1e-3 x the smaller shape plus float rounding of every coordinate involved (the shapes at
    // both ends of the motion) plus the rounding of the fraction itself over the relative motion.
    const Tolerance t0 = tolerance_for(wa, wb), t1 = tolerance_for(moved(wa, ta), moved(wb, tb));
    noise = std::max(t0.noise, t1.noise);
    tol = std::max(t0.length, t1.length) + real(c.target) * 1e-6L;
    const real len = oracle::length(tb - ta);
    tol_t = len > 0 ? tol / len + 2 * real(FLT_EPSILON) : 0;
  }
  oracle::RShape a_at(real t) const { return moved(wa, t * ta); }
  oracle::RShape b_at(real t) const { return moved(wb, t * tb); }
};

/// Everything the contract says about one cast, checked against the oracle. "" when all holds.
std::string check_cast(const CastCase& c) {
  const CastHit h = run(c);
  std::ostringstream err;
  err.precision(9);
  if (!finite(h)) return "non-finite field; ";
  const CastOracle o(c);
  const real t_early = o.track.first_at_or_below(o.tol), t_late = o.track.first_at_or_below(-o.tol);
  if (!h.hit) {
    if (!is_no_hit(h)) err << "a miss must be {false, 1, 0, 0}; ";
    if (t_late >= 0) err << "missed, but the oracle gets within the target by " << double(o.tol) << " at t = " << double(t_late) << "; ";
    return err.str();
  }
  if (t_early < 0) {
    err << "hit at " << h.fraction << ", but the oracle stays " << double(o.track.least()) << " beyond the target; ";
    return err.str();
  }
  // Not later than the first time clearly within the target; a motion that never is (a graze)
  // may report any time within tolerance of touching.
  const real latest = t_late >= 0 ? t_late : o.track.last_at_or_below(o.tol);
  if (real(h.fraction) < t_early - o.tol_t || real(h.fraction) > latest + o.tol_t) {
    err << "fraction " << h.fraction << " outside the oracle's [" << double(t_early) << ", " << double(latest) << "]; ";
  }
  // At the reported time: the normal separates as well as any direction near it can, the point
  // lies target/2 from both surfaces (on both when the target is 0).
  const real t = h.fraction;
  const oracle::RShape wa = o.a_at(t), wb = o.b_at(t);
  Tolerance tol = tolerance_for(wa, wb);
  tol.length = std::max(tol.length, o.tol);
  const oracle::DistanceAnswer at = oracle::distance(wa, wb, tol.length, tol.conditioning);
  check_normal(err, h.normal, wa, wb, at, tol);
  // The point lies midway between the two surfaces: half the distance at that time from each
  // (target / 2 after a cast, less when they started within the target). Overlapping at the
  // start, it is midway between the deepest points: no deeper in either shape than the depth,
  // no further out than half of it (a segment has no inside).
  const V p = v(h.point);
  const real slack = tol.length + tol.angle * 2 * std::max(oracle::half_diameter(wa), oracle::half_diameter(wb));
  const real sa = oracle::signed_distance_to_surface(wa, p), sb = oracle::signed_distance_to_surface(wb, p);
  if (at.distance >= -tol.length) {
    const real half = std::max(at.distance, real(0)) / 2;
    if (std::fabs(sa - half) > slack) err << "point " << double(sa) << " from A's surface, not " << double(half) << "; ";
    if (std::fabs(sb - half) > slack) err << "point " << double(sb) << " from B's surface, not " << double(half) << "; ";
  } else {
    const real depth = -at.distance;
    for (const real sd : {sa, sb}) {
      if (sd < -depth - slack || sd > depth / 2 + slack) err << "overlap point at " << double(sd) << " from a surface (depth " << double(depth) << "); ";
    }
  }
  return err.str();
}

// ---------------------------------------------------------------------------------------------
// Case families.

V perpendicular(V u) { return {-u.y, u.x}; }

Transform random_pose(std::mt19937& rng, float size, Vec2 origin) {
  return {{origin.x + uniform(rng, -2, 2) * size, origin.y + uniform(rng, -2, 2) * size},
          Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))};
}

/// Random casts of a kind pair: B placed `gap` from A along a random direction, then moved back
/// toward A (aimed off centre by up to 1.5 sizes, over 0.3 to 3 times the distance), A moving a
/// little or not at all. gap < 0 starts them overlapping.
CastCase random_cast(Kind ka, Kind kb, std::mt19937& rng, float size, Vec2 origin, float gap_lo, float gap_hi) {
  ShapeSpec a = random_shape(ka, rng, size * uniform(rng, 0.5f, 1.5f));
  ShapeSpec b = random_shape(kb, rng, size * uniform(rng, 0.5f, 1.5f));
  const Transform xa = random_pose(rng, size, origin);
  const Rot qb = Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f));
  const V dir = random_direction(rng);
  const real gap = size * uniform(rng, gap_lo, gap_hi);
  const Vec2 pb = place(a, xa, b, qb, gap, dir);
  const real reach = (std::max(gap, real(0)) + size) * uniform(rng, 0.3f, 3);
  const V aim = (-reach) * dir + (size * uniform(rng, -1.5f, 1.5f)) * perpendicular(dir);
  Vec2 ta{};
  if (rng() % 2) ta = size * uniform(rng, 0, 0.5f) * Vec2{float(dir.x), float(dir.y)} + Vec2{uniform(rng, -0.2f, 0.2f), uniform(rng, -0.2f, 0.2f)} * size;
  return {std::move(a), std::move(b), xa, Transform{pb, qb}, ta, Vec2{float(aim.x), float(aim.y)} + ta};
}

std::vector<CastCase> random_casts(unsigned seed, int per_pair, float size = 1, Vec2 origin = {}, float gap_lo = 0.05f,
                                   float gap_hi = 2) {
  std::mt19937 rng(seed);
  std::vector<CastCase> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_pair; ++i) out.push_back(random_cast(ka, kb, rng, size, origin, gap_lo, gap_hi));
    }
  }
  return out;
}

/// Grazing casts: the relative motion is shifted sideways to where it just touches (found by
/// bisection on the oracle's least distance over the motion), then by nothing or a hair either
/// way.
std::vector<CastCase> grazing_casts(unsigned seed, int per_pair) {
  std::mt19937 rng(seed);
  std::vector<CastCase> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_pair; ++i) {
        CastCase c = random_cast(ka, kb, rng, 1, {}, 0.3f, 2);
        const V rel = v(c.tb) - v(c.ta);
        const V side = oracle::normalize(perpendicular(rel));
        auto least = [&](real shift) {
          CastCase s = c;
          s.xb.p = Vec2{float(c.xb.p.x + shift * side.x), float(c.xb.p.y + shift * side.y)};
          return CastOracle(s).track.least();
        };
        // From a shift that hits (0, usually) outward to one that misses; keep the side that starts apart.
        real hit = 0, miss = 4;
        if (least(hit) > 0 || least(miss) <= 0) continue;
        for (int k = 0; k < 60; ++k) {
          const real mid = (hit + miss) / 2;
          (least(mid) <= 0 ? hit : miss) = mid;
        }
        const real shift = miss + std::array<real, 3>{0, 1e-5L, -1e-5L}[rng() % 3];
        c.xb.p = Vec2{float(c.xb.p.x + shift * side.x), float(c.xb.p.y + shift * side.y)};
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

/// Casts whose edges are parallel to rounding: B turned exactly like A, or a quarter or half turn
/// from it (c and s swapped and negated exactly), so that boxes and their kin meet face to face.
std::vector<CastCase> parallel_casts(unsigned seed, int per_pair) {
  std::mt19937 rng(seed);
  std::vector<CastCase> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_pair; ++i) {
        CastCase c = random_cast(ka, kb, rng, 1, {}, 0.05f, 2);
        const Rot q = c.xa.q;
        const Rot turns[] = {q, Rot{-q.s, q.c}, Rot{-q.c, -q.s}, Rot{q.s, -q.c}};
        const Rot qb = turns[rng() % 4];
        // Keep B's centre where it was.
        const Vec2 centre = pebble::transform_point(c.xb, c.b.shape.core_centroid());
        c.xb = Transform{centre - pebble::rotate(qb, c.b.shape.core_centroid()), qb};
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The oracle checks itself.

TEST(CastOracle, DifferenceDistanceAgreesWithTheDistanceOracleAlongMotions) {
  for (const CastCase& c : random_casts(301, 2)) {
    const CastOracle o(c);
    for (real t : {real(0), real(0.3), real(0.7), real(1)}) {
      EXPECT_NEAR(double(o.track.at(t)), double(oracle::distance(o.a_at(t), o.b_at(t)).distance), 1e-12) << describe(c);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Accuracy against the oracle.

TEST(ShapeCast, MatchesOracleForEveryKindPair) { expect_all(random_casts(1, 60), check_cast, "random casts"); }

TEST(ShapeCast, MatchesOracleWhenStartingTouchingOrOverlapping) {
  expect_all(random_casts(2, 20, 1, {}, -0.5f, 0.0f), check_cast, "starting in contact");
}

TEST(ShapeCast, MatchesOracleForParallelEdges) { expect_all(parallel_casts(9, 20), check_cast, "parallel edges"); }

TEST(ShapeCast, MatchesOracleForGrazingMotions) { expect_all(grazing_casts(3, 8), check_cast, "grazing"); }

TEST(ShapeCast, MatchesOracleForTinyAndFarShapes) {
  expect_all(random_casts(4, 15, 0.01f), check_cast, "size 0.01");
  expect_all(random_casts(5, 15, 1, {1e4f, -1e4f}), check_cast, "coordinates 1e4");
}

TEST(ShapeCast, MatchesOracleWithATargetSeparation) {
  std::mt19937 rng(6);
  std::vector<CastCase> cases = random_casts(7, 20);
  for (CastCase& c : cases) c.target = std::array<float, 4>{pebble::kLinearSlop, 0.01f, 0.1f, 0.3f}[rng() % 4];
  expect_all(cases, check_cast, "target separation");
}

TEST(ShapeCast, ZeroRelativeMotionHitsOnlyWhenAlreadyTouching) {
  std::mt19937 rng(8);
  std::vector<CastCase> cases;
  for (int i = 0; i < 200; ++i) {
    CastCase c = random_cast(kAllKinds[i % 7], kAllKinds[(i / 7) % 7], rng, 1, {}, -0.3f, 0.3f);
    c.tb = c.ta;
    cases.push_back(c);
  }
  expect_all(cases, check_cast, "no relative motion");
}

// ---------------------------------------------------------------------------------------------
// Exact cases worked by hand.

TEST(ShapeCast, BoxOntoBoxFaceFirst) {
  // B (unit box at x = 4) moves left by 4: faces meet when it has moved 2.
  const CastHit h = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{4, 0.5f}, Rot::identity()}, {-4, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
  EXPECT_EQ(h.point.x, 1.0f);
  EXPECT_GE(h.point.y, -0.5f);
  EXPECT_LE(h.point.y, 1.0f);
}

TEST(ShapeCast, BothMovingMeetHalfway) {
  // Surfaces 2 apart, closing at 4: they meet at 0.5 with the centres at 1 and 3.
  const CastHit h = pebble::shape_cast(Shape::circle(1), kId, {2, 0}, Shape::circle(1), Transform{{4, 0}, Rot::identity()}, {-2, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{2, 0}));
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
}

TEST(ShapeCast, CornerOntoCornerAlongTheDiagonal) {
  // Two unit boxes apart diagonally, moving together along the diagonal: corners meet.
  const CastHit h = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{4, 4}, Rot::identity()}, {-4, -4});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_NEAR(h.point.x, 1, 1e-6f);
  EXPECT_NEAR(h.point.y, 1, 1e-6f);
  // Any normal of the corner-on-corner contact between the two face normals is right.
  EXPECT_GE(h.normal.x, -1e-6f);
  EXPECT_GE(h.normal.y, -1e-6f);
}

TEST(ShapeCast, MovingApartOrSidewaysMisses) {
  const Shape box = Shape::box(1, 1);
  const Transform at{{4, 0}, Rot::identity()};
  EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, at, {4, 0})));
  EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, at, {0, 5})));
  EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, at, {-1.5f, 0})));  // stops short
}

TEST(ShapeCast, SlidingAlongAFaceTouchesOnlyWhenReachingIt) {
  // B rests on A's top face... one unit above it, then slides along: never touches.
  const Shape box = Shape::box(1, 1);
  EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, Transform{{-5, 3}, Rot::identity()}, {10, 0})));
  // Exactly on the face's line (touching all along from x = -2 on): first touch at fraction 0.3.
  const CastHit h = pebble::shape_cast(box, kId, {0, 0}, box, Transform{{-5, 2}, Rot::identity()}, {10, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.fraction, 0.3f, 1e-6f);
}

TEST(ShapeCast, StartingInContactGivesFractionZeroAndTheMinimumTranslation) {
  const CastHit h = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{1.5f, 0.25f}, Rot::identity()}, {-1, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.0f);
  EXPECT_NEAR(h.normal.x, 1, 1e-6f);
  EXPECT_NEAR(h.normal.y, 0, 1e-6f);
  // Moving apart does not matter: they touch at the start.
  const CastHit away = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{2, 0}, Rot::identity()}, {3, 0});
  EXPECT_TRUE(away.hit);
  EXPECT_EQ(away.fraction, 0.0f);
}

TEST(ShapeCast, TargetSeparationStopsShort) {
  // The faces are 2 apart and close at 4 per unit of fraction: 0.25 apart at 0.4375; the point
  // is midway between the two faces.
  const CastHit h = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{4, 0}, Rot::identity()}, {-4, 0},
                                       pebble::ShapeCastOptions{0.25f});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.4375f);
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
  EXPECT_EQ(h.point.x, 1.125f);
  // Already within the target at the start: fraction 0, the closest points' normal.
  const CastHit near = pebble::shape_cast(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{2.125f, 0}, Rot::identity()},
                                          {-4, 0}, pebble::ShapeCastOptions{0.25f});
  EXPECT_TRUE(near.hit);
  EXPECT_EQ(near.fraction, 0.0f);
  EXPECT_EQ(near.normal, (Vec2{1, 0}));
}

// ---------------------------------------------------------------------------------------------
// Published cases from other libraries' test suites: each through check_cast (the oracle
// decides), and the oracle's own answer compared with the published number. parry's casts take
// velocities and give a time of impact; here the translations are the velocities times a horizon
// T and the fraction is the time over T.

namespace {

/// The oracle's first touch (target 0) of a cast, -1 when none.
real oracle_fraction(const CastCase& c) { return CastOracle(c).track.first_at_or_below(0); }

void expect_published(const CastCase& c, double published, double tolerance, const char* source) {
  const std::string e = check_cast(c);
  EXPECT_TRUE(e.empty()) << source << ": " << e << "\n    " << describe(c);
  const real o = oracle_fraction(c);
  const CastHit h = run(c);
  if (published < 0) {
    EXPECT_LT(double(o), 0) << source << ": the oracle finds a hit the source calls a miss";
    EXPECT_FALSE(h.hit) << source;
  } else {
    EXPECT_NEAR(double(o), published, tolerance) << source << ": the oracle disagrees with the source";
    EXPECT_TRUE(h.hit) << source;
    EXPECT_NEAR(h.fraction, double(o), 1e-5) << source;
  }
}

Transform at(float x, float y) { return {{x, y}, Rot::identity()}; }

}  // namespace

TEST(ShapeCast, PublishedBox2dCases) {
  // Box2D v3, test/test_distance.c, ShapeCastTest: the box of half extents 1 at the origin and the
  // segment (2, -1)-(2, 1) moved by (-2, 0) touch at 0.5 (Box2D stops a linear slop short and
  // checks to 0.005).
  expect_published({make_polygon({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}), make_segment({2, -1}, {2, 1}), kId, kId, {0, 0}, {-2, 0}}, 0.5,
                   1e-12, "Box2D ShapeCastTest");
  // Box2D v3 test_distance.c, ShapeCastShortEdgeTest (a reported false overlap of a point falling
  // past the end of a plank 0.0004 thick): Box2D only asks for no hit or a unit normal. The
  // point passes the plank's end 0.0059 to its right: the oracle and pebble see no contact.
  expect_published({make_polygon({{-0.5f, -0.0002f}, {0.5f, -0.0002f}, {0.5f, 0.0002f}, {-0.5f, 0.0002f}}),
                    make_segment({0.506f, 0.0035f}, {0.506f, 0.0035f}), kId, kId, {0, 0}, {-0.01f, -0.5f}},
                   -1, 0, "Box2D ShapeCastShortEdgeTest");
}

TEST(ShapeCast, PublishedParryCases) {
  // parry2d crates/parry2d/tests/geometry/time_of_impact2.rs, ball_cuboid_toi: a ball of radius
  // 1 and the cuboid of half extents 1, horizon T = 10.
  const float T = 10;
  const ShapeSpec ball = make_circle(1), cuboid = make_box(1, 1);
  expect_published({ball, cuboid, at(1, 1), kId, T * Vec2{2, 2}, T * Vec2{-1, 1}}, 0, 1e-12, "parry ball_cuboid_toi (intersecting)");
  expect_published({ball, cuboid, at(2, 2), kId, T * Vec2{-0.5f, -0.5f}, T * Vec2{1, 1}},
                   (std::sqrt(2.0) - 1) / std::hypot(1.5, 1.5) / T, 1e-9, "parry ball_cuboid_toi (will touch)");
  expect_published({ball, cuboid, at(3, 3), kId, T * Vec2{-0.5f, -0.5f}, T * Vec2{-1, 1}}, -1, 0, "parry ball_cuboid_toi (won't touch)");
  // cuboid_cuboid_toi_issue_214: 8 apart closing at 1.
  expect_published({make_box(1, 1), make_box(1, 1.5f), kId, at(10, 0), T * Vec2{1, 0}, {0, 0}}, 0.8, 1e-9, "parry issue 214");
  // cast_shapes_should_return_toi_for_ball_and_rotated_segment: the segment (1, 1)-(-1, 1) turned
  // by -pi/2 (to about x = 1), a ball of radius 0.5 moving (1, 0) for 1: time 0.5.
  const Transform turned{{0, 0}, Rot::from_angle(-1.57079633f)};
  expect_published({make_circle(0.5f), make_segment({1, 1}, {-1, 1}), kId, turned, {1, 0}, {0, 0}}, 0.5, 1e-6,
                   "parry ball and rotated segment");
  expect_published({make_segment({1, 1}, {-1, 1}), make_circle(0.5f), turned, kId, {0, 0}, {1, 0}}, 0.5, 1e-6,
                   "parry rotated segment and ball");
  // crates/parry2d/tests/geometry/ball_ball_toi.rs (issue 35): balls of radius 0.5 ten apart,
  // one moving at 10: time 0.9.
  expect_published({make_circle(0.5f), make_circle(0.5f), kId, at(0, 10), {0, 10}, {0, 0}}, 0.9, 1e-9, "parry issue 35");
  // crates/parry2d/tests/issue_180_shape_cast_grazing_none.rs: the cuboid of half extents 2
  // falling almost straight onto the long segment (1, 1)-(124, 1), from three positions one
  // float apart (one used to be missed), horizon 100.
  const Vec2 fall{0.0081385f, -0.999966f};
  for (const float x : {15.689464f, 15.689465f, 15.689466f}) {
    const CastCase c{make_segment({1, 1}, {124, 1}), make_box(2, 2), kId, at(x, 54.00709f), {0, 0}, 100.0f * fall};
    expect_published(c, (54.00709 - 3) / 0.999966 / 100, 1e-6, "parry issue 180");
  }
  // The capsule of PR 410 (issue 180's file, capsule_segment_steep_slope_toi): 0.1 from a steep
  // segment and moving into it over one frame; parry's horizon is the speed itself.
  const Vec2 vel{-3.3333337f, -5.4166675f};
  const float horizon = pebble::length(vel);
  const CastCase steep{make_capsule({0, -14}, {0, 14}, 8), make_segment({-24, 48}, {24, -48}), at(-653.3891f, -245.08746f),
                       at(-648, -288), horizon * vel, {0, 0}};
  const real o = oracle_fraction(steep);
  EXPECT_GE(double(o), 0) << "the oracle must see parry's clear hit";
  const std::string e = check_cast(steep);
  EXPECT_TRUE(e.empty()) << e;
  EXPECT_TRUE(run(steep).hit);
}

// ---------------------------------------------------------------------------------------------
// Symmetry and invariance.

TEST(ShapeCast, SwappingTheShapesGivesTheSameCastWithTheNormalReversed) {
  int failures = 0;
  for (const CastCase& c : random_casts(11, 8)) {
    const CastHit ab = run(c);
    const CastCase swapped{c.b, c.a, c.xb, c.xa, c.tb, c.ta, c.target};
    const CastHit ba = run(swapped);
    const CastOracle o(c);
    std::string e = check_cast(swapped);
    if (ab.hit && ba.hit) {
      if (std::fabs(real(ab.fraction) - ba.fraction) > 2 * o.tol_t) e += "fractions differ; ";
      const oracle::DistanceAnswer at = oracle::distance(o.a_at(ab.fraction), o.b_at(ab.fraction), o.tol);
      if (at.normal_unique && angle_between(v(ab.normal), V{-ba.normal.x, -ba.normal.y}) > 2e-3L) e += "normals not opposite; ";
    }
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c);
  }
  EXPECT_EQ(failures, 0);
}

TEST(ShapeCast, MovingEverythingRigidlyChangesNothing) {
  std::mt19937 rng(12);
  int failures = 0;
  for (const CastCase& c : random_casts(13, 8)) {
    const Transform m{{uniform(rng, -20, 20), uniform(rng, -20, 20)}, Rot::from_angle(uniform(rng, -3.14f, 3.14f))};
    const CastCase q{c.a, c.b, pebble::mul(m, c.xa), pebble::mul(m, c.xb), pebble::rotate(m.q, c.ta), pebble::rotate(m.q, c.tb), c.target};
    const CastHit h0 = run(c), h1 = run(q);
    std::string e = check_cast(q);
    if (h0.hit && h1.hit && std::fabs(real(h0.fraction) - h1.fraction) > 2 * CastOracle(c).tol_t + 1e-4L) e += "fraction changed; ";
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c) << "\n    motion " << lit(m);
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Invalid input.

TEST(ShapeCast, InvalidInputGivesNoHit) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for_each_invalid_placement([](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& bad) {
    EXPECT_TRUE(is_no_hit(pebble::shape_cast(a, xa, {1, 0}, b, xb, {-1, 0}))) << lit(bad);
  });
  const Shape box = Shape::box(1, 1);
  const Transform at{{3, 0}, Rot::identity()};
  for (const Vec2 bad : {Vec2{nan, 0}, Vec2{0, inf}, Vec2{1e30f, 0}}) {
    EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, bad, box, at, {0, 0})));
    EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, at, bad)));
  }
  for (const float bad : {-1.0f, nan, inf}) {
    EXPECT_TRUE(is_no_hit(pebble::shape_cast(box, kId, {0, 0}, box, at, {-3, 0}, pebble::ShapeCastOptions{bad})));
  }
}
