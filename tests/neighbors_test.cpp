// Nearest neighbours (issue 26): AabbTree::nearest against a brute force over the fat boxes, and
// CollisionWorld::nearest / within_radius against a brute force over every part, with the
// distances checked by the long-double oracle and no collider left out that the oracle puts
// nearer than the last one reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "oracle/distance.hpp"
#include "pebble/pebble.hpp"
#include "to_oracle.hpp"

using namespace pebble;

namespace {

float gap(const Aabb& a, const Aabb& b) {
  const double dx = std::max({0.0, double(a.lower.x) - b.upper.x, double(b.lower.x) - a.upper.x});
  const double dy = std::max({0.0, double(a.lower.y) - b.upper.y, double(b.lower.y) - a.upper.y});
  return float(std::sqrt(dx * dx + dy * dy));
}

TEST(Neighbors, TreeNearestIsTheBruteForceOrder) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> pos(-50, 50), half(0.05f, 2.0f);
  AabbTree tree;
  std::vector<ProxyId> ids;
  std::vector<std::uint64_t> category;
  for (int i = 0; i < 600; ++i) {
    const Vec2 c{pos(rng), pos(rng)}, h{half(rng), half(rng)};
    category.push_back(i % 5 == 0 ? 2 : 1);
    ids.push_back(tree.create_proxy({c - h, c + h}, 0, category.back()));
    if (i % 7 == 0) {  // some churn: freed ids are reused
      tree.destroy_proxy(ids[std::size_t(rng() % ids.size())]);
      ids.erase(std::find_if(ids.begin(), ids.end(), [&](ProxyId id) { return !tree.is_proxy(id); }));
    }
  }
  std::vector<ProxyId> live;
  for (ProxyId id = 0; id < tree.proxy_capacity(); ++id)
    if (tree.is_proxy(id)) live.push_back(id);
  for (int q = 0; q < 400; ++q) {
    const Vec2 c{pos(rng) * 1.2f, pos(rng) * 1.2f};
    const Aabb box = q % 2 ? Aabb{c, c} : Aabb{c - Vec2{1, 0.5f}, c + Vec2{1, 0.5f}};
    const int k = 1 + int(rng() % 25);
    const float max_distance = q % 3 == 0 ? 8.0f : std::numeric_limits<float>::infinity();
    const std::uint64_t mask = q % 4 == 0 ? 2 : ~0ull;
    std::vector<TreeNeighbor> want;
    for (const ProxyId id : live) {
      if ((tree.category(id) & mask) == 0) continue;
      const float g = AabbTree::box_gap(box, tree.fat_box(id));
      ASSERT_NEAR(g, gap(box, tree.fat_box(id)), 1e-5f * (1 + g));
      if (g <= max_distance) want.push_back({id, g});
    }
    std::sort(want.begin(), want.end(), [](const TreeNeighbor& a, const TreeNeighbor& b) {
      return a.distance < b.distance || (a.distance == b.distance && a.id < b.id);
    });
    want.resize(std::min<std::size_t>(want.size(), std::size_t(k)));
    std::vector<TreeNeighbor> got(static_cast<std::size_t>(k));
    got.resize(std::size_t(tree.nearest(box, got, max_distance, mask)));
    ASSERT_EQ(got.size(), want.size()) << "query " << q;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].id, want[i].id) << "query " << q << " rank " << i;
      EXPECT_EQ(got[i].distance, want[i].distance);
    }
  }
  // Bad input finds nothing.
  std::vector<TreeNeighbor> out(3);
  EXPECT_EQ(tree.nearest(Vec2{0, 0}, out, -1.0f), 0);
  EXPECT_EQ(tree.nearest(Vec2{0, 0}, out, std::nanf("")), 0);
  EXPECT_EQ(tree.nearest(Aabb{{1, 1}, {0, 0}}, out), 0);
  EXPECT_EQ(tree.nearest(Vec2{0, 0}, std::span<TreeNeighbor>{}), 0);
  EXPECT_EQ(AabbTree().nearest(Vec2{0, 0}, out), 0);
}

struct Collider {
  ColliderId id;
  std::vector<Shape> parts;
  Transform xf;
  bool fixed = false;
};

