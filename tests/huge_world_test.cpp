// Huge worlds (issue 39, item 3): with PEBBLE_DOUBLE_POSITIONS a scene of boxes, discs, capsules,
// rounded boxes and triangles touching one another 1e7 m from the origin gives the contacts and
// distances it gives at the origin, to float accuracy of the scene's own size: each answer is
// compared with the long double oracle (tests/oracle/, which shares no code with src/) and must
// be as close to it as the same answer at the origin is, and the contact points, moved back by
// the offset, must lie within a few float steps of the scene's size of the origin's points.
// In a build with float positions the scene cannot even be placed there (a float step at 1e7 is
// 1 m), so the test is skipped with that message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include <pebble/cast.hpp>
#include <pebble/distance.hpp>
#include <pebble/manifold.hpp>
#include <pebble/ray.hpp>
#include <pebble/world.hpp>

#include "oracle/distance.hpp"
#include "to_oracle.hpp"

using namespace pebble;
using oracle::real;

namespace {

/// The scene: pairs of shapes in cells kCell apart on a kGrid x kGrid grid, each pair touching,
/// resting on each other or overlapping a little (the oracle's signed distance in [-0.05, 0.01]).
constexpr int kGrid = 8;
constexpr float kCell = 4;
constexpr real kSceneSize = kGrid * kCell;  // 32 m
/// Far from the origin, and not a float: 1e7 plus a fraction on both axes.
constexpr double kFarX = 1e7 + 0.3173, kFarY = -1e7 + 0.6819;

struct Body {
  Shape shape;
  Transform local;  // at the origin
};

Shape shape_of_kind(int kind) {
  switch (kind % 5) {
    case 0:
      return Shape::box(0.5f, 0.4f);
    case 1:
      return Shape::circle(0.45f);
    case 2:
      return Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.25f);
    case 3:
      return Shape::rounded_box(0.6f, 0.3f, 0.1f);
    default: {
      const Vec2 tri[3] = {{-0.5f, -0.4f}, {0.6f, -0.3f}, {0, 0.5f}};
      return Shape::polygon(tri);
    }
  }
}

Transform moved(const Transform& xf, double dx, double dy) {
  Transform out = xf;
  out.p.x = out.p.x + dx;
  out.p.y = out.p.y + dy;
  return out;
}

/// Shape b placed along direction u from a so that the oracle's distance is `target` (bisection
/// on the centre distance, in float steps: the position is a float at the origin).
std::vector<Body> make_scene() {
  std::mt19937 rng(3917);
  std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f), target(-0.05f, 0.01f);
  std::vector<Body> bodies;
  for (int i = 0; i < kGrid; ++i) {
    for (int j = 0; j < kGrid; ++j) {
      const Vec2 c{(float(i) + 0.5f) * kCell, (float(j) + 0.5f) * kCell};
      const Shape a = shape_of_kind(i * kGrid + j), b = shape_of_kind(i * 3 + j * 7 + 1);
      const Transform xa{c, Rot::from_angle(angle(rng))};
      const Rot qb = Rot::from_angle(angle(rng));
      const float du = angle(rng);
      const Vec2 u{std::cos(du), std::sin(du)};
      const real goal = target(rng);
      float lo = 0, hi = 3;  // centre distance: overlapping at lo, apart at hi
      for (int k = 0; k < 60; ++k) {
        const float mid = 0.5f * (lo + hi);
        const Transform xb{c + mid * u, qb};
        const real d = oracle::distance(test_oracle::to_oracle(a, xa), test_oracle::to_oracle(b, xb)).distance;
        (d < goal ? lo : hi) = mid;
      }
      bodies.push_back({a, xa});
      bodies.push_back({b, Transform{c + hi * u, qb}});
    }
  }
  return bodies;
}

/// What a world finds for one pair, with the oracle's view of it.
struct PairView {
  Manifold manifold;
  oracle::DistanceAnswer exact;
  oracle::RShape a, b;
};

