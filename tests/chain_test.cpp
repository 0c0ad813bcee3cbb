// Chains (pebble/chain.hpp): the makers and their errors, and the queries on chain segments with
// ghost vertices against the oracle's geometry of the whole chain. Over a flat chain (many collinear
// segments: the true surface is one line) every contact normal of every segment must be the line's
// normal, the least separation must be the shape's true height above the line, and each point must
// lie midway between the line and the shape; the same cases with plain segments (no ghosts) must
// show ghost normals, so the check can fail. Over kinks, a normal must be a face normal of the chain
// or lie in the fan of a convex corner at that corner. Rays and casts are one-sided.
#include <gtest/gtest.h>

#include <pebble/chain.hpp>
#include <pebble/world.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "oracle/distance.hpp"
#include "random_cases.hpp"
#include "random_shapes.hpp"
#include "to_oracle.hpp"

using namespace pebble;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr int kScale = test_random::kSanitizerScale;

using oracle::V;
using test_oracle::to_oracle;

using test_random::random_body;

// Every manifold of every segment with shape b, in the chain's frame (the chain placed at xs).
struct Found {
  int segment;
  Manifold m;
};
std::vector<Found> contacts(const Chain& chain, const Transform& xs, const Shape& b, const Transform& xb, float margin,
                            bool ghosts) {
  std::vector<Found> out;
  for (int i = 0; i < chain.segment_count(); ++i) {
    const ChainSegment& s = chain.segment(i);
    const Manifold m = ghosts ? collide(s, xs, b, xb, margin) : collide(s.shape, xs, b, xb, margin);
    if (m.count > 0) out.push_back({i, m});
  }
  return out;
}

// A floor of `count` segments of length `step` from x = count*step down to 0 at height 0 (a floor
// runs right to left so that its right side, the side it collides on, faces up).
Chain flat_floor(int count, float step) {
  std::vector<Vec2> points;
  for (int i = count; i >= 0; --i) points.push_back({float(i) * step, 0});
  return Chain::open(points);
}

}  // namespace

TEST(Chain, MakersCheckTheirInput) {
  const std::vector<Vec2> three = {{2, 0}, {1, 0}, {0, 0}};
  const Chain open = Chain::open(three);
  EXPECT_EQ(open.segment_count(), 2);
  EXPECT_FALSE(open.closed());
  EXPECT_FALSE(open.segment(0).has_prev);
  EXPECT_TRUE(open.segment(0).has_next);
  EXPECT_TRUE(open.segment(1).has_prev);
  EXPECT_FALSE(open.segment(1).has_next);
  EXPECT_EQ(open.segment(1).ghost_prev, (Vec2{2, 0}));
  EXPECT_EQ(open.segment(0).normal, (Vec2{0, 1}));  // a floor run right to left faces up

  const std::vector<Vec2> square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};  // first point repeated
  const Chain loop = Chain::loop(square);
  EXPECT_EQ(loop.segment_count(), 4);
  EXPECT_TRUE(loop.closed());
  EXPECT_EQ(loop.segment(0).ghost_prev, (Vec2{0, 1}));
  EXPECT_EQ(loop.segment(3).ghost_next, (Vec2{1, 0}));
  EXPECT_EQ(loop.segment(0).normal, (Vec2{0, -1}));  // counter-clockwise around the solid: outward

  const auto throws = [](auto make, const char* needle) {
    try {
      make();
      ADD_FAILURE() << "no throw for " << needle;
    } catch (const InvalidShape& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const std::vector<Vec2> one = {{0, 0}};
  const std::vector<Vec2> nan = {{0, 0}, {std::nanf(""), 1}, {2, 0}};
  const std::vector<Vec2> repeated = {{0, 0}, {1, 0}, {1, 0}, {2, 0}};
  const std::vector<Vec2> two = {{0, 0}, {1, 0}};
  const std::vector<Vec2> huge = {{0, 0}, {2e9f, 0}};
  throws([&] { (void)Chain::open(one); }, "at least 2");
  throws([&] { (void)Chain::open(nan); }, "point 1");
  throws([&] { (void)Chain::open(repeated); }, "segment 1");
  throws([&] { (void)Chain::loop(two); }, "at least 3");
  throws([&] { (void)Chain::open(huge); }, "point 1");
}

TEST(Chain, NoGhostNormalsOverAFlatFloor) {
  // Shapes of every kind across the joints of a floor of unit segments, at depths from 5% of
  // their size into the floor to beyond the margin, tilted up to 0.4 rad, the chain itself placed
  // anywhere. The true surface is the line y = 0 (chain frame).
  test_random::Rng rng(11);
  const Chain floor = flat_floor(12, 1.0f);
  const float margin = 0.02f;
  int ghosts_without = 0, cases = 0;
  for (int trial = 0; trial < 6000 / kScale; ++trial) {
    const float size = float(rng.log_uniform(0.05, 0.8));
    const Shape b = random_body(rng, size);
    const Transform xs{{float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50))},
                       Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    // Over a joint (x near an integer), at a random tilt, with its lowest point at `gap`.
    const float x = float(rng.integer(2, 10)) + float(rng.uniform(-1.2, 1.2)) * size;
    Rot tilt = Rot::from_angle(float(rng.uniform(-0.4, 0.4)));
    Transform local{{x, 0}, tilt};
    const oracle::RShape at_zero = to_oracle(b, local);
    const long double lowest = -oracle::support(at_zero, {0, -1});
    const float gap = float(rng.uniform(-0.05, 0.05)) * size + (rng.chance(0.2) ? margin : 0.0f);
    local.p.y = float(gap - lowest);
    const Transform xb = mul(xs, local);
    const oracle::RShape placed = to_oracle(b, local);  // chain frame
    const long double true_gap = -oracle::support(placed, {0, -1});
    const long double tol = 2e-3L * size + 1e-5L * 50;

    ++cases;
    const std::vector<Found> found = contacts(floor, xs, b, xb, margin, true);
    long double least = 1e30L;
    for (const Found& f : found) {
      const Vec2 n = inv_rotate(xs.q, f.m.normal);
      EXPECT_NEAR(n.x, 0, 1e-3) << "trial " << trial << " segment " << f.segment;
      EXPECT_NEAR(n.y, 1, 1e-6) << "trial " << trial;
      for (int k = 0; k < f.m.count; ++k) {
        const ContactPoint& c = f.m.points[k];
        const Vec2 p = inv_transform_point(xs, c.point);
        least = std::min<long double>(least, c.separation);
        EXPECT_NEAR(p.y, 0.5L * c.separation, tol) << "trial " << trial << ": not midway";
        // On this segment's part of the line.
        EXPECT_GE(p.x, floor.segment(f.segment).b.x - tol);
        EXPECT_LE(p.x, floor.segment(f.segment).a.x + tol);
      }
    }
    if (true_gap <= margin - tol) {
      ASSERT_FALSE(found.empty()) << "trial " << trial << ": no contact at gap " << double(true_gap);
      EXPECT_NEAR(least, true_gap, tol) << "trial " << trial;
    } else if (true_gap > margin + tol) {
      EXPECT_TRUE(found.empty()) << "trial " << trial;
    }
    // The same case with plain segments: some normals are ghosts (the check above can fail).
    for (const Found& f : contacts(floor, xs, b, xb, margin, false)) {
      const Vec2 n = inv_rotate(xs.q, f.m.normal);
      if (std::fabs(n.x) > 1e-2f) {
        ++ghosts_without;
        break;
      }
    }
  }
  EXPECT_GT(ghosts_without, cases / 50) << "plain segments should show ghost normals at the joints";
}

