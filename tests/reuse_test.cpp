// Contact reuse (WorldSettings::reuse_contacts, docs/world.md "Contact reuse") against the oracle
// on moving scenes: the sandbox stepper drops the demo's shapes into its container and lets them
// come to rest, and every body's transform after every step goes into a CollisionWorld of this
// test's own. Each of its contacts, carried over or not, must keep collide()'s contract, measured
// on the geometry by tests/oracle: points midway between the two rounded surfaces, separations at
// most the margin, the least one the true distance, the normal the true one, and count > 0 exactly
// when the true distance is within the margin (all within the contract's tolerances).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

#include <pebble/world.hpp>

#include "contact_cases.hpp"
#include "oracle/distance.hpp"
#include "sandbox/demo_scene.hpp"
#include "sandbox/stepper.hpp"
#include "to_oracle.hpp"

namespace {

using namespace pebble;
using contact_cases::Tolerance;
using contact_cases::tolerance_for;
using oracle::real;
using oracle::V;
using sandbox::Body;
using sandbox::DemoScene;
using sandbox::DemoSceneSettings;
using sandbox::Stepper;

constexpr float kDt = 1.0f / 60.0f;

V v(Vec2 p) { return {p.x, p.y}; }
#if PEBBLE_DOUBLE_POSITIONS
V v(Position p) { return {p.x, p.y}; }
#endif

// The stepper's bodies mirrored into a world: one collider per body (chains, compounds, fixed
// containers), moved to the body's transform after each step.
struct Mirror {
  CollisionWorld world;
  std::vector<ColliderId> ids;  // by body index
  std::vector<bool> chain;      // the body is a chain (one-sided segments: not checked two-sided)
  explicit Mirror(const WorldSettings& settings) : world(settings) {}

  void follow(const Stepper& stepper, bool fresh_circles = false) {
    const std::vector<Body>& bodies = stepper.bodies();
    for (std::size_t i = ids.size(); i < bodies.size(); ++i) {
      const Body& b = bodies[i];
      ColliderOptions options;
      options.fixed = b.is_static();
      if (b.chain >= 0) {
        ids.push_back(world.add(stepper.chains()[std::size_t(b.chain)], b.xf, options));
      } else {
        options.fresh_contacts = fresh_circles && b.parts.size() == 1 && b.parts[0].vertex_count() == 1;
        ids.push_back(world.add(std::span<const Shape>(b.parts), b.xf, options));
      }
      chain.push_back(b.chain >= 0);
    }
    if (world.settings().threads > 1) {  // the batch form, as a threaded game would call it
      std::vector<ColliderId> moving;
      std::vector<Transform> to;
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (bodies[i].is_static()) continue;
        moving.push_back(ids[i]);
        to.push_back(bodies[i].xf);
      }
      EXPECT_EQ(world.set_transforms(moving, to), int(moving.size()));
    } else {
      for (std::size_t i = 0; i < bodies.size(); ++i)
        if (!bodies[i].is_static()) world.set_transform(ids[i], bodies[i].xf);
    }
    world.update();
  }

  // Whether one of the contact's colliders is a chain (ids[i].index is body i's collider slot).
  bool touches_chain(const ContactPair& c) const {
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (chain[i] && (ids[i] == c.a || ids[i] == c.b)) return true;
    return false;
  }
};

// What the contract says of one manifold of the world, against the oracle; empty when all holds.
// A chain segment's manifold follows the ghost rules (docs/terrain.md: its normal is held to the
// segment's cone), not the two-sided geometry: for it only the margin and the ids are checked.
// Looser reuse bounds (WorldSettings::reuse_bounds) widen the tolerances by what they allow: a
// carried point and separation may be off by twice the distance bound. The normal is then only
// checked to be unit: it turns with part a, while the true one jumps when the nearest features
// change within the bounds (a box slid to the end of a face), which a carried manifold notices
// only beyond them (ReuseBounds says so).
std::string check_contact(const CollisionWorld& world, const ContactPair& c, bool one_sided, float margin,
                          real slack = 0, real turn = 0) {
  const oracle::RShape wa = test_oracle::to_oracle(*world.part(c.a, c.part_a), *world.transform(c.a));
  const oracle::RShape wb = test_oracle::to_oracle(*world.part(c.b, c.part_b), *world.transform(c.b));
  Tolerance tol = tolerance_for(wa, wb);
  tol.length += slack;
  const Manifold& m = c.manifold;
  std::ostringstream err;
  if (m.count < 1 || m.count > 2) return "count " + std::to_string(m.count);
  const V n = oracle::normalize(v(m.normal));
  real least = 1e30L;
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& cp = m.points[i];
    least = std::min(least, real(cp.separation));
    if (!(cp.separation <= margin)) err << "point " << i << " separation " << cp.separation << " above the margin; ";
    if (one_sided) continue;
    const real s = cp.separation;
    const real ea = oracle::signed_distance_to_surface(wa, v(cp.point) - (s / 2) * n);
    const real eb = oracle::signed_distance_to_surface(wb, v(cp.point) + (s / 2) * n);
    if (std::fabs(ea) > tol.length) err << "point " << i << " off A's surface by " << double(ea) << "; ";
    if (std::fabs(eb) > tol.length) err << "point " << i << " off B's surface by " << double(eb) << "; ";
  }
  if (m.count == 2 && m.points[0].id == m.points[1].id) err << "two points share an id; ";
  if (!one_sided) {
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    if (o.distance > margin + tol.length) err << "touching, but the true distance is " << double(o.distance) << "; ";
    if (std::fabs(least - o.distance) > tol.length)
      err << "least separation " << double(least) << ", true distance " << double(o.distance) << "; ";
    if (turn > 0) {
      const real nlen = oracle::length(v(m.normal));
      if (std::fabs(nlen - 1) > 1e-5L) err << "normal not unit (" << double(nlen) << "); ";
    } else {
      contact_cases::check_normal(err, m.normal, wa, wb, o, tol);
    }
  }
  return err.str();
}

