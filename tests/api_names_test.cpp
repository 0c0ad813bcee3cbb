// The naming pass of issue 38 (docs/api-changes.md): every old name still compiles and gives the
// same answer as its new name, bit for bit; every result type says "no answer" through its explicit
// operator bool; the world's casts answer WorldCastResult directly and still serve code written for
// std::optional; InvalidSettings is caught as itself, as InvalidShape and as std::invalid_argument.
//
// This file is the one place that uses the deprecated names, so the warning is silenced here only.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "pebble/pebble.hpp"

namespace {

using namespace pebble;

template <class T>
bool same_bits(const T& a, const T& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Field by field, so that padding bytes never decide.
bool same(const CastResult& a, const CastResult& b) {
  return a.hit == b.hit && same_bits(a.fraction, b.fraction) && same_bits(a.point, b.point) &&
         same_bits(a.normal, b.normal);
}
bool same(const WorldCastResult& a, const WorldCastResult& b) {
  return a.id == b.id && a.part == b.part && same(a.hit, b.hit);
}

const Shape kBox = Shape::box(1, 0.5f);
const Shape kBall = Shape::circle(0.25f);
const Transform kAt{{2, 0}, Rot::from_angle(0.3f)};
const Ray kHitting{{-2, 0.1f}, {8, 0.2f}};
const Ray kMissing{{-2, 5}, {8, 0}};

static_assert(std::is_same_v<CastHit, CastResult>);
static_assert(std::is_same_v<Approach, ApproachResult>);
static_assert(std::is_same_v<PointProjection, ProjectionResult>);
static_assert(std::is_same_v<MoverCast, MoverCastResult>);
static_assert(std::is_same_v<RayResult, WorldCastResult>);
static_assert(std::is_base_of_v<InvalidShape, InvalidSettings>);
static_assert(std::is_base_of_v<std::invalid_argument, InvalidSettings>);
// operator bool is explicit: a result never turns into a number or a bool by accident.
static_assert(!std::is_convertible_v<CastResult, bool> && std::is_constructible_v<bool, CastResult>);
static_assert(!std::is_convertible_v<WorldCastResult, bool> && std::is_constructible_v<bool, WorldCastResult>);

TEST(ApiNames, OldFreeCastNamesGiveTheNewAnswers) {
  for (const Ray& ray : {kHitting, kMissing}) {
    EXPECT_TRUE(same(raycast(kBox, kAt, ray), cast_ray(kBox, kAt, ray)));
    EXPECT_TRUE(same(raycast(kBox, kAt, ray, 0.3f), cast_ray(kBox, kAt, ray, 0.3f)));
  }
  EXPECT_TRUE(cast_ray(kBox, kAt, kHitting).hit);
  EXPECT_FALSE(cast_ray(kBox, kAt, kMissing).hit);

  const Transform from{{-2, 0}, Rot::identity()};
  for (const Vec2 move : {Vec2{6, 0}, Vec2{0, 6}}) {
    EXPECT_TRUE(same(shape_cast(kBall, from, move, kBox, kAt, {}), cast_shape(kBall, from, move, kBox, kAt, {})));
    const ShapeCastOptions gap{0.1f};
    EXPECT_TRUE(
        same(shape_cast(kBall, from, move, kBox, kAt, {}, gap), cast_shape(kBall, from, move, kBox, kAt, {}, gap)));
  }

  const std::vector<Vec2> points{{-3, 0}, {3, 0}};
  const Chain chain = Chain::open(points);
  const ChainSegment& s = chain.segment(0);
  const Ray up{{0, -2}, {0, 4}};  // segment a -> b collides on its right side: below
  EXPECT_TRUE(same(raycast(s, Transform::identity(), up), cast_ray(s, Transform::identity(), up)));
  EXPECT_TRUE(same(raycast(s, Transform::identity(), up, 0.2f), cast_ray(s, Transform::identity(), up, 0.2f)));
  EXPECT_TRUE(cast_ray(s, Transform::identity(), up, 0.2f).hit);
  const Transform below{{0, -2}, Rot::identity()};
  EXPECT_TRUE(same(shape_cast(kBall, below, {0, 4}, s, Transform::identity(), {}),
                   cast_shape(kBall, below, {0, 4}, s, Transform::identity(), {})));
  EXPECT_TRUE(cast_shape(kBall, below, {0, 4}, s, Transform::identity(), {}).hit);
}

TEST(ApiNames, ResultsSayWhetherThereIsAnAnswer) {
  // Casts: true exactly when there is a hit.
  EXPECT_TRUE(bool(cast_ray(kBox, kAt, kHitting)));
  EXPECT_FALSE(bool(cast_ray(kBox, kAt, kMissing)));
  const Transform from{{-2, 0}, Rot::identity()};
  EXPECT_TRUE(bool(cast_shape(kBall, from, {6, 0}, kBox, kAt, {})));
  EXPECT_FALSE(bool(cast_shape(kBall, from, {0, 6}, kBox, kAt, {})));

  // Distance and projection: an answer for any valid input, none for an invalid transform.
  const Transform bad{{std::numeric_limits<float>::quiet_NaN(), 0}, Rot::identity()};
  EXPECT_TRUE(bool(distance(kBall, from, kBox, kAt)));
  EXPECT_TRUE(bool(distance(kBall, kAt, kBox, kAt)));  // overlapping is an answer too
  EXPECT_FALSE(bool(distance(kBall, bad, kBox, kAt)));
  EXPECT_TRUE(bool(project_point(kBox, kAt, {5, 5})));
  EXPECT_FALSE(bool(project_point(kBox, bad, {5, 5})));

  // Closest approach: found for valid input whether or not they touch; `hit` says whether.
  const ApproachResult touching = closest_approach(kBall, from, {6, 0}, kBox, kAt, {}, 1);
  const ApproachResult passing = closest_approach(kBall, from, {0, 6}, kBox, kAt, {}, 1);
  EXPECT_TRUE(bool(touching) && touching.hit);
  EXPECT_TRUE(bool(passing) && !passing.hit);
  EXPECT_FALSE(bool(closest_approach(kBall, bad, {6, 0}, kBox, kAt, {}, 1)));

  // Time of impact: true when the shapes touch at `fraction` (hit, or overlapped at the start).
  const auto sweep = [](Position c0, Position c1) { return Sweep{{0, 0}, c0, c1, 0.3f, 0.3f}; };
  const Sweep still = sweep(kAt.p, kAt.p);
  const ToiResult hit = time_of_impact(kBall, sweep({-2, 0}, {4, 0}), kBox, still);
  const ToiResult apart = time_of_impact(kBall, sweep({-2, 0}, {-2, 6}), kBox, still);
  const ToiResult overlapped = time_of_impact(kBall, sweep(kAt.p, kAt.p), kBox, still);
  const ToiResult failed =
      time_of_impact(kBall, sweep({std::numeric_limits<float>::quiet_NaN(), 0}, {4, 0}), kBox, still);
  ASSERT_EQ(hit.state, ToiResult::State::hit);
  ASSERT_EQ(apart.state, ToiResult::State::separated);
  ASSERT_EQ(overlapped.state, ToiResult::State::overlapped);
  ASSERT_EQ(failed.state, ToiResult::State::failed);
  EXPECT_TRUE(bool(hit));
  EXPECT_TRUE(bool(overlapped));
  EXPECT_FALSE(bool(apart));
  EXPECT_FALSE(bool(failed));
}

struct Scene {
  CollisionWorld world;
  ColliderId box, ball;
  Scene() {
    box = world.add(kBox, kAt);
    ball = world.add(kBall, Transform{{2.5f, 0.6f}, Rot::identity()});
    world.update();
  }
};

TEST(ApiNames, WorldCastsAnswerDirectlyAndStillServeOptionalCode) {
  const Scene scene;
  const CollisionWorld& world = scene.world;
  const Shape probe = Shape::circle(0.1f);
  const Transform probe_at{kHitting.origin, Rot::identity()};
  const Transform probe_away{kMissing.origin, Rot::identity()};
  struct Case {
    WorldCastResult hit, miss;
  };
  const Case cases[] = {
      {world.cast_ray(kHitting), world.cast_ray(kMissing)},
      {world.cast_circle(kHitting, 0.1f), world.cast_circle(kMissing, 0.1f)},
      {world.cast_shape(probe, probe_at, kHitting.translation),
       world.cast_shape(probe, probe_away, kMissing.translation)},
  };
  for (const Case& c : cases) {
    // The new form.
    ASSERT_TRUE(bool(c.hit));
    EXPECT_EQ(c.hit.id, scene.box);
    EXPECT_TRUE(c.hit.hit.hit);
    EXPECT_GT(c.hit.hit.fraction, 0.0f);
    EXPECT_LT(c.hit.hit.fraction, 1.0f);
    EXPECT_FALSE(bool(c.miss));
    EXPECT_FALSE(c.miss.hit.hit);
    EXPECT_EQ(c.miss.id, ColliderId{});  // names nothing
    EXPECT_EQ(c.miss.part, 0);
    EXPECT_EQ(c.miss.hit.fraction, 1.0f);
    EXPECT_TRUE(same_bits(c.miss.hit.point, Position{0, 0}) && same_bits(c.miss.hit.normal, Vec2{0, 0}));

    // The old std::optional forms, through the deprecated members.
    EXPECT_TRUE(c.hit.has_value());
    EXPECT_FALSE(c.miss.has_value());
    EXPECT_TRUE(same(c.hit.value(), c.hit));
    EXPECT_TRUE(same(*c.hit, c.hit));
    EXPECT_EQ(c.hit->id, scene.box);
    EXPECT_EQ(c.hit->hit.fraction, c.hit.hit.fraction);
    EXPECT_FALSE(c.hit == std::nullopt);
    EXPECT_TRUE(c.miss == std::nullopt);
    EXPECT_TRUE(std::nullopt == c.miss);
    if (const auto r = c.hit) {
      EXPECT_EQ(r->part, 0);
    } else {
      ADD_FAILURE() << "a hit tests false";
    }
    if (const auto r = c.miss) ADD_FAILURE() << "a miss tests true";
    // Code that kept the answer in a std::optional: empty exactly when there is no hit.
    const std::optional<RayResult> kept_hit = c.hit;
    const std::optional<RayResult> kept_miss = c.miss;
    ASSERT_TRUE(kept_hit.has_value());
    EXPECT_TRUE(same(*kept_hit, c.hit));
    EXPECT_FALSE(kept_miss.has_value());
    WorldCastResult not_const = c.miss;  // the conversion from a result that is not const
    const std::optional<RayResult> kept_not_const = not_const;
    EXPECT_FALSE(kept_not_const.has_value());
  }
  // A temporary straight from the world, as `std::optional<RayResult> r = world.cast_ray(ray);` wrote it.
  const std::optional<RayResult> from_world = world.cast_ray(kHitting);
  const std::optional<RayResult> none_from_world = world.cast_ray(kMissing);
  ASSERT_TRUE(from_world.has_value());
  EXPECT_TRUE(same(*from_world, world.cast_ray(kHitting)));
  EXPECT_FALSE(none_from_world.has_value());
  // A callback typed with the old name still takes the every-hit form.
  int seen = 0;
  world.cast_ray(
      kHitting,
      [&](const RayResult& r) {
        seen += r.id == scene.box;
        return 1.0f;
      },
      QueryFilter{});
  EXPECT_EQ(seen, 1);
}

TEST(ApiNames, OldEventNamesGiveTheNewEvents) {
  Scene scene;
  CollisionWorld& world = scene.world;
  const auto same_events = [](std::span<const ContactEvent> a, std::span<const ContactEvent> b) {
    return a.data() == b.data() && a.size() == b.size();
  };
  ASSERT_EQ(world.touch_begin_events().size(), 1u);
  EXPECT_TRUE(same_events(world.begin_touch_events(), world.touch_begin_events()));
  EXPECT_TRUE(same_events(world.begin_part_touch_events(), world.part_touch_begin_events()));
  EXPECT_EQ(world.part_touch_begin_events().size(), 1u);
  world.set_transform(scene.ball, Transform{{9, 9}, Rot::identity()});
  world.update();
  ASSERT_EQ(world.touch_end_events().size(), 1u);
  EXPECT_TRUE(same_events(world.end_touch_events(), world.touch_end_events()));
  EXPECT_TRUE(same_events(world.end_part_touch_events(), world.part_touch_end_events()));
  EXPECT_EQ(world.part_touch_end_events().size(), 1u);
}

TEST(ApiNames, MoverCastOldNameAndAnswer) {
  const Scene scene;
  const Transform from{{-2, 0}, Rot::identity()};
  const MoverCast old = cast_mover(scene.world, kBall, from, {6, 0}, 0.01f);
  const MoverCastResult hit = cast_mover(scene.world, kBall, from, {6, 0}, 0.01f);
  const MoverCastResult miss = cast_mover(scene.world, kBall, from, {0, -6}, 0.01f);
  EXPECT_TRUE(bool(hit));
  EXPECT_EQ(hit.collider, scene.box);
  EXPECT_FALSE(bool(miss));
  EXPECT_TRUE(old.hit == hit.hit && same_bits(old.fraction, hit.fraction) && old.collider == hit.collider);
}

TEST(ApiNames, InvalidSettingsIsCaughtAsItselfAsInvalidShapeAndAsInvalidArgument) {
  MoverSettings bad;
  bad.skin = -1;
  const auto make = [&] { CharacterMover mover(kBall, Transform::identity(), bad); };
  EXPECT_THROW(make(), InvalidSettings);
  EXPECT_THROW(make(), InvalidShape);
  EXPECT_THROW(make(), std::invalid_argument);
  try {
    make();
    ADD_FAILURE() << "no throw";
  } catch (const InvalidSettings& e) {
    EXPECT_NE(std::string(e.what()).find("settings.skin"), std::string::npos) << e.what();
  }
  // A shape maker still throws InvalidShape, not InvalidSettings.
  try {
    (void)Shape::circle(-1);
    ADD_FAILURE() << "no throw";
  } catch (const InvalidSettings&) {
    ADD_FAILURE() << "a shape maker threw InvalidSettings";
  } catch (const InvalidShape&) {}
}

}  // namespace
