// bench/scene_bench.cpp — the collision world on whole scenes beside Box2D 2.4.1's collision
// pipeline: a pyramid at rest, many small piles (10k boxes), a rotating drum of tumbling shapes,
// rain onto a chain and an explosion. Each scene's motion is made once per process, when a
// benchmark of it first runs, as a recording (the shapes, and every body's transform after each
// step); both libraries then replay the same transforms. pebble: set_transform() of every body
// whose transform changed, then update(). Box2D: b2Body::SetTransform() of the same bodies, then
// b2ContactManager::FindNewContacts() and Collide() (the collision half of b2World::Step, no
// solver). With PEBBLE_SCENE_RECORDINGS naming a directory, every *.rec file in it (a recording of
// Box2D v3's world, docs/benchmarks.md#scenes) is replayed by pebble too. docs/benchmarks.md.
#include <time.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "sandbox/stepper.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Recordings.

/// One collider of a recording: a shape, a compound's shapes or a chain, moved by body `body`.
struct RecCollider {
  std::uint32_t body = 0;
  std::vector<pebble::Shape> parts;  // one shape or a compound's (empty for a chain)
  std::vector<pebble::Vec2> chain;   // a chain's points (in the body's frame)
  bool loop = false;                 // the chain is closed
  bool fixed = false;                // never moves (a static body)
  pebble::Filter filter{};
  bool sensor = false;
};

/// What Box2D v3 measured in one step of an external recording (milliseconds).
struct V3Step {
  double pairs_ms = 0, collide_ms = 0, refit_ms = 0, step_ms = 0;
  std::uint32_t contacts_kept = 0, touching = 0;
};

/// A scene's shapes and motion: pose(s, b) is body b's transform at step s, s = 0 (the start,
/// built untimed) to steps(); the timed replay runs steps 1 to steps(). A body whose pose is NaN
/// at a step is absent then (not yet created, or destroyed: external recordings only).
struct Recording {
  std::string name;
  float margin = pebble::kDefaultContactMargin;
  std::size_t body_count = 0;
  std::vector<RecCollider> colliders;
  std::vector<pebble::Transform> poses;  // (steps() + 1) x body_count
  std::vector<V3Step> v3;                // external recordings: per step, as poses
  // Made by finish(), per step s >= 1: the bodies whose transform changed, that appeared and
  // that vanished since step s - 1; and per body its colliders.
  std::vector<std::vector<std::uint32_t>> changed, appeared, vanished;
  std::vector<std::vector<std::uint32_t>> colliders_of;

  std::size_t steps() const { return body_count == 0 ? 0 : poses.size() / body_count - 1; }
  const pebble::Transform& pose(std::size_t step, std::size_t body) const { return poses[step * body_count + body]; }
  bool present(std::size_t step, std::size_t body) const { return !std::isnan(pose(step, body).p.x); }

  void finish() {
    colliders_of.assign(body_count, {});
    for (std::size_t i = 0; i < colliders.size(); ++i) colliders_of[colliders[i].body].push_back(std::uint32_t(i));
    changed.assign(steps() + 1, {});
    appeared.assign(steps() + 1, {});
    vanished.assign(steps() + 1, {});
    for (std::size_t s = 1; s <= steps(); ++s) {
      for (std::size_t b = 0; b < body_count; ++b) {
        const bool before = present(s - 1, b), now = present(s, b);
        if (before && now && !(pose(s, b) == pose(s - 1, b))) changed[s].push_back(std::uint32_t(b));
        if (!before && now) appeared[s].push_back(std::uint32_t(b));
        if (before && !now) vanished[s].push_back(std::uint32_t(b));
      }
    }
  }
  std::size_t shape_count() const {
    std::size_t n = 0;
    for (const RecCollider& c : colliders) n += c.chain.empty() ? c.parts.size() : c.chain.size() - (c.loop ? 0 : 1);
    return n;
  }
};

// ---------------------------------------------------------------------------------------------
// Making the motion: the sandbox's stepper (on a CollisionWorld), or scripted.

namespace sb = pebble::sandbox;

constexpr float kDt = 1.0f / 60;

/// The stepper's settings for recording: fewer sub-steps than the demo's 8 (recording speed).
sb::StepSettings record_settings(int substeps, float margin = 0.04f) {
  sb::StepSettings s;
  s.substeps = substeps;
  s.margin = margin;
  return s;
}

/// Appends the stepper's current body transforms (body i of the stepper is body i of rec).
void append_poses(const sb::Stepper& stepper, Recording& rec) {
  for (const sb::Body& b : stepper.bodies()) rec.poses.push_back(b.xf);
}

/// Sets rec's body count from the stepper, runs `settle` steps unrecorded, then records the poses
/// now and after each of `steps` more steps.
void settle_and_record(sb::Stepper& stepper, Recording& rec, int settle, int steps) {
  rec.body_count = stepper.bodies().size();
  for (int s = 0; s < settle; ++s) stepper.step(kDt);
  append_poses(stepper, rec);
  for (int s = 0; s < steps; ++s) {
    stepper.step(kDt);
    append_poses(stepper, rec);
  }
}

/// A moving body of one shape, dropped or placed at xf.
sb::BodyDef body_def(const pebble::Shape& shape, const pebble::Transform& xf, pebble::Vec2 v = {}, float w = 0) {
  sb::BodyDef def;
  def.shape = shape;
  def.xf = xf;
  def.velocity = v;
  def.angular_velocity = w;
  return def;
}

RecCollider moving(std::uint32_t body, const pebble::Shape& shape) {
  return {body, {shape}, {}, false, false, {}, false};
}
RecCollider fixed_shape(std::uint32_t body, const pebble::Shape& shape) {
  return {body, {shape}, {}, false, true, {}, false};
}

/// A mixed rounded shape of about `size` (its largest half extent): circle, capsule, box, rounded
/// box, or a (rounded) polygon of 5 to 7 vertices.
pebble::Shape mixed_shape(Rng& rng, float size) {
  const int kind = int(rng() % 5u);
  const float s = size * uniform(rng, 0.6f, 1.0f);
  switch (kind) {
    case 0:
      return pebble::Shape::circle(s);
    case 1:
      return pebble::Shape::capsule({-0.6f * s, 0}, {0.6f * s, 0}, 0.4f * s);
    case 2:
      return pebble::Shape::box(s, uniform(rng, 0.5f, 1.0f) * s);
    case 3:
      return pebble::Shape::rounded_box(s, uniform(rng, 0.5f, 1.0f) * s, 0.2f * s);
    default: {
      const int n = 5 + int(rng() % 3u);
      std::vector<pebble::Vec2> points;
      for (int k = 0; k < n; ++k) {
        const float a = (float(k) + uniform(rng, -0.2f, 0.2f)) * 2 * kPi / float(n);
        points.push_back({0.85f * s * std::cos(a), 0.85f * s * std::sin(a)});
      }
      return pebble::Shape::polygon(points, rng() % 2u ? 0.15f * s : 0.0f);
    }
  }
}

