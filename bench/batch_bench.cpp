// bench/batch_bench.cpp — the batch queries (pebble/batch.hpp) against a loop of one-at-a-time
// calls on the same pairs: a crowd step's worth, 10,000 agents with 10 neighbours each (100,000
// pairs), 0 to 3 m apart with walking velocities. Rows:
//   BM_Batch/<query>/<kinds>/<how>
// query: approach (closest_approach), ttc (time_to_collision), distance; kinds: discs (all
// pairs two discs), capsules (two capsules: lanes for time_to_collision and distance, the
// one-at-a-time path through the batch call for closest_approach), mixed (discs, capsules,
// rounded boxes, as pebble crowd has them); how: loop (the one-at-a-time function per pair) or
// the batch call on the avx2, sse2 or scalar path.
// Time per query = the row's time / 100,000 (items_per_second gives queries per second). The
// same rows with /4k at the end take the first 4,096 pairs only: their inputs and outputs (about
// 400 KB) stay in the L2 cache, so they time the arithmetic; the 100,000-pair rows stream about
// 10 MB per call from memory, as a crowd step does. /one-against-4k: the first pair's A against
// the B of 4,096 pairs (the one-against-many form).
#include <span>
#include <vector>

#include "bench_common.hpp"
#include "pebble/batch.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks: use_simd_path()

namespace bench {
namespace {

constexpr int kPairs = 100000;

struct CrowdPairs {
  std::vector<pebble::Shape> shapes;
  std::vector<pebble::BatchPair> pairs;
};

/// kinds: 0 discs, 1 capsules, 2 mixed.
const CrowdPairs& crowd_pairs(int kinds) {
  static CrowdPairs sets[3];
  CrowdPairs& c = sets[kinds];
  if (!c.pairs.empty()) return c;
  c.shapes = {pebble::Shape::circle(0.3f), pebble::Shape::circle(0.25f),
              pebble::Shape::capsule({-0.2f, 0}, {0.2f, 0}, 0.2f), pebble::Shape::rounded_box(0.2f, 0.15f, 0.1f)};
  Rng rng(kSeed + unsigned(kinds));
  std::uniform_real_distribution<float> u(-1, 1);
  const auto pick = [&]() -> const pebble::Shape* {
    if (kinds == 0) return &c.shapes[rng() % 2];
    if (kinds == 1) return &c.shapes[2];
    const unsigned k = rng() % 10;  // mixed: 60% discs, 20% capsules, 20% rounded boxes
    return &c.shapes[k < 6 ? k % 2 : (k < 8 ? 2 : 3)];
  };
  for (int i = 0; i < kPairs; ++i) {
    const pebble::Vec2 pa{20 * u(rng), 20 * u(rng)};
    const pebble::Vec2 pb = pa + pebble::Vec2{3 * u(rng), 3 * u(rng)};
    const pebble::Rot qa = pebble::Rot::from_angle(3 * u(rng)), qb = pebble::Rot::from_angle(3 * u(rng));
    c.pairs.push_back(
        {{pick(), {pa, qa}, {1.4f * u(rng), 1.4f * u(rng)}}, {pick(), {pb, qb}, {1.4f * u(rng), 1.4f * u(rng)}}});
  }
  return c;
}

constexpr float kHorizon = 2.0f;

/// how: -1 loop, else the SimdPath of the batch call.
/// one_against_many: pair 0's A against the B of every pair (the loop likewise).
void batch_row(benchmark::State& state, int query, int kinds, int how, int count, bool one_against_many) {
  const CrowdPairs& c = crowd_pairs(kinds);
  const std::span<const pebble::BatchPair> pairs(c.pairs.data(), std::size_t(count));
  std::vector<pebble::BatchBody> others;
  for (const pebble::BatchPair& p : pairs) others.push_back(p.b);
  const pebble::SimdPath saved = pebble::simd_path();
  if (how >= 0 && !pebble::detail::use_simd_path(pebble::SimdPath(how))) {
    state.SkipWithError("this CPU or build lacks the path");
    return;
  }
  std::vector<pebble::ApproachResult> approach(static_cast<std::size_t>(count));
  std::vector<float> ttc(static_cast<std::size_t>(count));
  std::vector<pebble::DistanceResult> dist(static_cast<std::size_t>(count));
  for (auto _ : state) {
    if (how < 0) {
      for (int i = 0; i < count; ++i) {
        const pebble::BatchBody &a = one_against_many ? c.pairs[0].a : c.pairs[std::size_t(i)].a,
                                &b = c.pairs[std::size_t(i)].b;
        if (query == 0) {
          approach[std::size_t(i)] =
              pebble::closest_approach(*a.shape, a.transform, a.velocity, *b.shape, b.transform, b.velocity, kHorizon);
        } else if (query == 1) {
          ttc[std::size_t(i)] =
              pebble::time_to_collision(*a.shape, a.transform, a.velocity, *b.shape, b.transform, b.velocity, kHorizon);
        } else {
          dist[std::size_t(i)] = pebble::distance(*a.shape, a.transform, *b.shape, b.transform);
        }
      }
    } else if (one_against_many) {
      if (query == 0) {
        pebble::batch::closest_approach(pairs[0].a, others, kHorizon, approach);
      } else if (query == 1) {
        pebble::batch::time_to_collision(pairs[0].a, others, kHorizon, ttc);
      } else {
        pebble::batch::distance(pairs[0].a, others, dist);
      }
    } else if (query == 0) {
      pebble::batch::closest_approach(pairs, kHorizon, approach);
    } else if (query == 1) {
      pebble::batch::time_to_collision(pairs, kHorizon, ttc);
    } else {
      pebble::batch::distance(pairs, dist);
    }
    benchmark::DoNotOptimize(approach.data());
    benchmark::DoNotOptimize(ttc.data());
    benchmark::DoNotOptimize(dist.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * count);
  pebble::detail::use_simd_path(saved);
}

}  // namespace

void register_batch_benchmarks() {
  const char* queries[] = {"approach", "ttc", "distance"};
  const char* kinds[] = {"discs", "capsules", "mixed"};
  const std::pair<const char*, int> hows[] = {{"loop", -1},
                                              {"avx2", int(pebble::SimdPath::avx2)},
                                              {"sse2", int(pebble::SimdPath::sse2)},
                                              {"scalar", int(pebble::SimdPath::scalar)}};
  for (int q = 0; q < 3; ++q) {
    for (int k = 0; k < 3; ++k) {
      for (const auto& [how_name, how] : hows) {
        // Capsules have lanes for time_to_collision and distance: one batch row for closest approach.
        if (k == 1 && q == 0 && how >= 0 && how != int(pebble::SimdPath::avx2)) continue;
        for (const int count : {kPairs, 4096}) {
          const std::string name =
              std::string("BM_Batch/") + queries[q] + "/" + kinds[k] + "/" + how_name + (count == kPairs ? "" : "/4k");
          benchmark::RegisterBenchmark(name.c_str(), [q, k, how, count](benchmark::State& s) {
            batch_row(s, q, k, how, count, false);
          })->Unit(benchmark::kMicrosecond);
        }
        if ((k == 0 || (k == 1 && q != 0)) &&
            (how < 0 || how == int(pebble::SimdPath::avx2))) {  // one body against 4,096
          const std::string name =
              std::string("BM_Batch/") + queries[q] + "/" + kinds[k] + "/" + how_name + "/one-against-4k";
          benchmark::RegisterBenchmark(name.c_str(), [q, k, how](benchmark::State& s) {
            batch_row(s, q, k, how, 4096, true);
          })->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
}

}  // namespace bench
