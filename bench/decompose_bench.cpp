// bench/decompose_bench.cpp — decompose() (pebble/decompose.hpp) on 1,000-vertex simple polygons.
// Box2D 2.4.1 has no decomposition, so the rows are pebble's alone; the goal is under 1 ms for
// 1,000 vertices (docs/decompose.md). Each iteration decomposes the same polygon: the time is one
// whole call (validation, simplicity sweep, ear clipping, merging, the Shapes).
#include <vector>

#include "bench_common.hpp"
#include "pebble/decompose.hpp"

namespace bench {
namespace {

/// A star of n vertices around the origin: sorted random angles, radii uniform in [0.3, 1] x 10.
std::vector<pebble::Vec2> star_polygon(int n) {
  Rng rng(kSeed + 40);
  std::vector<float> angles;
  for (int i = 0; i < n; ++i) angles.push_back(uniform(rng, 0, 2 * kPi));
  std::sort(angles.begin(), angles.end());
  std::vector<pebble::Vec2> out;
  for (const float a : angles) {
    const float r = 10 * uniform(rng, 0.3f, 1);
    out.push_back({r * std::cos(a), r * std::sin(a)});
  }
  return out;
}

/// A comb of `teeth` teeth (4 vertices each, less the two base corners): long thin pieces.
std::vector<pebble::Vec2> comb_polygon(int teeth) {
  Rng rng(kSeed + 41);
  std::vector<pebble::Vec2> top;
  for (int k = 0; k < teeth; ++k) {
    const float x0 = float(k), h = 1 + uniform(rng, 0.5f, 5);
    if (k > 0) top.push_back({x0, 1});
    top.push_back({x0, h});
    top.push_back({x0 + 0.6f, h});
    if (k + 1 < teeth) top.push_back({x0 + 0.6f, 1});
  }
  std::vector<pebble::Vec2> out{{0, 0}, {top.back().x, 0}};
  out.insert(out.end(), top.rbegin(), top.rend());
  return out;
}

void decompose_row(const char* name, const char* label, std::vector<pebble::Vec2> polygon) {
  add_pebble_only(name, label, [polygon](benchmark::State& state) {
    std::size_t pieces = 0;
    for (auto _ : state) {
      std::vector<pebble::Shape> shapes = pebble::decompose(polygon);
      pieces = shapes.size();
      benchmark::DoNotOptimize(shapes.data());
    }
    state.counters["vertices"] = double(polygon.size());
    state.counters["pieces"] = double(pieces);
  });
}

}  // namespace

void register_decompose_benchmarks() {
  decompose_row("BM_Decompose1000", "decompose(): star, 1000 vertices", star_polygon(1000));
  decompose_row("BM_Decompose1000Comb", "decompose(): comb, 1000 vertices", comb_polygon(250));
}

}  // namespace bench