// The box of an oracle shape (long double, from its own vertices), grown by `grow`.
struct Box {
  real lo_x, lo_y, hi_x, hi_y;
};
Box box_of(const oracle::RShape& s, real grow) {
  Box b{1e30L, 1e30L, -1e30L, -1e30L};
  for (const V& p : s.core) {
    b.lo_x = std::min(b.lo_x, p.x);
    b.lo_y = std::min(b.lo_y, p.y);
    b.hi_x = std::max(b.hi_x, p.x);
    b.hi_y = std::max(b.hi_y, p.y);
  }
  const real r = s.radius + grow;
  return {b.lo_x - r, b.lo_y - r, b.hi_x + r, b.hi_y + r};
}

// Every pair of parts (neither a chain's) the oracle puts well within the margin is a contact, and
// none it puts well beyond it is one.
// Looser reuse bounds may list a pair late, by `late` (the smaller of the distance bound and the
// margin): never one that overlaps.
void check_membership(const Mirror& mirror, const Stepper& stepper, float margin, int step, int& failures,
                      real slack = 0, real late = 0) {
  struct PartRef {
    std::size_t body;
    int part;
    oracle::RShape shape;
    Box box;
  };
  std::vector<PartRef> parts;
  for (std::size_t i = 0; i < mirror.ids.size(); ++i) {
    if (mirror.chain[i]) continue;
    const CollisionWorld& w = mirror.world;
    for (int k = 0; k < w.part_count(mirror.ids[i]); ++k) {
      oracle::RShape s = test_oracle::to_oracle(*w.part(mirror.ids[i], k), *w.transform(mirror.ids[i]));
      const Box b = box_of(s, margin);
      parts.push_back({i, k, std::move(s), b});
    }
  }
  std::map<std::tuple<std::size_t, int, std::size_t, int>, bool> got;
  std::map<std::uint32_t, std::size_t> body_of_slot;
  for (std::size_t i = 0; i < mirror.ids.size(); ++i) body_of_slot[mirror.ids[i].index] = i;
  for (const ContactPair& c : mirror.world.contacts())
    got[{body_of_slot[c.a.index], c.part_a, body_of_slot[c.b.index], c.part_b}] = true;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (std::size_t j = i + 1; j < parts.size(); ++j) {
      const PartRef& p = parts[i];
      const PartRef& q = parts[j];
      if (p.body == q.body || (stepper.bodies()[p.body].is_static() && stepper.bodies()[q.body].is_static())) continue;
      if (p.box.hi_x < q.box.lo_x || q.box.hi_x < p.box.lo_x || p.box.hi_y < q.box.lo_y || q.box.hi_y < p.box.lo_y)
        continue;
      const Tolerance tol = tolerance_for(p.shape, q.shape);
      const real d = oracle::distance(p.shape, q.shape, tol.length, tol.conditioning).distance;
      const bool listed = got.count({p.body, p.part, q.body, q.part}) > 0;
      if (d <= margin - late - tol.length && !listed) {
        ++failures;
        ADD_FAILURE() << "step " << step << ": bodies " << p.body << "." << p.part << " and " << q.body << "." << q.part
                      << " are " << double(d) << " apart (margin " << margin << ") but not in contacts()";
      }
      if (d > margin + tol.length + slack && listed) {
        ++failures;
        ADD_FAILURE() << "step " << step << ": bodies " << p.body << "." << p.part << " and " << q.body << "." << q.part
                      << " are " << double(d) << " apart (margin " << margin << ") yet in contacts()";
      }
    }
  }
}

struct Tally {
  long long contacts = 0, reused = 0, collided = 0, checked = 0, kernel_misses = 0;
  long long rest_contacts = 0, rest_reused = 0;  // over the last 60 steps
};

bool same_manifold(const Manifold& x, const Manifold& y) {
  if (x.count != y.count || !(x.normal == y.normal)) return false;
  for (int i = 0; i < x.count; ++i) {
    if (!(x.points[i].point == y.points[i].point) || x.points[i].separation != y.points[i].separation ||
        x.points[i].id != y.points[i].id)
      return false;
  }
  return true;
}

