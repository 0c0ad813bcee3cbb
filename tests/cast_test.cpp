// cast_shape() against the long double oracle (tests/oracle/cast.hpp): random casts of every kind
// pair, casts that start touching or overlapping, grazing motions, tiny and far-away shapes,
// target separations, published cases of other libraries' test suites, symmetry, rigid-motion
// invariance and invalid input. Along a translation the signed distance of two convex shapes is
// convex in time (the distance of a point moving on a line from their Minkowski difference), so
// the oracle's first touch is exact.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <sstream>
#include <vector>

#include <pebble/cast.hpp>
#include <pebble/distance.hpp>

#include "cast_cases.hpp"
#include "oracle/cast.hpp"
#include "random_cases.hpp"

using namespace cast_cases;
using pebble::CastResult;

namespace {

const Transform kId = Transform::identity();

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
  std::string out = "Shape a = " + c.a.maker + "; Transform xa = " + lit(c.xa) + "; Vec2 ta = " + lit(c.ta) +
                    ";\n    Shape b = " + c.b.maker + "; Transform xb = " + lit(c.xb) + "; Vec2 tb = " + lit(c.tb) +
                    ";";
  if (c.target > 0) out += " float target = " + lit(c.target) + ";";
  return out;
}

CastResult run(const CastCase& c) {
  return c.target > 0
             ? pebble::cast_shape(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, c.tb, pebble::ShapeCastOptions{c.target})
             : pebble::cast_shape(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, c.tb);
}

/// The oracle's view of a cast: the signed distance over the motion, minus the target.
struct CastOracle {
  oracle::RShape wa, wb;
  V ta, tb;
  oracle::RoundedHull diff;
  oracle::ConvexTrack track;
  real tol, tol_t, noise;

  explicit CastOracle(const CastCase& c)
      : wa(world(c.a, c.xa)),
        wb(world(c.b, c.xb)),
        ta(v(c.ta)),
        tb(v(c.tb)),
        diff(oracle::minkowski_difference(wa, wb)),
        track([this, target = real(c.target)](real t) { return diff.signed_distance(t * (tb - ta)) - target; }),
        tol(0),
        tol_t(0),
        noise(0) {
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
  const CastResult h = run(c);
  std::ostringstream err;
  err.precision(9);
  if (!finite(h)) return "non-finite field; ";
  const CastOracle o(c);
  const real t_early = o.track.first_at_or_below(o.tol), t_late = o.track.first_at_or_below(-o.tol);
  if (!h.hit) {
    if (!is_no_hit(h)) err << "a miss must be {false, 1, 0, 0}; ";
    if (t_late >= 0)
      err << "missed, but the oracle gets within the target by " << double(o.tol) << " at t = " << double(t_late)
          << "; ";
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
    if (std::fabs(sa - half) > slack)
      err << "point " << double(sa) << " from A's surface, not " << double(half) << "; ";
    if (std::fabs(sb - half) > slack)
      err << "point " << double(sb) << " from B's surface, not " << double(half) << "; ";
  } else {
    const real depth = -at.distance;
    for (const real sd : {sa, sb}) {
      if (sd < -depth - slack || sd > depth / 2 + slack)
        err << "overlap point at " << double(sd) << " from a surface (depth " << double(depth) << "); ";
    }
  }
  return err.str();
}

// ---------------------------------------------------------------------------------------------
// Case families.

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
  if (rng() % 2)
    ta = size * uniform(rng, 0, 0.5f) * Vec2{float(dir.x), float(dir.y)} +
         Vec2{uniform(rng, -0.2f, 0.2f), uniform(rng, -0.2f, 0.2f)} * size;
  return {std::move(a), std::move(b), xa, Transform{pb, qb}, ta, Vec2{float(aim.x), float(aim.y)} + ta};
}

// per_pair / kSanitizerScale of each kind pair (random_approaches() too): the sanitizer run's share.
std::vector<CastCase> random_casts(unsigned seed, int per_pair, float size = 1, Vec2 origin = {}, float gap_lo = 0.05f,
                                   float gap_hi = 2) {
  return every_kind_pair<CastCase>(
      seed, per_pair / test_random::kSanitizerScale, [&](Kind ka, Kind kb, std::mt19937& rng) {
        return std::optional<CastCase>(random_cast(ka, kb, rng, size, origin, gap_lo, gap_hi));
      });
}

/// Grazing casts: the relative motion is shifted sideways to where it just touches (found by
/// bisection on the oracle's least distance over the motion), then by nothing or a hair either
/// way.
std::vector<CastCase> grazing_casts(unsigned seed, int per_pair) {
  return every_kind_pair<CastCase>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) -> std::optional<CastCase> {
    CastCase c = random_cast(ka, kb, rng, 1, {}, 0.3f, 2);
    const V side = oracle::normalize(perpendicular(v(c.tb) - v(c.ta)));
    auto shifted = [&](real shift) {
      CastCase s = c;
      s.xb.p = Vec2{float(c.xb.p.x + shift * side.x), float(c.xb.p.y + shift * side.y)};
      return s;
    };
    // From a shift that touches (0, usually) outward to one that misses.
    const std::optional<real> edge =
        edge_of_contact([&](real shift) { return CastOracle(shifted(shift)).track.least() <= 0; }, 0, 4, 60);
    if (!edge) return std::nullopt;
    return shifted(*edge + hair(rng));
  });
}

/// Casts whose edges are parallel to rounding: B turned exactly like A, or a quarter or half turn
/// from it (c and s swapped and negated exactly), so that boxes and their kin meet face to face.
std::vector<CastCase> parallel_casts(unsigned seed, int per_pair) {
  return every_kind_pair<CastCase>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) {
    CastCase c = random_cast(ka, kb, rng, 1, {}, 0.05f, 2);
    const Rot q = c.xa.q;
    const Rot turns[] = {q, Rot{-q.s, q.c}, Rot{-q.c, -q.s}, Rot{q.s, -q.c}};
    const Rot qb = turns[rng() % 4];
    // Keep B's centre where it was.
    const pebble::Position centre = pebble::transform_point(c.xb, c.b.shape.core_centroid());
    c.xb = Transform{centre - pebble::rotate(qb, c.b.shape.core_centroid()), qb};
    return std::optional<CastCase>(std::move(c));
  });
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