std::map<std::pair<std::uint32_t, std::uint32_t>, PairView> world_contacts(const std::vector<Body>& bodies, double dx,
                                                                           double dy) {
  CollisionWorld world;
  std::vector<Transform> placed;
  for (const Body& body : bodies) {
    placed.push_back(moved(body.local, dx, dy));
    world.add(body.shape, placed.back());
  }
  world.update();
  std::map<std::pair<std::uint32_t, std::uint32_t>, PairView> out;
  for (const ContactPair& c : world.contacts()) {
    const oracle::RShape a = test_oracle::to_oracle(bodies[c.a.index].shape, placed[c.a.index]);
    const oracle::RShape b = test_oracle::to_oracle(bodies[c.b.index].shape, placed[c.b.index]);
    out[{c.a.index, c.b.index}] = {c.manifold, oracle::distance(a, b), a, b};
  }
  return out;
}

/// The worst error of a manifold against the oracle: its least separation against the exact
/// distance, and each point's two surface points (p -+ separation/2 n) against the surfaces.
real manifold_error(const PairView& v) {
  const Manifold& m = v.manifold;
  real least = 1e30L, worst = 0;
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& cp = m.points[i];
    least = std::min<real>(least, cp.separation);
    const real h = real(cp.separation) / 2;
    const oracle::V p{real(cp.point.x), real(cp.point.y)}, n{real(m.normal.x), real(m.normal.y)};
    worst = std::max(worst, std::fabs(oracle::signed_distance_to_surface(v.a, p - h * n)));
    worst = std::max(worst, std::fabs(oracle::signed_distance_to_surface(v.b, p + h * n)));
  }
  return std::max(worst, std::fabs(least - v.exact.distance));
}

}  // namespace

TEST(HugeWorld, ContactsAt1e7AreAsAccurateAsAtTheOrigin) {
  if (!PEBBLE_DOUBLE_POSITIONS) {
    GTEST_SKIP() << "positions are float in this build (a float step at 1e7 m is 1 m); configure with "
                    "-DPEBBLE_DOUBLE_POSITIONS=ON (docs/world.md, Huge worlds)";
  }
  const std::vector<Body> bodies = make_scene();
  const auto near = world_contacts(bodies, 0, 0);
  const auto far = world_contacts(bodies, kFarX, kFarY);
  // Every cell's pair touches (within the default margin), and nothing else does.
  ASSERT_GE(near.size(), std::size_t(kGrid * kGrid));
  ASSERT_EQ(near.size(), far.size());
  // Float accuracy of the scene's own size: a few float steps of 32 m (1.5e-5 m), where a float
  // position at 1e7 m is off by up to 0.5 m.
  const real scene_ulps = 8 * real(FLT_EPSILON) * kSceneSize;
  real worst_near = 0, worst_far = 0, worst_point = 0, worst_normal = 0;
  for (const auto& [key, n] : near) {
    const auto it = far.find(key);
    ASSERT_NE(it, far.end()) << "pair " << key.first << "-" << key.second << " touches only at the origin";
    const PairView& f = it->second;
    const real e_near = manifold_error(n), e_far = manifold_error(f);
    worst_near = std::max(worst_near, e_near);
    worst_far = std::max(worst_far, e_far);
    EXPECT_LE(e_far, e_near + scene_ulps) << "pair " << key.first << "-" << key.second;
    const real turn = std::fabs(
        std::atan2(real(cross(n.manifold.normal, f.manifold.normal)), real(dot(n.manifold.normal, f.manifold.normal))));
    worst_normal = std::max(worst_normal, turn);
    EXPECT_LE(turn, 1e-5L) << "pair " << key.first << "-" << key.second;
    if (n.manifold.count != f.manifold.count) continue;  // a clip at a tie may keep one point fewer
    for (int i = 0; i < n.manifold.count; ++i) {
      const real dx = (real(f.manifold.points[i].point.x) - real(kFarX)) - real(n.manifold.points[i].point.x);
      const real dy = (real(f.manifold.points[i].point.y) - real(kFarY)) - real(n.manifold.points[i].point.y);
      const real off = std::hypot(dx, dy);
      worst_point = std::max(worst_point, off);
      EXPECT_LE(off, scene_ulps) << "pair " << key.first << "-" << key.second << " point " << i;
      EXPECT_LE(std::fabs(f.manifold.points[i].separation - n.manifold.points[i].separation), scene_ulps);
    }
  }
  std::printf(
      "huge world: %zu pairs; worst manifold error against the oracle %.3Lg m at the origin, %.3Lg m at 1e7; "
      "points %.3Lg m apart, normals %.3Lg rad\n",
      near.size(), worst_near, worst_far, worst_point, worst_normal);
}