TEST(Neighbors, WorldNearestIsTheBruteForceOrderAndTheOracleAgrees) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> pos(-30, 30), angle(-3.1f, 3.1f), size(0.2f, 1.5f);
  CollisionWorld world;
  std::vector<Collider> colliders;
  for (int i = 0; i < 250; ++i) {
    Collider c;
    const int kind = i % 5;
    if (kind == 0) c.parts = {Shape::circle(size(rng))};
    if (kind == 1) c.parts = {Shape::capsule({-size(rng), 0}, {size(rng), 0}, 0.3f)};
    if (kind == 2) c.parts = {Shape::rounded_box(size(rng), size(rng), 0.1f)};
    if (kind == 3)
      c.parts = {Shape::box(size(rng), 0.3f, {0.8f, 0}, 0),
                 Shape::box(0.3f, size(rng), {-0.5f, 0.5f}, 0.4f)};  // a compound
    if (kind == 4) c.parts = {Shape::polygon(std::vector<Vec2>{{0, 0}, {size(rng), 0}, {0, size(rng)}})};
    c.xf = {{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))};
    c.fixed = i % 3 == 0;
    ColliderOptions o;
    o.fixed = c.fixed;
    o.filter.category = i % 4 == 0 ? 2 : 1;
    c.id = c.parts.size() == 1 ? world.add(c.parts[0], c.xf, o) : world.add(std::span<const Shape>(c.parts), c.xf, o);
    colliders.push_back(c);
  }
  // A chain across the field, one collider of many parts.
  const Chain chain = Chain::open(std::vector<Vec2>{{30, -10}, {10, -12}, {-5, -8}, {-30, -14}});
  ColliderOptions fixed;
  fixed.fixed = true;
  const ColliderId chain_id = world.add(chain, Transform::identity(), fixed);
  world.update();

  const Shape agent = Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.4f);
  int checked = 0;
  for (int q = 0; q < 300; ++q) {
    const Transform at{{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))};
    const int k = 1 + int(rng() % 12);
    const float radius = q % 3 == 0 ? 6.0f : std::numeric_limits<float>::infinity();
    QueryFilter filter;
    if (q % 5 == 0) filter.mask = 2;
    if (q % 7 == 0) filter.fixed = false;
    // Brute force: every collider's nearest part by distance().
    std::vector<Neighbor> want;
    for (const Collider& c : colliders) {
      if (!(world.options(c.id)->filter.category & filter.mask) || (!filter.fixed && c.fixed)) continue;
      Neighbor best{c.id, 0, std::numeric_limits<float>::infinity()};
      for (int p = 0; p < int(c.parts.size()); ++p) {
        const float d = distance(c.parts[std::size_t(p)], c.xf, agent, at).distance;
        if (d < best.distance) best = {c.id, p, d};
      }
      if (best.distance <= radius) want.push_back(best);
    }
    if (filter.fixed && (filter.mask & 1)) {
      Neighbor best{chain_id, 0, std::numeric_limits<float>::infinity()};
      for (int p = 0; p < chain.segment_count(); ++p) {
        const float d = distance(chain.segment(p), Transform::identity(), agent, at).distance;
        if (d < best.distance) best = {chain_id, p, d};
      }
      if (best.distance <= radius) want.push_back(best);
    }
    std::sort(want.begin(), want.end(), [](const Neighbor& a, const Neighbor& b) {
      return a.distance < b.distance ||
             (a.distance == b.distance && (a.id.index < b.id.index || (a.id.index == b.id.index && a.part < b.part)));
    });
    std::vector<Neighbor> all = want;
    want.resize(std::min<std::size_t>(want.size(), std::size_t(k)));
    std::vector<Neighbor> got(static_cast<std::size_t>(k));
    got.resize(std::size_t(q % 2 ? world.within_radius(agent, at, radius, got, filter)
                                 : world.nearest(agent, at, got, radius, filter)));
    ASSERT_EQ(got.size(), want.size()) << "query " << q;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].id, want[i].id) << "query " << q << " rank " << i;
      EXPECT_EQ(got[i].part, want[i].part);
      EXPECT_EQ(got[i].distance, want[i].distance);
    }
    // The oracle: each reported distance is the true one within the contract's accuracy, and
    // nothing left out is truly nearer than the last reported by more than that.
    if (got.empty()) continue;
    const oracle::RShape agent_exact = test_oracle::to_oracle(agent, at);
    const auto exact = [&](const Neighbor& n) {
      const Shape& part = n.id == chain_id ? chain.segment(n.part).shape : *world.part(n.id, n.part);
      return oracle::distance(test_oracle::to_oracle(part, *world.transform(n.id)), agent_exact).distance;
    };
    const long double tolerance = 2e-3L;  // 1e-3 x the sizes here (0.2-3) plus rounding at 30
    for (const Neighbor& n : got) EXPECT_NEAR(double(exact(n)), double(n.distance), double(tolerance)) << "query " << q;
    for (std::size_t i = got.size(); i < all.size(); ++i)
      EXPECT_GE(exact(all[i]), (long double)got.back().distance - tolerance);
    ++checked;
  }
  EXPECT_GT(checked, 250);
  // Bad input: nothing.
  std::vector<Neighbor> out(4);
  EXPECT_EQ(world.nearest(agent, Transform{{std::nanf(""), 0}, Rot::identity()}, out), 0);
  EXPECT_EQ(world.nearest(agent, Transform::identity(), out, -1.0f), 0);
  EXPECT_EQ(world.within_radius(agent, Transform::identity(), std::nanf(""), out), 0);
}

}  // namespace
