// The character mover (pebble/mover.hpp) in whole runs at 60 Hz: walking on chains, tile maps and
// slopes, sliding down steep ones, stairs, snapping, walls and corners at low and high speed,
// platforms that carry and push. After every step the long-double oracle measures the true
// distance from the mover to every fixed collider: never below -skin. Plus hand cases for the
// plane solver, clipping and the tolerant cast.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "oracle/distance.hpp"
#include "pebble/pebble.hpp"
#include "to_oracle.hpp"

using namespace pebble;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kGravity = -20.0f;

// The movers every behaviour is run with: a capsule, a box, a rounded box, a circle, a polygon.
struct Body {
  const char* name;
  Shape shape;
  float bottom;  // distance from the shape's origin down to its lowest point
  float half_width;
};

std::vector<Body> bodies() {
  const Vec2 hexagon[] = {{0.3f, -0.4f}, {0.4f, 0.f}, {0.3f, 0.4f}, {-0.3f, 0.4f}, {-0.4f, 0.f}, {-0.3f, -0.4f}};
  return {
      {"capsule", Shape::capsule({0, -0.5f}, {0, 0.5f}, 0.3f), 0.8f, 0.3f},
      {"box", Shape::box(0.3f, 0.5f), 0.5f, 0.3f},
      {"rounded box", Shape::rounded_box(0.3f, 0.5f, 0.05f), 0.5f, 0.3f},
      {"circle", Shape::circle(0.4f), 0.4f, 0.4f},
      {"hexagon", Shape::polygon(hexagon), 0.4f, 0.4f},
  };
}

struct Level {
  CollisionWorld world;

  ColliderId chain(std::vector<Vec2> points, bool loop = false) {
    ColliderOptions o;
    o.fixed = true;
    return world.add(loop ? Chain::loop(points) : Chain::open(points), Transform::identity(), o);
  }
  ColliderId solid(const Shape& shape, const Transform& xf, bool fixed = true) {
    ColliderOptions o;
    o.fixed = fixed;
    return world.add(shape, xf, o);
  }
  // The exact least distance (long double oracle) from the mover to any fixed collider.
  long double least_fixed_distance(const Shape& shape, const Transform& xf, ColliderId* nearest = nullptr) {
    long double least = 1e30L;
    const oracle::RShape mover = test_oracle::to_oracle(shape, xf);
    const Aabb box = bounds(shape, xf);
    world.overlap_aabb({box.lower - Vec2{1, 1}, box.upper + Vec2{1, 1}}, [&](ColliderId id) {
      if (!world.options(id)->fixed) return true;
      for (int k = 0; k < world.part_count(id); ++k) {
        const long double d =
            oracle::distance(test_oracle::to_oracle(*world.part(id, k), *world.transform(id)), mover).distance;
        if (d < least) {
          least = d;
          if (nearest) *nearest = id;
        }
      }
      return true;
    });
    return least;
  }
};

// Runs n steps with the input velocity chosen from the last step's result (gravity added to the
// vertical part the mover gave back), checking the oracle after each. Returns every step.
std::vector<MoverStep> run(Level& level, CharacterMover& mover, int n,
                           const std::function<Vec2(const MoverStep&)>& input,
                           const std::function<void(int)>& before = nullptr) {
  std::vector<MoverStep> out;
  MoverStep last;
  last.transform = mover.transform();
  last.ground = mover.ground();
  for (int i = 0; i < n; ++i) {
    if (before) before(i);
    const MoverStep s = mover.step(level.world, input(last), kDt);
    const long double gap = level.least_fixed_distance(mover.shape(), s.transform);
    // The guarantee is -skin; the mover settles out of overlaps each step, so far less is seen.
    EXPECT_GE(gap, -0.1L * mover.settings().skin) << "step " << i << " ends overlapping a fixed collider";
    EXPECT_TRUE(is_valid(s.transform));
    out.push_back(s);
    last = s;
  }
  return out;
}

// Walking input: horizontal speed `vx`, gravity on the vertical velocity the mover gave back.
std::function<Vec2(const MoverStep&)> walk(float vx) {
  return [vx](const MoverStep& last) { return Vec2{vx, last.velocity.y + kGravity * kDt}; };
}

// Places a mover standing on the ground height `y` at x and lets it settle for a few steps.
CharacterMover standing(Level& level, const Body& body, float x, float y, const MoverSettings& settings = {}) {
  CharacterMover mover(body.shape, {{x, y + body.bottom + 0.05f}, Rot::identity()}, settings);
  run(level, mover, 20, walk(0));
  return mover;
}

TEST(MoverPrimitives, ClipVectorIsTheNearestAllowedVector) {
  MoverPlane floor, wall;
  floor.normal = {0, 1};
  wall.normal = {-1, 0};
  const MoverPlane both[] = {floor, wall};
  EXPECT_EQ(clip_vector({3, -2}, std::span(both, 1)), (Vec2{3, 0}));
  EXPECT_EQ(clip_vector({3, 2}, std::span(both, 1)), (Vec2{3, 2}));
  EXPECT_EQ(clip_vector({3, -2}, both), (Vec2{0, 0}));  // into the corner: nothing is left
  EXPECT_EQ(clip_vector({3, 2}, both), (Vec2{0, 2}));   // up the wall
  // A V of two 45-degree slopes: straight down into it stops; sideways along one slope goes on.
  MoverPlane left, right;
  left.normal = normalize(Vec2{1, 1});
  right.normal = normalize(Vec2{-1, 1});
  const MoverPlane v[] = {left, right};
  const Vec2 down = clip_vector({0, -1}, v);
  EXPECT_NEAR(length(down), 0, 1e-7f);
  const Vec2 up_right = clip_vector({1, 0}, v);
  EXPECT_NEAR(up_right.x, 0.5f, 1e-6f);
  EXPECT_NEAR(up_right.y, 0.5f, 1e-6f);
  // Planes that do not clip are ignored; NaN gives zero.
  wall.clip_velocity = false;
  const MoverPlane only_floor[] = {floor, wall};
  EXPECT_EQ(clip_vector({3, -2}, only_floor), (Vec2{3, 0}));
  EXPECT_EQ(clip_vector({std::nanf(""), 1}, only_floor), (Vec2{0, 0}));
}