/// A pyramid of boxes (half size 0.5, 1 m apart, rows on rows, as Box2D's "pyramid" sample) on
/// a fixed ground box, let settle by the stepper for 90 steps; the recording is the next 60 steps.
Recording pyramid_scene() {
  constexpr int kRows = 60;  // 1830 boxes
  Recording rec;
  rec.name = "pyramid";
  sb::Stepper stepper(record_settings(4), sb::make_pair_source(0.04f));
  const pebble::Shape ground = pebble::Shape::box(40, 1);
  sb::BodyDef g = body_def(ground, {{0, -1}, pebble::Rot::identity()});
  g.density = 0;
  stepper.add(g);
  rec.colliders.push_back(fixed_shape(0, ground));
  const pebble::Shape box = pebble::Shape::box(0.5f, 0.5f);
  for (int row = 0; row < kRows; ++row) {
    for (int i = 0; i < kRows - row; ++i) {
      const float x = (float(i) - 0.5f * float(kRows - row - 1)) * 1.0f;
      const float y = 0.5f + float(row) * 1.0f;
      rec.colliders.push_back(moving(std::uint32_t(stepper.bodies().size()), box));
      stepper.add(body_def(box, {{x, y}, pebble::Rot::identity()}));
    }
  }
  settle_and_record(stepper, rec, 90, 60);
  return rec;
}

/// 180 piles of 55 boxes (10 rows, random sizes) side by side on one fixed ground box: 9900
/// boxes. Four piles are simulated (settled for 60 steps, then 60 + 40 steps recorded); pile k
/// replays pile k mod 4 shifted sideways and started at a step offset in [0, 40), so that
/// neighbours do not move in step.
Recording piles_scene() {
  constexpr int kPiles = 180, kVariants = 4, kRows = 10, kSteps = 60, kOffsets = 40;
  constexpr float kPitch = 12;
  struct Pile {
    std::vector<pebble::Shape> shapes;
    std::vector<pebble::Transform> poses;  // (kSteps + kOffsets + 1) x shapes
  };
  std::vector<Pile> piles(kVariants);
  Rng rng(kSeed + 500);
  for (Pile& pile : piles) {
    sb::Stepper stepper(record_settings(4), sb::make_pair_source(0.04f));
    sb::BodyDef g = body_def(pebble::Shape::box(kPitch / 2, 1), {{0, -1}, pebble::Rot::identity()});
    g.density = 0;
    stepper.add(g);
    for (int row = 0; row < kRows; ++row) {
      for (int i = 0; i < kRows - row; ++i) {
        const pebble::Shape box = pebble::Shape::box(uniform(rng, 0.42f, 0.5f), uniform(rng, 0.3f, 0.5f));
        const float x = (float(i) - 0.5f * float(kRows - row - 1)) * 1.0f;
        pile.shapes.push_back(box);
        stepper.add(body_def(box, {{x, 0.5f + float(row) * 1.0f}, pebble::Rot::identity()}));
      }
    }
    for (int s = 0; s < 60; ++s) stepper.step(kDt);
    for (int s = 0; s <= kSteps + kOffsets; ++s) {
      if (s > 0) stepper.step(kDt);
      for (std::size_t b = 1; b < stepper.bodies().size(); ++b) pile.poses.push_back(stepper.bodies()[b].xf);
    }
  }
  Recording rec;
  rec.name = "piles";
  const float width = kPitch * kPiles;
  rec.colliders.push_back(fixed_shape(0, pebble::Shape::box(width / 2, 1)));
  std::vector<int> offset(kPiles);
  for (int k = 0; k < kPiles; ++k) {
    offset[std::size_t(k)] = int(rng() % std::uint32_t(kOffsets));
    for (const pebble::Shape& shape : piles[std::size_t(k % kVariants)].shapes) {
      rec.colliders.push_back(moving(std::uint32_t(rec.colliders.size()), shape));
    }
  }
  rec.body_count = rec.colliders.size();
  for (int s = 0; s <= kSteps; ++s) {
    rec.poses.push_back({{width / 2, -1}, pebble::Rot::identity()});
    for (int k = 0; k < kPiles; ++k) {
      const Pile& pile = piles[std::size_t(k % kVariants)];
      const std::size_t n = pile.shapes.size(), row = std::size_t(s + offset[std::size_t(k)]);
      const pebble::Vec2 shift{kPitch * (float(k) + 0.5f), 0};
      for (std::size_t b = 0; b < n; ++b) {
        pebble::Transform xf = pile.poses[row * n + b];
        xf.p = xf.p + shift;
        rec.poses.push_back(xf);
      }
    }
  }
  return rec;
}