// Drops a demo pile and runs it to rest, checking the mirror world's contacts every step.
Tally run_pile(std::uint32_t seed, int shapes, int steps, float margin, bool fresh_circles, ReuseBounds bounds = {},
               int threads = 1) {
  Stepper stepper;
  DemoScene scene(DemoSceneSettings{shapes, seed});
  scene.add_container(stepper);
  WorldSettings settings;
  settings.contact_margin = margin;
  settings.reuse_bounds = bounds;
  settings.threads = threads;
  Mirror mirror(settings);
  const real slack = 2 * real(bounds.distance);
  const real turn = bounds.angle;
  Tally tally;
  int failures = 0;
  for (int step = 0; step < steps && failures < 10; ++step) {
    scene.release(stepper, float(step) * kDt);
    stepper.step(kDt);
    mirror.follow(stepper, fresh_circles);
    const WorldStats stats = mirror.world.stats();
    tally.reused += stats.reused;
    if (step >= steps - 60) {
      tally.rest_contacts += stats.contacts;
      tally.rest_reused += stats.reused;
    }
    if (std::getenv("REUSE_TRACE") && step % 20 == 0)
      std::printf("step %d: contacts %d, reused %d, collided %d, separated by boxes %d\n", step, stats.contacts,
                  stats.reused, stats.collided, stats.separated);
    tally.collided += stats.collided;
    for (const ContactPair& c : mirror.world.contacts()) {
      const bool chain_pair = mirror.touches_chain(c);
      std::string err = check_contact(mirror.world, c, chain_pair, margin, slack, turn);
      ++tally.checked;
      if (!err.empty() && !chain_pair) {
        // A manifold collide() gives bit for bit was not carried over: its misses are collide()'s
        // own (manifold_test's subject), counted and shown here but not this test's failure.
        const Manifold fresh = collide(*mirror.world.part(c.a, c.part_a), *mirror.world.transform(c.a),
                                       *mirror.world.part(c.b, c.part_b), *mirror.world.transform(c.b), margin);
        if (same_manifold(fresh, c.manifold)) {
          ++tally.kernel_misses;
          std::printf("  collide() itself, seed %u step %d: %s\n", seed, step, err.c_str());
          continue;
        }
      }
      if (!err.empty()) {
        ++failures;
        ADD_FAILURE() << "seed " << seed << " step " << step << ": contact " << c.a.index << "." << c.part_a << "-"
                      << c.b.index << "." << c.part_b << ": " << err;
      }
    }
    tally.contacts += long(mirror.world.contacts().size());
    if (step % 15 == 14)
      check_membership(mirror, stepper, margin, step, failures, slack, std::min(real(bounds.distance), real(margin)));
  }
  return tally;
}

// A carried-over manifold against a fresh collide() of the same part pair at the same transforms
// (docs/world.md "Contact reuse"): empty when it keeps what reuse promises. Reuse carries a
// manifold only while part b moved relative to part a by at most d = 2e-4 x the smaller extent()
// and turned so that the normal turned by at most kReuseAngle = 5e-4 rad; so against collide():
//  - no point collide() finds may be missing (a carried manifold never has fewer points: a
//    manifold of one point between two cores of 2+ vertices is never carried, since its second
//    point could come within the margin unseen); a carried point collide() does not find must be
//    at the margin (within the length tolerance: its separation is the carried one);
//  - the points collide() also finds carry its ids (ids stay as they were, and collide() keeps the
//    features while a pair moves that little);
//  - the normal within 5e-4 rad of collide()'s (plus its float rounding, 2e-6), plus, between two
//    faces (two points each), the angle between the two touching faces: collide() takes either
//    face's normal (the reference may change sides between nearly parallel faces; the ids stay),
//    and the carried one keeps the face it had;
//  - each point and separation within the contract's length tolerance of collide()'s (both are
//    within it of the surfaces; the bound spends at most 8e-4 of its 1e-3).
std::string compare_with_fresh(const Manifold& carried, const Manifold& fresh, real length, float margin,
                               real face_tilt = 0) {
  std::ostringstream err;
  const auto find = [](const Manifold& m, std::uint32_t id) {
    for (int i = 0; i < m.count; ++i)
      if (m.points[i].id == id) return i;
    return -1;
  };
  for (int i = 0; i < fresh.count; ++i)
    if (find(carried, fresh.points[i].id) < 0)
      err << "collide() has a point (id " << fresh.points[i].id << ", separation " << fresh.points[i].separation
          << ") the carried manifold lacks; ";
  for (int i = 0; i < carried.count; ++i) {
    const ContactPoint& cp = carried.points[i];
    const int j = find(fresh, cp.id);
    if (j < 0) {
      if (real(cp.separation) < real(margin) - length)
        err << "carried point (id " << cp.id << ", separation " << cp.separation << ") that collide() does not find; ";
      continue;
    }
    const ContactPoint& fp = fresh.points[j];
    const real off = oracle::length(v(cp.point) - v(fp.point));
    if (off > length) err << "point id " << cp.id << " " << double(off) << " from collide()'s; ";
    if (std::fabs(real(cp.separation) - real(fp.separation)) > length)
      err << "point id " << cp.id << " separation " << cp.separation << ", collide()'s " << fp.separation << "; ";
  }
  if (fresh.count > 0) {
    const real turn =
        contact_cases::angle_between(oracle::normalize(v(carried.normal)), oracle::normalize(v(fresh.normal)));
    const real faces = carried.count == 2 && fresh.count == 2 ? face_tilt : 0;
    if (turn > 5e-4L + faces + 2e-6L)
      err << "normal " << double(turn) << " rad from collide()'s (faces " << double(faces) << " apart); ";
  }
  return err.str();
}