TEST(MoverPrimitives, SolvePlanesFindsTheNearestTranslationWithinPushLimits) {
  MoverPlane floor, wall;
  floor.normal = {0, 1};
  floor.separation = -0.2f;  // 0.2 deep in the floor
  wall.normal = {-1, 0};
  wall.separation = 0.1f;  // 0.1 clear of the wall
  const MoverPlane planes[] = {floor, wall};
  PlaneSolution s = solve_planes({0.5f, 0}, planes);
  EXPECT_TRUE(s.converged);
  EXPECT_NEAR(s.translation.x, 0.1f, 1e-6f);  // up to the wall
  EXPECT_NEAR(s.translation.y, 0.2f, 1e-6f);  // out of the floor
  // A soft floor pushes at most its limit.
  MoverPlane soft = floor;
  soft.push_limit = 0.05f;
  const MoverPlane limited[] = {soft};
  s = solve_planes({}, limited);
  EXPECT_FALSE(s.converged);
  EXPECT_NEAR(s.translation.y, 0.05f, 1e-7f);
  // Two walls facing each other 0.1 apart around a mover that must move 0.3: it stays between.
  MoverPlane a, b;
  a.normal = {1, 0};
  a.separation = 0.05f;
  b.normal = {-1, 0};
  b.separation = 0.05f;
  const MoverPlane walls[] = {a, b};
  s = solve_planes({0.3f, 0}, walls);
  EXPECT_NEAR(s.translation.x, 0.05f, 1e-6f);
  EXPECT_TRUE(s.converged);
}

TEST(MoverPrimitives, SolvePlanesGivesAFiniteAnswerForHostileFinitePlanes) {
  // Found by hostile input (issue 37): a finite plane of separation -FLT_MAX pushed the translation
  // to infinity, the next plane's gap became inf - inf, and NaN passed the convergence test.
  MoverPlane a, b;
  a.normal = {0, -1};
  a.separation = -std::numeric_limits<float>::max();
  b.normal = {0.6f, 0.8f};
  b.separation = 0;
  const MoverPlane p[] = {a, b};
  PlaneSolution s = solve_planes({0, 0}, p);
  EXPECT_TRUE(std::isfinite(s.translation.x) && std::isfinite(s.translation.y));
  EXPECT_FALSE(s.converged);  // a and b cannot both hold: a wants y <= -3.4e38, b 0.6 x + 0.8 y >= 0
  // Normals off unit length are read as their direction; zero ones are skipped.
  MoverPlane floor;
  floor.normal = {0, 5};
  floor.separation = -0.2f;
  MoverPlane zero;
  zero.normal = {0, 0};
  zero.separation = -1;
  const MoverPlane scaled[] = {floor, zero};
  s = solve_planes({0.5f, 0}, scaled);
  EXPECT_TRUE(s.converged);
  EXPECT_NEAR(s.translation.x, 0.5f, 1e-6f);
  EXPECT_NEAR(s.translation.y, 0.2f, 1e-6f);
  // Huge normals and separations, every combination of signs: always finite.
  const float values[] = {
      0, 1, -1, 1e-30f, 1e30f, -1e30f, std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
  for (float nx : values)
    for (float ny : values)
      for (float sep : values) {
        MoverPlane q;
        q.normal = {nx, ny};
        q.separation = sep;
        const MoverPlane two[] = {q, b};
        const PlaneSolution r = solve_planes({1, 1}, two);
        ASSERT_TRUE(std::isfinite(r.translation.x) && std::isfinite(r.translation.y)) << nx << " " << ny << " " << sep;
        if (r.converged) {
          for (const MoverPlane& m : two) {
            const Vec2 n = normalize(m.normal);
            if (n != Vec2{}) {
              EXPECT_GE(dot(n, r.translation) + std::clamp(m.separation, -1e9f, 1e9f),
                        -1e-3f * (1 + length(r.translation)));
            }
          }
        }
      }
}

TEST(MoverPrimitives, CastMoverToleratesStartingContactButNotGoingDeeper) {
  Level level;
  level.chain({{10, 0}, {-10, 0}});  // a floor, facing up
  const Shape box = Shape::box(0.5f, 0.5f);
  const Transform resting{{0, 0.5f + 0.005f}, Rot::identity()};  // within the skin 0.01
  // Along the floor and away from it: free.
  EXPECT_FALSE(cast_mover(level.world, box, resting, {3, 0}, 0.01f).hit);
  EXPECT_FALSE(cast_mover(level.world, box, resting, {3, 1}, 0.01f).hit);
  // Into it: stopped at once.
  const MoverCastResult down = cast_mover(level.world, box, resting, {1, -1}, 0.01f);
  EXPECT_TRUE(down.hit);
  EXPECT_EQ(down.fraction, 0);
  EXPECT_NEAR(down.normal.y, 1, 1e-6f);
  // The plain world cast stops at once even along the floor.
  ShapeCastOptions options;
  options.target_separation = 0.01f;
  EXPECT_TRUE(level.world.cast_shape(box, resting, {3, 0}, {}, options));
  // From above, it stops at the skin.
  const MoverCastResult fall = cast_mover(level.world, box, {{0, 2}, Rot::identity()}, {0, -4}, 0.01f);
  ASSERT_TRUE(fall.hit);
  EXPECT_NEAR(2 - 4 * fall.fraction, 0.51f, 1e-5f);
  // mover_planes: the floor's plane with its separation.
  MoverPlane planes[4];
  const int n = mover_planes(level.world, box, resting, 0.01f, planes);
  ASSERT_EQ(n, 2);  // the box's two bottom corners
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(planes[i].normal.y, 1, 1e-6f);
    EXPECT_NEAR(planes[i].separation, 0.005f, 1e-6f);
  }
}

