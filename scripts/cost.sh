#!/usr/bin/env bash
# Instructions per call of the contact and cast queries, counted by callgrind (repeatable whatever
# the machine's load; docs/benchmarks.md): builds bench/cost/cost.cpp against a build tree's
# libpebble.a and prints one row per query and pair.
#
#   scripts/cost.sh [BUILD_DIR] [SOURCE_DIR]   defaults: build/release and this checkout
#   (SOURCE_DIR gives the headers that match BUILD_DIR, to measure an older checkout's build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
src="${2:-.}"
out=$(mktemp -d)
# ($build/include: the generated pebble/config.hpp, pebble/version.hpp of that build.)
g++ -std=c++20 -O2 -I"$src/include" -I"$build/include" bench/cost/cost.cpp "$build/libpebble.a" -o "$out/cost"
rows=("collide box box" "collide octagon octagon" "collide rounded rounded" "collide capsule capsule"
      "collide octagon circle" "collide circle circle" "collide box capsule"
      "distance box box" "distance octagon circle" "raycast box box" "shape_cast box octagon" "toi box box"
      "approach rounded capsule" "world_step box rounded" "world_query octagon capsule")
for row in "${rows[@]}"; do
  # shellcheck disable=SC2086
  calls=$(valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect=pebble_cost_loop "$out/cost" $row 2>/dev/null | sed -n 's/ calls//p')
  ir=$(callgrind_annotate "$out/cg" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
  printf '%-28s %8.1f instructions per call\n' "$row" "$(echo "$ir / $calls" | bc -l)"
done
rm -rf "$out"