/// A drum of radius 18 m (a ring of 64 boxes, one compound) turning at 0.4 rad/s around its
/// centre, about half full of 2000 mixed rounded shapes of up to 0.25 m (circles, capsules,
/// boxes, rounded boxes, polygons) that tumble. The stepper runs in the drum's frame, where the
/// drum is fixed and gravity turns the other way (centrifugal and Coriolis terms left out: at most
/// 2.9 m/s^2 at the rim); the stepper has no way to turn gravity, so it is rebuilt from the bodies' states every
/// step (without warm starting). The recording is the world frame: everything turned by the
/// drum's angle. 60 steps to mix, then 120 recorded.
Recording drum_scene() {
  constexpr int kShapes = 2000, kSegments = 64;
  constexpr float kRadius = 18, kOmega = 0.4f;
  Recording rec;
  rec.name = "drum";
  std::vector<pebble::Shape> ring;
  const float seg_half = kRadius * std::tan(kPi / kSegments) + 0.05f;
  for (int k = 0; k < kSegments; ++k) {
    const float a = 2 * kPi * float(k) / kSegments;
    const pebble::Vec2 c{(kRadius + 0.25f) * std::cos(a), (kRadius + 0.25f) * std::sin(a)};
    ring.push_back(pebble::Shape::box(0.25f, seg_half, c, a));
  }
  rec.colliders.push_back({0, ring, {}, false, false, {}, false});
  Rng rng(kSeed + 600);
  std::vector<sb::BodyDef> bodies;
  // A grid in the lower part of the drum.
  const float pitch = 0.56f;
  for (float y = -kRadius + 0.5f; int(bodies.size()) < kShapes && y < kRadius; y += pitch) {
    for (float x = -kRadius + 0.5f; x < kRadius - 0.5f && int(bodies.size()) < kShapes; x += pitch) {
      if (x * x + y * y > (kRadius - 0.6f) * (kRadius - 0.6f)) continue;
      const pebble::Shape shape = mixed_shape(rng, 0.25f);
      bodies.push_back(body_def(shape, {{x, y}, random_rotation(rng)}));
      rec.colliders.push_back(moving(std::uint32_t(bodies.size()), shape));
    }
  }
  rec.body_count = bodies.size() + 1;
  constexpr int kWarm = 60, kSteps = 120;
  for (int s = 0; s <= kWarm + kSteps; ++s) {
    const float angle = kOmega * kDt * float(s);
    if (s >= kWarm) {
      const pebble::Rot q = pebble::Rot::from_angle(angle);
      rec.poses.push_back({{0, 0}, q});
      for (const sb::BodyDef& b : bodies) rec.poses.push_back({pebble::rotate(q, b.xf.p), pebble::mul(q, b.xf.q)});
    }
    if (s == kWarm + kSteps) break;
    // In the drum's frame gravity turns by -angle.
    sb::StepSettings settings = record_settings(4);
    const pebble::Rot back = pebble::Rot::from_angle(-angle);
    settings.gravity = pebble::rotate(back, pebble::Vec2{0, -10});
    sb::Stepper stepper(settings, sb::make_pair_source(settings.margin));
    sb::BodyDef drum;
    drum.shape = ring[0];
    drum.parts = ring;
    drum.density = 0;
    stepper.add(drum);
    for (const sb::BodyDef& b : bodies) stepper.add(b);
    stepper.step(kDt);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const sb::Body& b = stepper.bodies()[i + 1];
      bodies[i].xf = b.xf;
      bodies[i].velocity = b.velocity;
      bodies[i].angular_velocity = b.angular_velocity;
    }
  }
  return rec;
}

/// Rain: 3000 mixed rounded shapes falling from up to 45 m onto a fixed chain (a rolling floor 120
/// m wide, 241 segments), thrown down at 5 m/s, so that they keep landing and piling up over the
/// whole recording (30 steps in, then 120 recorded). The stepper runs it with a 0.1 m margin
/// (landing speeds reach 30 m/s).
Recording rain_scene() {
  constexpr int kShapes = 3000, kSegments = 240;
  constexpr float kWidth = 120;
  Recording rec;
  rec.name = "rain";
  std::vector<pebble::Vec2> floor;
  for (int i = kSegments; i >= 0; --i) {  // right to left: collides on its upper side
    const float x = kWidth * (float(i) / kSegments - 0.5f);
    floor.push_back({x, 0.8f * std::sin(0.3f * x) + 0.002f * x * x});
  }
  floor.insert(floor.begin(), pebble::Vec2{kWidth / 2, 40});  // walls at both ends
  floor.push_back({-kWidth / 2, 40});
  sb::StepSettings settings = record_settings(6, 0.1f);
  sb::Stepper stepper(settings, sb::make_pair_source(settings.margin));
  stepper.add_chain(pebble::Chain::open(floor));
  rec.colliders.push_back({0, {}, floor, false, true, {}, false});
  Rng rng(kSeed + 700);
  for (int i = 0; i < kShapes; ++i) {
    const pebble::Shape shape = mixed_shape(rng, 0.3f);
    const pebble::Vec2 p{uniform(rng, -0.45f, 0.45f) * kWidth, uniform(rng, 6, 45)};
    rec.colliders.push_back(moving(std::uint32_t(stepper.bodies().size()), shape));
    stepper.add(body_def(shape, {p, random_rotation(rng)}, {uniform(rng, -1, 1), -5}, uniform(rng, -3, 3)));
  }
  settle_and_record(stepper, rec, 30, 120);
  return rec;
}

/// Explosion: a dense 70 x 70 block of mixed rounded shapes (4900, 0.55 m apart, sizes up to 0.27)
/// flung outward: ballistic motion under gravity, velocity 2 m/s per metre from the centre plus up
/// to 2 m/s at random per axis, spin up to 10 rad/s; scripted, no collision response (shapes
/// cross each other's paths and overlap while they pass). 90 steps.
Recording explosion_scene() {
  constexpr int kSide = 70, kSteps = 90;
  constexpr float kPitch = 0.55f;
  Recording rec;
  rec.name = "explosion";
  Rng rng(kSeed + 800);
  struct Flying {
    pebble::Vec2 p, v;
    float a, w;
  };
  std::vector<Flying> flying;
  for (int j = 0; j < kSide; ++j) {
    for (int i = 0; i < kSide; ++i) {
      const pebble::Vec2 p{(float(i) - 0.5f * (kSide - 1)) * kPitch, (float(j) - 0.5f * (kSide - 1)) * kPitch};
      const pebble::Vec2 v = 2.0f * p + pebble::Vec2{uniform(rng, -2, 2), uniform(rng, -2, 2)};
      flying.push_back({p, v, uniform(rng, -kPi, kPi), uniform(rng, -10, 10)});
      rec.colliders.push_back(moving(std::uint32_t(rec.colliders.size()), mixed_shape(rng, 0.27f)));
    }
  }
  rec.body_count = flying.size();
  for (int s = 0; s <= kSteps; ++s) {
    const float t = kDt * float(s);
    for (const Flying& f : flying) {
      const pebble::Vec2 p = f.p + t * f.v + pebble::Vec2{0, -5 * t * t};
      rec.poses.push_back({p, pebble::Rot::from_angle(f.a + t * f.w)});
    }
  }
  return rec;
}

// ---------------------------------------------------------------------------------------------
// Replays. One replay: build the world at step 0 (untimed), then steps 1 to steps().

struct PebbleReplay {
  const Recording& rec;
  pebble::CollisionWorld world;
  std::vector<pebble::ColliderId> ids;  // per collider

  std::vector<pebble::ColliderId> moving;  // this step's set_transforms() (on threads)
  std::vector<pebble::Transform> poses;

  static pebble::WorldSettings settings(const Recording& rec, int threads, pebble::ReuseBounds bounds) {
    pebble::WorldSettings s;
    s.contact_margin = rec.margin;
    s.threads = threads;
    s.reuse_bounds = bounds;
    return s;
  }