// CollisionWorld::collide_shape against collide() on every part, by brute force: the same
// manifolds (bit for bit), chains one-sided, and QueryFilter::fixed leaving the fixed ones out.
TEST(MoverPrimitives, CollideShapeIsCollideOnEveryPartNear) {
  CollisionWorld world;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-6, 6), angle(-3.1f, 3.1f), size(0.2f, 1.2f);
  std::vector<ColliderId> ids;
  std::vector<Shape> shapes;
  std::vector<Transform> xfs;
  std::vector<bool> fixed;
  for (int i = 0; i < 40; ++i) {
    const Shape shape = i % 3 == 0   ? Shape::circle(size(rng))
                        : i % 3 == 1 ? Shape::box(size(rng), size(rng))
                                     : Shape::capsule({-size(rng), 0}, {size(rng), 0}, 0.2f);
    const Transform xf{{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))};
    ColliderOptions o;
    o.fixed = i % 2 == 0;
    ids.push_back(world.add(shape, xf, o));
    shapes.push_back(shape);
    xfs.push_back(xf);
    fixed.push_back(o.fixed);
  }
  const std::vector<Vec2> points{{8, -3}, {2, -2.5f}, {-1, -1}, {-4, -4}, {-8, -2}};
  const Chain chain = Chain::open(points);
  ColliderOptions fixed_options;
  fixed_options.fixed = true;
  const ColliderId chain_id = world.add(chain, Transform::identity(), fixed_options);
  const Shape probe = Shape::rounded_box(0.6f, 0.4f, 0.1f);
  for (int q = 0; q < 300; ++q) {
    const Transform at{{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))};
    const float margin = q % 4 == 0 ? 0.0f : 0.3f;
    for (const bool see_fixed : {true, false}) {
      QueryFilter filter;
      filter.fixed = see_fixed;
      std::vector<std::tuple<std::uint32_t, int, Manifold>> got;
      world.collide_shape(
          probe, at, margin,
          [&](ColliderId id, int part, const Manifold& m) {
            got.emplace_back(id.index, part, m);
            return true;
          },
          filter);
      std::vector<std::tuple<std::uint32_t, int, Manifold>> want;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!see_fixed && fixed[i]) continue;
        const Manifold m = collide(shapes[i], xfs[i], probe, at, margin);
        if (m.count > 0) want.emplace_back(ids[i].index, 0, m);
      }
      for (int k = 0; see_fixed && k < chain.segment_count(); ++k) {
        const Manifold m = collide(chain.segment(k), Transform::identity(), probe, at, margin);
        if (m.count > 0) want.emplace_back(chain_id.index, k, m);
      }
      const auto key = [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
      };
      std::sort(got.begin(), got.end(), key);
      std::sort(want.begin(), want.end(), key);
      ASSERT_EQ(got.size(), want.size()) << "query " << q;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(std::get<0>(got[i]), std::get<0>(want[i]));
        EXPECT_EQ(std::get<1>(got[i]), std::get<1>(want[i]));
        const Manifold& a = std::get<2>(got[i]);
        const Manifold& b = std::get<2>(want[i]);
        EXPECT_EQ(a.count, b.count);
        EXPECT_EQ(a.normal, b.normal);
        for (int k = 0; k < a.count; ++k) EXPECT_EQ(a.points[k].separation, b.points[k].separation);
      }
    }
  }
}

TEST(MoverPrimitives, BadSettingsThrowAndBadInputDoesNothing) {
  MoverSettings s;
  s.skin = 0;
  EXPECT_THROW(CharacterMover(Shape::circle(1), Transform::identity(), s), InvalidShape);
  s = {};
  s.up = {0, 2};
  EXPECT_THROW(CharacterMover(Shape::circle(1), Transform::identity(), s), InvalidShape);
  s = {};
  s.max_slope = 2;
  EXPECT_THROW(CharacterMover(Shape::circle(1), Transform::identity(), s), InvalidShape);
  Level level;
  level.chain({{10, 0}, {-10, 0}});
  CharacterMover mover(Shape::circle(0.5f), {{0, 1}, Rot::identity()});
  for (const float dt : {0.0f, -1.0f, std::nanf(""), std::numeric_limits<float>::infinity()}) {
    EXPECT_EQ(mover.step(level.world, {1, 0}, dt).transform.p, (Vec2{0, 1}));
  }
  EXPECT_EQ(mover.step(level.world, {std::nanf(""), 0}, kDt).transform.p, (Vec2{0, 1}));
  EXPECT_EQ(mover.step(level.world, {1e38f, 0}, 1e10f).transform.p, (Vec2{0, 1}));
}

