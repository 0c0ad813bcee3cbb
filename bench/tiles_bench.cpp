// bench/tiles_bench.cpp — outline_tiles() (pebble/tiles.hpp) on random tile maps. Box2D 2.4.1 has
// no counterpart (a Box2D user writes this outline by hand before b2ChainShape::CreateLoop), so the
// rows are pebble's alone. Half the cells solid at random is the hard case: the most loops,
// corners and pinch points per cell; a level drawn by hand has long runs and few loops.
#include <cstdint>
#include <memory>
#include <vector>

#include "bench_common.hpp"
#include "pebble/tiles.hpp"

namespace bench {
namespace {

std::vector<std::uint8_t> random_cells(int columns, int rows) {
  Rng rng(kSeed + 40);
  std::vector<std::uint8_t> cells(std::size_t(columns) * std::size_t(rows));
  for (std::uint8_t& c : cells) c = std::uint8_t(rng() & 1);
  return cells;
}

/// One whole map outlined per iteration; the counters say how much came out.
void add_outline_row(const char* name, const char* label, int size) {
  // Made on first use, so that listing or filtering the benchmarks does not build every map.
  auto cells = std::make_shared<std::vector<std::uint8_t>>();
  add_pebble_only(name, label, [size, cells](benchmark::State& state) {
    if (cells->empty()) *cells = random_cells(size, size);
    const pebble::TileGrid grid{size, size, *cells, {-0.25f * float(size), 0}, {0.5f, 0.5f}};
    std::size_t outlines = 0, points = 0;
    for (auto _ : state) {
      const std::vector<pebble::Outline> out = pebble::outline_tiles(grid);
      outlines = out.size();
      points = 0;
      for (const pebble::Outline& o : out) points += o.points.size();
      benchmark::DoNotOptimize(points);
    }
    state.counters["outlines"] = double(outlines);
    state.counters["points"] = double(points);
    state.counters["ns_per_cell"] = benchmark::Counter(
        double(size) * size, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  });
}

}  // namespace

void register_tiles_benchmarks() {
  add_outline_row("BM_OutlineTiles", "outline_tiles, 256 x 256 map, 50% random", 256);
  add_outline_row("BM_OutlineTiles1000", "outline_tiles, 1000 x 1000 map, 50% random", 1000);
}

}  // namespace bench