// The angle between A's face most along n and B's face most against it (0 when either has no
// face): how far apart the two normals collide() may choose between are.
real face_tilt(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, Vec2 n) {
  if (a.edge_count() == 0 || b.edge_count() == 0) return 0;
  const auto most = [](const Shape& s, const Transform& xf, Vec2 dir) {
    Vec2 best{};
    float best_dot = -2;
    for (int i = 0; i < s.edge_count(); ++i) {
      const Vec2 w = rotate(xf.q, s.normal(i));
      if (dot(w, dir) > best_dot) {
        best_dot = dot(w, dir);
        best = w;
      }
    }
    return best;
  };
  const Vec2 fa = most(a, xa, n), fb = most(b, xb, -n);
  return contact_cases::angle_between(oracle::normalize(v(fa)), oracle::normalize(v(-fb)));
}

// The contact's part pair through collide() at the world's transforms now, as the world orders it
// (a chain's segment one-sided).
Manifold fresh_collide(const Mirror& mirror, const Stepper& stepper, const ContactPair& c, float margin) {
  const CollisionWorld& w = mirror.world;
  const auto segment = [&](ColliderId id, int part, ChainSegment& out) {
    for (std::size_t i = 0; i < mirror.ids.size(); ++i) {
      if (mirror.ids[i] != id || !mirror.chain[i]) continue;
      out = stepper.chains()[std::size_t(stepper.bodies()[i].chain)].segment(part);
      return true;
    }
    return false;
  };
  ChainSegment seg;
  if (segment(c.a, c.part_a, seg))
    return collide(seg, *w.transform(c.a), *w.part(c.b, c.part_b), *w.transform(c.b), margin);
  if (segment(c.b, c.part_b, seg))
    return collide(seg, *w.transform(c.b), *w.part(c.a, c.part_a), *w.transform(c.a), margin).flipped();
  return collide(*w.part(c.a, c.part_a), *w.transform(c.a), *w.part(c.b, c.part_b), *w.transform(c.b), margin);
}

}  // namespace

// Piles from the drop to rest: every contact keeps the contract, and at rest most are carried.
TEST(ContactReuse, PilesKeepTheContractFromTheDropToRest) {
  for (const std::uint32_t seed : {1u, 2u}) {
    for (const float margin : {kDefaultContactMargin, 0.0f}) {
      SCOPED_TRACE(seed);
      const Tally t = run_pile(seed, 60, 300, margin, false);
      std::printf(
          "  reuse: seed %u margin %g: %lld contacts checked, %lld manifolds reused, %lld collided; collide() itself "
          "off in %lld\n",
          seed, double(margin), t.checked, t.reused, t.collided, t.kernel_misses);
      EXPECT_GT(t.checked, 5000);
      // The pile comes to rest: a good part of its contacts is carried over, not collided anew
      // (at rest: 41-43% at margin 0.02, 25-31% at margin 0, where a tilted face touches by one
      // corner and one point of two polygons is never carried).
      EXPECT_GT(t.rest_reused * 5, t.rest_contacts);
    }
  }
}

// A collider with fresh_contacts never has a manifold carried over: its contacts are collide()'s
// own bits, while the others' are reused.
TEST(ContactReuse, FreshContactsPerCollider) {
  Stepper stepper;
  DemoScene scene(DemoSceneSettings{60, 3});
  scene.add_container(stepper);
  Mirror mirror(WorldSettings{});
  long long fresh_checked = 0;
  for (int step = 0; step < 300; ++step) {
    scene.release(stepper, float(step) * kDt);
    stepper.step(kDt);
    mirror.follow(stepper, true);
    if (step < 200) continue;
    for (const ContactPair& c : mirror.world.contacts()) {
      const bool fresh = mirror.world.options(c.a)->fresh_contacts || mirror.world.options(c.b)->fresh_contacts;
      if (!fresh || mirror.world.part_count(c.a) != 1 || mirror.world.part_count(c.b) != 1) continue;
      const bool chain_pair = mirror.touches_chain(c);
      if (chain_pair) continue;
      const Manifold want = collide(*mirror.world.shape(c.a), *mirror.world.transform(c.a), *mirror.world.shape(c.b),
                                    *mirror.world.transform(c.b), mirror.world.settings().contact_margin);
      ASSERT_EQ(want.count, c.manifold.count);
      EXPECT_EQ(want.normal, c.manifold.normal);
      for (int i = 0; i < want.count; ++i) {
        EXPECT_EQ(want.points[i].point, c.manifold.points[i].point);
        EXPECT_EQ(want.points[i].separation, c.manifold.points[i].separation);
        EXPECT_EQ(want.points[i].id, c.manifold.points[i].id);
      }
      ++fresh_checked;
    }
  }
  EXPECT_GT(fresh_checked, 100);
  EXPECT_GT(mirror.world.stats().reused, 0);
}

