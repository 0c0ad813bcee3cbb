// bench/terrain_bench.cpp — terrain beside Box2D 2.4.1's b2ChainShape: a box resting on, and sliding
// along, a 10k-segment chain, one step per iteration. pebble: set_transform() of the box and
// update() of a CollisionWorld holding the chain (fixed) and the box, reading contacts(). Box2D: the
// collision half of a b2World step for the same pair, without the solver: the chain's child edges
// in a b2DynamicTree, a query with the box's AABB grown by the same margin, and
// b2CollideEdgeAndPolygon (one-sided edges with ghost vertices, 2.4.1's smooth chain collision) plus
// b2WorldManifold on each edge found. A compound of 20 parts lying on the chain, and the same
// compound standing on one end, shows the cost following the touching parts, not all parts. And a
// world of 1,000 bodies on a 10k-cell Heightfield beside the same terrain as a Chain.
#include <cstdint>
#include <vector>

#include "bench_common.hpp"

namespace bench {
namespace {

constexpr int kSegments = 10000;
constexpr float kStep = 0.5f;  // segment length
constexpr float kMargin = pebble::kDefaultContactMargin;

// A gently rolling floor from x = kSegments * kStep down to 0 (a floor runs right to left so that
// it collides on its upper side), with its Box2D twin built from the same floats.
struct Terrain {
  std::vector<pebble::Vec2> points;
  Terrain() {
    for (int i = kSegments; i >= 0; --i) {
      const float x = float(i) * kStep;
      points.push_back({x, 0.3f * std::sin(0.05f * x)});
    }
  }
  float height(float x) const { return 0.3f * std::sin(0.05f * x); }
};

const Terrain& terrain() {
  static const Terrain t;
  return t;
}

const pebble::Shape kBox = pebble::Shape::box(0.5f, 0.5f);

// The box's pose at step f: sliding (0.05 per step, back and forth over 400 m) or resting.
pebble::Transform box_pose(std::int64_t f, bool sliding) {
  const std::int64_t period = 8000;
  const std::int64_t t = f % (2 * period);
  const float s = sliding ? float(t < period ? t : 2 * period - t) * 0.05f : 0.0f;
  const float x = 2000 + s;
  const float slope = 0.3f * 0.05f * std::cos(0.05f * x);
  const float angle = std::atan(slope);
  // Resting on the floor: the box's lowest point 1 mm into it.
  const float y = terrain().height(x) + 0.5f * (std::cos(angle) + std::fabs(std::sin(angle))) - 0.001f;
  return {{x, y}, pebble::Rot::from_angle(angle)};
}

void chain_pebble(benchmark::State& state, bool sliding) {
  pebble::CollisionWorld world;
  world.add(pebble::Chain::open(terrain().points), pebble::Transform::identity());
  const pebble::ColliderId box = world.add(kBox, box_pose(0, sliding));
  world.update();
  std::int64_t f = 0, contacts = 0, points = 0;
  for (auto _ : state) {
    world.set_transform(box, box_pose(++f, sliding));
    world.update();
    for (const pebble::ContactPair& c : world.contacts()) {
      ++contacts;
      points += c.manifold.count;
    }
    benchmark::DoNotOptimize(points);
  }
  state.counters["contacts"] = double(contacts) / double(std::max<std::int64_t>(f, 1));
  state.counters["points"] = double(points) / double(std::max<std::int64_t>(f, 1));
}

void chain_box2d(benchmark::State& state, bool sliding) {
  std::vector<b2Vec2> vertices;
  for (const pebble::Vec2 p : terrain().points) vertices.push_back(to_b2(p));
  b2ChainShape chain;
  chain.CreateChain(vertices.data(), int32(vertices.size()), vertices.front(), vertices.back());
  b2DynamicTree tree;
  const b2Transform identity(b2Vec2(0, 0), b2Rot(0));
  for (int32 i = 0; i < chain.GetChildCount(); ++i) {
    b2AABB box;
    chain.ComputeAABB(&box, identity, i);
    tree.CreateProxy(box, reinterpret_cast<void*>(std::intptr_t(i)));
  }
  b2PolygonShape b2_box;
  b2_box.SetAsBox(0.5f, 0.5f);
  struct Query {
    const b2DynamicTree* tree;
    const b2ChainShape* chain;
    const b2PolygonShape* box;
    b2Transform chain_xf, box_xf;
    std::int64_t contacts = 0, points = 0;
    float sink = 0;
    bool QueryCallback(int32 proxy) {
      b2EdgeShape edge;
      chain->GetChildEdge(&edge, int32(reinterpret_cast<std::intptr_t>(tree->GetUserData(proxy))));
      b2Manifold m;
      b2CollideEdgeAndPolygon(&m, &edge, chain_xf, box, box_xf);
      if (m.pointCount > 0) {
        b2WorldManifold world;
        world.Initialize(&m, chain_xf, edge.m_radius, box_xf, box->m_radius);
        ++contacts;
        points += m.pointCount;
        sink += world.points[0].x;
      }
      return true;
    }
  };
  Query q{&tree, &chain, &b2_box, identity, identity};
  std::int64_t f = 0;
  for (auto _ : state) {
    q.box_xf = to_b2(box_pose(++f, sliding));
    b2AABB aabb;
    b2_box.ComputeAABB(&aabb, q.box_xf, 0);
    aabb.lowerBound -= b2Vec2(kMargin, kMargin);
    aabb.upperBound += b2Vec2(kMargin, kMargin);
    tree.Query(&q, aabb);
    benchmark::DoNotOptimize(q.sink);
  }
  state.counters["contacts"] = double(q.contacts) / double(std::max<std::int64_t>(f, 1));
  state.counters["points"] = double(q.points) / double(std::max<std::int64_t>(f, 1));
}

// A bar of 20 square parts (0.25 m each) lying on a flat chain (every part touches) or standing
// on its end (one part touches), nudged each step so that update() collides its pairs again.
void compound_pebble(benchmark::State& state, bool lying) {
  std::vector<pebble::Vec2> flat;
  for (int i = 400; i >= 0; --i) flat.push_back({float(i) * kStep, 0});
  std::vector<pebble::Shape> parts;
  for (int k = 0; k < 20; ++k) parts.push_back(pebble::Shape::box(0.125f, 0.125f, {0.25f * float(k), 0}, 0));
  pebble::CollisionWorld world;
  world.add(pebble::Chain::open(flat), pebble::Transform::identity());
  const float angle = lying ? 0.0f : 0.5f * kPi;
  const pebble::Vec2 base{100, 0.124f};
  const pebble::ColliderId bar = world.add(parts, {base, pebble::Rot::from_angle(angle)});
  world.update();
  std::int64_t f = 0, contacts = 0;
  for (auto _ : state) {
    const float wiggle = (++f & 1) ? 1e-4f : 0.0f;
    world.set_transform(bar, {base + pebble::Vec2{wiggle, 0}, pebble::Rot::from_angle(angle)});
    world.update();
    contacts += std::int64_t(world.contacts().size());
  }
  state.counters["contacts"] = double(contacts) / double(std::max<std::int64_t>(f, 1));
  state.counters["collided"] = world.stats().collided;
}

// 1,000 bodies (boxes and discs, 0.3 to 0.5 m) sliding along the same 10k-cell terrain, given as a
// Heightfield or as the Chain of its points: set_transforms() of every body and update(), per step.
// The world holds both as the same one-sided segments (a heightfield's part i is its cell i), so
// the two should cost the same; the benchmark checks that nothing in the heightfield path does more.
void terrain_world(benchmark::State& state, bool heightfield) {
  std::vector<float> heights;
  for (int i = 0; i <= kSegments; ++i) heights.push_back(terrain().height(float(i) * kStep));
  const pebble::Heightfield field = pebble::Heightfield::make(heights, kStep);
  pebble::CollisionWorld world;
  if (heightfield) {
    world.add(field, pebble::Transform::identity());
  } else {
    world.add(field.chain(), pebble::Transform::identity());
  }
  constexpr int kBodies = 1000;
  std::vector<pebble::ColliderId> ids;
  std::vector<pebble::Transform> poses(kBodies);
  std::vector<pebble::Shape> shapes;
  const auto pose = [&](int i, std::int64_t f) {
    // Spread over the terrain, 5 m apart, each sliding 0.02 m per step back and forth over 2 m.
    const std::int64_t t = f % 200;
    const float x = 5.0f + 4.99f * float(i) + 0.02f * float(t < 100 ? t : 200 - t);
    const float half = i % 2 ? 0.3f : 0.25f;
    return pebble::Transform{{x, terrain().height(x) + half - 0.001f},
                             pebble::Rot::identity()};  // 1 mm into the ground
  };
  for (int i = 0; i < kBodies; ++i) {
    shapes.push_back(i % 2 ? pebble::Shape::circle(0.3f) : pebble::Shape::box(0.5f, 0.25f));
    ids.push_back(world.add(shapes.back(), pose(i, 0)));
  }
  world.update();
  std::int64_t f = 0, contacts = 0;
  for (auto _ : state) {
    ++f;
    for (int i = 0; i < kBodies; ++i) poses[std::size_t(i)] = pose(i, f);
    world.set_transforms(ids, poses);
    world.update();
    contacts += std::int64_t(world.contacts().size());
  }
  state.counters["contacts"] = double(contacts) / double(std::max<std::int64_t>(f, 1));
}

}  // namespace

void register_terrain_benchmarks() {
  benchmark::RegisterBenchmark("BM_TerrainWorld10kCells1kBodies/heightfield/pebble",
                               [](benchmark::State& s) { terrain_world(s, true); });
  benchmark::RegisterBenchmark("BM_TerrainWorld10kCells1kBodies/chain/pebble",
                               [](benchmark::State& s) { terrain_world(s, false); });
  add_pair(
      "BM_BoxRestingOnChain10k",
      "box resting on a 10k-segment chain, per step (world update / tree query + b2CollideEdgeAndPolygon)",
      [](benchmark::State& s) { chain_pebble(s, false); }, [](benchmark::State& s) { chain_box2d(s, false); });
  add_pair(
      "BM_BoxSlidingOnChain10k", "box sliding along a 10k-segment chain, per step",
      [](benchmark::State& s) { chain_pebble(s, true); }, [](benchmark::State& s) { chain_box2d(s, true); });
  benchmark::RegisterBenchmark("BM_CompoundOnChain/lying/pebble",
                               [](benchmark::State& s) { compound_pebble(s, true); });
  benchmark::RegisterBenchmark("BM_CompoundOnChain/standing/pebble",
                               [](benchmark::State& s) { compound_pebble(s, false); });
}

}  // namespace bench