TEST(HugeWorld, DistanceAt1e7AgreesWithTheOracle) {
  if (!PEBBLE_DOUBLE_POSITIONS) GTEST_SKIP() << "positions are float in this build";
  const std::vector<Body> bodies = make_scene();
  const real scene_ulps = 8 * real(FLT_EPSILON) * kSceneSize;
  real worst = 0;
  for (std::size_t i = 0; i + 1 < bodies.size(); i += 2) {
    const Body &a = bodies[i], &b = bodies[i + 1];
    const DistanceResult at_origin = distance(a.shape, a.local, b.shape, b.local);
    const Transform xa = moved(a.local, kFarX, kFarY), xb = moved(b.local, kFarX, kFarY);
    const DistanceResult far = distance(a.shape, xa, b.shape, xb);
    const oracle::RShape ra = test_oracle::to_oracle(a.shape, xa), rb = test_oracle::to_oracle(b.shape, xb);
    const oracle::DistanceAnswer exact = oracle::distance(ra, rb);
    const oracle::RShape oa = test_oracle::to_oracle(a.shape, a.local), ob = test_oracle::to_oracle(b.shape, b.local);
    const real near_error = std::fabs(at_origin.distance - oracle::distance(oa, ob).distance);
    const real far_error = std::fabs(far.distance - exact.distance);
    EXPECT_LE(far_error, near_error + scene_ulps) << "pair " << i;
    // The witnesses lie on the surfaces, as they do at the origin.
    const oracle::V pa{real(far.point_a.x), real(far.point_a.y)}, pb{real(far.point_b.x), real(far.point_b.y)};
    const real on_a = std::fabs(oracle::signed_distance_to_surface(ra, pa));
    const real on_b = std::fabs(oracle::signed_distance_to_surface(rb, pb));
    EXPECT_LE(on_a, scene_ulps) << "pair " << i;
    EXPECT_LE(on_b, scene_ulps) << "pair " << i;
    worst = std::max({worst, far_error, on_a, on_b});
  }
  std::printf("huge world: distance() at 1e7, worst error against the oracle %.3Lg m\n", worst);
}

namespace {

/// A dense random pile of `count` colliders of sizes 0.05 to 2 m in a `side` m square, at the
/// origin or moved by (dx, dy).
std::vector<Body> make_pile(int count, float side) {
  std::mt19937 rng(8123);
  std::uniform_real_distribution<float> unit(0, 1), angle(-3.14159f, 3.14159f);
  std::vector<Body> bodies;
  for (int i = 0; i < count; ++i) {
    const float s = 0.05f + 1.95f * unit(rng) * unit(rng);
    Shape shape = Shape::circle(0.5f * s);
    switch (i % 4) {
      case 0:
        shape = Shape::box(0.5f * s, 0.3f * s);
        break;
      case 1:
        shape = Shape::capsule({-0.5f * s, 0}, {0.5f * s, 0}, 0.2f * s);
        break;
      case 2:
        shape = Shape::rounded_box(0.6f * s, 0.4f * s, 0.1f * s);
        break;
      default:
        break;
    }
    bodies.push_back({shape, Transform{{side * unit(rng), side * unit(rng)}, Rot::from_angle(angle(rng))}});
  }
  // And pairs set apart by 0.3 to 0.95 of the contact margin (bisection on the oracle, as in
  // make_scene()), right of the pile: contacts that boxes grown by less than half the margin lose.
  const float margin = WorldSettings{}.contact_margin;
  std::uniform_real_distribution<float> gap(0.3f * margin, 0.95f * margin);
  for (int i = 0; i < 64; ++i) {
    const Vec2 c{side + 4 + 4 * float(i % 8), 4 * float(i / 8)};
    const Shape a = shape_of_kind(i), b = shape_of_kind(i * 3 + 1);
    const Transform xa{c, Rot::from_angle(angle(rng))};
    const Rot qb = Rot::from_angle(angle(rng));
    const float du = angle(rng);
    const Vec2 u{std::cos(du), std::sin(du)};
    const real goal = gap(rng);
    float lo = 0, hi = 3;
    for (int k = 0; k < 60; ++k) {
      const float mid = 0.5f * (lo + hi);
      const real d =
          oracle::distance(test_oracle::to_oracle(a, xa), test_oracle::to_oracle(b, Transform{c + mid * u, qb}))
              .distance;
      (d < goal ? lo : hi) = mid;
    }
    bodies.push_back({a, xa});
    bodies.push_back({b, Transform{c + lo * u, qb}});
  }
  return bodies;
}

struct PileWorld {
  CollisionWorld world;
  std::vector<Transform> placed;
  std::vector<ColliderId> ids;
};

void fill(PileWorld& w, const std::vector<Body>& bodies, double dx, double dy) {
  for (const Body& body : bodies) {
    w.placed.push_back(moved(body.local, dx, dy));
    w.ids.push_back(w.world.add(body.shape, w.placed.back()));
  }
  w.world.update();
}

}  // namespace