namespace {

/// Issue 15 (the query fuzzer): a long box turned by an angle too small to move its vertices
/// (its edge normals do turn) under a rounded shape whose core rests on its long face, a hair
/// above it (a denormal to a float step: a vertex coordinate of the rider) or in it, so that
/// they overlap by about the radius. In the Minkowski difference the face's plane is then
/// tilted against the line through its vertices, and the origin lies below that line, beyond
/// the rider's own short bottom edge but beside no edge it is beyond: the cast took the nearest
/// vertex of the difference, thousands of radii away, and missed. Every scale, either tilt, the
/// box turned or the rider, either order, motions none, apart and along the face: always a hit
/// at fraction 0.
std::vector<CastCase> tilted_long_face_casts() {
  struct Scale {
    float half_width, half_height, radius;
  };
  const Scale scales[] = {{100, 1, 0.01f},         {100, 1, 1},   {14885, 58.2265625f, 52.203125f},
                          {14885, 58.2265625f, 1}, {1e5f, 50, 5}, {10, 0.01f, 0.01f}};
  std::vector<CastCase> cases;
  for (const Scale& sc : scales) {
    const float s = sc.half_height, r = sc.radius;
    const ShapeSpec box = make_box(sc.half_width, sc.half_height);
    for (const float hair : {0.0f, 9.47742545e-38f, 1e-20f, 1e-7f * s}) {
      // Riders whose core's lowest points are `hair` above their frame's origin: a flat bottom
      // edge (short beside the box's), a capsule's, a corner.
      const ShapeSpec riders[] = {make_polygon({{-s, hair}, {s, hair}, {s, hair + s}, {-s, hair + s}}, r),
                                  make_capsule({-s, hair}, {s, hair}, r),
                                  make_polygon({{0, hair}, {s, s}, {-s, s}}, r)};
      for (const float tilt : {1e-10f, -1e-10f, 3e-9f, -2e-8f}) {
        for (const ShapeSpec& rider : riders) {
          for (const float sink : {0.0f, 0.5f}) {           // the core this far (x r) into the face
            for (int motion = 0; motion < 3; ++motion) {    // none, rider apart, along the face
              for (int turned = 0; turned < 2; ++turned) {  // the box turned, or the rider
                const Rot q = Rot::from_angle(tilt);
                const Transform xbox{{0, 0}, turned == 0 ? q : Rot::identity()};
                const Transform xrider{{0.25f * sc.half_width, sc.half_height - sink * r},
                                       turned == 1 ? q : Rot::identity()};
                const Vec2 move = motion == 0 ? Vec2{0, 0} : motion == 1 ? Vec2{0, r} : Vec2{0.3f * sc.half_width, 0};
                cases.push_back({rider, box, xrider, xbox, move, {0, 0}});
                cases.push_back({box, rider, xbox, xrider, {0, 0}, move});
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

}  // namespace

TEST(ShapeCast, TiltedLongFaceUnderARoundedShapeHitsAtTheStart) {
  const std::vector<CastCase> cases = tilted_long_face_casts();
  expect_all(
      cases,
      [](const CastCase& c) {
        const CastResult h = run(c);
        std::string err = check_cast(c);
        if (!h.hit || h.fraction != 0) err += "overlapping at the start, yet not a hit at fraction 0; ";
        return err;
      },
      "tilted long face");
  // Both moving together (no relative motion) too.
  std::vector<CastCase> together = cases;
  for (CastCase& c : together) c.ta = c.tb = Vec2{-0.25f * float(c.xa.p.y), 0.5f};
  expect_all(together, check_cast, "tilted long face, moving together");
}

TEST(ShapeCast, NearlyParallelSharpSegmentsMissBeyondTheirSliverDifference) {
  // Found by the world fuzzer: two sharp segments 1e-20 off parallel have a difference 2e-20 wide,
  // whose rounded planes meet far beyond its vertices. The ray entered them 43 units from the
  // collider and the cast reported a touch at the end of the motion; the oracle keeps them at
  // least 30 apart all the way.
  const CastCase c{make_capsule({9.99999968e-21f, -43.1679688f}, {-9.99999968e-21f, 43.1679688f}, 0),
                   make_capsule({43.1679688f, 0}, {43.1679688f, 43.1679688f}, 0),
                   Transform{{43.1679688f, 43.1679688f}, Rot{0, 1}},
                   Transform{{6.08111218e-13f, 43.1679688f}, Rot{0, 1}},
                   {43.1679688f, 43.1679688f},
                   {0, 0}};
  EXPECT_FALSE(run(c).hit);
  EXPECT_EQ(check_cast(c), "");
  // The same pair through closest_approach() and time_to_collision().
  const pebble::ApproachResult r = pebble::closest_approach(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, {0, 0}, 1);
  EXPECT_FALSE(r.hit);
  EXPECT_GT(r.distance, 30);
  EXPECT_EQ(pebble::time_to_collision(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, {0, 0}, 1), pebble::kNoCollision);
}

TEST(ShapeCast, ParallelSharpSegmentsWhoseDifferenceHasAnEdgeOfLengthZero) {
  // The world fuzzer's world-sharp-segment-graze-2: a sharp segment 120 long moving diagonally onto
  // the line of a sharp segment 6e-13 long, turned by 6e-13 rad. Their difference's short edges
  // round to length 0 (two coincident vertices) with a normal along the line; the ray entered
  // such an edge's plane 24 units from it, and the sliver check, which measures the entry along
  // the edge, saw every point of an edge of length 0 "on" it: a touch at fraction 1 where the
  // oracle keeps them 24 apart. Around it: short segments of 0 to 1e-6, motions ending 24, 1 and
  // 1e-3 short of the short segment's end, on it, and 1e-3 and 24 across it, each against the oracle.
  const Transform xm{{0, 0}, Rot{1, 6.08112627e-13f}};
  const Transform xc{{43.1679688f, 43.1679688f}, Rot{0, 1}};
  for (const float length : {0.0f, 6.07519406e-13f, 1e-12f, 1e-9f, 1e-6f}) {
    for (const float end : {-24.0976562f, -1.0f, -1e-3f, 0.0f, 1e-3f, 24.0f}) {
      // The mover's near end reaches x = 43.168 + end at fraction 1.
      const CastCase c{make_capsule({end, 1.21977439e-12f}, {end - 120.46875f, 1.21977439e-12f}, 0),
                       make_capsule({0, 0}, {0, length}, 0),
                       xm,
                       xc,
                       {43.1679688f, 43.1679688f},
                       {0, 0}};
      SCOPED_TRACE("length " + std::to_string(length) + " end " + std::to_string(end));
      EXPECT_EQ(check_cast(c), "");
      if (end < -1e-4f) {
        EXPECT_FALSE(run(c).hit);
        EXPECT_FALSE(pebble::closest_approach(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, {0, 0}, 1).hit);
      }
    }
  }
}

TEST(ShapeCast, RoundedPairsWhoseDifferenceHasAnEdgeOfLengthZero) {
  // The world fuzzer (issue 37, world-sharp-sliver-cast-capsule): a sharp segment 1.2e-12 long
  // cast past a capsule of radius 35 parallel to it. Their difference's short edges round to
  // length 0 with normals along the long ones; the clip entered such an edge's grown plane, and
  // with every entry point at parameter 0 of an edge of length 0 the contact was taken as on the
  // edge: a touch at fraction 0.19 where distance() is 27. Now such an edge's contact is on its
  // vertex's circle. Around it: short segments of 0 to 1e-6, radii 0.5 and 35, motions ending 27,
  // 5 and 1e-3 clear of the capsule's side, touching it and 1e-3 and 5 into it, against the oracle.
  {
    const CastCase c{make_capsule({-9.99999968e-21f, -6.08113115e-13f}, {9.99999968e-21f, 6.08113115e-13f}, 0),
                     make_capsule({43.1679688f, 0}, {43.1679688f, 43.1679688f}, 35),
                     Transform{{43.1679688f, 43.1679688f}, Rot{0, 1}},
                     Transform{{6.07625061e-13f, 43.1679688f}, Rot{0, 1}},
                     {43.1679688f, 43.1679688f},
                     {0, 0}};
    EXPECT_FALSE(run(c).hit);
    EXPECT_EQ(check_cast(c), "");
    EXPECT_FALSE(pebble::closest_approach(c.a.shape, c.xa, c.ta, c.b.shape, c.xb, {0, 0}, 1).hit);
  }
  for (const float radius : {0.5f, 35.0f}) {
    for (const float length : {0.0f, 1.21622623e-12f, 1e-9f, 1e-6f}) {
      for (const float clear : {27.0f, 5.0f, 1e-3f, 0.0f, -1e-3f, -5.0f}) {
        const Vec2 start{radius + 40, -10};
        const CastCase c{make_capsule({0, -0.5f * length}, {0, 0.5f * length}, 0),
                         make_capsule({0, 0}, {0, 40}, radius),
                         Transform{start, Rot::identity()},
                         kId,
                         Vec2{radius + clear - start.x, 30},
                         {0, 0}};
        SCOPED_TRACE("radius " + std::to_string(radius) + " length " + std::to_string(length) + " clear " +
                     std::to_string(clear));
        EXPECT_EQ(check_cast(c), "");
        if (clear > 1e-4f) {
          EXPECT_FALSE(run(c).hit);
        }
        if (clear < -1e-4f) {
          EXPECT_TRUE(run(c).hit);
        }
      }
    }
  }
}

TEST(ShapeCast, StartAtTheTargetWithinRoundingOfALongShapesEndHits) {
  // The world fuzzer's mover (issue 37, fuzz/corpus/world/mover-deep-after-step): a box 428 long, its end
  // 0.100006 from a disc, cast into it with a target of 0.1. The planes of the difference grown by
  // r = 0.6 put the start inside (no entry: it lies within their rounding at 214 from the box's
  // origin), the end edge's foot put it 6e-6 beyond r, and the cast fell back to the corner's
  // circle 0.8 away and missed: the mover walked 1.29 into the disc. A foot within r to the
  // rounding of the coordinates is now a start inside. Boxes 4 to 800 long, starts at the target
  // and a float or two each side of it, against the oracle.
  const Transform disc_at{{262.671875f, 0.671875f}, Rot::identity()};
  for (const float half : {2.0f, 20.0f, 100.0f, 214.0f, 400.0f}) {
    const ShapeSpec box = make_polygon({{-1, -half}, {1, -half}, {1, half}, {-1, half}}, 0);
    for (const float gap : {0.0999f, 0.1f, 0.100006f, 0.10001f, 0.1001f, 0.2f}) {
      const CastCase c{box,     make_circle(0.5f), Transform{{262.171875f - gap - half, 0.46484375f}, Rot{0, -1}},
                       disc_at, {2.1166f, 0},      {0, 0},
                       0.1f};
      SCOPED_TRACE("half " + std::to_string(half) + " gap " + std::to_string(gap));
      EXPECT_TRUE(run(c).hit);
      EXPECT_EQ(check_cast(c), "");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Exact cases worked by hand.

TEST(ShapeCast, BoxOntoBoxFaceFirst) {
  // B (unit box at x = 4) moves left by 4: faces meet when it has moved 2.
  const CastResult h = pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1),
                                          Transform{{4, 0.5f}, Rot::identity()}, {-4, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
  EXPECT_EQ(h.point.x, 1.0f);
  EXPECT_GE(h.point.y, -0.5f);
  EXPECT_LE(h.point.y, 1.0f);
}

TEST(ShapeCast, BothMovingMeetHalfway) {
  // Surfaces 2 apart, closing at 4: they meet at 0.5 with the centres at 1 and 3.
  const CastResult h =
      pebble::cast_shape(Shape::circle(1), kId, {2, 0}, Shape::circle(1), Transform{{4, 0}, Rot::identity()}, {-2, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{2, 0}));
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
}

TEST(ShapeCast, CornerOntoCornerAlongTheDiagonal) {
  // Two unit boxes apart diagonally, moving together along the diagonal: corners meet.
  const CastResult h =
      pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{4, 4}, Rot::identity()}, {-4, -4});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_NEAR(h.point.x, 1, 1e-6f);
  EXPECT_NEAR(h.point.y, 1, 1e-6f);
  // Any normal of the corner-on-corner contact between the two face normals is right.
  EXPECT_GE(h.normal.x, -1e-6f);
  EXPECT_GE(h.normal.y, -1e-6f);
}

namespace {

/// A corner approach (cast_cases.hpp) as a cast: the translations as given.
CastCase corner_cast(const CornerApproach& c) { return {c.a, c.b, c.xa, c.xb, c.ta, c.tb, 0}; }

/// check_cast() and, at a hit, the normal in the normal cone of the touch at the hit's fraction.
std::string check_corner_cast(const CastCase& c) {
  std::string err = check_cast(c);
  const CastResult h = run(c);
  if (!h.hit) return err + "no hit; ";
  const CastOracle o(c);
  return err + check_in_cone(h.normal, o.a_at(h.fraction), o.b_at(h.fraction), o.tb - o.ta);
}

}  // namespace

TEST(ShapeCast, FirstTouchAtADifferenceVertexHasANormalInItsCone) {
  std::vector<CastCase> cases;
  for (const CornerApproach& c : corner_approaches(71, 30)) cases.push_back(corner_cast(c));
  expect_all(cases, check_corner_cast, "corner approaches");
}

TEST(ShapeCast, MovingApartOrSidewaysMisses) {
  const Shape box = Shape::box(1, 1);
  const Transform at{{4, 0}, Rot::identity()};
  EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, at, {4, 0})));
  EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, at, {0, 5})));
  EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, at, {-1.5f, 0})));  // stops short
}

TEST(ShapeCast, SlidingAlongAFaceTouchesOnlyWhenReachingIt) {
  // B rests on A's top face... one unit above it, then slides along: never touches.
  const Shape box = Shape::box(1, 1);
  EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, Transform{{-5, 3}, Rot::identity()}, {10, 0})));
  // Exactly on the face's line (touching all along from x = -2 on): first touch at fraction 0.3.
  const CastResult h = pebble::cast_shape(box, kId, {0, 0}, box, Transform{{-5, 2}, Rot::identity()}, {10, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.fraction, 0.3f, 1e-6f);
}

TEST(ShapeCast, StartingInContactGivesFractionZeroAndTheMinimumTranslation) {
  const CastResult h = pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1),
                                          Transform{{1.5f, 0.25f}, Rot::identity()}, {-1, 0});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.0f);
  EXPECT_NEAR(h.normal.x, 1, 1e-6f);
  EXPECT_NEAR(h.normal.y, 0, 1e-6f);
  // Moving apart does not matter: they touch at the start.
  const CastResult away =
      pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{2, 0}, Rot::identity()}, {3, 0});
  EXPECT_TRUE(away.hit);
  EXPECT_EQ(away.fraction, 0.0f);
}