// Hand-placed: a box resting on another, nudged by less than the bound, then by more; turned; and
// reshaped. The carried manifold follows the surfaces; beyond the bound, or after set_shape(),
// collide() runs again.
TEST(ContactReuse, BoundsAndReshaping) {
  CollisionWorld world;
  const ColliderId ground = world.add(Shape::box(2, 0.5f), Transform{{0, -0.5f}, Rot::identity()});
  const Transform start{{0.3f, 0.5f + 0.001f}, Rot::identity()};
  const ColliderId box = world.add(Shape::box(0.5f, 0.5f), start);
  world.update();
  ASSERT_EQ(world.contacts().size(), 1u);
  const Manifold first = world.contacts()[0].manifold;
  ASSERT_EQ(first.count, 2);
  EXPECT_EQ(world.stats().collided, 1);

  // Far below the bound (kReuseFraction x extent = 2e-4 x 0.707): carried, the gap follows.
  world.set_transform(box, Transform{{0.3f + 2e-5f, 0.5f + 0.001f - 3e-5f}, Rot::identity()});
  world.update();
  EXPECT_EQ(world.stats().reused, 1);
  EXPECT_EQ(world.stats().collided, 0);
  const Manifold carried = world.contacts()[0].manifold;
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(carried.points[i].id, first.points[i].id);
    EXPECT_NEAR(carried.points[i].separation, 0.001f - 3e-5f, 1e-6f);
    EXPECT_NEAR(carried.points[i].point.x, first.points[i].point.x + 1e-5f, 1e-6f);  // half the slide
  }
  // Beyond the bound: collided again.
  world.set_transform(box, Transform{{0.3f + 2e-4f, 0.5f + 0.001f}, Rot::identity()});
  world.update();
  EXPECT_EQ(world.stats().reused, 0);
  EXPECT_EQ(world.stats().collided, 1);
  // Turned by more than kReuseAngle (5e-4 rad) about its centre: collided.
  world.set_transform(box, Transform{{0.3f + 2e-4f, 0.5f + 0.001f}, Rot::from_angle(6e-4f)});
  world.update();
  EXPECT_EQ(world.stats().collided, 1);
  // Moving the ground and the box together is no relative motion: carried, points moved along.
  world.set_transform(ground, Transform{{5, -0.5f}, Rot::identity()});
  world.set_transform(box, Transform{{5.3f + 2e-4f, 0.5f + 0.001f}, Rot::from_angle(6e-4f)});
  world.update();
  EXPECT_EQ(world.stats().reused, 1);
  EXPECT_NEAR(world.contacts()[0].manifold.points[0].point.x, 5.3f, 0.6f);
  // A new shape is never carried over, however small the motion.
  world.set_shape(box, Shape::box(0.5f, 0.6f));
  world.update();
  EXPECT_EQ(world.stats().reused, 0);
  EXPECT_EQ(world.stats().collided, 1);
  // Lifted beyond the margin by less than the bound would allow for reuse: the carried separation
  // exceeds the margin, so collide() runs and the pair stops touching.
  const Transform lifted{{5.3f + 2e-4f, 0.6f + kDefaultContactMargin - 1e-5f}, Rot::from_angle(6e-4f)};
  world.set_transform(box, lifted);
  world.update();
  world.set_transform(box, Transform{{lifted.p.x, lifted.p.y + 5e-5f}, lifted.q});
  world.update();
  const Manifold fresh = collide(*world.shape(box), *world.transform(box), *world.shape(ground),
                                 *world.transform(ground), kDefaultContactMargin);
  EXPECT_EQ(world.contacts().size(), fresh.count > 0 ? 1u : 0u);
}

// Box2D v3's looser bounds (ReuseBounds::box2d_v3()), through whole piles on two threads with the
// batch set_transforms(): every contact keeps the contract widened by what the bounds allow (points
// and separations within twice 0.05, the normal within 0.2 rad more), every pair within the margin
// is listed, and more contacts are carried over than with the default bounds.
TEST(ContactReuse, LooserBoundsKeepWhatTheyPromise) {
  for (const std::uint32_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const Tally t = run_pile(seed, 60, 300, kDefaultContactMargin, false, ReuseBounds::box2d_v3(), 2);
    const Tally exact = run_pile(seed, 60, 300, kDefaultContactMargin, false);
    std::printf(
        "  reuse at Box2D v3's bounds: seed %u: %lld contacts checked, %lld reused (%lld with the default), at rest "
        "%lld of %lld (%lld)\n",
        seed, t.checked, t.reused, exact.reused, t.rest_reused, t.rest_contacts, exact.rest_reused);
    EXPECT_GT(t.checked, 5000);
    EXPECT_GT(t.reused, exact.reused);
    EXPECT_GE(t.rest_reused, exact.rest_reused);
  }
}

