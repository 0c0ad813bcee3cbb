// bench/mover_bench.cpp — one CharacterMover step (pebble/mover.hpp) of a capsule, a box or a
// rounded box walking at 5 m/s with gravity over rolling terrain: one open chain of 10,000
// segments (0.5 m each, slopes up to 27 degrees), back and forth. Box2D 2.4.1 has no mover; Box2D
// v3's b2World_CastMover + b2World_CollideMover + b2SolvePlanes loop on the same terrain was
// measured outside this repository (docs/mover.md gives the figures and how).
#include <cmath>
#include <vector>

#include "bench_common.hpp"

namespace bench {
namespace {

/// The terrain's height at x (both harnesses use this formula).
float terrain_height(float x) { return 1.5f * std::sin(x / 7.0f) + 0.7f * std::sin(x / 2.3f); }

void mover_step(benchmark::State& state, const pebble::Shape& shape) {
  constexpr int kSegments = 10000;
  pebble::CollisionWorld world;
  std::vector<pebble::Vec2> points;
  for (int i = kSegments; i >= 0; --i) {  // right to left: the solid below
    const float x = 0.5f * float(i);
    points.push_back({x, terrain_height(x)});
  }
  pebble::ColliderOptions fixed;
  fixed.fixed = true;
  world.add(pebble::Chain::open(points), pebble::Transform::identity(), fixed);
  pebble::CharacterMover mover(shape, {{10, terrain_height(10) + 1}, pebble::Rot::identity()});
  constexpr float kDt = 1.0f / 60.0f;
  float direction = 1;
  pebble::Vec2 velocity{};
  std::int64_t grounded = 0, steps = 0;
  for (auto _ : state) {
    const pebble::MoverStep s = mover.step(world, {5 * direction, velocity.y - 20 * kDt}, kDt);
    velocity = s.velocity;
    grounded += s.ground.grounded;
    ++steps;
    if (s.transform.p.x > 4990) direction = -1;
    if (s.transform.p.x < 10) direction = 1;
  }
  state.counters["grounded"] = double(grounded) / double(std::max<std::int64_t>(steps, 1));
}

}  // namespace

void register_mover_benchmarks() {
  // The shapes of `pebble mover` (tools/mover_demo.cpp): all 1.5 m tall and 0.6 m wide.
  benchmark::RegisterBenchmark("BM_MoverStep10k/capsule", mover_step,
                               pebble::Shape::capsule({0, -0.45f}, {0, 0.45f}, 0.3f));
  benchmark::RegisterBenchmark("BM_MoverStep10k/box", mover_step, pebble::Shape::box(0.3f, 0.75f));
  benchmark::RegisterBenchmark("BM_MoverStep10k/rounded-box", mover_step,
                               pebble::Shape::rounded_box(0.3f, 0.75f, 0.1f));
}

}  // namespace bench