  PebbleReplay(const Recording& r, int threads, pebble::ReuseBounds bounds = {})
      : rec(r), world(settings(r, threads, bounds)) {
    ids.resize(rec.colliders.size());
    for (std::size_t i = 0; i < rec.colliders.size(); ++i) {
      if (rec.present(0, rec.colliders[i].body)) add(std::uint32_t(i), rec.pose(0, rec.colliders[i].body));
    }
    world.update();
  }

  void add(std::uint32_t i, const pebble::Transform& xf) {
    const RecCollider& c = rec.colliders[i];
    pebble::ColliderOptions options;
    options.fixed = c.fixed;
    options.filter = c.filter;
    options.sensor = c.sensor;
    if (!c.chain.empty()) {
      ids[i] = world.add(c.loop ? pebble::Chain::loop(c.chain) : pebble::Chain::open(c.chain), xf, options);
    } else if (c.parts.size() == 1) {
      ids[i] = world.add(c.parts[0], xf, options);
    } else {
      ids[i] = world.add(std::span<const pebble::Shape>(c.parts), xf, options);
    }
  }

  void step(std::size_t s) {
    for (const std::uint32_t b : rec.vanished[s]) {
      for (const std::uint32_t c : rec.colliders_of[b]) world.remove(ids[c]);
    }
    for (const std::uint32_t b : rec.appeared[s]) {
      for (const std::uint32_t c : rec.colliders_of[b]) add(c, rec.pose(s, b));
    }
    if (world.settings().threads > 1) {  // the batch form: the boxes on the world's threads
      moving.clear();
      poses.clear();
      for (const std::uint32_t b : rec.changed[s]) {
        for (const std::uint32_t c : rec.colliders_of[b]) {
          moving.push_back(ids[c]);
          poses.push_back(rec.pose(s, b));
        }
      }
      world.set_transforms(moving, poses);
    } else {
      for (const std::uint32_t b : rec.changed[s]) {
        for (const std::uint32_t c : rec.colliders_of[b]) world.set_transform(ids[c], rec.pose(s, b));
      }
    }
    world.update();
  }
};

/// Box2D 2.4.1's form of a pebble shape (sharp polygons get m_radius 0; rounded ones their
/// radius; a capsule the thin box of bench_common.hpp; a segment an edge).
std::unique_ptr<b2Shape> to_box2d(const pebble::Shape& shape) {
  const std::span<const pebble::Vec2> v = shape.vertices();
  if (shape.vertex_count() == 1) {
    auto circle = std::make_unique<b2CircleShape>();
    circle->m_p = to_b2(v[0]);
    circle->m_radius = shape.radius();
    return circle;
  }
  if (shape.vertex_count() == 2) {
    if (shape.radius() <= kCapsuleCoreHalfThickness) {
      auto edge = std::make_unique<b2EdgeShape>();
      edge->SetTwoSided(to_b2(v[0]), to_b2(v[1]));
      edge->m_radius = shape.radius();
      return edge;
    }
    const pebble::Vec2 d = v[1] - v[0];
    auto poly = std::make_unique<b2PolygonShape>();
    poly->SetAsBox(0.5f * pebble::length(d), kCapsuleCoreHalfThickness, to_b2(0.5f * (v[0] + v[1])),
                   std::atan2(d.y, d.x));
    poly->m_radius = shape.radius() - kCapsuleCoreHalfThickness;
    return poly;
  }
  std::vector<b2Vec2> points;
  for (const pebble::Vec2 p : v) points.push_back(to_b2(p));
  auto poly = std::make_unique<b2PolygonShape>();
  poly->Set(points.data(), int32(points.size()));
  poly->m_radius = shape.radius();
  return poly;
}

/// The recording's bodies in a b2World (zero gravity, no sleeping): static bodies for fixed
/// colliders, dynamic ones for the rest, so that Collide() updates every contact every step.
/// Built-in scenes only: every body is present at every step.
struct Box2dReplay {
  const Recording& rec;
  const std::vector<float>& angles;  // per pose, for SetTransform
  b2World world{b2Vec2(0, 0)};
  std::vector<b2Body*> bodies;

  Box2dReplay(const Recording& r, const std::vector<float>& a) : rec(r), angles(a) {
    world.SetAllowSleeping(false);
    bodies.assign(rec.body_count, nullptr);
    for (const RecCollider& c : rec.colliders) {
      b2Body*& body = bodies[c.body];
      if (body == nullptr) {
        b2BodyDef def;
        def.type = c.fixed ? b2_staticBody : b2_dynamicBody;
        def.position = to_b2(rec.pose(0, c.body).p);
        def.angle = angles[c.body];
        body = world.CreateBody(&def);
      }
      b2FixtureDef fixture;
      fixture.density = 1;
      if (!c.chain.empty()) {
        std::vector<b2Vec2> points;
        for (const pebble::Vec2 p : c.chain) points.push_back(to_b2(p));
        b2ChainShape chain;
        if (c.loop) {
          chain.CreateLoop(points.data(), int32(points.size()));
        } else {
          chain.CreateChain(points.data(), int32(points.size()), points.front(), points.back());
        }
        fixture.shape = &chain;
        body->CreateFixture(&fixture);
      } else {
        for (const pebble::Shape& part : c.parts) {
          const std::unique_ptr<b2Shape> shape = to_box2d(part);
          fixture.shape = shape.get();
          body->CreateFixture(&fixture);
        }
      }
    }
    manager().FindNewContacts();
    manager().Collide();
  }

  b2ContactManager& manager() { return const_cast<b2ContactManager&>(world.GetContactManager()); }

  void step(std::size_t s) {
    for (const std::uint32_t b : rec.changed[s]) {
      bodies[b]->SetTransform(to_b2(rec.pose(s, b).p), angles[s * rec.body_count + b]);
    }
    manager().FindNewContacts();
    manager().Collide();
  }
};

// ---------------------------------------------------------------------------------------------
// Counting (untimed, once per scene and side) and timing.

/// Means per timed step.
struct Counts {
  double pairs = 0;      // pebble: stats().pairs; Box2D: contacts (pairs of overlapping fat boxes)
  double touching = 0;   // pebble: contacts() (distance <= margin); Box2D: IsTouching()
  double touching0 = 0;  // pebble: contacts with a point at separation <= 0 (Box2D's definition)
  double collided = 0;   // pairs the narrowphase ran on
  double reused = 0;     // pebble: manifolds carried over (contact reuse)
  double separated = 0;  // pebble: pairs found apart by their parts' boxes alone
};