// The world's boxes (and so its candidate pairs) at 1e7 m are those at the origin: the slacks for
// float rounding scale with each shape's own reach, not with its distance from the origin
// (src/world/internal.hpp, grown()). Every pair the long double oracle puts within the contact
// margin is among the contacts, every contact is such a pair or within rounding of one, and no
// box is more than its shape's exact box plus the margin and a size slack.
TEST(HugeWorld, BoxesAndPairsAt1e7AreThoseAtTheOrigin) {
  if (!PEBBLE_DOUBLE_POSITIONS) GTEST_SKIP() << "positions are float in this build";
  const std::vector<Body> bodies = make_pile(400, 24);
  PileWorld near, far;
  fill(near, bodies, 0, 0);
  fill(far, bodies, kFarX, kFarY);
  const float margin = WorldSettings{}.contact_margin;

  // Boxes: as tight at 1e7 as at the origin, against the exact box of the shape.
  double worst_fat = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Aabb box = far.world.box(far.ids[i]);
    const Aabb box0 = near.world.box(near.ids[i]);
    const double allowed = 0.5 * margin + 2e-3 * double(bodies[i].shape.extent()) + 1e-6;
    const oracle::RShape exact = test_oracle::to_oracle(bodies[i].shape, far.placed[i]);
    // The exact box of the placed shape: every core vertex grown by the radius.
    real lo_x = 1e30L, lo_y = 1e30L, hi_x = -1e30L, hi_y = -1e30L;
    for (const oracle::V& v : exact.core) {
      lo_x = std::min(lo_x, v.x - exact.radius);
      lo_y = std::min(lo_y, v.y - exact.radius);
      hi_x = std::max(hi_x, v.x + exact.radius);
      hi_y = std::max(hi_y, v.y + exact.radius);
    }
    ASSERT_LE(real(box.lower.x), lo_x) << "collider " << i;
    ASSERT_LE(real(box.lower.y), lo_y) << "collider " << i;
    ASSERT_GE(real(box.upper.x), hi_x) << "collider " << i;
    ASSERT_GE(real(box.upper.y), hi_y) << "collider " << i;
    const double fat = double(std::max(
        {lo_x - real(box.lower.x), lo_y - real(box.lower.y), real(box.upper.x) - hi_x, real(box.upper.y) - hi_y}));
    worst_fat = std::max(worst_fat, fat);
    EXPECT_LE(fat, allowed) << "collider " << i << ": its box at 1e7 m is " << fat << " m fatter than the shape";
    // The same box as at the origin, moved (to the rounding of the offset).
    EXPECT_NEAR(box.lower.x - kFarX, box0.lower.x, 1e-6) << "collider " << i;
    EXPECT_NEAR(box.upper.y - kFarY, box0.upper.y, 1e-6) << "collider " << i;
  }
  EXPECT_EQ(far.world.stats().pairs, near.world.stats().pairs);

  // Contacts against the oracle, by brute force over every pair.
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> found;
  for (const ContactPair& c : far.world.contacts()) found[{c.a.index, c.b.index}] = c.manifold.count;
  std::vector<oracle::RShape> exact;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    exact.push_back(test_oracle::to_oracle(bodies[i].shape, far.placed[i]));
  int within = 0, contacts_checked = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      const real dx = real(far.placed[j].p.x) - real(far.placed[i].p.x);
      const real dy = real(far.placed[j].p.y) - real(far.placed[i].p.y);
      if (std::hypot(dx, dy) > 8) continue;  // two shapes of at most 2 m, plus their local offsets
      const real d = oracle::distance(exact[i], exact[j]).distance;
      // collide() is accurate to 1e-3 of the smaller shape's size (DESIGN.md).
      const real tol = 2e-3L * std::min(bodies[i].shape.extent(), bodies[j].shape.extent()) + 1e-6L;
      const bool listed = found.count({std::uint32_t(i), std::uint32_t(j)}) > 0;
      if (d <= real(margin) - tol) {
        ++within;
        EXPECT_TRUE(listed) << "pair " << i << "-" << j << " at " << double(d) << " m is not a contact at 1e7 m";
      } else if (d > real(margin) + tol) {
        EXPECT_FALSE(listed) << "pair " << i << "-" << j << " at " << double(d) << " m is a contact at 1e7 m";
      }
      contacts_checked += listed;
    }
  }
  EXPECT_EQ(contacts_checked, int(found.size()));
  EXPECT_GT(within, 150);
  std::printf(
      "huge world: %d pairs within the margin, %zu contacts, %d candidate pairs at 1e7 (%d at the origin); "
      "boxes at most %.3g m beyond the shapes\n",
      within, found.size(), far.world.stats().pairs, near.world.stats().pairs, worst_fat);
}