TEST(Chain, NormalsOverKinksAreFaceNormalsOrInAConvexCornersFan) {
  // A zigzag of convex and concave kinks of 2 to 40 degrees; shapes dropped onto every corner.
  test_random::Rng rng(12);
  std::vector<Vec2> points;
  float y = 0;
  for (int i = 12; i >= 0; --i) {
    points.push_back({float(i), y});
    y += float(rng.uniform(-0.35, 0.35));
  }
  const Chain chain = Chain::open(points);
  const float margin = 0.02f;
  for (int trial = 0; trial < 4000 / kScale; ++trial) {
    const float size = float(rng.log_uniform(0.05, 0.6));
    const Shape b = random_body(rng, size);
    const int corner = rng.integer(1, chain.segment_count() - 1);  // the vertex between segment corner-1 and corner
    const Vec2 v = chain.segment(corner).a;
    const Transform xb{v + Vec2{float(rng.uniform(-1, 1)) * size, float(rng.uniform(0.2, 1.5)) * size},
                       Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    for (int i = 0; i < chain.segment_count(); ++i) {
      const ChainSegment& s = chain.segment(i);
      const Manifold m = collide(s, Transform::identity(), b, xb, margin);
      if (m.count == 0) continue;
      const Vec2 n = m.normal;
      bool face = false;
      for (int j = 0; j < chain.segment_count(); ++j) face = face || length(n - chain.segment(j).normal) < 2e-3f;
      if (face) continue;
      // Else a convex corner's fan, at that corner: the corner at this segment's start (it owns it).
      ASSERT_TRUE(s.has_prev) << "trial " << trial;
      const Vec2 e0 = s.a - s.ghost_prev, e1 = s.b - s.a;
      EXPECT_GT(cross(e0, e1), 0) << "trial " << trial << ": a corner normal at a concave corner";
      EXPECT_GE(cross(right_perp(e0), n), -1e-3f) << "trial " << trial;
      EXPECT_LE(cross(s.normal, n), 1e-3f) << "trial " << trial;
      // And the shape reaches that corner: its surface within the margin and its deepest overlap.
      float deepest = 0;
      for (int k = 0; k < m.count; ++k) deepest = std::max(deepest, -m.points[k].separation);
      const long double to_corner = oracle::signed_distance_to_surface(to_oracle(b, xb), {s.a.x, s.a.y});
      EXPECT_LE(to_corner, margin + deepest + 2e-3L * size) << "trial " << trial;
    }
  }
}

TEST(Chain, RaysAndCastsAreOneSided) {
  const Chain floor = flat_floor(4, 1.0f);
  const ChainSegment& s = floor.segment(1);
  const Transform xs = Transform::identity();
  const CastResult down = cast_ray(s, xs, Ray{{2.5f, 1}, {0, -2}});
  ASSERT_TRUE(down.hit);
  EXPECT_NEAR(down.fraction, 0.5f, 1e-6f);
  EXPECT_EQ(down.normal, (Vec2{0, 1}));
  EXPECT_FALSE(cast_ray(s, xs, Ray{{2.5f, -1}, {0, 2}}).hit);  // from behind: passes through
  EXPECT_FALSE(cast_ray(s, xs, Ray{{2.5f, -1}, {0, 2}}, 0.2f).hit);
  EXPECT_TRUE(cast_ray(s, xs, Ray{{2.5f, 1}, {0, -2}}, 0.2f).hit);
  const Shape ball = Shape::circle(0.25f);
  const CastResult falling = cast_shape(ball, {{2.5f, 1}, Rot::identity()}, {0, -2}, s, xs, {0, 0});
  ASSERT_TRUE(falling.hit);
  EXPECT_NEAR(falling.fraction, 0.375f, 1e-5f);
  EXPECT_FALSE(cast_shape(ball, {{2.5f, -1}, Rot::identity()}, {0, 2}, s, xs, {0, 0}).hit);
  // Time of impact and closest approach: from the front as on the segment's shape, from behind
  // nothing.
  const Sweep fall{{0, 0}, {2.5f, 1}, {2.5f, -1}, 0, 0.3f}, still{{0, 0}, {0, 0}, {0, 0}, 0, 0};
  const ToiResult toi = time_of_impact(ball, fall, s, still);
  const ToiResult plain = time_of_impact(ball, fall, s.shape, still);
  EXPECT_EQ(toi.state, ToiResult::State::hit);
  EXPECT_EQ(toi.fraction, plain.fraction);
  const Sweep rise{{0, 0}, {2.5f, -1}, {2.5f, 1}, 0, 0.3f};
  EXPECT_EQ(time_of_impact(ball, rise, s, still).state, ToiResult::State::separated);
  EXPECT_EQ(time_of_impact(ball, rise, s.shape, still).state, ToiResult::State::hit);
  const ApproachResult near = closest_approach(ball, {{2.5f, 1}, Rot::identity()}, {0, -2}, s, xs, {0, 0}, 1);
  EXPECT_TRUE(near.hit);
  EXPECT_NEAR(near.time, 0.375f, 1e-4f);
  EXPECT_FALSE(closest_approach(ball, {{2.5f, -1}, Rot::identity()}, {0, 2}, s, xs, {0, 0}, 1).hit);
  // Behind the segment, collide() gives nothing even when overlapping.
  EXPECT_EQ(collide(s, xs, ball, {{2.5f, -0.2f}, Rot::identity()}, 0.02f).count, 0);
  EXPECT_GT(collide(s, xs, ball, {{2.5f, 0.2f}, Rot::identity()}, 0.02f).count, 0);
}

// Shape casts choose their normal as collide() does. A box standing on a gentle crest (the bench
// terrain's at x = 309: the chain turns by 2.7 degrees) with its corner just short of the crest
// and moving toward it meets the crest within the skin along the corner-to-crest line, 54 degrees
// from up: on the segment beyond the crest that is a ghost, and the cast gives the face normal;
// a normal inside a convex corner's fan is the next segment's (no hit on the segment ending there).
TEST(Chain, CastNormalsAreTheSmoothSurfaces) {
  const std::vector<Vec2> points{
      {310.0f, 0.65896f}, {309.5f, 0.69467f}, {309.0f, 0.71215f}, {308.5f, 0.70617f}, {308.0f, 0.67256f}};
  const Chain crest = Chain::open(points);
  const ChainSegment& beyond = crest.segment(1);  // 309.5 -> 309.0: ends at the crest
  const Transform xs = Transform::identity();
  const Shape box = Shape::box(0.3f, 0.75f);
  const Transform at{{308.69193f, 1.46806f}, Rot::identity()};
  ShapeCastOptions skin;
  skin.target_separation = 0.01f;
  const CastResult plain = cast_shape(box, at, {0.0833f, 0}, beyond.shape, xs, {0, 0}, skin);
  ASSERT_TRUE(plain.hit);
  EXPECT_GT(plain.normal.x, 0.5f);  // the segment's shape alone: from the corner to the crest, 54 degrees from down
  const CastResult smooth = cast_shape(box, at, {0.0833f, 0}, beyond, xs, {0, 0}, skin);
  ASSERT_TRUE(smooth.hit);
  EXPECT_EQ(smooth.fraction, plain.fraction);
  EXPECT_EQ(smooth.normal, -beyond.normal);  // the face's
  // A ball coming down onto the crest along the bisector of the two faces: its normal is inside
  // the corner's fan, which the segment starting there owns.
  const ChainSegment& owner = crest.segment(2);  // 309.0 -> 308.5: starts at the crest
  const Vec2 bisector = normalize(beyond.normal + owner.normal);
  const Shape ball = Shape::circle(0.2f);
  const Transform above{points[2] + 0.5f * bisector, Rot::identity()};
  EXPECT_FALSE(cast_shape(ball, above, -0.5f * bisector, beyond, xs, {0, 0}).hit);
  const CastResult onto = cast_shape(ball, above, -0.5f * bisector, owner, xs, {0, 0});
  ASSERT_TRUE(onto.hit);
  EXPECT_NEAR(onto.fraction, 0.6f, 1e-3f);
}

TEST(Chain, WorldContactsNameTheSegmentAndMatchEachSegment) {
  // A loop and an open chain with shapes dropped around them: the world's contacts equal collide()
  // of every segment with every shape (the brute force), with the segment as the part.
  test_random::Rng rng(13);
  std::vector<Vec2> hill;
  for (int i = 40; i >= 0; --i) hill.push_back({float(i) * 0.5f, std::sin(float(i) * 0.4f)});
  const Chain open = Chain::open(hill);
  const std::vector<Vec2> box = {{-3, -3}, {3, -3}, {3, 3}, {-3, 3}};
  const Chain loop = Chain::loop(box);
  const float margin = 0.02f;
  CollisionWorld world(WorldSettings{.contact_margin = margin});
  const Transform at_open{{0, -4}, Rot::identity()}, at_loop{{30, 0}, Rot::from_angle(0.3f)};
  const ColliderId open_id = world.add(open, at_open);
  const ColliderId loop_id = world.add(loop, at_loop);
  EXPECT_EQ(world.part_count(open_id), open.segment_count());
  std::vector<std::pair<Shape, Transform>> bodies;
  std::vector<ColliderId> ids;
  for (int i = 0; i < 300 / kScale; ++i) {
    const Shape b = random_body(rng, float(rng.log_uniform(0.1, 0.8)));
    const Transform xb = rng.chance(0.5) ? Transform{{float(rng.uniform(0, 20)), float(rng.uniform(-5.5, -2.5))},
                                                     Rot::from_angle(float(rng.uniform(-kPi, kPi)))}
                                         : Transform{transform_point(at_loop, rng.in_disc(4.5)),
                                                     Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    bodies.push_back({b, xb});
    ids.push_back(world.add(b, xb));
  }
  world.update();
  ASSERT_TRUE(world.validate());
  std::map<std::tuple<std::uint32_t, int, std::uint32_t, int>, Manifold> got;
  for (const ContactPair& c : world.contacts())
    if (c.a == open_id || c.a == loop_id)
      got[{c.a.index, c.part_a, c.b.index, c.part_b}] = c.manifold;  // chains were added first
  std::size_t want = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (const auto& [chain, id, xs] : {std::tuple{&open, open_id, at_open}, std::tuple{&loop, loop_id, at_loop}}) {
      for (int k = 0; k < chain->segment_count(); ++k) {
        const Manifold m = collide(chain->segment(k), xs, bodies[i].first, bodies[i].second, margin);
        if (m.count == 0) continue;
        ++want;
        const auto it = got.find({id.index, k, ids[i].index, 0});
        ASSERT_NE(it, got.end()) << "body " << i << " segment " << k;
        EXPECT_EQ(it->second.count, m.count);
        EXPECT_EQ(it->second.normal, m.normal);
      }
    }
  }
  EXPECT_EQ(got.size(), want);
  EXPECT_GT(want, 20u / kScale);
  // A ray from inside the loop passes out; from outside it hits the loop's segment.
  const Position centre = at_loop.p;
  const auto out = world.cast_ray({centre, rotate(at_loop.q, Vec2{10, 0})});
  EXPECT_TRUE(!out || out.id != loop_id);
  const auto in = world.cast_ray({centre + rotate(at_loop.q, Vec2{10, 0}), rotate(at_loop.q, Vec2{-10, 0})});
  ASSERT_TRUE(bool(in));
  if (in.id == loop_id) {
    EXPECT_EQ(in.part, 1);  // the right side, (3,-3) -> (3,3)
  }
}

namespace {

// A chain with one steep kink: J at the origin of the chain's frame, the floor coming in along -x
// (face normal +y) as two segments (3 then 1 long), turning by `turn` radians at J (> 0: a convex
// corner, the chain turning towards its solid side; < 0: a concave joint) and going on as two
// segments (1 then 3 long). The other joints are flat and the free ends 4 from J, beyond the
// bodies' reach. Segment 1 ends at J, segment 2 starts there.
Chain kink_chain(float turn) {
  const Vec2 in{-1, 0}, out{-std::cos(turn), -std::sin(turn)};
  const std::vector<Vec2> points{-4.0f * in, -1.0f * in, {0, 0}, out, 4.0f * out};
  return Chain::open(points);
}

// A body of kind k (0 circle, 1 capsule, 2 box, 3 rounded polygon, 4 sharp polygon) about `size`
// across.
Shape body_of_kind(test_random::Rng& rng, int k, float size) {
  switch (k) {
    case 0:
      return Shape::circle(size * float(rng.uniform(0.3, 1)));
    case 1:
      return Shape::capsule({-size * float(rng.uniform(0.3, 0.9)), 0}, {size * float(rng.uniform(0.3, 0.9)), 0},
                            size * float(rng.uniform(0.1, 0.4)));
    case 2:
      return Shape::box(size * float(rng.uniform(0.2, 1)), size * float(rng.uniform(0.2, 1)));
    default: {
      std::vector<Vec2> points;
      const int n = rng.integer(3, 7);
      for (int i = 0; i < n; ++i) points.push_back(rng.in_disc(size));
      return Shape::polygon(points, k == 3 ? size * float(rng.uniform(0.05, 0.3)) : 0.0f);
    }
  }
}

// A kink of 60 to 120 degrees, convex or concave, placed anywhere, with a body of every kind in
// turn at the kink or along one of its two faces (up to past the flat joints 1 from J), at any
// angle, from resting on it to sunk up to its centroid.
struct KinkCase {
  Chain chain;
  bool convex;
  float degrees;
  Transform xs, local, xb;  // local: the body in the chain's frame
  Shape b;
  int kind;
  float size;
};
KinkCase kink_case(test_random::Rng& rng, int trial) {
  const float degrees = float(rng.uniform(60, 120));
  const bool convex = rng.chance(0.5);
  Chain chain = kink_chain((convex ? 1 : -1) * degrees * kPi / 180);
  const Transform xs{{float(rng.uniform(-20, 20)), float(rng.uniform(-20, 20))},
                     Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
  const int kind = trial % 5;
  const float size = float(rng.log_uniform(0.05, 0.6));
  Shape b = body_of_kind(rng, kind, size);
  Vec2 at;
  const int where = rng.integer(0, 2);
  if (where == 0) {
    at = rng.in_disc(1.2 * size);
  } else {
    const ChainSegment& s = chain.segment(where);  // 1: the incoming face (J = its b), 2: the outgoing (J = its a)
    const Vec2 away = where == 1 ? s.a : s.b;      // unit, from J
    at = float(rng.uniform(0, 1.6)) * away + float(rng.uniform(-0.5, 1.3)) * size * s.normal;
  }
  const Transform local{at, Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
  return {std::move(chain), convex, degrees, xs, local, mul(xs, local), std::move(b), kind, size};
}

bool in_fan(Vec2 from, Vec2 to, Vec2 n) { return cross(from, n) >= -1e-3f && cross(n, to) >= -1e-3f; }

}  // namespace

// Steep kinks against the oracle's geometry of the whole chain (each segment's long-double
// distance to the body; near a concave joint the chain's surface is the union of its segments).
// Each contact: a face normal of its segment, or a normal of the convex corner's fan from the
// segment that starts there (from the one that ends there only when the body's centroid lies
// behind the other's line, which then sees nothing); its point midway between a point of the
// segment and a point of the body's surface (within the contract's 1e-3 of the body's size); no
// deeper than the segment's own distance when apart from it. Together: no contact beyond the
// margin, some contact within it, the least separation the chain's distance when apart, and a body
// sunk into a face with its centroid out of the solid gets a contact pushing it out of that face
// (that face's normal, or the corner's fan).
TEST(Chain, SteepKinksAgreeWithTheOracle) {
  test_random::Rng rng(21);
  const float margin = 0.02f;
  std::map<std::string, int> failures;
  std::map<std::string, std::string> first;
  int cases = 0, sunk = 0, unowned_corner = 0;
  for (int trial = 0; trial < 30000 / kScale; ++trial) {
    const KinkCase k = kink_case(rng, trial);
    const Chain& chain = k.chain;
    const ChainSegment& s1 = chain.segment(1);
    const ChainSegment& s2 = chain.segment(2);
    const oracle::RShape body = to_oracle(k.b, k.xb);
    const long double tol = 1e-3L * oracle::half_diameter(body) + 8e-7L * 40;
    const Vec2 c = to_vec2(transform_point(k.local, k.b.core_centroid()));  // in the chain's frame
    long double d[4], whole = 1e30L;
    V own[4];  // each segment's least-translation direction, from it to the body (chain frame)
    bool front[4];
    for (int i = 0; i < 4; ++i) {
      const ChainSegment& s = chain.segment(i);
      const oracle::DistanceAnswer o =
          oracle::distance(to_oracle(s.shape, Transform::identity()), to_oracle(k.b, k.local));
      d[i] = o.distance;
      own[i] = o.normal;
      whole = std::min(whole, d[i]);
      front[i] = dot(s.normal, c - s.a) > 0;
    }
    // Out of the solid: in front of either face at a convex corner, of both in a concave joint.
    const bool outside = k.convex ? (front[1] || front[2]) : (front[1] && front[2]);
    ++cases;
    if (whole < -tol && outside) ++sunk;
    std::vector<std::string> bad;
    Manifold m[4];
    long double least = 1e30L;
    int total = 0;
    for (int i = 0; i < 4; ++i) {
      const ChainSegment& s = chain.segment(i);
      m[i] = collide(s, k.xs, k.b, k.xb, margin);
      total += m[i].count;
      if (m[i].count == 0) continue;
      const Vec2 n = inv_rotate(k.xs.q, m[i].normal);
      const bool face = length(n - s.normal) < 1e-3f;
      const bool fan = k.convex && (i == 2 || (i == 1 && !front[2])) && in_fan(s1.normal, s2.normal, n);
      if (!face && !fan)
        bad.push_back("normal of segment " + std::to_string(i) + " neither its face's nor in the corner's fan");
      long double own_least = 1e30L;
      for (int j = 0; j < m[i].count; ++j) {
        const ContactPoint& p = m[i].points[j];
        own_least = std::min<long double>(own_least, p.separation);
        const Position on_body = p.point + 0.5f * p.separation * m[i].normal;
        const Vec2 on_chain = inv_transform_point(k.xs, p.point - 0.5f * p.separation * m[i].normal);
        if (std::fabs(oracle::signed_distance_to_surface(body, {on_body.x, on_body.y})) > tol)
          bad.push_back("point not on the body's surface");
        if (oracle::closest_segments({on_chain.x, on_chain.y}, {on_chain.x, on_chain.y}, {s.a.x, s.a.y}, {s.b.x, s.b.y})
                .distance > tol) {
          bad.push_back("point not on its segment");
        }
        if (p.separation > margin) bad.push_back("separation above the margin");
      }
      least = std::min(least, own_least);
      if (d[i] > tol && own_least < d[i] - tol)
        bad.push_back("a point deeper than its segment's distance, apart from it");
    }
    if (whole > margin + tol && total > 0) bad.push_back("a contact beyond the margin");
    if (outside && whole <= margin - tol && total == 0) {
      // Open (docs/terrain.md): at a convex corner, the segment ending there finds the body's least
      // translation inside the corner's fan and leaves it to the other, whose own least translation
      // lies beyond the fan on the first face's side and whose face clip is empty.
      const bool unowned = k.convex && in_fan(s1.normal, s2.normal, {float(own[1].x), float(own[1].y)}) &&
                           cross(s1.normal, Vec2{float(own[2].x), float(own[2].y)}) < 0;
      if (unowned)
        ++unowned_corner;
      else
        bad.push_back("no contact at all");
    }
    if (outside && whole >= 0 && whole <= margin - tol && total > 0 && std::fabs(least - whole) > tol)
      bad.push_back("least separation not the distance");
    for (int i = 0; i < 4; ++i) {
      if (!(d[i] < -tol && front[i] && outside) || total == 0) continue;
      bool pushed = false;
      for (int j = 0; j < 4; ++j) {
        const Vec2 n = inv_rotate(k.xs.q, m[j].normal);
        pushed = pushed || (m[j].count > 0 && (length(n - chain.segment(i).normal) < 1e-3f ||
                                               (k.convex && in_fan(s1.normal, s2.normal, n))));
      }
      if (!pushed) bad.push_back("sunk into segment " + std::to_string(i) + " and nothing pushes it out");
    }
    for (const std::string& what : bad) {
      if (failures[what]++ > 0) continue;
      std::ostringstream out;
      out << "trial " << trial << ": " << (k.convex ? "convex " : "concave ") << k.degrees << " degrees, body kind "
          << k.kind << " at (" << k.local.p.x << ", " << k.local.p.y << "), distances to the segments " << double(d[0])
          << " " << double(d[1]) << " " << double(d[2]) << " " << double(d[3]) << "; contacts";
      for (int i = 0; i < 4; ++i) out << " " << m[i].count;
      first[what] = out.str();
    }
  }
  for (const auto& [what, count] : failures) ADD_FAILURE() << count << " x " << what << "; the first: " << first[what];
  EXPECT_GT(sunk, cases / 5);  // the cases do sink bodies into the kinks
  // The open corner case stays rare (about 1 in 10,000 of these cases).
  EXPECT_LE(unowned_corner, cases / 2000) << unowned_corner << " bodies at a convex corner with no contact";
}

// Where collide() of a segment's own shape gives the face normal (and the body's centroid is in
// front), the chain keeps that manifold or builds the same one from the face clip: the same count,
// the same ids (warm starting goes on through the switch), the same normal. Sharp bodies: for a
// rounded one collide() may place a clipped point on the corner's arc where the face clip has it
// on the outer edge (both on the surface).
TEST(Chain, SteepKinkFaceContactsHaveCollidesIds) {
  test_random::Rng rng(22);
  const float margin = 0.02f;
  int compared = 0;
  for (int trial = 0; trial < 30000 / kScale; ++trial) {
    const KinkCase k = kink_case(rng, trial);
    if (k.b.radius() > 0) continue;
    const Vec2 c = to_vec2(transform_point(k.local, k.b.core_centroid()));  // in the chain's frame
    for (int i = 0; i < 4; ++i) {
      const ChainSegment& s = k.chain.segment(i);
      const Manifold plain = collide(s.shape, k.xs, k.b, k.xb, margin);
      if (plain.count == 0 || length(inv_rotate(k.xs.q, plain.normal) - s.normal) >= 1e-3f ||
          dot(s.normal, c - s.a) <= 0)
        continue;
      ++compared;
      const Manifold m = collide(s, k.xs, k.b, k.xb, margin);
      ASSERT_EQ(m.count, plain.count) << "trial " << trial << " segment " << i;
      EXPECT_LT(length(m.normal - plain.normal), 1e-3f) << "trial " << trial << " segment " << i;
      for (int j = 0; j < plain.count; ++j) {
        // (In either order: a body face parallel to the segment may be collide()'s reference.)
        EXPECT_TRUE(plain.points[j].id == m.points[0].id || plain.points[j].id == m.points[m.count - 1].id)
            << "trial " << trial << " segment " << i << ": collide() names a point " << plain.points[j].id
            << ", the chain " << m.points[0].id
            << (m.count > 1 ? " and " + std::to_string(m.points[1].id) : std::string());
      }
    }
  }
  EXPECT_GT(compared, 3000 / kScale);
}

// Casts on chain segments that start in contact (chain.hpp: as cast_shape() otherwise, so a body
// that starts overlapping a segment, or within the cast's target separation, with its centroid in
// front hits at fraction 0; the normal is chosen as collide() chooses, so a normal inside the fan
// of the convex corner a segment ends at is the next segment's). Against the oracle's distance of
// the body to each segment at the start, over the steep kinks: some segment's cast hits at
// fraction 0 with a normal (from the body to the segment) opposite to that segment's face normal,
// to a normal of the corner's fan, or to the oracle's least-translation direction; and each hit
// at fraction 0 is on a segment the body starts overlapping or within the target of. A disc cast
// along a ray whose origin lies within the radius of the segment, in front, hits at fraction 0.
TEST(Chain, CastsStartingInContactHitAtTheStart) {
  test_random::Rng rng(23);
  ShapeCastOptions skin;
  skin.target_separation = 0.01f;
  int starts = 0, missed = 0, wrong = 0, sunk_backwards = 0;
  for (int trial = 0; trial < 20000 / kScale; ++trial) {
    const KinkCase k = kink_case(rng, trial);
    const Chain& chain = k.chain;
    const oracle::RShape body = to_oracle(k.b, k.local);
    const long double tol = 1e-3L * oracle::half_diameter(body) + 8e-7L * 40;
    const Vec2 c = to_vec2(transform_point(k.local, k.b.core_centroid()));  // in the chain's frame
    const Vec2 move =
        rotate(k.xs.q, float(rng.uniform(0.1, 1)) * Vec2{float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))});
    const ShapeCastOptions options = rng.chance(0.5) ? skin : ShapeCastOptions{};
    bool starts_in_contact = false, hit_at_start = false;
    for (int i = 0; i < 4; ++i) {
      const ChainSegment& s = chain.segment(i);
      const oracle::DistanceAnswer o = oracle::distance(to_oracle(s.shape, Transform::identity()), body);
      const bool front = dot(s.normal, c - s.a) > 0;
      const bool in_contact = front && o.distance <= options.target_separation - tol;
      starts_in_contact = starts_in_contact || in_contact;
      const CastResult h = cast_shape(k.b, k.xb, move, s, k.xs, {0, 0}, options);
      if (!h.hit || h.fraction != 0) continue;
      hit_at_start = true;
      // Only where the body starts within the target of this segment (its centroid in front).
      if (!(front && o.distance <= options.target_separation + tol)) {
        ++wrong;
        ADD_FAILURE() << "trial " << trial << " segment " << i << ": a hit at the start " << double(o.distance)
                      << " away";
        continue;
      }
      const Vec2 n = -inv_rotate(k.xs.q, h.normal);  // from the segment to the body
      const bool face = length(n - s.normal) < 1e-3f;
      const bool fan = k.convex && (i == 2 || i == 1) && in_fan(chain.segment(1).normal, chain.segment(2).normal, n);
      const bool least = o.distance < 0 && length(Vec2{float(o.normal.x), float(o.normal.y)} - n) < 1e-3f;
      const bool touching = o.distance >= -tol && length(Vec2{float(o.normal.x), float(o.normal.y)} - n) < 2e-3f;
      EXPECT_TRUE(face || fan || least || touching)
          << "trial " << trial << " segment " << i << ": normal " << n.x << " " << n.y;
      if (o.distance < 0 && dot(n, s.normal) < 0) ++sunk_backwards;
    }
    if (starts_in_contact) {
      ++starts;
      if (!hit_at_start) {
        ++missed;
        if (missed < 4)
          ADD_FAILURE() << "trial " << trial << ": starts in contact (kind " << k.kind << ", "
                        << (k.convex ? "convex " : "concave ") << k.degrees
                        << " degrees) and no cast hits at the start";
      }
    }
  }
  EXPECT_EQ(missed, 0);
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(starts, 20000 / kScale / 4);
  EXPECT_GT(sunk_backwards, 0);  // some start sunk so that the least translation faces backwards
  // A disc of radius 0.3 moving along a ray from 0.2 in front of a segment: inside at the start.
  const Chain floor = flat_floor(4, 1.0f);
  const Transform xs{{3, -2}, Rot::from_angle(0.7f)};
  for (const float x : {0.5f, 1.5f, 2.0f, 3.9f}) {
    const int i = 3 - int(x);
    const Ray ray{transform_point(xs, {x, 0.2f}), rotate(xs.q, Vec2{0.3f, -1})};
    const CastResult h = cast_ray(floor.segment(i), xs, ray, 0.3f);
    ASSERT_TRUE(h.hit) << x;
    EXPECT_EQ(h.fraction, 0.0f);
    EXPECT_EQ(h.normal, (Vec2{0, 0}));
    EXPECT_FALSE(cast_ray(floor.segment(i), xs, {transform_point(xs, {x, -0.2f}), rotate(xs.q, Vec2{0.3f, 1})}, 0.3f)
                     .hit);  // from behind
  }
}

// The query fuzzer's finding at the end of issue 33 (fuzz/corpus/query/chain-segment-inside-a-2e-14-
// box): a segment 7e-15 long lying inside a box 1.9e-14 across, against which collide() of the
// chain segment reports a separation far below distance()'s. The chain's contact is right: the
// oracle puts the segment inside the box (overlap 9.3e-15) and the box 1.18e-14 deep along the
// segment's face normal. distance() of the segment's shape reports +7.1e-15 instead: overlaps below
// kOverlapFraction x kMinPairScale (1e-12) are measured as touching by the closest points of the
// two edges, which do not meet, and collide() of the segment's shape itself gives the same
// -1.18e-14 (docs/robustness.md). Sizes 1e-12 of those the contract covers; held here against the
// oracle so that the chain's answer stays the geometry's.
TEST(Chain, TinyBoxAroundATinySegmentAgreesWithTheOracle) {
  const ChainSegment s = ChainSegment::make({0, 7.10542736e-15f}, {0, 0});
  const Transform xs{{0, 5.60519386e-44f}, Rot{1, 0}};
  const float h = 9.33458091e-15f;
  const Shape box = Shape::polygon(std::vector<Vec2>{{-h, -h}, {h, -h}, {h, h}, {-h, h}}, 9.40457362e-38f);
  const Transform xb{{0, 9.40395481e-38f}, Rot{0.950871348f, -0.309586316f}};
  const oracle::RShape seg = to_oracle(s.shape, xs), body = to_oracle(box, xb);
  ASSERT_LT(oracle::distance(seg, body).distance, -9e-15L);  // the segment lies inside the box
  const Manifold m = collide(s, xs, box, xb, 2.0f);
  ASSERT_GT(m.count, 0);
  EXPECT_EQ(m.normal, rotate(xs.q, s.normal));  // the face normal: the least translation is not unique here
  const long double along = oracle::separation_along(seg, body, {m.normal.x, m.normal.y});  // -1.1766e-14
  const long double tol = 1e-3L * 2 * h;
  for (int k = 0; k < m.count; ++k) {
    EXPECT_GE(m.points[k].separation, along - tol) << k;  // no deeper than the box lies along the normal
    const Position on_box = m.points[k].point + 0.5f * m.points[k].separation * m.normal;
    EXPECT_NEAR(double(oracle::signed_distance_to_surface(body, {on_box.x, on_box.y})), 0, double(tol)) << k;
  }
  long double least = 1;
  for (int k = 0; k < m.count; ++k) least = std::min<long double>(least, m.points[k].separation);
  EXPECT_NEAR(double(least), double(along), double(tol));
}
