#!/usr/bin/env bash
# Builds the benchmarks with the release preset and runs pebble beside Box2D 2.4.1 on the same
# inputs in the same binary. Ends with a Markdown table of median times and ratios
# (docs/benchmarks.md explains the method). Installs missing Debian packages first.
# Extra arguments go to the benchmark program, e.g.
#   scripts/bench.sh --benchmark_filter=Collide
#   scripts/bench.sh --benchmark_repetitions=9 --benchmark_out=bench.json
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target pebble_bench
# Medians of 9 repetitions of at least 0.05 s each (1.7.1 takes min_time in seconds), the
# repetitions of all benchmarks shuffled together so that a burst of load elsewhere on the
# machine hits pebble and Box2D alike. Later flags win, so "$@" can override these defaults.
./build/release/bench/pebble_bench \
  --benchmark_repetitions=9 \
  --benchmark_min_time=0.05 \
  --benchmark_enable_random_interleaving=true \
  --benchmark_display_aggregates_only=true \
  "$@"
