// bench/world_bench.cpp — the broadphase beside Box2D 2.4.1's b2BroadPhase and b2DynamicTree on the
// same scenes: boxes moving randomly (10k, 100k, and 1k to 1M for the time per object), 40k circles
// with about 15k overlapping pairs (and its tenth-size and ten-times-faster variants). Each
// iteration is one step: every object moves (MoveProxy / move_proxy), then the pairs of the moved
// proxies are found (UpdatePairs / find_moved_pairs). Scenes are built once per process and keep
// stepping across repetitions; their motion is periodic (out and back), so a long run does not
// drift into a different scene.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "bench_common.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Scenes.

/// Objects moving on straight lines out and back: at frame f object i is at start + s v with s the
/// triangle wave of f + phase_i (up P steps, down P steps). The phases are spread over the period,
/// so that every frame some objects turn around and the cost of a step does not depend on the
/// frame. Both libraries get the same floats.
struct MovingScene {
  std::vector<pebble::Vec2> start, velocity, half;
  std::vector<int> phase;
  int period = 32;

  std::size_t size() const { return start.size(); }
  /// Where object i is at frame f, and how far it moved since frame f - 1.
  void at(std::size_t i, std::int64_t frame, pebble::Aabb& box, pebble::Vec2& displacement) const {
    const std::int64_t t = (frame + phase[i]) % (2 * period);
    const float s = float(t < period ? t : 2 * period - t);
    const pebble::Vec2 p = start[i] + s * velocity[i];
    box = {p - half[i], p + half[i]};
    displacement = t > 0 && t <= period ? velocity[i] : -velocity[i];
  }
  /// Calls f(i, box, displacement) for every object at frame f.
  template <class F>
  void each(std::int64_t frame, F f) const {
    for (std::size_t i = 0; i < size(); ++i) {
      pebble::Aabb box;
      pebble::Vec2 d;
      at(i, frame, box, d);
      f(i, box, d);
    }
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
    scene.phase.push_back(int(rng() % std::uint32_t(2 * scene.period)));
  }
  return scene;
}

/// The scene of a public comparison of AABB trees: 40k circles of radius 0.5 in a square sized so
/// that about 15k pairs of them overlap at any time (uniform density rho = 40k / side^2 gives
/// 20k rho pi overlapping pairs; the world benchmark's contact count confirms it). radius_scale
/// shrinks the circles (same square, same motion); speed_scale multiplies their speed.
MovingScene circles(float radius_scale, float speed_scale) {
  Rng rng(kSeed + 77);
  MovingScene scene;
  constexpr std::size_t kCount = 40000;
  const float radius = 0.5f * radius_scale;
  const float side = 410.0f;
  for (std::size_t i = 0; i < kCount; ++i) {
    scene.start.push_back({uniform(rng, 0, side), uniform(rng, 0, side)});
    const float angle = uniform(rng, -kPi, kPi), v = uniform(rng, 0, 0.05f) * speed_scale;
    scene.velocity.push_back({v * std::cos(angle), v * std::sin(angle)});
    scene.half.push_back({radius, radius});
    scene.phase.push_back(int(rng() % std::uint32_t(2 * scene.period)));
  }
  return scene;
}

// ---------------------------------------------------------------------------------------------
// The two broadphases stepping a scene.

/// Steps run before timing, so that every fat box has seen a displacement (the first frames after
/// creation reinsert less than later ones).
constexpr int kWarmUpSteps = 4;

struct PebbleBroadphase {
  const MovingScene& scene;
  pebble::AabbTree tree;
  std::vector<pebble::ProxyId> ids;
  std::int64_t frame = 0;

  explicit PebbleBroadphase(const MovingScene& s) : scene(s) {
    ids.reserve(s.size());
    s.each(0, [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2) { ids.push_back(tree.create_proxy(box, i)); });
    tree.find_moved_pairs([](pebble::ProxyId, pebble::ProxyId) {});
    for (int i = 0; i < kWarmUpSteps; ++i) step_untimed();
  }

  void step_untimed() {
    std::int64_t moved = 0;
    step(moved);
  }

  /// One step; returns the number of pairs reported.
  std::int64_t step(std::int64_t& reinserted) {
    scene.each(++frame,
               [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2 d) { tree.move_proxy(ids[i], box, d); });
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
    s.each(0, [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2) {
      ids.push_back(broadphase.CreateProxy(to_b2(box), reinterpret_cast<void*>(i)));
    });
    Counter counter;
    broadphase.UpdatePairs(&counter);
    for (int i = 0; i < kWarmUpSteps; ++i) {
      std::int64_t moved = 0;
      step(moved);
    }
  }