TEST(ShapeCast, TargetSeparationStopsShort) {
  // The faces are 2 apart and close at 4 per unit of fraction: 0.25 apart at 0.4375; the point
  // is midway between the two faces.
  const CastResult h = pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1),
                                          Transform{{4, 0}, Rot::identity()}, {-4, 0}, pebble::ShapeCastOptions{0.25f});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.4375f);
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
  EXPECT_EQ(h.point.x, 1.125f);
  // Already within the target at the start: fraction 0, the closest points' normal.
  const CastResult near =
      pebble::cast_shape(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1), Transform{{2.125f, 0}, Rot::identity()},
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
  const CastResult h = run(c);
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
  expect_published(
      {make_polygon({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}), make_segment({2, -1}, {2, 1}), kId, kId, {0, 0}, {-2, 0}},
      0.5, 1e-12, "Box2D ShapeCastTest");
  // Box2D v3 test_distance.c, ShapeCastShortEdgeTest (a reported false overlap of a point falling
  // past the end of a plank 0.0004 thick): Box2D only asks for no hit or a unit normal. The
  // point passes the plank's end 0.0059 to its right: the oracle and pebble see no contact.
  expect_published({make_polygon({{-0.5f, -0.0002f}, {0.5f, -0.0002f}, {0.5f, 0.0002f}, {-0.5f, 0.0002f}}),
                    make_segment({0.506f, 0.0035f}, {0.506f, 0.0035f}),
                    kId,
                    kId,
                    {0, 0},
                    {-0.01f, -0.5f}},
                   -1, 0, "Box2D ShapeCastShortEdgeTest");
}

TEST(ShapeCast, PublishedParryCases) {
  // parry2d crates/parry2d/tests/geometry/time_of_impact2.rs, ball_cuboid_toi: a ball of radius
  // 1 and the cuboid of half extents 1, horizon T = 10.
  const float T = 10;
  const ShapeSpec ball = make_circle(1), cuboid = make_box(1, 1);
  expect_published({ball, cuboid, at(1, 1), kId, T * Vec2{2, 2}, T * Vec2{-1, 1}}, 0, 1e-12,
                   "parry ball_cuboid_toi (intersecting)");
  expect_published({ball, cuboid, at(2, 2), kId, T * Vec2{-0.5f, -0.5f}, T * Vec2{1, 1}},
                   (std::sqrt(2.0) - 1) / std::hypot(1.5, 1.5) / T, 1e-9, "parry ball_cuboid_toi (will touch)");
  expect_published({ball, cuboid, at(3, 3), kId, T * Vec2{-0.5f, -0.5f}, T * Vec2{-1, 1}}, -1, 0,
                   "parry ball_cuboid_toi (won't touch)");
  // cuboid_cuboid_toi_issue_214: 8 apart closing at 1.
  expect_published({make_box(1, 1), make_box(1, 1.5f), kId, at(10, 0), T * Vec2{1, 0}, {0, 0}}, 0.8, 1e-9,
                   "parry issue 214");
  // cast_shapes_should_return_toi_for_ball_and_rotated_segment: the segment (1, 1)-(-1, 1) turned
  // by -pi/2 (to about x = 1), a ball of radius 0.5 moving (1, 0) for 1: time 0.5.
  const Transform turned{{0, 0}, Rot::from_angle(-1.57079633f)};
  expect_published({make_circle(0.5f), make_segment({1, 1}, {-1, 1}), kId, turned, {1, 0}, {0, 0}}, 0.5, 1e-6,
                   "parry ball and rotated segment");
  expect_published({make_segment({1, 1}, {-1, 1}), make_circle(0.5f), turned, kId, {0, 0}, {1, 0}}, 0.5, 1e-6,
                   "parry rotated segment and ball");
  // crates/parry2d/tests/geometry/ball_ball_toi.rs (issue 35): balls of radius 0.5 ten apart,
  // one moving at 10: time 0.9.
  expect_published({make_circle(0.5f), make_circle(0.5f), kId, at(0, 10), {0, 10}, {0, 0}}, 0.9, 1e-9,
                   "parry issue 35");
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
  const CastCase steep{make_capsule({0, -14}, {0, 14}, 8),
                       make_segment({-24, 48}, {24, -48}),
                       at(-653.3891f, -245.08746f),
                       at(-648, -288),
                       horizon * vel,
                       {0, 0}};
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
    const CastResult ab = run(c);
    const CastCase swapped{c.b, c.a, c.xb, c.xa, c.tb, c.ta, c.target};
    const CastResult ba = run(swapped);
    const CastOracle o(c);
    std::string e = check_cast(swapped);
    if (ab.hit && ba.hit) {
      if (std::fabs(real(ab.fraction) - ba.fraction) > 2 * o.tol_t) e += "fractions differ; ";
      const oracle::DistanceAnswer at = oracle::distance(o.a_at(ab.fraction), o.b_at(ab.fraction), o.tol);
      if (at.normal_unique && angle_between(v(ab.normal), V{-ba.normal.x, -ba.normal.y}) > 2e-3L)
        e += "normals not opposite; ";
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
    const CastCase q{
        c.a,     c.b, pebble::mul(m, c.xa), pebble::mul(m, c.xb), pebble::rotate(m.q, c.ta), pebble::rotate(m.q, c.tb),
        c.target};
    const CastResult h0 = run(c), h1 = run(q);
    std::string e = check_cast(q);
    if (h0.hit && h1.hit && std::fabs(real(h0.fraction) - h1.fraction) > 2 * CastOracle(c).tol_t + 1e-4L)
      e += "fraction changed; ";
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c) << "\n    motion " << lit(m);
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Invalid input.

TEST(ShapeCast, InvalidInputGivesNoHit) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for_each_invalid_placement(
      [](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& bad) {
        EXPECT_TRUE(is_no_hit(pebble::cast_shape(a, xa, {1, 0}, b, xb, {-1, 0}))) << lit(bad);
      });
  const Shape box = Shape::box(1, 1);
  const Transform at{{3, 0}, Rot::identity()};
  for (const Vec2 bad : {Vec2{nan, 0}, Vec2{0, inf}, Vec2{1e30f, 0}}) {
    EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, bad, box, at, {0, 0})));
    EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, at, bad)));
  }
  for (const float bad : {-1.0f, nan, inf}) {
    EXPECT_TRUE(is_no_hit(pebble::cast_shape(box, kId, {0, 0}, box, at, {-3, 0}, pebble::ShapeCastOptions{bad})));
  }
}

// =============================================================================================
// time_of_impact() against the oracle under rotation: Lipschitz interval subdivision of the true
// signed distance (tests/oracle/cast.hpp), which finds the first touch however brief.

namespace {

using pebble::Sweep;
using pebble::ToiResult;
using State = ToiResult::State;

/// Two shapes, each with a sweep, over [0, t_max], to a target separation.
struct ToiCase {
  ShapeSpec a, b;
  Sweep sa, sb;
  float t_max = 1;
  float target = 0;
};

using contact_cases::lit;
std::string lit(const Sweep& s) {
  return "Sweep{" + lit(s.local_center) + ", " + lit(s.c0) + ", " + lit(s.c1) + ", " + lit(s.a0) + ", " + lit(s.a1) +
         "}";
}

std::string describe(const ToiCase& c) {
  return "Shape a = " + c.a.maker + "; Sweep sa = " + lit(c.sa) + ";\n    Shape b = " + c.b.maker +
         "; Sweep sb = " + lit(c.sb) + "; float t_max = " + lit(c.t_max) + ", target = " + lit(c.target) + ";";
}

ToiResult run(const ToiCase& c) {
  return pebble::time_of_impact(c.a.shape, c.sa, c.b.shape, c.sb, c.t_max, pebble::ToiOptions{c.target});
}

const char* name(State s) {
  switch (s) {
    case State::hit:
      return "hit";
    case State::separated:
      return "separated";
    case State::overlapped:
      return "overlapped";
    case State::failed:
      return "failed";
  }
  return "?";
}

/// The shape's core about its rotation centre, and its motion, for the oracle.
std::pair<oracle::RShape, oracle::Motion> oracle_motion(const ShapeSpec& s, const Sweep& w) {
  oracle::RShape centred;
  centred.radius = s.shape.radius();
  for (Vec2 p : s.shape.vertices())
    centred.core.push_back(V{real(p.x) - w.local_center.x, real(p.y) - w.local_center.y});
  return {centred, oracle::Motion{v(w.c0), v(w.c1), w.a0, w.a1}};
}

/// The tolerance time_of_impact() uses by default (pebble/cast.hpp), in long double.
real default_tolerance(const ToiCase& c) {
  return std::min(real(pebble::kToiTolerance),
                  real(pebble::kToiToleranceFraction) * std::min(c.a.shape.extent(), c.b.shape.extent()));
}

struct ToiStats {
  int hits = 0, separated = 0, overlapped = 0, failed = 0;
};

/// Everything the contract says about one time of impact, checked against the oracle. "" when
/// all holds. Counts the states in stats.
std::string check_toi(const ToiCase& c, ToiStats* stats = nullptr) {
  const ToiResult r = run(c);
  std::ostringstream err;
  err.precision(9);
  if (!std::isfinite(r.fraction) || !pebble::is_finite(r.point) || !pebble::is_finite(r.normal))
    return "non-finite field; ";
  const auto [ca, ma] = oracle_motion(c.a, c.sa);
  const auto [cb, mb] = oracle_motion(c.b, c.sb);
  const real lipschitz = ma.speed_bound(oracle::reach(ca)) + mb.speed_bound(oracle::reach(cb));
  // Float rounding of the poses (coordinates and angles, whose float cosine differs from the
  // oracle's by about an ulp of the angle times the reach).
  real biggest = 0;
  for (const Sweep* w : {&c.sa, &c.sb})
    biggest = std::max({biggest, real(std::fabs(w->c0.x)), real(std::fabs(w->c0.y)), real(std::fabs(w->c1.x)),
                        real(std::fabs(w->c1.y))});
  const real angles = std::max(
      {std::fabs(real(c.sa.a0)), std::fabs(real(c.sa.a1)), std::fabs(real(c.sb.a0)), std::fabs(real(c.sb.a1))});
  const real size = std::max(oracle::reach(ca), oracle::reach(cb));
  const real noise = 16 * real(FLT_EPSILON) * (biggest + size + angles * size);
  const real tol = std::max(default_tolerance(c), noise) + noise;
  const real target = c.target;
  const real d0 = oracle::moving_distance(ca, ma, cb, mb, 0);
  // The first time the shapes are within the target less the tolerance: a clear approach that
  // must not be missed nor reported late.
  const oracle::FirstTouch clear = oracle::first_time_at_or_below(ca, ma, cb, mb, target - tol, c.t_max);
  // Never late: no time before the answer at which the shapes are within the target by more
  // than the tolerance (a contact reported after the shapes went that deep would be a tunnel),
  // up to the rounding of the fraction itself.
  const real late = 2 * real(FLT_EPSILON) + (lipschitz > 0 ? 2 * noise / lipschitz : 0);
  const real t = r.fraction;
  switch (r.state) {
    case State::overlapped:
      if (stats) ++stats->overlapped;
      if (d0 > noise) err << "overlapped, but the oracle starts " << double(d0) << " apart; ";
      if (r.fraction != 0) err << "overlapped at fraction " << r.fraction << "; ";
      break;
    case State::hit: {
      if (stats) ++stats->hits;
      if (d0 < -tol) err << "hit, but the oracle starts overlapping by " << double(-d0) << "; ";
      if (!(t >= 0 && t <= c.t_max)) err << "fraction " << r.fraction << " outside [0, t_max]; ";
      if (clear.certain >= 0 && t > clear.certain + late)
        err << "late: fraction " << r.fraction << ", the oracle is within the target by the tolerance at "
            << double(clear.certain) << "; ";
      const oracle::RShape wa = ma.at(ca, t), wb = mb.at(cb, t);
      const real dt = oracle::signed_distance_between(wa, wb);
      if (dt > target + tol)
        err << "early: the oracle is " << double(dt) << " apart at the fraction (target " << double(target) << "); ";
      Tolerance tl = tolerance_for(wa, wb);
      tl.length = std::max(tl.length, tol);
      const oracle::DistanceAnswer at = oracle::distance(wa, wb, tl.length, tl.conditioning);
      check_normal(err, r.normal, wa, wb, at, tl);
      break;
    }
    case State::separated:
      if (stats) ++stats->separated;
      if (r.fraction != c.t_max) err << "separated at fraction " << r.fraction << ", not t_max; ";
      if (clear.certain >= 0)
        err << "separated, but the oracle comes within the target less the tolerance at " << double(clear.certain)
            << "; ";
      break;
    case State::failed:
      if (stats) ++stats->failed;
      if (clear.certain >= 0 && t > clear.certain + late)
        err << "failed late: safe until " << r.fraction << ", the oracle is within the target by the tolerance at "
            << double(clear.certain) << "; ";
      break;
  }
  if (!err.str().empty()) err << "[" << name(r.state) << "] ";
  return err.str();
}

/// Random sweeps: B placed `gap` from A, its rotation centre moving toward A's (aimed off centre)
/// over 0.3 to 3 times the distance, both turning by up to `spin` radians; A moving a little or
/// not at all.
ToiCase random_toi(Kind ka, Kind kb, std::mt19937& rng, float size, Vec2 origin, float gap_lo, float gap_hi,
                   float spin) {
  ShapeSpec a = random_shape(ka, rng, size * uniform(rng, 0.5f, 1.5f));
  ShapeSpec b = random_shape(kb, rng, size * uniform(rng, 0.5f, 1.5f));
  const float angle_a = uniform(rng, -3.14159265f, 3.14159265f), angle_b = uniform(rng, -3.14159265f, 3.14159265f);
  const Transform xa{{origin.x + uniform(rng, -2, 2) * size, origin.y + uniform(rng, -2, 2) * size},
                     Rot::from_angle(angle_a)};
  const V dir = random_direction(rng);
  const real gap = size * uniform(rng, gap_lo, gap_hi);
  const Vec2 pb = place(a, xa, b, Rot::from_angle(angle_b), gap, dir);
  const Vec2 lca = a.shape.core_centroid(), lcb = b.shape.core_centroid();
  Sweep sa{lca, pebble::transform_point(xa, lca), {}, angle_a, angle_a};
  Sweep sb{lcb, pebble::transform_point(Transform{pb, Rot::from_angle(angle_b)}, lcb), {}, angle_b, angle_b};
  const real reach = (std::max(gap, real(0)) + size) * uniform(rng, 0.3f, 3);
  const V aim = (-reach) * dir + (size * uniform(rng, -1.5f, 1.5f)) * perpendicular(dir);
  sb.c1 = sb.c0 + Vec2{float(aim.x), float(aim.y)};
  sa.c1 = sa.c0;
  if (rng() % 2) sa.c1 = sa.c0 + size * Vec2{uniform(rng, -0.5f, 0.5f), uniform(rng, -0.5f, 0.5f)};
  if (rng() % 4) sb.a1 = angle_b + uniform(rng, -spin, spin);
  if (rng() % 2) sa.a1 = angle_a + uniform(rng, -spin, spin);
  return {std::move(a), std::move(b), sa, sb};
}

std::vector<ToiCase> random_tois(unsigned seed, int per_pair, float spin, float size = 1, Vec2 origin = {},
                                 float gap_lo = 0.05f, float gap_hi = 2) {
  return every_kind_pair<ToiCase>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) {
    return std::optional<ToiCase>(random_toi(ka, kb, rng, size, origin, gap_lo, gap_hi, spin));
  });
}