// Hand-placed, as BoundsAndReshaping: the looser bounds carry a manifold over a slide and a turn
// the default would collide again, and stop at their own limits; bounds below the contract's, or
// not finite, mean the contract's.
TEST(ContactReuse, LooserBoundsHandPlaced) {
  const auto step_with = [](ReuseBounds bounds, Transform moved) {
    WorldSettings settings;
    settings.reuse_bounds = bounds;
    CollisionWorld world(settings);
    world.add(Shape::box(2, 0.5f), Transform{{0, -0.5f}, Rot::identity()});
    const ColliderId box = world.add(Shape::box(0.25f, 0.25f), Transform{{0.3f, 0.25f + 0.001f}, Rot::identity()});
    world.update();
    const Manifold first = world.contacts()[0].manifold;
    world.set_transform(box, moved);
    world.update();
    if (world.stats().reused == 1) {  // carried: the same ids, separations from the moved surfaces
      const Manifold& m = world.contacts()[0].manifold;
      for (int i = 0; i < m.count; ++i) EXPECT_EQ(m.points[i].id, first.points[i].id);
    }
    return world.stats().reused;
  };
  const ReuseBounds v3 = ReuseBounds::box2d_v3();
  const Transform slid{{0.3f + 0.02f, 0.25f + 0.001f}, Rot::identity()};
  EXPECT_EQ(step_with({}, slid), 0);
  EXPECT_EQ(step_with(v3, slid), 1);
  // 0.06 of slide is beyond 0.05; a turn of 0.05 rad moves the box's corners by 0.018.
  EXPECT_EQ(step_with(v3, Transform{{0.36f, 0.25f + 0.001f}, Rot::identity()}), 0);
  EXPECT_EQ(step_with(v3, Transform{{0.3f, 0.25f + 0.001f}, Rot::from_angle(0.05f)}), 1);
  EXPECT_EQ(step_with(v3, Transform{{0.3f, 0.25f + 0.001f}, Rot::from_angle(0.2f)}), 0);
  // Lifted out of the margin within the bounds: not carried (a carried point left the margin).
  EXPECT_EQ(step_with(v3, Transform{{0.3f, 0.25f + 0.03f}, Rot::identity()}), 0);
  for (const float bad : {-1.0f, 0.0f, std::nanf(""), INFINITY}) {
    EXPECT_EQ(step_with(ReuseBounds{bad, bad}, slid), 0) << bad;
  }
}

// set_transforms() moves exactly as set_transform() calls in the same order do: stale ids, invalid
// transforms and an id given twice included, on one thread and two.
TEST(ContactReuse, SetTransformsEqualsOneByOne) {
  for (const int threads : {1, 2}) {
    WorldSettings settings;
    settings.threads = threads;
    CollisionWorld batch(settings), single(settings);
    std::vector<ColliderId> ids, same;  // the batch world's ids, the single world's
    for (int i = 0; i < 700; ++i) {
      const Shape s = i % 3 == 0   ? Shape::circle(0.4f)
                      : i % 3 == 1 ? Shape::rounded_box(0.3f, 0.2f, 0.05f)
                                   : Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.1f);
      const Transform xf{{float(i % 30), float(i / 30)}, Rot::from_angle(0.1f * float(i))};
      ids.push_back(batch.add(s, xf));
      same.push_back(single.add(s, xf));
    }
    const Shape parts[] = {Shape::circle(0.2f), Shape::box(0.2f, 0.1f)};
    ids.push_back(batch.add(parts, Transform{{40, 0}, Rot::identity()}, ColliderOptions{}));
    same.push_back(single.add(parts, Transform{{40, 0}, Rot::identity()}, ColliderOptions{}));
    batch.remove(ids[5]);
    single.remove(same[5]);
    batch.update();
    single.update();
    for (int step = 0; step < 5; ++step) {
      std::vector<ColliderId> which, which_same;
      std::vector<Transform> to;
      for (std::size_t i = 0; i < ids.size(); i += 1 + std::size_t(step)) {
        which.push_back(ids[i]);
        which_same.push_back(same[i]);
        to.push_back(Transform{{float(i % 30) + 0.3f * float(step), float(i / 30) - 0.2f * float(step)},
                               Rot::from_angle(0.3f * float(step + int(i)))});
      }
      which.push_back(ids[7]);  // twice: the last wins, as with set_transform() calls
      which_same.push_back(same[7]);
      to.push_back(Transform{{3, 3}, Rot::identity()});
      which.push_back(ids[8]);  // an invalid transform: skipped
      which_same.push_back(same[8]);
      to.push_back(Transform{{NAN, 0}, Rot::identity()});
      const int moved = batch.set_transforms(which, to);
      int expected = 0;
      for (std::size_t k = 0; k < which.size(); ++k) expected += single.set_transform(which_same[k], to[k]) ? 1 : 0;
      EXPECT_EQ(moved, expected);
      batch.update();
      single.update();
      ASSERT_EQ(batch.contacts().size(), single.contacts().size());
      for (std::size_t k = 0; k < batch.contacts().size(); ++k) {
        EXPECT_EQ(batch.contacts()[k].a.index, single.contacts()[k].a.index);
        EXPECT_EQ(batch.contacts()[k].b.index, single.contacts()[k].b.index);
        EXPECT_TRUE(same_manifold(batch.contacts()[k].manifold, single.contacts()[k].manifold));
      }
      for (std::size_t i = 0; i < ids.size(); ++i) {
        ASSERT_EQ(batch.contains(ids[i]), single.contains(same[i]));
        if (!single.contains(same[i])) continue;
        EXPECT_EQ(batch.box(ids[i]), single.box(same[i]));
        EXPECT_EQ(batch.transform(ids[i])->p, single.transform(same[i])->p);
      }
      EXPECT_TRUE(batch.validate());
    }
    EXPECT_EQ(batch.set_transforms({}, {}), 0);
  }
}

