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
#include <vector>

#include "oracle/distance.hpp"
#include "to_oracle.hpp"
#include "random_cases.hpp"

using namespace pebble;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr int kScale = test_random::kSanitizerScale;

using test_oracle::to_oracle;

Shape random_body(test_random::Rng& rng, float size) {
  switch (rng.integer(0, 4)) {
    case 0: return Shape::box(size * float(rng.uniform(0.3, 1)), size * float(rng.uniform(0.3, 1)));
    case 1: return Shape::rounded_box(size, size * float(rng.uniform(0.4, 1)), size * 0.2f);
    case 2: return Shape::capsule({-size * 0.7f, 0}, {size * 0.7f, 0}, size * 0.3f);
    case 3: return Shape::circle(size * float(rng.uniform(0.3, 1)));
    default: {
      std::vector<Vec2> points;
      for (int i = 0; i < 7; ++i) points.push_back(rng.in_disc(size));
      return Shape::polygon(points, rng.chance(0.5) ? size * 0.1f : 0.0f);
    }
  }
}

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
    const Transform xs{{float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50))}, Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
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
  const CastHit down = raycast(s, xs, Ray{{2.5f, 1}, {0, -2}});
  ASSERT_TRUE(down.hit);
  EXPECT_NEAR(down.fraction, 0.5f, 1e-6f);
  EXPECT_EQ(down.normal, (Vec2{0, 1}));
  EXPECT_FALSE(raycast(s, xs, Ray{{2.5f, -1}, {0, 2}}).hit);                // from behind: passes through
  EXPECT_FALSE(raycast(s, xs, Ray{{2.5f, -1}, {0, 2}}, 0.2f).hit);
  EXPECT_TRUE(raycast(s, xs, Ray{{2.5f, 1}, {0, -2}}, 0.2f).hit);
  const Shape ball = Shape::circle(0.25f);
  const CastHit falling = shape_cast(ball, {{2.5f, 1}, Rot::identity()}, {0, -2}, s, xs, {0, 0});
  ASSERT_TRUE(falling.hit);
  EXPECT_NEAR(falling.fraction, 0.375f, 1e-5f);
  EXPECT_FALSE(shape_cast(ball, {{2.5f, -1}, Rot::identity()}, {0, 2}, s, xs, {0, 0}).hit);
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
  const Approach near = closest_approach(ball, {{2.5f, 1}, Rot::identity()}, {0, -2}, s, xs, {0, 0}, 1);
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
  const std::vector<Vec2> points{{310.0f, 0.65896f}, {309.5f, 0.69467f}, {309.0f, 0.71215f}, {308.5f, 0.70617f}, {308.0f, 0.67256f}};
  const Chain crest = Chain::open(points);
  const ChainSegment& beyond = crest.segment(1);  // 309.5 -> 309.0: ends at the crest
  const Transform xs = Transform::identity();
  const Shape box = Shape::box(0.3f, 0.75f);
  const Transform at{{308.69193f, 1.46806f}, Rot::identity()};
  ShapeCastOptions skin;
  skin.target_separation = 0.01f;
  const CastHit plain = shape_cast(box, at, {0.0833f, 0}, beyond.shape, xs, {0, 0}, skin);
  ASSERT_TRUE(plain.hit);
  EXPECT_GT(plain.normal.x, 0.5f);  // the segment's shape alone: from the corner to the crest, 54 degrees from down
  const CastHit smooth = shape_cast(box, at, {0.0833f, 0}, beyond, xs, {0, 0}, skin);
  ASSERT_TRUE(smooth.hit);
  EXPECT_EQ(smooth.fraction, plain.fraction);
  EXPECT_EQ(smooth.normal, -beyond.normal);  // the face's
  // A ball coming down onto the crest along the bisector of the two faces: its normal is inside
  // the corner's fan, which the segment starting there owns.
  const ChainSegment& owner = crest.segment(2);  // 309.0 -> 308.5: starts at the crest
  const Vec2 bisector = normalize(beyond.normal + owner.normal);
  const Shape ball = Shape::circle(0.2f);
  const Transform above{points[2] + 0.5f * bisector, Rot::identity()};
  EXPECT_FALSE(shape_cast(ball, above, -0.5f * bisector, beyond, xs, {0, 0}).hit);
  const CastHit onto = shape_cast(ball, above, -0.5f * bisector, owner, xs, {0, 0});
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
    const Transform xb = rng.chance(0.5) ? Transform{{float(rng.uniform(0, 20)), float(rng.uniform(-5.5, -2.5))}, Rot::from_angle(float(rng.uniform(-kPi, kPi)))}
                                         : Transform{transform_point(at_loop, rng.in_disc(4.5)), Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    bodies.push_back({b, xb});
    ids.push_back(world.add(b, xb));
  }
  world.update();
  ASSERT_TRUE(world.validate());
  std::map<std::tuple<std::uint32_t, int, std::uint32_t, int>, Manifold> got;
  for (const ContactPair& c : world.contacts())
    if (c.a == open_id || c.a == loop_id) got[{c.a.index, c.part_a, c.b.index, c.part_b}] = c.manifold;  // chains were added first
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
  const Vec2 centre = at_loop.p;
  const auto out = world.cast_ray({centre, rotate(at_loop.q, Vec2{10, 0})});
  EXPECT_TRUE(!out || out->id != loop_id);
  const auto in = world.cast_ray({centre + rotate(at_loop.q, Vec2{10, 0}), rotate(at_loop.q, Vec2{-10, 0})});
  ASSERT_TRUE(in.has_value());
  if (in->id == loop_id) {
    EXPECT_EQ(in->part, 1);  // the right side, (3,-3) -> (3,3)
  }
}