Counts count_pebble(const Recording& rec, pebble::ReuseBounds bounds = {}) {
  PebbleReplay replay(rec, 1, bounds);
  Counts sum;
  for (std::size_t s = 1; s <= rec.steps(); ++s) {
    replay.step(s);
    const pebble::WorldStats stats = replay.world.stats();
    sum.pairs += stats.pairs;
    sum.collided += stats.collided;
    sum.reused += stats.reused;
    sum.separated += stats.separated;
    sum.touching += double(replay.world.contacts().size());
    for (const pebble::ContactPair& c : replay.world.contacts()) {
      bool touching = false;
      for (int k = 0; k < c.manifold.count; ++k) touching = touching || c.manifold.points[k].separation <= 0;
      sum.touching0 += touching;
    }
  }
  const double n = double(std::max<std::size_t>(rec.steps(), 1));
  return {sum.pairs / n, sum.touching / n, sum.touching0 / n, sum.collided / n, sum.reused / n, sum.separated / n};
}

Counts count_box2d(const Recording& rec, const std::vector<float>& angles) {
  Box2dReplay replay(rec, angles);
  Counts sum;
  for (std::size_t s = 1; s <= rec.steps(); ++s) {
    replay.step(s);
    const double contacts = replay.manager().m_contactCount;
    sum.pairs += contacts;
    sum.collided += contacts;  // Collide() updates every contact of an awake, non-static body
    for (const b2Contact* c = replay.world.GetContactList(); c != nullptr; c = c->GetNext())
      sum.touching += c->IsTouching();
  }
  const double n = double(std::max<std::size_t>(rec.steps(), 1));
  return {sum.pairs / n, sum.touching / n, sum.touching / n, sum.collided / n};
}

/// A built-in scene: its recording, made on first use, and the counts of both sides.
struct Scene {
  Recording (*make)();
  std::unique_ptr<Recording> rec;
  std::vector<float> angles;  // atan2 of every pose's rotation, for Box2D's SetTransform
  std::unique_ptr<Counts> pebble_counts, box2d_counts;
  bool checked = false;
  std::unique_ptr<Counts> loose_counts;  // pebble with Box2D v3's reuse bounds

  const Recording& recording() {
    if (!rec) {
      const std::clock_t start = std::clock();
      rec = std::make_unique<Recording>(make());
      rec->finish();
      std::size_t changed = 0;
      for (const auto& c : rec->changed) changed += c.size();
      std::fprintf(stderr,
                   "scene %s: %zu shapes, %zu bodies, %zu steps, %.0f bodies moved per step, recorded in %.2f s CPU\n",
                   rec->name.c_str(), rec->shape_count(), rec->body_count, rec->steps(),
                   double(changed) / double(std::max<std::size_t>(rec->steps(), 1)),
                   double(std::clock() - start) / CLOCKS_PER_SEC);
      angles.reserve(rec->poses.size());
      for (const pebble::Transform& xf : rec->poses) angles.push_back(std::atan2(xf.q.s, xf.q.c));
    }
    return *rec;
  }

  /// Counts both sides once, and warns once when they find different touching pairs: pebble's
  /// pairs at distance <= 0 against Box2D's IsTouching().
  void check() {
    if (checked) return;
    checked = true;
    const Recording& r = recording();
    pebble_counts = std::make_unique<Counts>(count_pebble(r));
    loose_counts = std::make_unique<Counts>(count_pebble(r, pebble::ReuseBounds::box2d_v3()));
    box2d_counts = std::make_unique<Counts>(count_box2d(r, angles));
    const double a = pebble_counts->touching0, b = box2d_counts->touching;
    if (std::fabs(a - b) > 0.03 * std::max(a, b) + 1) {
      std::fprintf(stderr,
                   "scene %s: touching pairs disagree: pebble %.1f at distance <= 0, Box2D 2.4.1 %.1f per step\n",
                   r.name.c_str(), a, b);
    }
  }
};

void add_counters(benchmark::State& state, const Recording& rec, const Counts& mine, const Counts& other,
                  bool is_pebble) {
  state.counters["shapes"] = double(rec.shape_count());
  state.counters["steps"] = double(rec.steps());
  state.counters["pairs"] = mine.pairs;
  state.counters["touching"] = mine.touching;
  state.counters["collided"] = mine.collided;
  if (is_pebble) {
    state.counters["touching_d0"] = mine.touching0;
    state.counters["reused"] = mine.reused;
    state.counters["separated"] = mine.separated;
  }
  // pebble's touching pairs at distance <= 0 over Box2D's touching pairs: 1 when they agree.
  state.counters["agree"] =
      other.touching > 0 ? (is_pebble ? mine.touching0 / other.touching : other.touching0 / mine.touching) : 1;
}

