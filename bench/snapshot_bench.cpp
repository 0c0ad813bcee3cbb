// bench/snapshot_bench.cpp — CollisionWorld::save() and restore() of a world of 10k colliders at
// rest (docs/world.md, "Snapshot and restore"): boxes, discs and capsules on a grid, each touching
// its neighbours, on a ground chain, after a few updates with small moves (so that the pairs keep
// manifolds for contact reuse). Counters: the snapshot's bytes per collider (against rapier's
// about 1 KB per body, rapier issue #991), pairs and contacts per collider. No Box2D counterpart:
// Box2D 2.4.1 has no snapshot.
#include <memory>

#include <pebble/chain.hpp>
#include <pebble/world.hpp>

#include "bench_common.hpp"

namespace bench {
namespace {

/// n colliders in rows of 100, each 1 wide, 0.98 apart (so neighbours overlap by 0.02), over a
/// ground chain, updated 4 times with moves of 1e-4.
std::unique_ptr<pebble::CollisionWorld> resting_grid(int n) {
  auto world = std::make_unique<pebble::CollisionWorld>();
  std::vector<pebble::ColliderId> ids;
  const int columns = 100;
  for (int i = 0; i < n; ++i) {
    const int col = i % columns, row = i / columns;
    const pebble::Shape shape = i % 3 == 0   ? pebble::Shape::box(0.5f, 0.5f)
                                : i % 3 == 1 ? pebble::Shape::circle(0.5f)
                                             : pebble::Shape::capsule({-0.25f, 0}, {0.25f, 0}, 0.25f);
    ids.push_back(world->add(shape, {{0.98f * float(col), 0.98f * float(row)}, pebble::Rot::identity()}));
  }
  const pebble::Vec2 ground[] = {{-2, -0.49f}, {50, -0.49f}, {102, -0.49f}};
  world->add(pebble::Chain::open(ground), pebble::Transform::identity());
  world->update();
  Rng rng(kSeed);
  for (int step = 0; step < 4; ++step) {
    for (const pebble::ColliderId id : ids) {
      pebble::Transform xf = *world->transform(id);
      xf.p = xf.p + pebble::Vec2{uniform(rng, -1e-4f, 1e-4f), uniform(rng, -1e-4f, 1e-4f)};
      world->set_transform(id, xf);
    }
    world->update();
  }
  return world;
}

void counters(benchmark::State& state, const pebble::CollisionWorld& world, std::size_t bytes) {
  const double n = world.size();
  state.counters["bytes_per_collider"] = double(bytes) / n;
  state.counters["pairs_per_collider"] = world.stats().pairs / n;
  state.counters["contacts_per_collider"] = double(world.contacts().size()) / n;
  state.counters["MB"] = double(bytes) / 1e6;
}

void BM_WorldSave(benchmark::State& state) {
  const auto world = resting_grid(int(state.range(0)));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::vector<std::byte> snapshot = world->save();
    bytes = snapshot.size();
    benchmark::DoNotOptimize(snapshot.data());
  }
  counters(state, *world, bytes);
}
BENCHMARK(BM_WorldSave)->Arg(10000)->Unit(benchmark::kMicrosecond);

void BM_WorldRestore(benchmark::State& state) {
  const auto world = resting_grid(int(state.range(0)));
  const std::vector<std::byte> snapshot = world->save();
  for (auto _ : state) {
    pebble::CollisionWorld restored = pebble::CollisionWorld::restore(snapshot);
    benchmark::DoNotOptimize(&restored);
  }
  counters(state, *world, snapshot.size());
}
BENCHMARK(BM_WorldRestore)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace bench