  std::int64_t step(std::int64_t& reinserted) {
    scene.each(++frame, [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2 d) {
      broadphase.MoveProxy(ids[i], to_b2(box), bench::to_b2(d));
    });
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

/// Registers a scene's pair of benchmarks. A huge scene (a step of seconds for Box2D) runs a fixed
/// number of steps whatever the flags say (pebble 3 repetitions of 8 steps, Box2D one of 3), so that
/// the whole bench still takes minutes.
template <class MakeScene>
void add_scene(const char* name, const char* label, MakeScene make, bool huge = false) {
  auto* bench = new SceneBench<MakeScene>{make, nullptr, nullptr, nullptr};  // lives until exit
  pairs().push_back({name, label});
  benchmark::internal::Benchmark* p = benchmark::RegisterBenchmark(
      (std::string(name) + "/pebble").c_str(), [bench](benchmark::State& s) { bench->run_pebble(s); });
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
      (std::string(name) + "/box2d").c_str(), [bench](benchmark::State& s) { bench->run_box2d(s); });
  if (huge) {
    p->Iterations(8)->Repetitions(3);
    b->Iterations(3)->Repetitions(1);
  }
}

// ---------------------------------------------------------------------------------------------
// CollisionWorld::update() on the moving scenes (pebble only: Box2D 2.4.1 has no collision world
// without its solver): every object's set_transform, then update() (pairs and narrowphase).

struct WorldScene {
  const MovingScene& scene;
  pebble::CollisionWorld world;
  std::vector<pebble::ColliderId> ids;
  std::int64_t frame = 0;

  WorldScene(const MovingScene& s, int threads) : scene(s), world(settings(threads)) {
    ids.reserve(s.size());
    s.each(0, [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2) {
      const pebble::Vec2 half = pebble::extents(box);
      // Circles where the scene's boxes are square, boxes elsewhere.
      const pebble::Shape shape = half.x == half.y ? pebble::Shape::circle(half.x) : pebble::Shape::box(half.x, half.y);
      ids.push_back(world.add(shape, {pebble::center(box), pebble::Rot::identity()}, i));
    });
    world.update();
    for (int i = 0; i < kWarmUpSteps; ++i) step();
  }

  static pebble::WorldSettings settings(int threads) {
    pebble::WorldSettings out;
    out.threads = threads;
    return out;
  }

  /// Every object's set_transform for the next frame.
  void move_all() {
    scene.each(++frame, [&](std::size_t i, const pebble::Aabb& box, pebble::Vec2) {
      world.set_transform(ids[i], {pebble::center(box), pebble::Rot::identity()});
    });
  }
  void step() {
    move_all();
    world.update();
  }
};

/// What a world benchmark times of each step.
enum class Timed { moves, update };

/// A world on a moving scene, stepped once per iteration; `timed` says which half of the step the
/// clock sees (the other half runs with the timer paused).
template <class MakeScene>
void add_world_scene(const char* name, const char* label, int threads, Timed timed, MakeScene make) {
  struct State {
    MakeScene make;
    int threads;
    std::unique_ptr<MovingScene> scene;
    std::unique_ptr<WorldScene> world;
  };
  auto* st = new State{make, threads, nullptr, nullptr};  // lives until exit
  add_pebble_only(name, label, [st, timed](benchmark::State& state) {
    if (!st->scene) st->scene = std::make_unique<MovingScene>(st->make());
    if (!st->world) st->world = std::make_unique<WorldScene>(*st->scene, st->threads);
    std::int64_t contacts = 0, steps = 0;
    for (auto _ : state) {
      if (timed == Timed::update) state.PauseTiming();
      st->world->move_all();
      if (timed == Timed::update) state.ResumeTiming();
      if (timed == Timed::moves) state.PauseTiming();
      st->world->world.update();
      if (timed == Timed::moves) state.ResumeTiming();
      contacts += std::int64_t(st->world->world.contacts().size());
      ++steps;
    }
    const pebble::WorldStats stats = st->world->world.stats();
    state.counters["contacts"] = double(contacts) / double(std::max<std::int64_t>(steps, 1));
    state.counters["pairs"] = stats.pairs;
    state.counters["collided"] = stats.collided;
  });
}

// ---------------------------------------------------------------------------------------------
// Rays through fixed shapes: CollisionWorld::cast_ray beside b2DynamicTree::RayCast with a callback
// that ray casts the shape (what b2World::RayCast does), closest hit, on the same shapes and rays.

struct RayScene {
  std::vector<pebble::Shape> shapes;
  std::vector<pebble::Transform> xfs;
  std::vector<std::unique_ptr<b2Shape>> b2_shapes;
  std::vector<pebble::Ray> rays;
  float side = 0;