/// CPU time of the calling thread, seconds.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Wall-clock seconds (for runs on several threads, where the calling thread's CPU time is not the
/// time a frame waits).
double wall_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Replays a scene: one iteration is one step, a repetition a whole number of replays (the
/// iteration count is fixed to that); each replay starts from a world built at step 0 with the
/// timer paused. When `seconds` is given, it receives each whole replay's CPU time (this thread).
template <class Replay, class Make>
void run_replays(benchmark::State& state, const Recording& rec, Make make, std::vector<double>* seconds = nullptr,
                 double (*clock)() = thread_seconds) {
  std::unique_ptr<Replay> replay;
  std::size_t s = rec.steps();
  double start = 0;
  for (auto _ : state) {
    if (s == rec.steps()) {
      state.PauseTiming();
      replay.reset();
      replay = make();
      s = 0;
      state.ResumeTiming();
      start = clock();
    }
    replay->step(++s);
    if (seconds != nullptr && s == rec.steps()) seconds->push_back(clock() - start);
  }
  replay.reset();  // the timer has stopped
}

/// Repetition length, in replays of the recording: the iteration count is fixed to that many
/// times the recording's steps, so that every repetition times the same steps.
constexpr int kReplays = 2;

/// Registers `name/pebble` (and `name/box2d` unless threads > 1 or bounds are given) on a scene of
/// `steps` steps.
void add_scene(const char* name, const char* label, Recording (*make)(), std::size_t steps, int threads = 1,
               pebble::ReuseBounds bounds = {}) {
  static std::map<Recording (*)(), Scene*> scenes;  // one recording per scene, shared by its rows
  Scene*& scene = scenes[make];
  if (scene == nullptr) scene = new Scene{make, nullptr, {}, nullptr, nullptr, false};  // lives until exit
  pairs().push_back({name, label});
  const auto iterations = benchmark::IterationCount(steps) * kReplays;
  benchmark::internal::Benchmark* p = benchmark::RegisterBenchmark(
      (std::string(name) + "/pebble").c_str(), [scene, threads, bounds](benchmark::State& state) {
        scene->check();
        const Recording& rec = scene->recording();
        run_replays<PebbleReplay>(state, rec, [&] { return std::make_unique<PebbleReplay>(rec, threads, bounds); });
        add_counters(state, rec, bounds.distance > 0 ? *scene->loose_counts : *scene->pebble_counts,
                     *scene->box2d_counts, true);
      });
  p->Iterations(iterations);
  if (threads > 1)
    p->MeasureProcessCPUTime();  // the pool's threads too: CPU time is then the work, real time the speed
  if (threads > 1 || bounds.distance > 0) return;
  benchmark::RegisterBenchmark((std::string(name) + "/box2d").c_str(), [scene](benchmark::State& state) {
    scene->check();
    const Recording& rec = scene->recording();
    run_replays<Box2dReplay>(state, rec, [&] { return std::make_unique<Box2dReplay>(rec, scene->angles); });
    add_counters(state, rec, *scene->box2d_counts, *scene->pebble_counts, false);
  })->Iterations(iterations);
}

// ---------------------------------------------------------------------------------------------
// External recordings (PEBBLE_SCENE_RECORDINGS=dir: every dir/*.rec), written by a tool outside
// the repository from Box2D v3's world; format in docs/benchmarks.md#scenes. pebble only.

/// Little-endian reads that never run past the end: a short read sets ok to false and gives 0.
struct ByteReader {
  const std::vector<unsigned char>& data;
  std::size_t at = 0;
  bool ok = true;

  template <class T>
  T get() {
    T value{};
    if (!ok || data.size() - at < sizeof(T)) {
      ok = false;
      return value;
    }
    std::memcpy(&value, data.data() + at, sizeof(T));  // the host is little-endian (static_assert below)
    at += sizeof(T);
    return value;
  }
  std::size_t left() const { return data.size() - at; }
};
static_assert(std::endian::native == std::endian::little, "the .rec reader assumes a little-endian host");

/// Thrown for a file that is not a valid recording; the message says why.
struct BadRecording : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr char kMagic[8] = {'P', 'B', 'L', 'R', 'E', 'C', '1', '\0'};
constexpr std::size_t kHeaderBytes = 8 + 3 * 4 + 4;

std::vector<unsigned char> read_bytes(const std::filesystem::path& path, std::size_t limit = SIZE_MAX) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadRecording("cannot open");
  std::vector<unsigned char> data;
  char buffer[1 << 16];
  while (data.size() < limit && in.read(buffer, sizeof buffer).gcount() > 0) {
    data.insert(data.end(), buffer, buffer + in.gcount());
  }
  if (data.size() > limit) data.resize(limit);
  return data;
}

/// The header's step count (for the benchmark's iteration count), or throws BadRecording.
std::uint32_t recording_steps(const std::filesystem::path& path) {
  const std::vector<unsigned char> head = read_bytes(path, kHeaderBytes);
  ByteReader in{head};
  char magic[8];
  for (char& c : magic) c = char(in.get<std::uint8_t>());
  in.get<std::uint32_t>();
  in.get<std::uint32_t>();
  const std::uint32_t steps = in.get<std::uint32_t>();
  if (!in.ok || std::memcmp(magic, kMagic, 8) != 0) throw BadRecording("not a PBLREC1 file");
  if (steps < 2) throw BadRecording("fewer than 2 steps");
  return steps;
}