// Every manifold the world carries over, compared with a fresh collide() of the same pair at the
// same transforms (compare_with_fresh: the same points by id, none missing, the normal within the
// reuse bound's turn, points and separations within the contract's accuracy), through piles from
// the drop to rest at both margins. Then two hand-made pairs at the edges of the rule: a tilted box
// whose second corner comes within the margin while the box moves less than the bound (a one-point
// manifold of two polygons must not be carried: collide() finds the second point), and two discs
// overlapping deeply (centres 0.2 apart, radius 1) slid sideways by less than the distance bound,
// whose normal turns by the slide over the centres' distance (the normal-turn term of the bound);
// and a pile's body replayed across a chain joint, where the ghost rules hand its contact on.
TEST(ContactReuse, CarriedManifoldsMatchAFreshCollide) {
  for (const std::uint32_t seed : {1u, 2u}) {
    for (const float margin : {kDefaultContactMargin, 0.0f}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " margin " + std::to_string(margin));
      Stepper stepper;
      DemoScene scene(DemoSceneSettings{60, seed});
      scene.add_container(stepper);
      WorldSettings settings;
      settings.contact_margin = margin;
      Mirror mirror(settings);
      long long carried = 0, compared = 0;
      int failures = 0;
      for (int step = 0; step < 300 && failures < 10; ++step) {
        scene.release(stepper, float(step) * kDt);
        stepper.step(kDt);
        mirror.follow(stepper);
        for (const ContactPair& c : mirror.world.contacts()) {
          const Manifold fresh = fresh_collide(mirror, stepper, c, margin);
          ++compared;
          if (same_manifold(fresh, c.manifold)) continue;
          ++carried;
          const Tolerance tol =
              tolerance_for(test_oracle::to_oracle(*mirror.world.part(c.a, c.part_a), *mirror.world.transform(c.a)),
                            test_oracle::to_oracle(*mirror.world.part(c.b, c.part_b), *mirror.world.transform(c.b)));
          const real tilt = face_tilt(*mirror.world.part(c.a, c.part_a), *mirror.world.transform(c.a),
                                      *mirror.world.part(c.b, c.part_b), *mirror.world.transform(c.b), fresh.normal);
          const std::string err = compare_with_fresh(c.manifold, fresh, tol.length, margin, tilt);
          if (!err.empty()) {
            ++failures;
            ADD_FAILURE() << "step " << step << ": contact " << c.a.index << "." << c.part_a << "-" << c.b.index << "."
                          << c.part_b << ": " << err;
          }
        }
      }
      std::printf(
          "  seed %u margin %g: %lld contacts compared with collide(), %lld carried over (not collide()'s bits)\n",
          seed, double(margin), compared, carried);
      EXPECT_GT(carried * 10, compared);  // a good part of them is carried over
    }
  }
  // The tilted box: its left corner 0.001 above the ground, its right one 1e-4 beyond the margin;
  // lowered by 3e-5 an update (0.707 x 2e-4 = 1.4e-4 is the bound), the right corner comes within
  // the margin at the fourth.
  {
    CollisionWorld world;
    const float margin = world.settings().contact_margin;
    const Shape ground_shape = Shape::box(2, 0.5f);
    const Transform ground_xf{{0, -0.5f}, Rot::identity()};
    ColliderOptions fixed;
    fixed.fixed = true;
    world.add(ground_shape, ground_xf, fixed);
    const float sine = margin + 1e-4f - 0.001f;
    const Rot tilt{std::sqrt(1 - sine * sine), sine};
    const Shape box = Shape::box(0.5f, 0.5f);
    Transform xf{{0.3f, 0.001f + 0.5f * tilt.s + 0.5f * tilt.c}, tilt};
    const ColliderId id = world.add(box, xf);
    int two = 0;
    for (int k = 0; k < 8; ++k) {
      world.update();
      ASSERT_EQ(world.contacts().size(), 1u);
      const ContactPair& c = world.contacts()[0];
      const Manifold fresh = c.a == id ? collide(box, xf, ground_shape, ground_xf, margin)
                                       : collide(ground_shape, ground_xf, box, xf, margin);
      two += fresh.count == 2;
      const Tolerance tol =
          tolerance_for(test_oracle::to_oracle(box, xf), test_oracle::to_oracle(ground_shape, ground_xf));
      EXPECT_EQ(compare_with_fresh(c.manifold, fresh, tol.length, margin), "") << "update " << k;
      xf.p.y -= 3e-5f;
      world.set_transform(id, xf);
    }
    EXPECT_GE(two, 3);  // the second corner did come within the margin
  }
  // The pile's case (seed 1, margin 0.02, before the kernels' changes of 431c14f moved the pile):
  // a rounded quadrilateral on the valley's chain crossing the joint of segments 5 and 6, its
  // transforms of steps 150 to 171 replayed. The ghost rules hand the contact from segment 5 to
  // segment 6 there, a jump no motion bound covers: carried, segment 5's manifold stayed beside
  // segment 6's new one for the same two corners at step 171 (collide() of segment 5 gave none).
  {
    CollisionWorld world;
    const float margin = world.settings().contact_margin;
    const std::vector<Vec2> valley{{3.65008163f, 3.00081849f},
                                   {3.25008154f, 3.00081849f},
                                   {2.94999981f, 0.124714255f},
                                   {2.45833325f, 0.080103606f},
                                   {1.96666646f, 0.132731646f},
                                   {1.4749999f, 0.239915818f},
                                   {0.98333323f, 0.314727396f},
                                   {0.491666555f, 0.296492457f},
                                   {0.0f, 0.200000003f},
                                   {-0.491666555f, 0.103507549f},
                                   {-0.983333349f, 0.0852726251f},
                                   {-1.4749999f, 0.160084188f},
                                   {-1.9666667f, 0.267268419f},
                                   {-2.45833302f, 0.3198964f},
                                   {-2.94999981f, 0.275285751f},
                                   {-3.25008154f, 3.00081849f},
                                   {-3.65008163f, 3.00081849f},
                                   {-3.65008163f, 0.0f},
                                   {3.65008163f, 0.0f}};
    const Chain chain = Chain::loop(valley);
    ColliderOptions fixed;
    fixed.fixed = true;
    const ColliderId ground = world.add(chain, Transform::identity(), fixed);
    const Vec2 corners[] = {{-0.151765347f, 0.0718863606f},
                            {-0.0741763487f, -0.126809731f},
                            {0.186596423f, -0.0021139523f},
                            {0.04653446f, 0.14114669f}};
    const Shape body = Shape::polygon(corners, 0.0257703327f);
    const float steps[][4] = {{1.08660877f, 0.413708299f, 0.860522449f, -0.509412467f},
                              {1.0873425f, 0.412918866f, 0.856808245f, -0.515635133f},
                              {1.08768821f, 0.412792385f, 0.853512526f, -0.521072268f},
                              {1.08752131f, 0.412776798f, 0.85530442f, -0.518125772f},
                              {1.0880599f, 0.411862731f, 0.855824649f, -0.517266095f},
                              {1.08903694f, 0.411475509f, 0.846013069f, -0.533162117f},
                              {1.08934379f, 0.410565585f, 0.837831914f, -0.545928299f},
                              {1.08952403f, 0.409338236f, 0.835329056f, -0.549750328f},
                              {1.09006023f, 0.408644438f, 0.832585812f, -0.55389607f},
                              {1.09001553f, 0.408751607f, 0.832533062f, -0.553975403f},
                              {1.08990204f, 0.408751637f, 0.83346951f, -0.552565455f},
                              {1.08965707f, 0.409059316f, 0.835031688f, -0.550201833f},
                              {1.08968627f, 0.409068882f, 0.834884524f, -0.550425112f},
                              {1.0897156f, 0.40906325f, 0.834664106f, -0.550759315f},
                              {1.08974433f, 0.409043998f, 0.834364414f, -0.551213205f},
                              {1.08984196f, 0.408941776f, 0.833652198f, -0.552289784f},
                              {1.09034121f, 0.408292294f, 0.83092016f, -0.556391716f},
                              {1.09038186f, 0.408313364f, 0.830271006f, -0.557359934f},
                              {1.09090483f, 0.407730848f, 0.827045381f, -0.56213522f},
                              {1.090868f, 0.407728285f, 0.827725649f, -0.561133027f},
                              {1.09088564f, 0.407778114f, 0.827564359f, -0.56137079f},
                              {1.09088814f, 0.407781869f, 0.827587306f, -0.561336994f},
                              {1.09092033f, 0.407730848f, 0.827497065f, -0.561470032f}};
    ColliderId id;
    int compared = 0;
    for (std::size_t k = 0; k < std::size(steps); ++k) {
      const Transform xf{{steps[k][0], steps[k][1]}, Rot{steps[k][2], steps[k][3]}};
      if (k == 0) {
        id = world.add(body, xf);
      } else {
        world.set_transform(id, xf);
      }
      world.update();
      for (const ContactPair& c : world.contacts()) {
        ASSERT_EQ(c.a, ground);
        const Manifold fresh = collide(chain.segment(c.part_a), Transform::identity(), body, xf, margin);
        ++compared;
        const Tolerance tol =
            tolerance_for(test_oracle::to_oracle(chain.segment(c.part_a).shape, Transform::identity()),
                          test_oracle::to_oracle(body, xf));
        EXPECT_EQ(compare_with_fresh(c.manifold, fresh, tol.length, margin), "")
            << "step " << 150 + k << ", segment " << c.part_a;
      }
    }
    EXPECT_GE(compared, int(std::size(steps)));
  }
  // The discs: b slid across the line of centres by 3e-5 an update (the bound is 2e-4 x 1).
  {
    CollisionWorld world;
    const float margin = world.settings().contact_margin;
    const Shape disc = Shape::circle(1);
    const Transform xa{{0, 0}, Rot::identity()};
    world.add(disc, xa);
    Transform xb{{0.2f, 0}, Rot::identity()};
    const ColliderId b = world.add(disc, xb);
    long long reused = 0;
    for (int k = 0; k < 12; ++k) {
      world.update();
      reused += world.stats().reused;
      ASSERT_EQ(world.contacts().size(), 1u);
      const ContactPair& c = world.contacts()[0];
      const Manifold fresh = c.b == b ? collide(disc, xa, disc, xb, margin) : collide(disc, xb, disc, xa, margin);
      const Tolerance tol = tolerance_for(test_oracle::to_oracle(disc, xa), test_oracle::to_oracle(disc, xb));
      EXPECT_EQ(compare_with_fresh(c.manifold, fresh, tol.length, margin), "") << "update " << k;
      xb.p.y += 3e-5f;
      world.set_transform(b, xb);
    }
    EXPECT_GT(reused, 0);  // some updates carried it (the turn stayed within the bound)
  }
}