// Walking on a flat chain of many collinear segments (the seams must not catch), on one of
// segments so short that more are near than a step gathers (its queries then ask the world), and
// on a tile map: the height never changes (no bouncing), the mover is grounded every step and
// covers the distance exactly.
TEST(Mover, WalksFlatChainsAndTileMapsWithoutCatchingOrBouncing) {
  for (const Body& body : bodies()) {
    for (int map = 0; map < 3; ++map) {
      SCOPED_TRACE(std::string(body.name) + (map == 0   ? " on a chain"
                                             : map == 1 ? " on a tile map"
                                                        : " on a dense chain"));
      Level level;
      if (map != 1) {
        const int per_metre = map == 0 ? 2 : 50;
        std::vector<Vec2> floor;
        for (int i = 20 * per_metre; i >= -20 * per_metre; --i) floor.push_back({float(i) / float(per_metre), 0});
        level.chain(floor);
      } else {
        // A row of 60 one-metre tiles with a few tiles missing under the ground (holes closed
        // by the row below), so the outline has corners away from the walk.
        std::vector<std::uint8_t> solid(60 * 2, 1);
        solid[10] = solid[11] = solid[30] = 0;
        const TileGrid grid{60, 2, solid, {-30, -2}, {1, 1}};
        for (const Outline& o : outline_tiles(grid, 2.0f)) level.chain(o.points, o.closed);
      }
      CharacterMover mover = standing(level, body, -15, 0);
      ASSERT_TRUE(mover.ground().grounded);
      const float y0 = mover.transform().p.y;
      EXPECT_NEAR(y0 - body.bottom, 0, 2 * mover.settings().skin + 1e-4f);
      const float x0 = mover.transform().p.x;
      const auto steps = run(level, mover, 180, walk(8));  // 3 s at 8 m/s
      for (const MoverStep& s : steps) {
        EXPECT_TRUE(s.ground.grounded);
        EXPECT_NEAR(s.transform.p.y, y0, 0.1f * mover.settings().skin);
        EXPECT_FALSE(s.stepped);
      }
      EXPECT_NEAR(mover.transform().p.x - x0, 8 * 180 * kDt, 1e-3f);
    }
  }
}

// Level and slightly turned floors (issue 37's test gaps): walking along them is never a step nor a
// snap, for every body, from the first step on. (The box and the hexagon, whose flat bottoms meet a
// floor rising 1e-3 or 1e-2 rad at a corner, reported snapped every few steps walking uphill until
// chain casts chose their normals as collide() does; docs/mover.md.)
TEST(Mover, LevelAndSlightlyTurnedFloorsAreNeitherStepsNorSnaps) {
  for (const float turn : {0.0f, 1e-3f, -1e-3f, 1e-2f}) {
    const Rot q = Rot::from_angle(turn);
    for (const Body& body : bodies()) {
      SCOPED_TRACE(std::string(body.name) + " on a floor turned by " + std::to_string(turn));
      Level level;
      std::vector<Vec2> floor;
      for (int i = 40; i >= -40; --i) floor.push_back(pebble::rotate(q, Vec2{float(i) * 0.5f, 0}));
      level.chain(floor);
      CharacterMover mover = standing(level, body, -15, 0);
      ASSERT_TRUE(mover.ground().grounded);
      const auto steps = run(level, mover, 120, walk(8));
      for (std::size_t k = 0; k < steps.size(); ++k) {
        EXPECT_TRUE(steps[k].ground.grounded) << "step " << k;
        EXPECT_FALSE(steps[k].stepped) << "step " << k;
        EXPECT_FALSE(steps[k].snapped) << "step " << k;
      }
    }
  }
}

// A 25-degree slope (below the 50-degree limit) up and down: grounded every step, never above the
// surface by more than the skin (no bouncing on the way down), and reaching the top.
TEST(Mover, WalksSlopesBelowTheLimitUpAndDown) {
  const float angle = 25 * 3.14159265f / 180;
  const float rise = std::tan(angle);
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    Level level;
    // Flat until 0, up at 25 degrees to x = 10, flat after.
    level.chain({{30, 10 * rise}, {10, 10 * rise}, {0, 0}, {-20, 0}});
    CharacterMover mover = standing(level, body, -5, 0);
    const auto up_steps = run(level, mover, 300, walk(5));
    for (const MoverStep& s : up_steps) EXPECT_TRUE(s.ground.grounded);
    EXPECT_GT(mover.transform().p.x, 12);
    EXPECT_NEAR(mover.transform().p.y - body.bottom, 10 * rise, 3 * mover.settings().skin);
    const auto down_steps = run(level, mover, 300, walk(-5));
    for (const MoverStep& s : down_steps) {
      EXPECT_TRUE(s.ground.grounded);
      const long double gap = level.least_fixed_distance(mover.shape(), s.transform);
      EXPECT_LE(gap, 2 * mover.settings().skin + 1e-4f) << "left the slope";
    }
    EXPECT_LT(mover.transform().p.x, -2);
  }
}

// A 60-degree slope (above the limit): a mover placed on it slides down and is not grounded there;
// walking into it from the foot does not climb it.
TEST(Mover, SlidesDownSlopesAboveTheLimitAndCannotClimbThem) {
  const float angle = 60 * 3.14159265f / 180;
  const float rise = std::tan(angle);
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    Level level;
    level.chain({{10, 8 * rise}, {8, 8 * rise}, {0, 0}, {-100, 0}});
    // On the slope, halfway up, falling with nothing asked: it slides down and off onto the flat
    // (momentum kept: the mover has no friction), never grounded on the slope.
    CharacterMover mover(body.shape, {{4.5f, 4.5f * rise + 1.2f}, Rot::identity()});
    const auto sliding = run(level, mover, 90, [](const MoverStep& last) {
      return last.velocity + Vec2{0, kGravity * kDt};
    });
    bool grounded_on_slope = false;
    for (const MoverStep& s : sliding)
      grounded_on_slope = grounded_on_slope || (s.ground.grounded && s.ground.normal.y < 0.9f);
    EXPECT_FALSE(grounded_on_slope);
    EXPECT_LT(mover.transform().p.x, 0.0f);  // beyond the foot
    EXPECT_TRUE(mover.ground().grounded);
    mover = standing(level, body, -1, 0);
    // Walk into it for two seconds: it rises no higher than a step's height.
    const auto climbing = run(level, mover, 120, walk(6));
    float highest = 0;
    for (const MoverStep& s : climbing) highest = std::max(highest, float(s.transform.p.y - body.bottom));
    EXPECT_LT(highest, mover.settings().step_height + 0.05f);
  }
}

