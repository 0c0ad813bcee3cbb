// Huge worlds (issue 39, item 3): with PEBBLE_DOUBLE_POSITIONS a scene of boxes, discs, capsules,
// rounded boxes and triangles touching one another 1e7 m from the origin gives the contacts and
// distances it gives at the origin, to float accuracy of the scene's own size: each answer is
// compared with the long double oracle (tests/oracle/, which shares no code with src/) and must
// be as close to it as the same answer at the origin is, and the contact points, moved back by
// the offset, must lie within a few float steps of the scene's size of the origin's points.
// In a build with float positions the scene cannot even be placed there (a float step at 1e7 is
// 1 m), so the test is skipped with that message.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include <pebble/distance.hpp>
#include <pebble/manifold.hpp>
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