/// Thin boxes (aspect 25 to 100) spinning at 10 to 60 radians per step, flying past or into
/// thin boxes, segments, capsules and circles: the case conservative advancement exists for.
std::vector<ToiCase> spinning_thin_boxes(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::vector<ToiCase> out;
  for (int i = 0; i < count; ++i) {
    const float half = uniform(rng, 0.5f, 1.5f);
    ShapeSpec a = make_box(half, half * uniform(rng, 0.01f, 0.04f));
    ShapeSpec b = i % 4 == 0   ? make_box(uniform(rng, 0.5f, 2), uniform(rng, 0.01f, 0.05f))
                  : i % 4 == 1 ? make_segment({-1.5f, 0}, {1.5f, 0})
                  : i % 4 == 2 ? make_capsule({-1, 0}, {1, 0}, 0.05f)
                               : make_circle(uniform(rng, 0.05f, 0.3f));
    const float wall_angle = uniform(rng, -3.14159265f, 3.14159265f);
    const Sweep sb{{0, 0}, {0, 0}, {0, 0}, wall_angle, wall_angle};
    const V dir = random_direction(rng);
    const float dist = uniform(rng, 1.7f, 4);
    const Vec2 from{float(dir.x * dist), float(dir.y * dist)};
    const Vec2 to = -uniform(rng, 0.2f, 1.5f) * from + Vec2{uniform(rng, -1, 1), uniform(rng, -1, 1)};
    const float a0 = uniform(rng, -3.14159265f, 3.14159265f);
    const float turn = (rng() % 2 ? 1.0f : -1.0f) * uniform(rng, 10, 60);
    out.push_back({std::move(a), std::move(b), Sweep{{0, 0}, from, to, a0, a0 + turn}, sb});
  }
  return out;
}

/// Grazing sweeps under rotation: B's path shifted sideways to where the oracle first finds a
/// touch possible (bisection on the shift between a hitting and a missing one), then by nothing
/// or a hair either way: contacts that last an instant, or nearly happen.
std::vector<ToiCase> grazing_tois(unsigned seed, int per_pair) {
  return every_kind_pair<ToiCase>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) -> std::optional<ToiCase> {
    ToiCase c = random_toi(ka, kb, rng, 1, {}, 0.3f, 2, 2);
    const V side = oracle::normalize(perpendicular(v(c.sb.c1 - c.sb.c0) - v(c.sa.c1 - c.sa.c0)));
    auto shifted = [&](real shift) {
      ToiCase s = c;
      const Vec2 by{float(shift * side.x), float(shift * side.y)};
      s.sb.c0 = s.sb.c0 + by;
      s.sb.c1 = s.sb.c1 + by;
      return s;
    };
    auto touches = [&](real shift) {
      const ToiCase s = shifted(shift);
      const auto [ca, ma] = oracle_motion(s.a, s.sa);
      const auto [cb, mb] = oracle_motion(s.b, s.sb);
      return oracle::first_time_at_or_below(ca, ma, cb, mb, 0, 1, 1e-6L).possible >= 0;
    };
    // To about 1e-6, below the hair added next.
    const std::optional<real> edge = edge_of_contact(touches, 0, 5, 22);
    if (!edge) return std::nullopt;
    return shifted(*edge + hair(rng));
  });
}

}  // namespace

TEST(TimeOfImpact, MatchesOracleForEveryKindPair) {
  ToiStats stats;
  expect_all(
      random_tois(41, 24, 3), [&](const ToiCase& c) { return check_toi(c, &stats); }, "random sweeps");
  EXPECT_GT(stats.hits, 200);
  EXPECT_GT(stats.separated, 50);
  EXPECT_LE(stats.failed, 2) << "a random sweep should converge within the iteration cap";
}

TEST(TimeOfImpact, TranslationOnlyIsExact) {
  ToiStats stats;
  expect_all(
      random_tois(42, 6, 0), [&](const ToiCase& c) { return check_toi(c, &stats); }, "no rotation");
  EXPECT_EQ(stats.failed, 0);
}

TEST(TimeOfImpact, FastSpinningThinBoxesNeverTunnel) {
  ToiStats stats;
  expect_all(
      spinning_thin_boxes(43, 600), [&](const ToiCase& c) { return check_toi(c, &stats); }, "spinning thin boxes");
  EXPECT_GT(stats.hits, 100);
  std::printf("spinning thin boxes: %d hits, %d separated, %d failed, %d overlapped\n", stats.hits, stats.separated,
              stats.failed, stats.overlapped);
}

TEST(TimeOfImpact, GrazingMotionsNeverTunnel) {
  ToiStats stats;
  expect_all(
      grazing_tois(49, 2), [&](const ToiCase& c) { return check_toi(c, &stats); }, "grazing");
  std::printf("grazing: %d hits, %d separated, %d failed, %d overlapped\n", stats.hits, stats.separated, stats.failed,
              stats.overlapped);
}

TEST(TimeOfImpact, FirstTouchAtADifferenceVertexHasANormalInItsCone) {
  // Corner approaches (cast_cases.hpp) as sweeps about the shapes' positions: without rotation
  // (the shape cast's path) and turning by up to 0.05 rad (conservative advancement, which stops
  // within its tolerance before the touch). At a hit, the normal lies in the normal cone of the
  // shapes as they stand at the reported time.
  std::mt19937 rng(731);
  std::vector<ToiCase> cases;
  for (const CornerApproach& c : corner_approaches(73, 20)) {
    const float spin_a = rng() % 2 ? uniform(rng, -0.05f, 0.05f) : 0,
                spin_b = rng() % 2 ? uniform(rng, -0.05f, 0.05f) : 0;
    const float qa = c.xa.q.angle(), qb = c.xb.q.angle();
    cases.push_back({c.a, c.b, Sweep{{0, 0}, c.xa.p, c.xa.p + c.ta, qa, qa + spin_a},
                     Sweep{{0, 0}, c.xb.p, c.xb.p + c.tb, qb, qb + spin_b}});
  }
  ToiStats stats;
  expect_all(
      cases,
      [&](const ToiCase& c) {
        std::string err = check_toi(c, &stats);
        const ToiResult r = run(c);
        if (r.state != State::hit) return err;
        const auto [ca, ma] = oracle_motion(c.a, c.sa);
        const auto [cb, mb] = oracle_motion(c.b, c.sb);
        return err +
               check_in_cone(r.normal, ma.at(ca, r.fraction), mb.at(cb, r.fraction), (mb.c1 - mb.c0) - (ma.c1 - ma.c0));
      },
      "corner approaches");
  EXPECT_GT(stats.hits, int(cases.size()) * 3 / 4);
}