// Stairs of 0.2 (below the 0.3 step height) are climbed; a 0.5 ledge stops the mover.
TEST(Mover, ClimbsStepsUpToTheStepHeightAndStopsAtHigherOnes) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    Level level;
    std::vector<Vec2> points{{40, 1.3f}, {12, 1.3f}, {12, 0.8f}};  // the 0.5 ledge at x = 12
    for (int i = 4; i >= 1; --i) {
      points.push_back({2.0f * float(i), 0.2f * float(i)});
      points.push_back({2.0f * float(i), 0.2f * float(i - 1)});
    }
    points.push_back({-20, 0});
    level.chain(points);
    CharacterMover mover = standing(level, body, -3, 0);
    bool stepped = false;
    const auto steps = run(level, mover, 240, walk(4));
    for (const MoverStep& s : steps) stepped = stepped || s.stepped;
    EXPECT_TRUE(stepped);
    // On the top stair (0.8), stopped by the ledge at x = 12.
    EXPECT_NEAR(mover.transform().p.y - body.bottom, 0.8f, 3 * mover.settings().skin);
    EXPECT_LE(mover.transform().p.x + body.half_width, 12 + 1e-3f);
    EXPECT_GT(mover.transform().p.x + body.half_width, 12 - 0.05f);
    EXPECT_TRUE(mover.ground().grounded);
  }
}

// Stairs of four risers of height h up to the right (at x = 2, 4, 6, 8), flat before and after.
std::vector<Vec2> stairs(float h) {
  std::vector<Vec2> points{{30, 4 * h}};
  for (int i = 4; i >= 1; --i) {
    points.push_back({2.0f * float(i), h * float(i)});
    points.push_back({2.0f * float(i), h * float(i - 1)});
  }
  points.push_back({-20, 0});
  return points;
}

// Risers of exactly step_height, one float below and above it, and half a skin above it (issue 37's
// test gaps), for every body, up four stairs and back down with a snap distance beyond the riser
// (the step's bound, and the edge's, allow step_height plus the skin): going up, every riser
// is climbed by a step taken at it (the mover's front at the riser; a rounded mover that reaches
// only the edge lands there, the ray just past the contact finding the top, and steps again), and
// nothing is a snap, since the ground never drops; going down, grounded every step, no step, a
// snap at every riser, and every snap where the ground drops (at a riser, the mover going down;
// the rounded box used to fall off them, docs/mover.md). Risers of step_height + 3 skins stop every
// body at the first. (Between step_height and step_height + 2 skins the result depends on the gap
// the mover stands at, within the skin: the step's bound adds the skin to step_height.)
TEST(Mover, RisersOfExactlyTheStepHeightAreClimbedAndSnapsAreOnlyWhereTheGroundDrops) {
  const MoverSettings defaults;
  const float h0 = defaults.step_height;
  const float risers[] = {2, 4, 6, 8};
  const auto riser_near = [&](float x_after, const Body& body, bool going_up) {
    for (const float r : risers) {
      const float lo = going_up ? r - body.half_width - 0.01f : r - body.half_width - 0.2f;
      const float hi = going_up ? r - body.half_width + 0.25f : r + body.half_width + 0.01f;
      if (x_after >= lo && x_after <= hi) return r;
    }
    return 0.0f;
  };
  for (const float h : {std::nextafter(h0, 0.0f), h0, std::nextafter(h0, 1.0f), h0 + 0.5f * defaults.skin}) {
    for (const Body& body : bodies()) {
      SCOPED_TRACE(std::string(body.name) + " on risers of " + std::to_string(double(h)));
      MoverSettings settings;
      settings.snap_distance = h0 + 0.1f;
      const float skin = settings.skin;
      Level level;
      level.chain(stairs(h));
      CharacterMover mover = standing(level, body, -3, 0, settings);
      ASSERT_TRUE(mover.ground().grounded);
      MoverStep last;
      last.transform = mover.transform();
      const auto up = run(level, mover, 240, walk(4));
      int climbed[4] = {0, 0, 0, 0};
      for (std::size_t k = 0; k < up.size(); ++k) {
        const MoverStep& s = up[k];
        const Position before = k == 0 ? last.transform.p : up[k - 1].transform.p;
        EXPECT_FALSE(s.snapped) << "step " << k << " at x = " << s.transform.p.x << ": a snap going up stairs";
        if (!s.stepped) continue;
        const float r = riser_near(s.transform.p.x, body, true);
        EXPECT_NE(r, 0) << "step " << k << ": stepped at x = " << s.transform.p.x << ", at no riser";
        EXPECT_GT(s.transform.p.y, before.y + 0.5f * skin) << "step " << k << ": stepped but not up";
        if (r != 0) ++climbed[int(r / 2) - 1];
      }
      for (int i = 0; i < 4; ++i) EXPECT_GE(climbed[i], 1) << "no step at the riser at x = " << risers[i];
      EXPECT_GT(mover.transform().p.x, 12);
      EXPECT_NEAR(mover.transform().p.y - body.bottom, 4 * h, 3 * skin);
      EXPECT_TRUE(mover.ground().grounded);
      // Down: grounded every step (the drops are within the snap distance), snapped at every
      // riser and only there, each snap a drop.
      const Position top = mover.transform().p;
      const auto down = run(level, mover, 240, walk(-4));
      int snapped[4] = {0, 0, 0, 0};
      for (std::size_t k = 0; k < down.size(); ++k) {
        const MoverStep& s = down[k];
        const Position before = k == 0 ? top : down[k - 1].transform.p;
        EXPECT_FALSE(s.stepped) << "step " << k << ": a step going down stairs";
        EXPECT_TRUE(s.ground.grounded) << "step " << k << " at x = " << s.transform.p.x
                                       << ": off the ground going down stairs";
        if (!s.snapped) continue;
        const float r = riser_near(s.transform.p.x, body, false);
        EXPECT_NE(r, 0) << "step " << k << ": snapped at x = " << s.transform.p.x << ", at no riser";
        EXPECT_LT(s.transform.p.y, before.y - 2 * skin) << "step " << k << ": snapped but not down";
        if (r != 0) ++snapped[int(r / 2) - 1];
      }
      for (int i = 0; i < 4; ++i) EXPECT_GE(snapped[i], 1) << "no snap at the riser at x = " << risers[i];
      EXPECT_LT(mover.transform().p.x, -2);
      EXPECT_NEAR(mover.transform().p.y - body.bottom, 0, 3 * skin);
      EXPECT_TRUE(mover.ground().grounded);
    }
  }
  // Well above the bound: stopped at the first riser, no step, no snap.
  const float high = h0 + 3 * defaults.skin;
  for (const Body& body : bodies()) {
    SCOPED_TRACE(std::string(body.name) + " at a riser of step_height + 3 skins");
    Level level;
    level.chain(stairs(high));
    CharacterMover mover = standing(level, body, -3, 0);
    const auto steps = run(level, mover, 120, walk(4));
    for (const MoverStep& s : steps) {
      EXPECT_FALSE(s.stepped);
      EXPECT_FALSE(s.snapped);
      EXPECT_TRUE(s.ground.grounded);
    }
    EXPECT_LT(mover.transform().p.x, 2);
    EXPECT_GT(mover.transform().p.x + body.half_width, 2 - 0.05f);
    EXPECT_NEAR(mover.transform().p.y - body.bottom, 0, 2 * defaults.skin);
  }
}

