// bench/world_bench.cpp — the broadphase beside Box2D 2.4.1's b2BroadPhase and b2DynamicTree on the
// same scenes: boxes moving randomly (10k, 100k, and 1k to 1M for the time per object), 40k circles
// with about 15k overlapping pairs (and its tenth-size and ten-times-faster variants). Each
// iteration is one step: every object moves (MoveProxy / move_proxy), then the pairs of the moved
// proxies are found (UpdatePairs / find_moved_pairs). Scenes are built once per process and keep
// stepping across repetitions; their motion is periodic (out and back), so a long run does not
// drift into a different scene.
#include <cstdint>
#include <memory>

#include "bench_common.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Scenes.

/// Objects moving on straight lines out and back: at frame f the object is at start + s v with
/// s = f mod 2P counted up to P and back down. Both libraries get the same floats.
struct MovingScene {
  std::vector<pebble::Vec2> start, velocity, half;
  int period = 32;
  std::int64_t pairs_per_step_hint = 0;

  std::size_t size() const { return start.size(); }
  /// Where object i is at frame f, and how far it moved since frame f - 1.
  void at(std::size_t i, std::int64_t frame, pebble::Aabb& box, pebble::Vec2& displacement) const {
    const std::int64_t t = frame % (2 * period);
    const float s = float(t < period ? t : 2 * period - t);
    const pebble::Vec2 p = start[i] + s * velocity[i];
    box = {p - half[i], p + half[i]};
    displacement = t < period ? velocity[i] : -velocity[i];
  }
};

/// n boxes of half extents in [0.1, 0.5] in a square holding about 0.2 of box area per unit area,
/// moving at up to `speed` per step in random directions.
MovingScene random_boxes(std::size_t n, float speed, std::uint32_t seed) {
  Rng rng(seed);
  MovingScene scene;
  const float side = std::sqrt(float(n) * 0.36f / 0.2f);
  for (std::size_t i = 0; i < n; ++i) {
    scene.start.push_back({uniform(rng, 0, side), uniform(rng, 0, side)});
    const float angle = uniform(rng, -kPi, kPi), v = uniform(rng, 0, speed);
    scene.velocity.push_back({v * std::cos(angle), v * std::sin(angle)});
    scene.half.push_back({uniform(rng, 0.1f, 0.5f), uniform(rng, 0.1f, 0.5f)});
  }
  return scene;
}

/// The scene of a public comparison of AABB trees: 40k circles in a square sized so that about
/// 15k pairs of their boxes overlap at any time. radius_scale shrinks the circles (same square,
/// same motion); speed_scale multiplies their speed.
MovingScene circles(float radius_scale, float speed_scale) {
  Rng rng(kSeed + 77);
  MovingScene scene;
  constexpr std::size_t kCount = 40000;
  const float radius = 0.5f * radius_scale;
  const float side = 345.0f;  // about 15k overlapping box pairs at radius 0.5 (see the counters)
  for (std::size_t i = 0; i < kCount; ++i) {
    scene.start.push_back({uniform(rng, 0, side), uniform(rng, 0, side)});
    const float angle = uniform(rng, -kPi, kPi), v = uniform(rng, 0, 0.05f) * speed_scale;
    scene.velocity.push_back({v * std::cos(angle), v * std::sin(angle)});
    scene.half.push_back({radius, radius});
  }
  return scene;
}

// ---------------------------------------------------------------------------------------------
// The two broadphases stepping a scene.

struct PebbleBroadphase {
  const MovingScene& scene;
  pebble::AabbTree tree;
  std::vector<pebble::ProxyId> ids;
  std::int64_t frame = 0;

  explicit PebbleBroadphase(const MovingScene& s) : scene(s) {
    ids.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      pebble::Aabb box;
      pebble::Vec2 d;
      s.at(i, 0, box, d);
      ids.push_back(tree.create_proxy(box, i));
    }
    tree.find_moved_pairs([](pebble::ProxyId, pebble::ProxyId) {});
  }

  /// One step; returns the number of pairs reported.
  std::int64_t step(std::int64_t& reinserted) {
    ++frame;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      pebble::Aabb box;
      pebble::Vec2 d;
      scene.at(i, frame, box, d);
      tree.move_proxy(ids[i], box, d);
    }
    reinserted = std::int64_t(tree.moved().size());
    std::int64_t pairs = 0;
    tree.find_moved_pairs([&](pebble::ProxyId, pebble::ProxyId) { ++pairs; });
    return pairs;
  }

  void add_tree_counters(benchmark::State& state) const {
    const pebble::TreeStats stats = tree.stats();
    state.counters["height"] = stats.height;
    state.counters["area_ratio"] = stats.area_ratio;
  }
};