TEST(TimeOfImpact, PublishedBox2dCases) {
  // Box2D v3, test/test_distance.c, TimeOfImpactTest: the box of half extents 1 at rest and the
  // segment (2, -1)-(2, 1) swept by (-2, 0) touch at 0.5.
  const ToiCase slide{make_polygon({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}), make_segment({2, -1}, {2, 1}),
                      Sweep{{0, 0}, {0, 0}, {0, 0}, 0, 0}, Sweep{{0, 0}, {0, 0}, {-2, 0}, 0, 0}};
  EXPECT_EQ(check_toi(slide), "") << describe(slide);
  const ToiResult r = run(slide);
  EXPECT_EQ(r.state, State::hit);
  const auto [ca, ma] = oracle_motion(slide.a, slide.sa);
  const auto [cb, mb] = oracle_motion(slide.b, slide.sb);
  EXPECT_NEAR(double(oracle::first_time_at_or_below(ca, ma, cb, mb, 0).certain), 0.5, 1e-8)
      << "the oracle disagrees with Box2D";
  EXPECT_NEAR(r.fraction, 0.5, 1e-6);
  // Box2D 2.4.1 testbed, "Time of Impact" (testbed/tests/time_of_impact.cpp): a 50 x 10 box at
  // rest turned by 2.95, a 5 x 5 box moving 1.4 while turning by 0.26 at angles near 513 rad,
  // and the variant its comment suggests, with 300 pi less on both angles. The testbed prints
  // Box2D's answer and publishes none: the oracle decides.
  for (const float less : {0.0f, 300 * 3.14159265f}) {
    const ToiCase bed{
        make_box(25, 5), make_box(2.5f, 2.5f), Sweep{{0, 0}, {24, -60}, {24, -60}, 2.95f, 2.95f},
        Sweep{{0, 0}, {53.474274f, -50.252514f}, {54.595478f, -51.083473f}, 513.36676f - less, 513.62781f - less}};
    EXPECT_EQ(check_toi(bed), "") << describe(bed);
  }
}

TEST(TimeOfImpact, StartingInContact) {
  expect_all(
      random_tois(44, 6, 2, 1, {}, -0.4f, 0.0f), [](const ToiCase& c) { return check_toi(c); }, "starting in contact");
}

TEST(TimeOfImpact, TinyAndFarShapes) {
  expect_all(
      random_tois(45, 4, 3, 0.01f), [](const ToiCase& c) { return check_toi(c); }, "size 0.01");
  expect_all(
      random_tois(46, 4, 3, 1, {1e4f, -1e4f}), [](const ToiCase& c) { return check_toi(c); }, "coordinates 1e4");
}

TEST(TimeOfImpact, TargetSeparationAndShortSteps) {
  std::mt19937 rng(47);
  std::vector<ToiCase> cases = random_tois(48, 6, 3);
  for (ToiCase& c : cases) {
    c.target = rng() % 2 ? pebble::kLinearSlop : 0.05f;
    c.t_max = rng() % 2 ? 1.0f : uniform(rng, 0.1f, 0.9f);
  }
  expect_all(
      cases, [](const ToiCase& c) { return check_toi(c); }, "target and t_max");
}

namespace {

/// Sweeps for each axis the gap between distance() queries can follow (src/cast/cast_sweep.hpp): a
/// corner of B coming down on a face of A (the axis turns with A), a corner of A onto a face of B
/// (with B), a corner onto a corner (fixed), rounded and sharp, with A, B or both turning, slowly
/// and fast, either way.
std::vector<ToiCase> gap_axis_tois() {
  std::vector<ToiCase> out;
  const float quarter = 0.78539816f;
  const std::vector<std::pair<float, float>> spins = {{0.3f, 0}, {0, 0.5f}, {-0.4f, 0.7f}, {2.5f, -3}, {0, -6}, {8, 0}};
  for (const float radius : {0.0f, 0.1f}) {
    const ShapeSpec flat = radius > 0 ? make_rounded_box(1.5f, 0.5f, radius) : make_box(1.5f, 0.5f);
    const ShapeSpec block = radius > 0 ? make_rounded_box(0.5f, 0.5f, radius) : make_box(0.5f, 0.5f);
    for (const auto& [spin_a, spin_b] : spins) {
      // B's corner onto A's top face; A's corner onto B's bottom face; corner to corner.
      out.push_back({flat, block, Sweep{{0, 0}, {0, 0}, {0, 0}, 0, spin_a},
                     Sweep{{0, 0}, {0.3f, 2}, {-0.2f, -1}, quarter, quarter + spin_b}});
      out.push_back({block, flat, Sweep{{0, 0}, {0.3f, -2}, {-0.2f, 1}, quarter, quarter + spin_a},
                     Sweep{{0, 0}, {0, 0}, {0, 0}, 0, spin_b}});
      out.push_back({block, block, Sweep{{0, 0}, {0, 0}, {0.2f, 0}, quarter, quarter + spin_a},
                     Sweep{{0, 0}, {2.2f, 0.1f}, {0.5f, -0.1f}, quarter, quarter + spin_b}});
    }
  }
  return out;
}

/// Random sweeps whose rotation centres lie off the shapes (a shape on a body whose centre of
/// mass is elsewhere): up to two sizes from the core's centroid.
std::vector<ToiCase> off_centre_tois(unsigned seed, int per_pair) {
  return every_kind_pair<ToiCase>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) -> std::optional<ToiCase> {
    ToiCase c = random_toi(ka, kb, rng, 1, {}, 0.05f, 2, 3);
    for (Sweep* w : {&c.sa, &c.sb}) {
      // The same placement at t = 0, turning about another point of the body.
      const Vec2 offset{uniform(rng, -2, 2), uniform(rng, -2, 2)};
      const Vec2 moved = pebble::rotate(Rot::from_angle(w->a0), offset);
      w->local_center = w->local_center + offset;
      w->c0 = w->c0 + moved;
      w->c1 = w->c1 + moved;
    }
    return c;
  });
}

}  // namespace

TEST(TimeOfImpact, EveryKindOfGapAxisMatchesOracle) {
  ToiStats stats;
  expect_all(
      gap_axis_tois(), [&](const ToiCase& c) { return check_toi(c, &stats); },
      "face of A, face of B, corner to corner");
  EXPECT_GT(stats.hits, 20);
  EXPECT_EQ(stats.failed, 0);
}

TEST(TimeOfImpact, RotationCentresOffTheShapesMatchOracle) {
  ToiStats stats;
  expect_all(
      off_centre_tois(50, 6), [&](const ToiCase& c) { return check_toi(c, &stats); }, "off-centre rotation");
  EXPECT_GT(stats.hits, 50);
  EXPECT_LE(stats.failed, 2);
}

TEST(TimeOfImpact, ThousandsOfRadiansPerStepNeverTunnel) {
  // Beyond the 4-lane sine's range (kWideTurnLimit, src/cast/cast_sweep.hpp) the gap turns through
  // turn() instead: a disc spinning about its centre that a box reaches late in the step, and a
  // thin box spinning next to a segment, which it hits within a fraction of a turn.
  const std::vector<ToiCase> cases = {
      {make_circle(0.5f), make_box(0.5f, 0.5f), Sweep{{0, 0}, {0, 0}, {0, 0}, 0, 12000},
       Sweep{{0, 0}, {4, 0}, {0.5f, 0}, 0, 0}},
      {make_circle(0.5f), make_box(0.5f, 0.5f), Sweep{{0, 0}, {0, 0}, {0, 0}, 0, -12000},
       Sweep{{0, 0}, {4, 1}, {0.5f, 0}, 0, 0.5f}},
      {make_box(1, 0.02f), make_segment({-2, 0}, {2, 0}), Sweep{{0, 0}, {0, 0.9f}, {0, 0.9f}, 0.1f, 0.1f + 10000},
       Sweep{{0, 0}, {0, 0}, {0, 0}, 0, 0}},
  };
  ToiStats stats;
  expect_all(
      cases, [&](const ToiCase& c) { return check_toi(c, &stats); }, "thousands of radians");
  EXPECT_EQ(stats.hits + stats.failed, 3);
}

// =============================================================================================
// closest_approach() against the oracle: the signed distance over the linear motion is convex in
// time, so its least value, the time of that value and the first touch are exact.