// Walking off a 0.15 drop keeps the mover on the ground (snapped); off a 1.0 drop it falls.
TEST(Mover, SnapsDownSmallDropsAndFallsOffHighOnes) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    for (const float drop : {0.15f, 1.0f}) {
      Level level;
      level.chain({{20, -drop}, {0, -drop}, {0, 0}, {-20, 0}});
      CharacterMover mover = standing(level, body, -3, 0);
      bool always_grounded = true, snapped = false;
      int airborne = 0, longest = 0;
      const auto steps = run(level, mover, 90, walk(4));
      for (const MoverStep& s : steps) {
        always_grounded = always_grounded && s.ground.grounded;
        snapped = snapped || s.snapped;
        airborne = s.ground.grounded ? 0 : airborne + 1;
        longest = std::max(longest, airborne);
      }
      if (drop < mover.settings().snap_distance) {
        EXPECT_TRUE(always_grounded);
        EXPECT_TRUE(snapped);
      } else {
        EXPECT_GE(longest, 10);  // a fall of about 0.2 s (round movers roll over the edge first)
      }
      EXPECT_NEAR(mover.transform().p.y - body.bottom, -drop, 3 * mover.settings().skin);
      EXPECT_TRUE(mover.ground().grounded);
    }
  }
}

// Running into a wall at 60 Hz, at walking speed and at 200 m/s: stops at the wall, never passes
// it, and stays put (no jitter). Also into a V and into a box-shaped notch.
TEST(Mover, SlidesAlongWallsAndIntoCornersWithoutJitterOrTunnelling) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    for (const float speed : {5.0f, 200.0f}) {
      Level level;
      level.chain({{10, 5}, {10, 0}, {-20, 0}});  // a floor, then a wall facing left at x = 10
      CharacterMover mover = standing(level, body, 4, 0);
      const auto steps = run(level, mover, 180, walk(speed));
      const Coordinate stop = mover.transform().p.x;
      EXPECT_LE(stop + body.half_width, 10 + 1e-3f);
      EXPECT_GT(stop + body.half_width, 10 - 0.05f);
      for (std::size_t i = steps.size() - 30; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].transform.p.x, stop) << "jitter at step " << i;
        EXPECT_TRUE(steps[i].ground.grounded);
      }
      // Sliding along a wall: moving diagonally up-right against it in the air, it rises.
      CharacterMover flying(body.shape, {{9, 2}, Rot::identity()});
      const auto air = run(level, flying, 20, [](const MoverStep&) { return Vec2{30, 3}; });
      EXPECT_NEAR(flying.transform().p.y, 2 + 3 * 20 * kDt, 1e-3f);
      EXPECT_LE(flying.transform().p.x + body.half_width, 10 + 1e-3f);
    }
    // A V of two 60-degree walls (too steep to stand on): falling in at speed, it comes to rest
    // at the bottom and stays.
    {
      const float rise = std::tan(60 * 3.14159265f / 180);
      Level level;
      level.chain({{3, 3 * rise}, {0, 0}, {-3, 3 * rise}});
      CharacterMover mover(body.shape, {{0.7f, 4}, Rot::identity()});
      const auto steps = run(level, mover, 240, [](const MoverStep& last) {
        return last.velocity + Vec2{0, 2 * kGravity * kDt};
      });
      const Position rest = mover.transform().p;
      for (std::size_t i = steps.size() - 20; i < steps.size(); ++i) {
        EXPECT_NEAR(steps[i].transform.p.x, rest.x, 1e-4f);
        EXPECT_NEAR(steps[i].transform.p.y, rest.y, 1e-4f);
      }
      EXPECT_NEAR(rest.x, 0, 0.02f);
    }
    // The corner of the floor and a 60-degree wall: walking into it, the mover stops against the
    // wall and stays (the ground probe touches both and must take the floor).
    {
      const float rise = std::tan(60 * 3.14159265f / 180);
      Level level;
      level.chain({{3, 2.5f * rise}, {0.5f, 0}, {-10, 0}});
      CharacterMover mover = standing(level, body, -2, 0);
      const auto steps = run(level, mover, 120, walk(3));
      const Position rest = mover.transform().p;
      EXPECT_GT(rest.x, -0.2f);
      EXPECT_LT(rest.y - body.bottom, 0.05f);
      for (std::size_t i = steps.size() - 30; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].transform.p, rest) << "jitter at step " << i;
        EXPECT_TRUE(steps[i].ground.grounded);
      }
    }
    // A pit two metres wide and 1.5 deep (a concave notch): from inside, running into either
    // corner at 6 m/s, it stops at the wall and stays.
    {
      Level level;
      level.chain({{10, 0}, {2, 0}, {2, -1.5f}, {0, -1.5f}, {0, 0}, {-10, 0}});
      CharacterMover mover = standing(level, body, 1, -1.5f);
      for (const float speed : {6.0f, -6.0f}) {
        const auto steps = run(level, mover, 120, walk(speed));
        const Position rest = mover.transform().p;
        EXPECT_NEAR(rest.y - body.bottom, -1.5f, 3 * mover.settings().skin);
        if (speed > 0) {
          EXPECT_LE(rest.x + body.half_width, 2 + 1e-3f);
          EXPECT_GT(rest.x + body.half_width, 2 - 0.05f);
        } else {
          EXPECT_GE(rest.x - body.half_width, -1e-3f);
          EXPECT_LT(rest.x - body.half_width, 0.05f);
        }
        for (std::size_t i = steps.size() - 20; i < steps.size(); ++i)
          EXPECT_EQ(steps[i].transform.p, rest) << "jitter at step " << i;
      }
    }
  }
}