  RayScene() {
    Rng rng(kSeed + 300);
    constexpr std::size_t kShapes = 100000;
    side = std::sqrt(float(kShapes)) * 3;
    for (std::size_t i = 0; i < kShapes; ++i) {
      const pebble::Transform xf{{uniform(rng, 0, side), uniform(rng, 0, side)}, random_rotation(rng)};
      if (i % 2 == 0) {
        auto made = make_box(rng);
        shapes.push_back(made.pebble);
        b2_shapes.push_back(std::make_unique<b2PolygonShape>(made.box2d));
      } else {
        auto made = make_circle(rng);
        shapes.push_back(made.pebble);
        b2_shapes.push_back(std::make_unique<b2CircleShape>(made.box2d));
      }
      xfs.push_back(xf);
    }
    for (std::size_t i = 0; i < kCaseCount; ++i) {
      const pebble::Vec2 origin{uniform(rng, 0, side), uniform(rng, 0, side)};
      const float angle = uniform(rng, -kPi, kPi), length = uniform(rng, 1, side / 4);
      rays.push_back({origin, {length * std::cos(angle), length * std::sin(angle)}});
    }
  }
};

RayScene& ray_scene() {
  static RayScene scene;
  return scene;
}

void rays_pebble(benchmark::State& state) {
  static const pebble::CollisionWorld* world = [] {
    auto* w = new pebble::CollisionWorld();  // lives until exit
    const RayScene& scene = ray_scene();
    pebble::ColliderOptions fixed;
    fixed.fixed = true;
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) w->add(scene.shapes[i], scene.xfs[i], fixed);
    w->update();  // rebuilds the fixed tree
    return w;
  }();
  std::int64_t hits = 0, casts = 0;
  run_cases(state, ray_scene().rays, [&](const pebble::Ray& ray) {
    const auto hit = world->cast_ray(ray);
    hits += bool(hit);
    ++casts;
    return bool(hit) ? hit.hit.fraction : 1.0f;
  });
  state.counters["hit_rate"] = double(hits) / double(std::max<std::int64_t>(casts, 1));
}

void rays_box2d(benchmark::State& state) {
  struct Tree {
    b2DynamicTree tree;
    std::vector<b2Transform> xfs;
  };
  static Tree* tree = [] {
    auto* t = new Tree();  // lives until exit
    const RayScene& scene = ray_scene();
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
      t->xfs.push_back(to_b2(scene.xfs[i]));
      b2AABB box;
      scene.b2_shapes[i]->ComputeAABB(&box, t->xfs.back(), 0);
      t->tree.CreateProxy(box, reinterpret_cast<void*>(i));
    }
    return t;
  }();
  struct Closest {
    const Tree* tree;
    const RayScene* scene;
    bool hit = false;
    float RayCastCallback(const b2RayCastInput& input, int32 proxy) {
      const std::size_t i = reinterpret_cast<std::size_t>(tree->tree.GetUserData(proxy));
      b2RayCastOutput out;
      if (!scene->b2_shapes[i]->RayCast(&out, input, tree->xfs[i], 0)) return input.maxFraction;
      hit = true;
      return out.fraction;
    }
  };
  std::int64_t hits = 0, casts = 0;
  run_cases(state, ray_scene().rays, [&](const pebble::Ray& ray) {
    b2RayCastInput input;
    input.p1 = to_b2(ray.origin);
    input.p2 = to_b2(ray.origin + ray.translation);
    input.maxFraction = 1;
    Closest closest{tree, &ray_scene()};
    tree->tree.RayCast(&closest, input);
    hits += closest.hit;
    ++casts;
    return closest.hit;
  });
  state.counters["hit_rate"] = double(hits) / double(std::max<std::int64_t>(casts, 1));
}