namespace {

using pebble::ApproachResult;

/// Shape a at xa with velocity va, shape b at xb with velocity vb, over [0, horizon].
struct ApproachCase {
  ShapeSpec a, b;
  Transform xa, xb;
  Vec2 va, vb;
  float horizon = 1;
};

std::string describe(const ApproachCase& c) {
  return "Shape a = " + c.a.maker + "; Transform xa = " + lit(c.xa) + "; Vec2 va = " + lit(c.va) +
         ";\n    Shape b = " + c.b.maker + "; Transform xb = " + lit(c.xb) + "; Vec2 vb = " + lit(c.vb) +
         "; float horizon = " + lit(c.horizon) + ";";
}

ApproachResult run(const ApproachCase& c) {
  return pebble::closest_approach(c.a.shape, c.xa, c.va, c.b.shape, c.xb, c.vb, c.horizon);
}

/// Everything the contract says about one closest approach, checked against the oracle.
std::string check_approach(const ApproachCase& c) {
  const ApproachResult r = run(c);
  std::ostringstream err;
  err.precision(9);
  if (!std::isfinite(r.time) || !std::isfinite(r.distance) || !pebble::is_finite(r.point_a) ||
      !pebble::is_finite(r.point_b) || !pebble::is_finite(r.normal)) {
    return "non-finite field; ";
  }
  // The same motion as a cast over the horizon (fraction = time / horizon).
  const CastCase cast{c.a, c.b, c.xa, c.xb, c.horizon * c.va, c.horizon * c.vb, 0};
  const CastOracle o(cast);
  const real h = c.horizon;
  const real t_early = o.track.first_at_or_below(o.tol), t_late = o.track.first_at_or_below(-o.tol);
  const real start = o.track.at(0), least = o.track.least();
  if (!(r.time >= 0 && r.time <= c.horizon)) err << "time " << r.time << " outside [0, horizon]; ";
  const real s = h > 0 ? real(r.time) / h : 0;  // the fraction of the motion
  const real at = o.track.at(s);
  if (r.hit) {
    if (t_early < 0) err << "hit, but the oracle stays " << double(least) << " apart; ";
    const real latest = t_late >= 0 ? t_late : o.track.last_at_or_below(o.tol);
    if (t_early >= 0 && (s < t_early - o.tol_t || s > latest + o.tol_t)) {
      err << "touch at fraction " << double(s) << " outside the oracle's [" << double(t_early) << ", " << double(latest)
          << "]; ";
    }
    const real expected = start < 0 ? start : real(0);
    if (std::fabs(r.distance - expected) > o.tol)
      err << "distance " << r.distance << " at the touch, not " << double(expected) << "; ";
  } else {
    if (t_late >= 0) err << "no hit, but the oracle overlaps by the tolerance at fraction " << double(t_late) << "; ";
    if (std::fabs(r.distance - least) > o.tol)
      err << "distance " << r.distance << ", the oracle's least is " << double(least) << "; ";
    if (at > least + o.tol)
      err << "the distance at the reported time is " << double(at) << ", not least (" << double(least) << "); ";
  }
  if (std::fabs(r.distance - at) > o.tol)
    err << "distance " << r.distance << " is not the oracle's " << double(at) << " at that time; ";
  // The witnesses and normal at that time.
  const oracle::RShape wa = o.a_at(s), wb = o.b_at(s);
  Tolerance tol = tolerance_for(wa, wb);
  tol.length = std::max(tol.length, o.tol);
  const oracle::DistanceAnswer ans = oracle::distance(wa, wb, tol.length, tol.conditioning);
  check_normal(err, r.normal, wa, wb, ans, tol);
  const V pa = v(r.point_a), pb = v(r.point_b);
  const real slack = tol.length + tol.angle * 2 * std::max(oracle::half_diameter(wa), oracle::half_diameter(wb));
  if (std::fabs(oracle::signed_distance_to_surface(wa, pa)) > slack) err << "point_a off A's surface; ";
  if (std::fabs(oracle::signed_distance_to_surface(wb, pb)) > slack) err << "point_b off B's surface; ";
  if (oracle::length(pb - pa - real(r.distance) * v(r.normal)) > slack)
    err << "point_b - point_a != normal * distance; ";
  return err.str();
}

/// Random approaches: B placed `gap` from A; velocities toward each other, sideways or apart,
/// over a horizon of 0.3 to 3.
ApproachCase random_approach(Kind ka, Kind kb, std::mt19937& rng, float size, Vec2 origin, float gap_lo, float gap_hi) {
  CastCase c = random_cast(ka, kb, rng, size, origin, gap_lo, gap_hi);
  const float horizon = uniform(rng, 0.3f, 3);
  Vec2 vb = (1 / horizon) * c.tb, va = (1 / horizon) * c.ta;
  switch (rng() % 6) {
    case 0:
      vb = -1.0f * vb;
      break;  // apart
    case 1:
      vb = pebble::left_perp(vb);
      break;  // sideways
    case 2:
      va = vb;
      break;  // no relative motion
    default:
      break;  // toward
  }
  return {std::move(c.a), std::move(c.b), c.xa, c.xb, va, vb, horizon};
}

std::vector<ApproachCase> random_approaches(unsigned seed, int per_pair, float size = 1, Vec2 origin = {},
                                            float gap_lo = 0.05f, float gap_hi = 2) {
  return every_kind_pair<ApproachCase>(
      seed, per_pair / test_random::kSanitizerScale, [&](Kind ka, Kind kb, std::mt19937& rng) {
        return std::optional<ApproachCase>(random_approach(ka, kb, rng, size, origin, gap_lo, gap_hi));
      });
}

}  // namespace

TEST(ClosestApproach, MatchesOracleForEveryKindPair) {
  expect_all(random_approaches(61, 40), check_approach, "random approaches");
}

TEST(ClosestApproach, MatchesOracleWhenStartingInContact) {
  expect_all(random_approaches(62, 10, 1, {}, -0.5f, 0.0f), check_approach, "starting in contact");
}

TEST(ClosestApproach, MatchesOracleForGrazingAndParallelMotions) {
  std::vector<ApproachCase> cases;
  for (const CastCase& c : grazing_casts(63, 3)) cases.push_back({c.a, c.b, c.xa, c.xb, c.ta, c.tb, 1});
  for (const CastCase& c : parallel_casts(64, 6)) cases.push_back({c.a, c.b, c.xa, c.xb, 0.5f * c.ta, 0.5f * c.tb, 2});
  expect_all(cases, check_approach, "grazing and parallel");
}

TEST(ClosestApproach, MatchesOracleForTinyAndFarShapes) {
  expect_all(random_approaches(65, 10, 0.01f), check_approach, "size 0.01");
  expect_all(random_approaches(66, 10, 1, {-1e4f, 1e4f}), check_approach, "coordinates 1e4");
}

// time_to_collision(): closest_approach()'s time exactly when that is a hit, kNoCollision exactly
// when it is not, and against the oracle on its own: a finite time is where the oracle's distance
// first reaches 0 (within its tolerances), and no time means the oracle never overlaps by the
// tolerance.
namespace {

std::string check_time_to_collision(const ApproachCase& c) {
  const float t = pebble::time_to_collision(c.a.shape, c.xa, c.va, c.b.shape, c.xb, c.vb, c.horizon);
  const ApproachResult r = run(c);
  std::ostringstream err;
  err.precision(9);
  if (r.hit ? !(t == r.time) : t != pebble::kNoCollision)
    err << "time " << t << " but closest_approach says " << r.hit << " at " << r.time << "; ";
  const CastCase cast{c.a, c.b, c.xa, c.xb, c.horizon * c.va, c.horizon * c.vb, 0};
  const CastOracle o(cast);
  const real h = c.horizon;
  const real t_early = o.track.first_at_or_below(o.tol), t_late = o.track.first_at_or_below(-o.tol);
  if (t != pebble::kNoCollision) {
    if (!(t >= 0 && t <= c.horizon)) err << "time " << t << " outside [0, horizon]; ";
    const real s = h > 0 ? real(t) / h : 0;
    const real latest = t_late >= 0 ? t_late : o.track.last_at_or_below(o.tol);
    if (t_early < 0)
      err << "a time, but the oracle stays " << double(o.track.least()) << " apart; ";
    else if (s < t_early - o.tol_t || s > latest + o.tol_t)
      err << "touch at fraction " << double(s) << " outside the oracle's [" << double(t_early) << ", " << double(latest)
          << "]; ";
  } else if (t_late >= 0) {
    err << "no time, but the oracle overlaps by the tolerance at fraction " << double(t_late) << "; ";
  }
  return err.str();
}

}  // namespace

TEST(TimeToCollision, MatchesClosestApproachAndTheOracle) {
  expect_all(random_approaches(71, 40), check_time_to_collision, "random approaches");
  expect_all(random_approaches(72, 10, 1, {}, -0.5f, 0.0f), check_time_to_collision, "starting in contact");
  std::vector<ApproachCase> cases;
  for (const CastCase& c : grazing_casts(73, 3)) cases.push_back({c.a, c.b, c.xa, c.xb, c.ta, c.tb, 1});
  for (const CastCase& c : parallel_casts(74, 6)) cases.push_back({c.a, c.b, c.xa, c.xb, 0.5f * c.ta, 0.5f * c.tb, 2});
  expect_all(cases, check_time_to_collision, "grazing and parallel");
  expect_all(random_approaches(75, 10, 0.01f), check_time_to_collision, "size 0.01");
  expect_all(random_approaches(76, 10, 1, {-1e4f, 1e4f}), check_time_to_collision, "coordinates 1e4");
}

TEST(ClosestApproach, DiscDeepInsideAHugeRoundedPolygonHitsAtTheStart) {
  // Found by the query fuzzer: a disc 69 deep inside a polygon of radius 6.9e6, 6.9e6 from the
  // origin. The ray against the pair's difference put the touch 36 units into the motion;
  // cast_shape()'s circle cast (which closest_approach() and time_to_collision() now share for a
  // disc against anything) finds the start inside. (The fuzzer's rotation, (-0.0039, -1), is 1.5e-5
  // off unit length, past today's kRotationTolerance: normalized here.)
  const Shape a = Shape::circle(34.1328125f, Vec2{34.1328125f, 34.1328125f});
  const Transform xa{Vec2{-6908265.5f, -2.43288401e-25f}, pebble::normalize(Rot{-0.00390625f, -1})};
  const std::vector<Vec2> points{
      {9.42232415e-38f, -2.4233807e-25f}, {2, 9.47742545e-38f}, {44.171875f, 44.171875f}, {0, 0.00637817383f}};
  const Shape b = Shape::polygon(points, 6908265.5f);
  const Transform xb{Vec2{-1, -1}, Rot{0, -1}};
  ASSERT_LT(pebble::distance(a, xa, b, xb).distance, -60);
  const ApproachResult r = pebble::closest_approach(a, xa, {131072, 7.20267411e-43f}, b, xb, {0, 0}, 1);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.time, 0);
  EXPECT_EQ(pebble::time_to_collision(a, xa, {131072, 7.20267411e-43f}, b, xb, {0, 0}, 1), 0);
  EXPECT_EQ(pebble::cast_shape(a, xa, {131072, 7.20267411e-43f}, b, xb, {0, 0}).fraction, 0);
}

TEST(TimeToCollision, InvalidInputGivesNoCollision) {
  const Shape box = Shape::box(1, 1), disc = Shape::circle(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Shape* s : {&box, &disc}) {
    EXPECT_EQ(pebble::time_to_collision(*s, Transform{{nan, 0}, Rot::identity()}, {1, 0}, *s, kId, {0, 0}, 1),
              pebble::kNoCollision);
    EXPECT_EQ(pebble::time_to_collision(*s, kId, {nan, 0}, *s, Transform{{3, 0}, Rot::identity()}, {0, 0}, 1),
              pebble::kNoCollision);
    EXPECT_EQ(pebble::time_to_collision(*s, kId, {1, 0}, *s, Transform{{3, 0}, Rot::identity()}, {0, 0}, -1),
              pebble::kNoCollision);
    EXPECT_EQ(pebble::time_to_collision(*s, kId, {1, 0}, *s, Transform{{3, 0}, Rot{1, 1}}, {0, 0}, 1),
              pebble::kNoCollision);
    EXPECT_EQ(pebble::time_to_collision(*s, kId, {1, 0}, *s, Transform{{3, 0}, Rot::identity()}, {0, 0}, 5),
              1);  // gap 1 closes at t = 1
  }
}

TEST(ClosestApproach, TiltedLongFaceUnderARoundedShapeTouchesAtTheStart) {
  // The shape casts' family above (one Minkowski difference and ray cast): touching at time 0.
  std::vector<ApproachCase> cases;
  for (const CastCase& c : tilted_long_face_casts()) cases.push_back({c.a, c.b, c.xa, c.xb, c.ta, c.tb, 1});
  expect_all(
      cases,
      [](const ApproachCase& c) {
        const ApproachResult r = run(c);
        std::string err = check_approach(c);
        if (!r.hit || r.time != 0) err += "overlapping at the start, yet not touching at time 0; ";
        return err;
      },
      "tilted long face");
}