// A platform moving sideways and one turning: the mover standing on them keeps its place on them.
TEST(Mover, RidesMovingAndRotatingPlatforms) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    Level level;
    level.chain({{50, -10}, {-50, -10}});
    const Shape deck = Shape::box(3, 0.25f);
    Transform at{{0, 0}, Rot::identity()};
    const ColliderId platform = level.solid(deck, at, false);
    CharacterMover mover = standing(level, body, 1, 0.25f);
    ASSERT_TRUE(mover.ground().grounded);
    ASSERT_EQ(mover.ground().collider, platform);
    const Vec2 local = inv_transform_point(at, mover.transform().p);
    // Sideways at 3 m/s, back and forth, and up and down.
    const auto steps = run(level, mover, 240, walk(0), [&](int i) {
      const float t = float(i + 1) * kDt;
      at.p = {3 * std::sin(t * 2), 0.5f * std::sin(t * 3)};
      level.world.set_transform(platform, at);
    });
    for (const MoverStep& s : steps) EXPECT_TRUE(s.ground.grounded);
    const Vec2 now = inv_transform_point(at, mover.transform().p);
    EXPECT_NEAR(now.x, local.x, 1e-3f);
    EXPECT_NEAR(now.y, local.y, 3 * mover.settings().skin);
    // Turning at 20 degrees a second about its centre for a second: the mover goes round with it.
    const auto turning = run(level, mover, 60, walk(0), [&](int i) {
      at.q = Rot::from_angle(0.35f * float(i + 1) * kDt);
      level.world.set_transform(platform, at);
    });
    for (const MoverStep& s : turning) EXPECT_TRUE(s.ground.grounded);
    const Vec2 turned = inv_transform_point(at, mover.transform().p);
    EXPECT_NEAR(turned.x, local.x, 0.05f);
  }
}

// A platform rising into a mover from below lifts it; a wall moving into it pushes it along.
TEST(Mover, IsPushedOutWhenAPlatformMovesIntoIt) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    Level level;
    level.chain({{50, 0}, {-50, 0}});
    const Shape block = Shape::box(0.5f, 2);
    Transform at{{-3, 2}, Rot::identity()};
    const ColliderId pusher = level.solid(block, at, false);
    CharacterMover mover = standing(level, body, 0, 0);
    // The block moves right at 3 m/s (0.05 per step, within the push speed) for 1.5 s.
    const auto steps = run(level, mover, 90, walk(0), [&](int i) {
      at.p.x = -3 + 3 * float(i + 1) * kDt;
      level.world.set_transform(pusher, at);
    });
    bool pushed = false;
    for (const MoverStep& s : steps) pushed = pushed || s.pushed;
    EXPECT_TRUE(pushed);
    // Ahead of the block by no more than a push's lag, never inside it beyond one step's motion.
    const float gap = mover.transform().p.x - body.half_width - (at.p.x + 0.5f);
    EXPECT_GT(gap, -0.06f);
    EXPECT_LT(gap, 0.1f);
    EXPECT_TRUE(mover.ground().grounded);
  }
}

}  // namespace