// The world's casts at 1e7 m find what casting against every collider one by one finds: the
// casts' rounding slack, now relative to the cast's own reach, loses no hit.
TEST(HugeWorld, CastsAt1e7FindTheClosestHitOfAllColliders) {
  if (!PEBBLE_DOUBLE_POSITIONS) GTEST_SKIP() << "positions are float in this build";
  const std::vector<Body> bodies = make_pile(400, 24);
  PileWorld far;
  fill(far, bodies, kFarX, kFarY);
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> unit(0, 1), angle(-3.14159f, 3.14159f);
  const Shape probe = Shape::rounded_box(0.2f, 0.1f, 0.05f);
  int hits = 0;
  for (int k = 0; k < 300; ++k) {
    const Position from{Coordinate(kFarX + double(24 * unit(rng))), Coordinate(kFarY + double(24 * unit(rng)))};
    const float a = angle(rng), len = 0.5f + 6 * unit(rng);
    const Vec2 t{len * std::cos(a), len * std::sin(a)};
    // Brute force: the least fraction over every collider.
    float best_ray = 2, best_shape = 2;
    const Transform at{from, Rot::from_angle(a)};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const CastResult r = cast_ray(bodies[i].shape, far.placed[i], Ray{from, t});
      if (r.hit) best_ray = std::min(best_ray, r.fraction);
      const CastResult s = cast_shape(probe, at, t, bodies[i].shape, far.placed[i], Vec2{});
      if (s.hit) best_shape = std::min(best_shape, s.fraction);
    }
    const WorldCastResult ray = far.world.cast_ray(Ray{from, t});
    EXPECT_EQ(ray.hit.hit, best_ray <= 1) << "ray " << k;
    if (ray.hit.hit) {
      EXPECT_EQ(ray.hit.fraction, best_ray) << "ray " << k;
    }
    const WorldCastResult shape = far.world.cast_shape(probe, at, t);
    EXPECT_EQ(shape.hit.hit, best_shape <= 1) << "shape cast " << k;
    if (shape.hit.hit) {
      EXPECT_EQ(shape.hit.fraction, best_shape) << "shape cast " << k;
    }
    hits += ray.hit.hit + shape.hit.hit;
  }
  EXPECT_GT(hits, 300);
}