/// A scene query with a category mask (issue 20): 50k boxes over 1000 x 1000 m, 1% of them in
/// category 2, and overlap_aabb() of 100 x 100 m boxes asking for category 2 only. The tree keeps
/// each subtree's category union, so the query enters only subtrees that hold such a box.
void filtered_query_pebble(benchmark::State& state) {
  static const pebble::CollisionWorld* world = [] {
    auto* w = new pebble::CollisionWorld();  // lives until exit
    std::mt19937 rng(kSeed + 40);
    std::uniform_real_distribution<float> pos(0, 1000), u(0, 1);
    const pebble::Shape box = pebble::Shape::box(0.5f, 0.5f);
    for (int i = 0; i < 50000; ++i) {
      pebble::ColliderOptions o;
      o.filter.category = u(rng) < 0.01f ? 2 : 1;
      w->add(box, pebble::Transform{{pos(rng), pos(rng)}, pebble::Rot::identity()}, o);
    }
    w->update();
    return w;
  }();
  std::mt19937 rng(kSeed + 41);
  std::uniform_real_distribution<float> pos(0, 1000);
  std::vector<pebble::Vec2> centres(1024);
  for (pebble::Vec2& c : centres) c = {pos(rng), pos(rng)};
  pebble::QueryFilter filter;
  filter.mask = 2;
  std::size_t i = 0;
  std::int64_t found = 0;
  for (auto _ : state) {
    const pebble::Vec2 c = centres[i++ & 1023];
    world->overlap_aabb(
        pebble::Aabb{c - pebble::Vec2{50, 50}, c + pebble::Vec2{50, 50}},
        [&](pebble::ColliderId) {
          ++found;
          return true;
        },
        filter);
  }
  benchmark::DoNotOptimize(found);
  state.counters["found"] = double(found) / double(state.iterations());
}

}  // namespace

void register_world_benchmarks() {
  add_scene("BM_MovingBoxes10k", "broadphase step, 10k boxes moving (move_proxy + find_moved_pairs / b2BroadPhase)",
            [] { return random_boxes(10000, 0.05f, kSeed + 10); });
  add_scene("BM_MovingBoxes100k", "broadphase step, 100k boxes moving",
            [] { return random_boxes(100000, 0.05f, kSeed + 11); });
  add_scene("BM_Circles40k", "broadphase step, 40k circles, ~15k overlapping pairs", [] { return circles(1, 1); });
  add_scene("BM_Circles40kSmall", "broadphase step, 40k circles at a tenth of the size",
            [] { return circles(0.1f, 1); });
  add_scene("BM_Circles40kFast", "broadphase step, 40k circles ten times faster", [] { return circles(1, 10); });
  add_scene("BM_PerObject1k", "broadphase step, 1k boxes (per-object scaling)",
            [] { return random_boxes(1000, 0.05f, kSeed + 20); });
  add_scene(
      "BM_PerObject1M", "broadphase step, 1M boxes (per-object scaling)",
      [] { return random_boxes(1000000, 0.05f, kSeed + 23); }, true);
  add_pair("BM_Rays100k",
           "closest ray hit among 100k fixed boxes and circles (cast_ray / b2DynamicTree::RayCast + b2Shape::RayCast)",
           rays_pebble, rays_box2d);
  add_world_scene("BM_WorldMovesCircles40k", "CollisionWorld::set_transform on all 40k circles (bounds + tree moves)",
                  1, Timed::moves, [] { return circles(1, 1); });
  add_world_scene("BM_WorldUpdateCircles40k1", "CollisionWorld::update() after those moves, 40k circles, 1 thread", 1,
                  Timed::update, [] { return circles(1, 1); });
  add_world_scene("BM_WorldUpdateCircles40k2", "CollisionWorld::update(), 40k circles, 2 threads", 2, Timed::update,
                  [] { return circles(1, 1); });
  add_world_scene("BM_WorldMovesBoxes10k", "CollisionWorld::set_transform on all 10k boxes", 1, Timed::moves,
                  [] { return random_boxes(10000, 0.05f, kSeed + 10); });
  add_world_scene("BM_WorldUpdateBoxes10k1", "CollisionWorld::update(), 10k boxes, 1 thread", 1, Timed::update,
                  [] { return random_boxes(10000, 0.05f, kSeed + 10); });
  add_world_scene("BM_WorldUpdateBoxes10k2", "CollisionWorld::update(), 10k boxes, 2 threads", 2, Timed::update,
                  [] { return random_boxes(10000, 0.05f, kSeed + 10); });
  benchmark::RegisterBenchmark("BM_WorldFilteredQuery50k/pebble", filtered_query_pebble)
      ->Name("BM_WorldFilteredQuery50k/pebble");
}

}  // namespace bench