// Rolling terrain (bench/mover_bench.cpp's, x from 280 to 360: slopes up to 27 degrees, crests
// turning by a few degrees): every body walks across it, grounded. A box's corner reaching a crest
// just within the skin once met it along the corner-to-crest line, a wall to the mover, and stopped
// there for good (at x = 308.69 on the bench's walk); chain casts now choose normals as collide().
TEST(Mover, WalksOverRollingTerrainWithoutCatchingOnCrests) {
  const auto height = [](float x) { return 1.5f * std::sin(x / 7.0f) + 0.7f * std::sin(x / 2.3f); };
  std::vector<Body> all = bodies();
  all.push_back({"tall box", Shape::box(0.3f, 0.75f), 0.75f, 0.3f});
  for (const Body& body : all) {
    SCOPED_TRACE(body.name);
    Level level;
    std::vector<Vec2> ground;
    for (int i = 720; i >= 560; --i) ground.push_back({0.5f * float(i), height(0.5f * float(i))});  // right to left
    level.chain(ground);
    CharacterMover mover = standing(level, body, 285, height(285) + 0.05f);
    for (const bool right : {true, false}) {
      const float goal = right ? 355.0f : 285.0f;
      int steps = 0;
      int grounded = 0;
      while ((right ? mover.transform().p.x < goal : mover.transform().p.x > goal) && steps < 1200) {
        const auto s = run(level, mover, 1, walk(right ? 5.0f : -5.0f));
        grounded += s[0].ground.grounded;
        ++steps;
      }
      EXPECT_LT(steps, 1200) << "stuck at x = " << mover.transform().p.x;  // 70 m at 5 m/s: 840 steps
      EXPECT_GE(grounded, steps * 95 / 100);
    }
  }
}

// The world fuzzer (issue 37, fuzz/corpus/world/mover-ground-after-push): step 6's push out of a
// fixed collider moved the mover after 5a had chosen its ground, and the ground was not looked for
// again: a circle deep in a fixed wall, standing on a moving platform, was pushed out of the wall
// and off the platform and still reported the platform 0.62 away as its ground. The ground is now
// looked for where the push left the mover, and lies within two skins of it.
TEST(Mover, GroundAfterAPushOutOfAFixedColliderIsWhereTheMoverEnds) {
  Level level;
  level.solid(Shape::box(5, 10), {{5, 0}, Rot::identity()});  // a wall over x in [0, 10]
  const ColliderId platform =
      level.solid(Shape::box(0.5f, 0.5f), {{1, -0.5f}, Rot::identity()}, false);  // top at y = 0
  CharacterMover mover(Shape::circle(0.5f), {{1.0f, 0.5f}, Rot::identity()});  // 1.5 deep in the wall, on the platform
  level.world.update();
  const MoverStep s = mover.step(level.world, {0, 0}, kDt);
  EXPECT_TRUE(s.pushed);
  EXPECT_LE(s.transform.p.x, -0.5f + mover.settings().skin);
  if (s.ground.grounded) {
    const float gap = distance(mover.shape(), s.transform, *level.world.part(s.ground.collider, s.ground.part),
                               *level.world.transform(s.ground.collider))
                          .distance;
    EXPECT_LE(gap, 2 * mover.settings().skin) << "ground " << (s.ground.collider == platform ? "platform" : "other");
  }
}

// The same after step 5a's push (fuzz/corpus/world/mover-ground-after-push-2): a capsule walking a
// floor that ends at x = -10, inside a fixed capsule of radius 62 (a fuzzer's step of 48 s), was
// pushed 50 units sideways and kept the floor segment as its ground, 43 units away.
TEST(Mover, GroundAfterALongSettleIsWhereTheMoverEnds) {
  Level level;
  level.chain({{3, 0.2f}, {-10, 0.2f}});
  level.solid(Shape::capsule({0, -51}, {0, 3}, 62.296875f), {{9, 0}, Rot::identity()});
  CharacterMover mover(Shape::capsule({0, -0.4f}, {0, 0.4f}, 0.3f), {{-4, 0.92f}, Rot::identity()});
  level.world.update();
  const MoverStep s = mover.step(level.world, {0, -65}, 48);
  EXPECT_TRUE(is_valid(s.transform));
  if (s.ground.grounded) {
    const float gap = distance(mover.shape(), s.transform, *level.world.part(s.ground.collider, s.ground.part),
                               *level.world.transform(s.ground.collider))
                          .distance;
    EXPECT_LE(gap, 2 * mover.settings().skin);
  }
}

// The world fuzzer (issue 37, fuzz/corpus/world/mover-fixed-overlap-crowded-out): step 6 looked for
// the fixed overlap among the 16 deepest contact planes, and a compound of moving parts deeper
// than it filled them all: the mover ended its step deep in a fixed collider. Step 6 now asks the
// fixed colliders only.
TEST(Mover, ManyMovingContactsDoNotHideAFixedOverlap) {
  Level level;
  level.solid(Shape::box(5, 10), {{5, 0}, Rot::identity()});  // a fixed wall over x in [0, 10]
  // A moving compound of 24 discs round the mover, each overlapping it more deeply than the wall.
  std::vector<Shape> parts;
  for (int k = 0; k < 24; ++k) {
    const float a = 6.2831853f * float(k) / 24;
    parts.push_back(Shape::circle(0.5f, {-0.6f + 0.9f * std::cos(a), 0.9f * std::sin(a)}));
  }
  ColliderOptions moving;
  level.world.add(parts, Transform::identity(), moving);
  CharacterMover mover(Shape::circle(1.2f), {{-0.6f, 0}, Rot::identity()});  // 0.6 into the wall
  level.world.update();
  const MoverStep s = mover.step(level.world, {0, 0}, kDt);
  EXPECT_GE(level.least_fixed_distance(mover.shape(), s.transform), -mover.settings().skin);
}