// Seed 003's reference code gets three things wrong; these pin them down.
TEST(ClosestApproach, ShapesMovingApartAreClosestAtTheStartWithoutAHit) {
  const ApproachResult r = pebble::closest_approach(Shape::circle(1), kId, {-1, 0}, Shape::circle(1),
                                                    Transform{{3, 0}, Rot::identity()}, {1, 0}, 5);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.time, 0.0f);
  EXPECT_NEAR(r.distance, 1, 1e-6f);
  const ApproachResult box = pebble::closest_approach(Shape::box(1, 1), kId, {0, 0}, Shape::box(1, 1),
                                                      Transform{{3, 0.5f}, Rot::identity()}, {2, 1}, 1);
  EXPECT_FALSE(box.hit);
  EXPECT_EQ(box.time, 0.0f);
}

TEST(ClosestApproach, HeadOnThroughAVertexWhereTwoEdgesMeetHits) {
  // Boxes corner to corner along the diagonal: the motion goes exactly through the vertex of the
  // Minkowski difference where its two edges meet. Sharp, rounded, and a point onto a corner.
  for (const float r : {0.0f, 0.25f}) {
    const Shape box = r > 0 ? Shape::rounded_box(1, 1, r) : Shape::box(1, 1);
    const ApproachResult a =
        pebble::closest_approach(box, kId, {0, 0}, box, Transform{{4, 4}, Rot::identity()}, {-1, -1}, 4);
    EXPECT_TRUE(a.hit) << r;
    const float expected =
        r > 0 ? 4 - (2 - 2 * r + 2 * r / std::sqrt(2.0f)) : 2;  // centres sqrt2 (core gap + 2r) apart
    EXPECT_NEAR(a.time, expected, 1e-5f) << r;
    EXPECT_NEAR(a.distance, 0, 1e-5f) << r;
  }
  const ApproachResult p = pebble::closest_approach(Shape::box(1, 1), kId, {0, 0}, Shape::circle(0, {0, 0}),
                                                    Transform{{3, 3}, Rot::identity()}, {-1, -1}, 4);
  EXPECT_TRUE(p.hit);
  EXPECT_NEAR(p.time, 2, 1e-6f);
}

TEST(ClosestApproach, CornersMeetingHeadOnGiveANormalInTheCone) {
  // Sharp boxes corner to corner along the diagonal and 0.3 rad off it: any normal from +x round
  // to +y is right. A triangle's tip onto a box's corner, along (-1, -2) (inside the cone) and
  // along (1, -6) (outside it, still head on into the vertex): the cone runs from the tip's face
  // normal (2, 1) / sqrt 5 round to +y.
  const Shape box = Shape::box(1, 1);
  const auto angle = [](Vec2 n) { return std::atan2(n.y, n.x); };
  for (const Vec2 v : {Vec2{-1, -1}, Vec2{-0.8253356f, -1.1553350f}}) {
    const Vec2 start = Vec2{2, 2} - 2 * v;  // touching at time 2
    const ApproachResult a = pebble::closest_approach(box, kId, {0, 0}, box, Transform{start, Rot::identity()}, v, 4);
    EXPECT_TRUE(a.hit);
    EXPECT_NEAR(a.time, 2, 1e-5f);
    EXPECT_GE(angle(a.normal), -1e-3f) << a.normal.x << " " << a.normal.y;
    EXPECT_LE(angle(a.normal), 1.5707963f + 1e-3f) << a.normal.x << " " << a.normal.y;
    const CastResult h = pebble::cast_shape(box, kId, {0, 0}, box, Transform{start, Rot::identity()}, 4 * v);
    EXPECT_GE(angle(h.normal), -1e-3f);
    EXPECT_LE(angle(h.normal), 1.5707963f + 1e-3f);
  }
  const Vec2 tip[] = {{0, 0}, {1, 2}, {-1, 2}};
  const Shape triangle = Shape::polygon(tip);
  const float lo = std::atan2(1.0f, 2.0f);
  for (const Vec2 v : {Vec2{-0.5f, -1}, Vec2{0.25f, -1.5f}}) {
    const Vec2 start = Vec2{1, 1} - 2 * v;
    const ApproachResult a =
        pebble::closest_approach(box, kId, {0, 0}, triangle, Transform{start, Rot::identity()}, v, 4);
    EXPECT_TRUE(a.hit);
    EXPECT_NEAR(a.time, 2, 1e-5f);
    EXPECT_NEAR(a.distance, 0, 1e-5f);
    EXPECT_GE(angle(a.normal), lo - 1e-3f) << a.normal.x << " " << a.normal.y;
    EXPECT_LE(angle(a.normal), 1.5707963f + 1e-3f) << a.normal.x << " " << a.normal.y;
    const CastResult h = pebble::cast_shape(box, kId, {0, 0}, triangle, Transform{start, Rot::identity()}, 4 * v);
    EXPECT_TRUE(h.hit);
    EXPECT_NEAR(h.fraction, 0.5f, 1e-6f);
    EXPECT_GE(angle(h.normal), lo - 1e-3f);
    EXPECT_LE(angle(h.normal), 1.5707963f + 1e-3f);
  }
}

TEST(ClosestApproach, BoxCornerOntoATurnedBoxCornerFromTheOracleFamily) {
  // A case of FirstTouchAtADifferenceVertexHasANormalInItsCone (seed 72): the normal at the touch
  // was B's side normal (0.869, 0.496), 0.58 rad outside the cone, which runs from B's face
  // (0.496, -0.869) round to A's face (0.998, -0.059).
  const Shape a = Shape::box(0.47920832f, 1.04109049f);
  const Transform xa{{1.12129974f, -1.096892f}, Rot{-0.0587707907f, -0.998271525f}};
  const Shape b = Shape::box(0.345939457f, 0.308546364f);
  const Transform xb{{3.38218689f, -1.71227586f}, Rot{0.868587911f, 0.495535046f}};
  const ApproachResult r = pebble::closest_approach(a, xa, {0, 0}, b, xb, {-2.23370957f, -0.0582178049f}, 0.713060617f);
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.time, 0.5f * 0.713060617f, 1e-6f);
  const Vec2 lo{0.495535046f, -0.868587911f}, hi{0.998271525f, -0.0587707907f};
  EXPECT_GE(pebble::cross(lo, r.normal), -1e-3f) << r.normal.x << " " << r.normal.y;
  EXPECT_GE(pebble::cross(r.normal, hi), -1e-3f) << r.normal.x << " " << r.normal.y;
}

TEST(ClosestApproach, ZeroRadiiMeetingExactlyHit) {
  // Two points on a collision course (a double root of seed 003's quadratic), and two sharp
  // segments crossing.
  const Shape point = Shape::circle(0);
  const ApproachResult p =
      pebble::closest_approach(point, kId, {1, 1}, point, Transform{{4, 0}, Rot::identity()}, {-1, 1}, 3);
  EXPECT_TRUE(p.hit);
  EXPECT_EQ(p.time, 2.0f);
  EXPECT_EQ(p.distance, 0.0f);
  const ApproachResult miss =
      pebble::closest_approach(point, kId, {1, 1}, point, Transform{{4, 0.5f}, Rot::identity()}, {-1, 1}, 3);
  EXPECT_FALSE(miss.hit);
  EXPECT_NEAR(miss.time, 2, 1e-6f);
  EXPECT_NEAR(miss.distance, 0.5f, 1e-6f);
  const Shape seg = Shape::segment({-1, 0}, {1, 0});
  const ApproachResult cross = pebble::closest_approach(seg, kId, {0, 0}, Shape::segment({0, -1}, {0, 1}),
                                                        Transform{{0, 3}, Rot::identity()}, {0, -1}, 5);
  EXPECT_TRUE(cross.hit);
  EXPECT_EQ(cross.time, 2.0f);
}

TEST(ClosestApproach, CrowdsPassingCircles) {
  // Seed 003's use: two agents (discs of radius 0.3) crossing paths at right angles, one a
  // second behind the other. Their centres are (4 - t, t - 5) apart, least at t = 4.5: 0.5 sqrt 2
  // apart, less both radii. 0.2 s closer, they collide.
  const Shape agent = Shape::circle(0.3f);
  const ApproachResult r = pebble::closest_approach(agent, Transform{{-4, 0}, Rot::identity()}, {1, 0}, agent,
                                                    Transform{{0, -5}, Rot::identity()}, {0, 1}, 10);
  EXPECT_FALSE(r.hit);
  EXPECT_NEAR(r.time, 4.5f, 1e-5f);
  EXPECT_NEAR(r.distance, 0.5f * std::sqrt(2.0f) - 0.6f, 1e-5f);
  const ApproachResult close = pebble::closest_approach(agent, Transform{{-4, 0}, Rot::identity()}, {1, 0}, agent,
                                                        Transform{{0, -4.8f}, Rot::identity()}, {0, 1}, 10);
  EXPECT_TRUE(close.hit);
  EXPECT_LT(close.time, 4.4f);
  EXPECT_NEAR(close.distance, 0, 1e-5f);
}

namespace {

/// check_approach() for a corner approach, which must touch, with the normal in the normal cone
/// of the touch at the reported time.
std::string check_corner_approach(const ApproachCase& c) {
  std::string err = check_approach(c);
  const ApproachResult r = run(c);
  if (!r.hit) return err + "no touch; ";
  const CastOracle o(CastCase{c.a, c.b, c.xa, c.xb, c.horizon * c.va, c.horizon * c.vb, 0});
  const real s = real(r.time) / c.horizon;
  return err + check_in_cone(r.normal, o.a_at(s), o.b_at(s), o.tb - o.ta);
}

std::vector<ApproachCase> corner_approach_cases(unsigned seed, int per_pair, float size = 1, Vec2 origin = {}) {
  std::mt19937 rng(seed + 1000);
  std::vector<ApproachCase> out;
  for (const CornerApproach& c : corner_approaches(seed, per_pair, size, origin)) {
    const float horizon = uniform(rng, 0.3f, 3);
    out.push_back({c.a, c.b, c.xa, c.xb, (1 / horizon) * c.ta, (1 / horizon) * c.tb, horizon});
  }
  return out;
}

}  // namespace

TEST(ClosestApproach, FirstTouchAtADifferenceVertexHasANormalInItsCone) {
  expect_all(corner_approach_cases(72, 30), check_corner_approach, "corner approaches");
}