struct Box2dBroadphase {
  struct Counter {
    std::int64_t pairs = 0;
    void AddPair(void*, void*) { ++pairs; }
  };

  const MovingScene& scene;
  b2BroadPhase broadphase;
  std::vector<int32> ids;
  std::int64_t frame = 0;

  static b2AABB to_b2(const pebble::Aabb& box) {
    b2AABB out;
    out.lowerBound = bench::to_b2(box.lower);
    out.upperBound = bench::to_b2(box.upper);
    return out;
  }

  explicit Box2dBroadphase(const MovingScene& s) : scene(s) {
    ids.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      pebble::Aabb box;
      pebble::Vec2 d;
      s.at(i, 0, box, d);
      ids.push_back(broadphase.CreateProxy(to_b2(box), reinterpret_cast<void*>(i)));
    }
    Counter counter;
    broadphase.UpdatePairs(&counter);
  }

  std::int64_t step(std::int64_t& reinserted) {
    ++frame;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      pebble::Aabb box;
      pebble::Vec2 d;
      scene.at(i, frame, box, d);
      broadphase.MoveProxy(ids[i], to_b2(box), bench::to_b2(d));
    }
    reinserted = -1;  // b2BroadPhase does not say
    Counter counter;
    broadphase.UpdatePairs(&counter);
    return counter.pairs;
  }

  void add_tree_counters(benchmark::State& state) const {
    state.counters["height"] = broadphase.GetTreeHeight();
    state.counters["area_ratio"] = broadphase.GetTreeQuality();
  }
};

/// Steps the broadphase once per iteration; counters: pairs reported and proxies reinserted per
/// step (averaged), the tree's height at the end.
template <class Broadphase>
void run_steps(benchmark::State& state, Broadphase& bp) {
  std::int64_t pairs = 0, reinserted = 0, steps = 0;
  for (auto _ : state) {
    std::int64_t moved = 0;
    pairs += bp.step(moved);
    reinserted += moved;
    ++steps;
  }
  state.counters["pairs"] = double(pairs) / double(std::max<std::int64_t>(steps, 1));
  if (reinserted >= 0) state.counters["reinserted"] = double(reinserted) / double(std::max<std::int64_t>(steps, 1));
  state.counters["objects"] = double(bp.ids.size());
  bp.add_tree_counters(state);
}

/// One lazily built scene and its two broadphases, kept for the life of the process.
template <class MakeScene>
struct SceneBench {
  MakeScene make;
  std::unique_ptr<MovingScene> scene;
  std::unique_ptr<PebbleBroadphase> pebble;
  std::unique_ptr<Box2dBroadphase> box2d;

  const MovingScene& get_scene() {
    if (!scene) scene = std::make_unique<MovingScene>(make());
    return *scene;
  }
  void run_pebble(benchmark::State& state) {
    if (!pebble) pebble = std::make_unique<PebbleBroadphase>(get_scene());
    run_steps(state, *pebble);
  }
  void run_box2d(benchmark::State& state) {
    if (!box2d) box2d = std::make_unique<Box2dBroadphase>(get_scene());
    run_steps(state, *box2d);
  }
};

template <class MakeScene>
void add_scene(const char* name, const char* label, MakeScene make) {
  auto* bench = new SceneBench<MakeScene>{make, nullptr, nullptr, nullptr};  // lives until exit
  add_pair(name, label, [bench](benchmark::State& s) { bench->run_pebble(s); },
           [bench](benchmark::State& s) { bench->run_box2d(s); });
}

}  // namespace

void register_world_benchmarks() {
  add_scene("BM_MovingBoxes10k", "broadphase step, 10k boxes moving (move_proxy + find_moved_pairs / b2BroadPhase)",
            [] { return random_boxes(10000, 0.05f, kSeed + 10); });
  add_scene("BM_MovingBoxes100k", "broadphase step, 100k boxes moving", [] { return random_boxes(100000, 0.05f, kSeed + 11); });
  add_scene("BM_Circles40k", "broadphase step, 40k circles, ~15k overlapping pairs", [] { return circles(1, 1); });
  add_scene("BM_Circles40kSmall", "broadphase step, 40k circles at a tenth of the size", [] { return circles(0.1f, 1); });
  add_scene("BM_Circles40kFast", "broadphase step, 40k circles ten times faster", [] { return circles(1, 10); });
  add_scene("BM_PerObject1k", "broadphase step, 1k boxes (per-object scaling)", [] { return random_boxes(1000, 0.05f, kSeed + 20); });
  add_scene("BM_PerObject1M", "broadphase step, 1M boxes (per-object scaling)", [] { return random_boxes(1000000, 0.05f, kSeed + 23); });
}

}  // namespace bench