bool finite(pebble::Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

/// Reads a whole recording. Bodies become colliders: a body's shapes of one filter and sensor flag
/// one collider (a compound when several), each run of its consecutive chain segments that join
/// end to start one pebble Chain (a loop when the run closes); fixed when the body is static.
Recording read_recording(const std::filesystem::path& path) {
  const std::vector<unsigned char> data = read_bytes(path);
  ByteReader in{data};
  char magic[8];
  for (char& c : magic) c = char(in.get<std::uint8_t>());
  if (!in.ok || std::memcmp(magic, kMagic, 8) != 0) throw BadRecording("not a PBLREC1 file");
  const std::uint32_t body_count = in.get<std::uint32_t>(), shape_count = in.get<std::uint32_t>();
  const std::uint32_t step_count = in.get<std::uint32_t>();
  const float margin = in.get<float>();
  if (!in.ok) throw BadRecording("short header");
  if (!(margin >= 0 && margin < 1e3f)) throw BadRecording("bad contact margin");
  if (body_count == 0 || step_count < 2) throw BadRecording("no bodies or fewer than 2 steps");
  // Every count is checked against the bytes left before anything is sized by it.
  if (in.left() < body_count) throw BadRecording("short body list");
  std::vector<std::uint8_t> type(body_count);
  for (std::uint8_t& t : type) {
    t = in.get<std::uint8_t>();
    if (t > 2) throw BadRecording("bad body type");
  }
  constexpr std::size_t kShapeBytes = 4 + 4 + 8 + 8 + 4 + 4 + 4;
  if (in.left() / kShapeBytes < shape_count) throw BadRecording("short shape list");
  struct RawShape {
    std::uint32_t body;
    std::uint8_t kind;
    bool sensor;
    pebble::Filter filter;
    float radius;
    std::vector<pebble::Vec2> v;
  };
  std::vector<RawShape> shapes(shape_count);
  for (RawShape& sh : shapes) {
    sh.body = in.get<std::uint32_t>();
    sh.kind = in.get<std::uint8_t>();
    sh.sensor = in.get<std::uint8_t>() != 0;
    in.get<std::uint16_t>();
    sh.filter.category = in.get<std::uint64_t>();
    sh.filter.mask = in.get<std::uint64_t>();
    sh.filter.group = in.get<std::int32_t>();
    sh.radius = in.get<float>();
    const std::uint32_t n = in.get<std::uint32_t>();
    if (!in.ok) throw BadRecording("short shape list");
    if (sh.body >= body_count) throw BadRecording("shape of a body that does not exist");
    static constexpr std::uint32_t kVertices[] = {1, 2, 0, 2, 4};
    if (sh.kind > 4) throw BadRecording("bad shape kind");
    if (sh.kind == 2 ? (n < 1 || n > std::uint32_t(pebble::kMaxPolygonVertices)) : n != kVertices[sh.kind]) {
      throw BadRecording("bad vertex count");
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      const float x = in.get<float>(), y = in.get<float>();
      sh.v.push_back({x, y});
      if (!finite(sh.v.back())) throw BadRecording("non-finite vertex");
    }
    if (!in.ok) throw BadRecording("short vertex list");
    if (!(sh.radius >= 0 && sh.radius < 1e4f)) throw BadRecording("bad radius");
  }
  constexpr std::size_t kStepHead = 4 * 8 + 2 * 4;
  const std::size_t step_bytes = kStepHead + std::size_t(body_count) * 16;
  if (in.left() / step_bytes < step_count || in.left() != step_bytes * step_count)
    throw BadRecording("step data size does not match the header");

  Recording rec;
  rec.name = path.stem().string();
  rec.margin = margin;
  rec.body_count = body_count;
  rec.poses.reserve(std::size_t(step_count) * body_count);
  rec.v3.reserve(step_count);
  for (std::uint32_t s = 0; s < step_count; ++s) {
    V3Step v3;
    v3.pairs_ms = in.get<double>();
    v3.collide_ms = in.get<double>();
    v3.refit_ms = in.get<double>();
    v3.step_ms = in.get<double>();
    v3.contacts_kept = in.get<std::uint32_t>();
    v3.touching = in.get<std::uint32_t>();
    rec.v3.push_back(v3);
    for (std::uint32_t b = 0; b < body_count; ++b) {
      pebble::Transform xf;
      xf.p.x = in.get<float>();
      xf.p.y = in.get<float>();
      xf.q.c = in.get<float>();
      xf.q.s = in.get<float>();
      if (!finite(xf.p) || !std::isfinite(xf.q.c) || !std::isfinite(xf.q.s)) {  // absent at this step
        rec.poses.push_back({{NAN, NAN}, pebble::Rot::identity()});
        continue;
      }
      const float norm = std::hypot(xf.q.c, xf.q.s);
      if (!(norm > 0.5f && norm < 2)) throw BadRecording("bad rotation at step " + std::to_string(s));
      if (!pebble::is_valid(xf)) xf.q = {xf.q.c / norm, xf.q.s / norm};
      if (!pebble::is_valid(xf)) throw BadRecording("transform out of range at step " + std::to_string(s));
      rec.poses.push_back(xf);
    }
  }
  if (!in.ok) throw BadRecording("short step data");

  // Colliders, body by body.
  std::vector<std::vector<std::uint32_t>> of_body(body_count);
  for (std::uint32_t i = 0; i < shape_count; ++i) of_body[shapes[i].body].push_back(i);
  auto same = [](const RawShape& a, const RawShape& b) { return a.filter == b.filter && a.sensor == b.sensor; };
  try {
    for (std::uint32_t b = 0; b < body_count; ++b) {
      const std::vector<std::uint32_t>& list = of_body[b];
      const bool fixed = type[b] == 0;
      std::vector<bool> used(list.size(), false);
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (used[i]) continue;
        const RawShape& first = shapes[list[i]];
        RecCollider c{b, {}, {}, false, fixed, first.filter, first.sensor};
        if (first.kind == 4) {  // a run of chain segments: ghost1, p1, p2, ghost2 each
          c.chain = {first.v[1], first.v[2]};
          used[i] = true;
          for (std::size_t j = i + 1; j < list.size(); ++j) {
            const RawShape& next = shapes[list[j]];
            if (next.kind != 4 || !same(first, next) || !(next.v[1] == c.chain.back())) break;
            c.chain.push_back(next.v[2]);
            used[j] = true;
          }
          if (c.chain.size() >= 4 && c.chain.front() == c.chain.back()) {
            c.chain.pop_back();
            c.loop = true;
          }
          rec.colliders.push_back(std::move(c));
          continue;
        }
        for (std::size_t j = i; j < list.size(); ++j) {
          const RawShape& sh = shapes[list[j]];
          if (used[j] || sh.kind == 4 || !same(first, sh)) continue;
          used[j] = true;
          switch (sh.kind) {
            case 0:
              c.parts.push_back(pebble::Shape::circle(sh.radius, sh.v[0]));
              break;
            case 1:
              c.parts.push_back(pebble::Shape::capsule(sh.v[0], sh.v[1], sh.radius));
              break;
            case 2:
              c.parts.push_back(pebble::Shape::polygon(sh.v, sh.radius));
              break;
            default:
              c.parts.push_back(pebble::Shape::segment(sh.v[0], sh.v[1]));
              break;
          }
        }
        rec.colliders.push_back(std::move(c));
      }
    }
    // Chains are made once here so that a bad one is refused now rather than in the benchmark.
    for (const RecCollider& c : rec.colliders) {
      if (!c.chain.empty()) (void)(c.loop ? pebble::Chain::loop(c.chain) : pebble::Chain::open(c.chain));
    }
  } catch (const std::invalid_argument& e) {
    throw BadRecording(std::string("bad shape: ") + e.what());
  }
  if (rec.colliders.empty()) throw BadRecording("no shapes");
  return rec;
}

/// How each external recording is replayed: pebble's defaults on one thread; Box2D v3's reuse
/// bounds (ReuseBounds::box2d_v3()) on one thread; the defaults on two threads with the batch
/// set_transforms() (timed by the wall clock).
struct Variant {
  const char* name;
  int threads;
  pebble::ReuseBounds bounds;
};
constexpr Variant kVariants[3] = {
    {"pebble", 1, {}}, {"pebble_v3bounds", 1, pebble::ReuseBounds::box2d_v3()}, {"pebble_2threads", 2, {}}};

/// One external recording: read on first use; a bad file makes its benchmark report an error.
struct External {
  std::filesystem::path path;
  std::unique_ptr<Recording> rec;
  std::string error;
  // Every replay's time, over all repetitions, per variant (kVariants): CPU time on one thread,
  // wall-clock time on two.
  std::vector<double> replay_seconds[3];
  std::unique_ptr<Counts> counts;        // with pebble's default reuse bounds
  std::unique_ptr<Counts> counts_loose;  // with Box2D v3's

  const Recording* recording() {
    if (!rec && error.empty()) {
      try {
        rec = std::make_unique<Recording>(read_recording(path));
        rec->finish();
        counts = std::make_unique<Counts>(count_pebble(*rec));
        counts_loose = std::make_unique<Counts>(count_pebble(*rec, pebble::ReuseBounds::box2d_v3()));
      } catch (const std::exception& e) {
        error = path.string() + ": " + e.what();
        rec.reset();
        std::fprintf(stderr, "pebble_bench: skipping recording %s\n", error.c_str());
      }
    }
    return rec.get();
  }