TEST(ClosestApproach, InvalidInputGivesTheEmptyResult) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto empty = [](const ApproachResult& r) {
    return !r.hit && r.time == 0 && r.distance == pebble::kHugeDistance && r.point_a == Vec2{} && r.point_b == Vec2{} &&
           r.normal == Vec2{};
  };
  for_each_invalid_placement(
      [&](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& bad) {
        EXPECT_TRUE(empty(pebble::closest_approach(a, xa, {1, 0}, b, xb, {-1, 0}, 1))) << lit(bad);
      });
  const Shape box = Shape::box(1, 1);
  const Transform at{{3, 0}, Rot::identity()};
  for (const Vec2 bad : {Vec2{nan, 0}, Vec2{0, inf}, Vec2{1e30f, 0}}) {
    EXPECT_TRUE(empty(pebble::closest_approach(box, kId, bad, box, at, {0, 0}, 1)));
    EXPECT_TRUE(empty(pebble::closest_approach(box, kId, {0, 0}, box, at, bad, 1)));
  }
  for (const float bad : {-1.0f, nan, inf})
    EXPECT_TRUE(empty(pebble::closest_approach(box, kId, {0, 0}, box, at, {-1, 0}, bad)));
}

TEST(SweepTransform, FollowsTheSweepToFloatPrecision) {
  // The rotation at t is the start angle's composed with the turn t (a1 - a0); the oracle turns
  // by a0 + t (a1 - a0) in long double. Angles up to a thousand radians, turns up to forty.
  std::mt19937 rng(71);
  for (int i = 0; i < 20000; ++i) {
    const float a0 = uniform(rng, -1000, 1000) * (i % 4 == 0 ? 1.0f : 0.003f);
    const float a1 = a0 + uniform(rng, -40, 40) * (i % 3 == 0 ? 1.0f : 0.02f);
    const Sweep s{{uniform(rng, -1, 1), uniform(rng, -1, 1)},
                  {uniform(rng, -5, 5), uniform(rng, -5, 5)},
                  {uniform(rng, -5, 5), uniform(rng, -5, 5)},
                  a0,
                  a1};
    const float t = i % 10 == 0 ? 1.0f : uniform(rng, 0, 1);
    const Transform x = pebble::sweep_transform(s, t);
    const real angle = real(a0) + real(t) * (real(a1) - real(a0));
    // Float rounding of a0's cosine and sine, and of t (a1 - a0) (an ulp of the turn).
    const real slack = 4e-7L + 2 * real(FLT_EPSILON) * std::fabs(real(t) * (real(a1) - real(a0)));
    ASSERT_NEAR(x.q.c, double(std::cos(angle)), double(slack)) << a0 << " " << a1 << " " << t;
    ASSERT_NEAR(x.q.s, double(std::sin(angle)), double(slack)) << a0 << " " << a1 << " " << t;
    // The rotation centre follows the line from c0 to c1.
    const pebble::Position centre = pebble::transform_point(x, s.local_center);
    ASSERT_NEAR(centre.x, s.c0.x + t * (s.c1.x - s.c0.x), 1e-5);
    ASSERT_NEAR(centre.y, s.c0.y + t * (s.c1.y - s.c0.y), 1e-5);
  }
  // Absurd angles stay defined (what the standard functions give).
  EXPECT_TRUE(pebble::is_finite(pebble::sweep_transform(Sweep{{0, 0}, {0, 0}, {0, 0}, 0, 1e30f}, 0.5f).p));
  // At the ends, the sweep's own poses.
  const Sweep s{{0.5f, 0}, {1, 2}, {3, 4}, 0.25f, 1.75f};
  EXPECT_EQ(pebble::sweep_transform(s, 0).q, Rot::from_angle(0.25f));
  EXPECT_NEAR(pebble::sweep_transform(s, 1).q.c, Rot::from_angle(1.75f).c, 2e-7);
  EXPECT_NEAR(pebble::sweep_transform(s, 1).q.s, Rot::from_angle(1.75f).s, 2e-7);
}

TEST(TimeOfImpact, InvalidInputFailsAtZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Shape box = Shape::box(1, 1);
  const Sweep good{{0, 0}, {0, 0}, {0, 0}, 0, 0}, moving{{0, 0}, {4, 0}, {0, 0}, 0, 1};
  auto invalid = [](const ToiResult& r) {
    return r.state == State::failed && r.fraction == 0 && r.point == Vec2{} && r.normal == Vec2{};
  };
  for (const Sweep bad : {Sweep{{nan, 0}, {0, 0}, {0, 0}, 0, 0}, Sweep{{0, 0}, {inf, 0}, {0, 0}, 0, 0},
                          Sweep{{0, 0}, {0, 0}, {1e30f, 0}, 0, 0}, Sweep{{0, 0}, {0, 0}, {0, 0}, nan, 0},
                          Sweep{{0, 0}, {0, 0}, {0, 0}, 0, inf}, Sweep{{0, 0}, {0, 0}, {0, 0}, 0, 1e30f}}) {
    EXPECT_TRUE(invalid(pebble::time_of_impact(box, bad, box, moving)));
    EXPECT_TRUE(invalid(pebble::time_of_impact(box, good, box, bad)));
  }
  for (const float t_max : {-0.5f, 1.5f, nan})
    EXPECT_TRUE(invalid(pebble::time_of_impact(box, good, box, moving, t_max)));
  pebble::ToiOptions o;
  o.target_separation = -1;
  EXPECT_TRUE(invalid(pebble::time_of_impact(box, good, box, moving, 1, o)));
  o = {};
  o.max_iterations = 0;
  EXPECT_TRUE(invalid(pebble::time_of_impact(box, good, box, moving, 1, o)));
}

TEST(TimeOfImpact, HandWorkedStates) {
  const Shape box = Shape::box(1, 1);
  const Sweep still{{0, 0}, {0, 0}, {0, 0}, 0, 0};
  // B (a unit box at x = 4) slides left by 4, not turning: faces meet at 0.5 (exact path).
  const ToiResult slide = pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {0, 0}, 0, 0});
  EXPECT_EQ(slide.state, State::hit);
  EXPECT_NEAR(slide.fraction, 0.5f, 1e-6f);
  EXPECT_NEAR(slide.normal.x, 1, 1e-6f);
  // The same while turning by a quarter turn: the corners reach first, earlier than 0.5.
  const ToiResult turning = pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {0, 0}, 0, 1.5707963f});
  EXPECT_EQ(turning.state, State::hit);
  EXPECT_LT(turning.fraction, 0.5f);
  // Overlapping at the start; moving away; stopping short; within a short t_max.
  EXPECT_EQ(pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {1.5f, 0}, {4, 0}, 0, 0}).state, State::overlapped);
  EXPECT_EQ(pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {8, 0}, 0, 3}).state, State::separated);
  const ToiResult short_of = pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {3, 0}, 0, 0.5f});
  EXPECT_EQ(short_of.state, State::separated);
  EXPECT_EQ(short_of.fraction, 1.0f);
  const ToiResult early = pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {0, 0}, 0, 0}, 0.25f);
  EXPECT_EQ(early.state, State::separated);
  EXPECT_EQ(early.fraction, 0.25f);
  // A target separation of 0.25 stops there: 1.75 of the 2 closed, at 0.4375.
  pebble::ToiOptions o;
  o.target_separation = 0.25f;
  const ToiResult gap = pebble::time_of_impact(box, still, box, Sweep{{0, 0}, {4, 0}, {0, 0}, 0, 0}, 1, o);
  EXPECT_EQ(gap.state, State::hit);
  EXPECT_NEAR(gap.fraction, 0.4375f, 1e-6f);
}

// =============================================================================================
// Measured accuracy, for docs/casts.md (prints; asserts nothing beyond the checks above):
//   ./build/release/tests/cast_test --gtest_also_run_disabled_tests --gtest_filter='*Accuracy*'

TEST(CastAccuracy, DISABLED_Report) {
  // Shape casts: the oracle's distance at the reported fraction (0 for a contact), over the
  // smaller shape's size; the normal's angle from the oracle's where unique.
  {
    real worst_gap = 0, worst_angle = 0;
    int hits = 0, cases = 0;
    for (const CastCase& c : random_casts(1, 60)) {
      const CastResult h = run(c);
      ++cases;
      if (!h.hit || h.fraction == 0) continue;
      ++hits;
      const CastOracle o(c);
      const oracle::RShape wa = o.a_at(h.fraction), wb = o.b_at(h.fraction);
      const real size = std::min(oracle::half_diameter(wa), oracle::half_diameter(wb));
      const oracle::DistanceAnswer at = oracle::distance(wa, wb, 1e-9L * size, 1e-9L * size);
      worst_gap = std::max(worst_gap, std::fabs(at.distance) / size);
      if (at.normal_unique) worst_angle = std::max(worst_angle, angle_between(v(h.normal), at.normal));
    }
    std::printf(
        "shape_cast: %d of %d random casts hit; worst |distance at the fraction| / size %.2e, worst normal angle %.2e "
        "rad\n",
        hits, cases, double(worst_gap), double(worst_angle));
  }
  // Time of impact: how far apart the oracle finds the shapes at a hit (over the tolerance), and
  // how early the hit is (the oracle's first touch minus the fraction).
  {
    real worst_gap = 0, worst_early = 0;
    int hits = 0, cases = 0;
    for (const std::vector<ToiCase>& set : {random_tois(41, 24, 3), spinning_thin_boxes(43, 600)}) {
      for (const ToiCase& c : set) {
        const ToiResult r = run(c);
        ++cases;
        if (r.state != State::hit || r.fraction == 0) continue;
        ++hits;
        const auto [ca, ma] = oracle_motion(c.a, c.sa);
        const auto [cb, mb] = oracle_motion(c.b, c.sb);
        const real d = oracle::moving_distance(ca, ma, cb, mb, r.fraction);
        worst_gap = std::max(worst_gap, d / default_tolerance(c));
        const oracle::FirstTouch touch = oracle::first_time_at_or_below(ca, ma, cb, mb, 0, 1);
        if (touch.certain >= 0) worst_early = std::max(worst_early, touch.certain - real(r.fraction));
      }
    }
    std::printf(
        "time_of_impact: %d of %d sweeps hit; worst distance at a hit %.2f x the tolerance; earliest hit %.2e before "
        "the first touch\n",
        hits, cases, double(worst_gap), double(worst_early));
  }
  // Closest approach: |distance - oracle| over size.
  {
    real worst = 0;
    int cases = 0;
    for (const ApproachCase& c : random_approaches(61, 40)) {
      const ApproachResult r = run(c);
      const CastCase cast{c.a, c.b, c.xa, c.xb, c.horizon * c.va, c.horizon * c.vb, 0};
      const CastOracle o(cast);
      const real size = std::min(oracle::half_diameter(o.wa), oracle::half_diameter(o.wb));
      const real expected = r.hit ? std::min(o.track.at(0), real(0)) : o.track.least();
      worst = std::max(worst, std::fabs(r.distance - expected) / size);
      ++cases;
    }
    std::printf("closest_approach: %d random approaches; worst |distance - oracle| / size %.2e\n", cases,
                double(worst));
  }
}