  /// Means of v3's figures over the timed steps (1 to steps()).
  double v3_mean(double (*field)(const V3Step&)) const {
    double sum = 0;
    for (std::size_t s = 1; s < rec->v3.size(); ++s) sum += field(rec->v3[s]);
    return sum / double(std::max<std::size_t>(rec->v3.size() - 1, 1));
  }
  static double v3_ms(const V3Step& v) { return v.pairs_ms + v.collide_ms + v.refit_ms; }
  static double v3_pairs(const V3Step& v) { return v.contacts_kept; }
  static double v3_touching(const V3Step& v) { return v.touching; }

  double pebble_ms_per_step(int variant) const {
    if (replay_seconds[variant].empty()) return 0;
    std::vector<double> sorted = replay_seconds[variant];
    std::sort(sorted.begin(), sorted.end());
    return 1e3 * sorted[sorted.size() / 2] / double(rec->steps());
  }
};

/// Prints one line per external recording at exit, from every replay of the run.
struct ExternalSummary {
  std::vector<External*> files;
  ~ExternalSummary() {
    for (External* f : files) {
      if (f->rec == nullptr) continue;
      for (int variant = 0; variant < 3; ++variant) {
        if (f->replay_seconds[variant].empty()) continue;
        const double mine = f->pebble_ms_per_step(variant), v3 = f->v3_mean(External::v3_ms);
        const double v3_pairs = f->v3_mean(External::v3_pairs), v3_touching = f->v3_mean(External::v3_touching);
        std::fprintf(
            stderr,
            "recording %s (%s): %zu steps, pebble %.4f ms/step (median %s, %zu replays), v3 %.4f ms/step (pairs + "
            "collide + refit), ratio %.2f, pairs kept per touching pair: pebble %.2f, v3 %.2f\n",
            f->rec->name.c_str(), kVariants[variant].name, f->rec->steps(), mine, variant == 2 ? "wall" : "CPU",
            f->replay_seconds[variant].size(), v3, v3 > 0 ? mine / v3 : 0.0,
            f->counts->touching > 0 ? f->counts->pairs / f->counts->touching : 0.0,
            v3_touching > 0 ? v3_pairs / v3_touching : 0.0);
      }
    }
  }
};

ExternalSummary& external_summary() {
  static ExternalSummary summary;
  return summary;
}

void add_external_recordings() {
  const char* dir = std::getenv("PEBBLE_SCENE_RECORDINGS");
  if (dir == nullptr || *dir == '\0') return;
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".rec") files.push_back(entry.path());
  }
  if (error) std::fprintf(stderr, "pebble_bench: PEBBLE_SCENE_RECORDINGS=%s: %s\n", dir, error.message().c_str());
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& path : files) {
    std::uint32_t steps = 0;
    try {
      steps = recording_steps(path);
    } catch (const BadRecording& e) {
      std::fprintf(stderr, "pebble_bench: skipping recording %s: %s\n", path.string().c_str(), e.what());
      continue;
    }
    std::string stem = path.stem().string();
    for (char& c : stem) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
    }
    auto* file = new External{path, nullptr, {}, {}, nullptr};  // lives until exit
    external_summary().files.push_back(file);
    const std::string name = "BM_Recording_" + stem;
    pairs().push_back({name, "recording " + stem + " (Box2D v3 scene, pebble replay)"});
    for (int variant = 0; variant < 3; ++variant) {
      benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
          (name + "/" + kVariants[variant].name).c_str(), [file, variant](benchmark::State& state) {
            const Recording* rec = file->recording();
            if (rec == nullptr) {
              state.SkipWithError(file->error.c_str());
              for (auto _ : state) {}
              return;
            }
            const Variant& v = kVariants[variant];
            run_replays<PebbleReplay>(
                state, *rec, [&] { return std::make_unique<PebbleReplay>(*rec, v.threads, v.bounds); },
                &file->replay_seconds[variant], v.threads > 1 ? wall_seconds : thread_seconds);
            const double v3 = file->v3_mean(External::v3_ms);
            state.counters["shapes"] = double(rec->shape_count());
            state.counters["steps"] = double(rec->steps());
            state.counters["v3_ms"] = v3;
            state.counters["ratio_v3"] = v3 > 0 ? file->pebble_ms_per_step(variant) / v3 : 0;
            state.counters["pairs"] = file->counts->pairs;
            state.counters["touching"] = file->counts->touching;
            const Counts& counts = kVariants[variant].bounds.distance > 0 ? *file->counts_loose : *file->counts;
            state.counters["collided"] = counts.collided;
            state.counters["reused"] = counts.reused;
            state.counters["separated"] = counts.separated;
            state.counters["v3_pairs"] = file->v3_mean(External::v3_pairs);
            state.counters["v3_touching"] = file->v3_mean(External::v3_touching);
          });
      b->Iterations(benchmark::IterationCount(steps - 1) * kReplays);
      if (kVariants[variant].threads > 1) b->MeasureProcessCPUTime()->UseRealTime();
    }
  }
}

}  // namespace

void register_scene_benchmarks() {
  add_scene("BM_ScenePyramid",
            "scene: pyramid of 1830 boxes at rest (set_transform + update / SetTransform + FindNewContacts + Collide)",
            pyramid_scene, 60);
  add_scene("BM_ScenePiles", "scene: 180 piles of 55 boxes, 9900 boxes, 1 thread", piles_scene, 60);
  add_scene("BM_ScenePiles2", "scene: 180 piles of 55 boxes, 9900 boxes, 2 threads", piles_scene, 60, 2);
  add_scene("BM_ScenePyramidV3Bounds", "scene: pyramid of 1830 boxes at rest, Box2D v3's reuse bounds", pyramid_scene,
            60, 1, pebble::ReuseBounds::box2d_v3());
  add_scene("BM_ScenePilesV3Bounds", "scene: 180 piles of 55 boxes, 9900 boxes, Box2D v3's reuse bounds", piles_scene,
            60, 1, pebble::ReuseBounds::box2d_v3());
  add_scene("BM_ScenePiles2V3Bounds", "scene: 180 piles of 55 boxes, 9900 boxes, 2 threads, Box2D v3's reuse bounds",
            piles_scene, 60, 2, pebble::ReuseBounds::box2d_v3());
  add_scene("BM_SceneDrum", "scene: drum turning with 2000 mixed rounded shapes", drum_scene, 120);
  add_scene("BM_SceneRain", "scene: 3000 mixed shapes raining onto a 242-segment chain", rain_scene, 120);
  add_scene("BM_SceneExplosion", "scene: explosion of 4900 mixed shapes (scripted)", explosion_scene, 90);
  add_external_recordings();
}

}  // namespace bench
