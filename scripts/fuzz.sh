#!/usr/bin/env bash
# Builds pebble's libFuzzer targets (fuzz/: clang-14, ASan + UBSan) and runs each for a bounded
# time, starting from its committed corpus (fuzz/corpus/<target>/). New inputs go to
# build/fuzz/work/<target>/, crashes to build/fuzz/artifacts/. Fails when a target finds a crash,
# a sanitizer report or a violated invariant. docs/robustness.md says what each target checks.
#
#   scripts/fuzz.sh [--seconds N] [--seed S] [--parallel P] [--seeds] [--merge] [target ...]
#     --seconds N   run time of each target (default 60)
#     --seed S      libFuzzer's random seed (default 0: a new one each run). ./scripts/test.sh
#                   passes a fixed one, so that the test command walks the same inputs every time
#                   (a gate that fails on what a new random walk happens to find is not a gate);
#                   exploring is for runs without it
#     --parallel P  targets run at once (default: the number of cores, at most 2)
#     --seeds       first rewrite the hand-made seeds (fuzz/corpus/*/seed-*, fuzz/make_seeds.cpp)
#     --merge       afterwards, add the inputs of this run that reach new code to fuzz/corpus/
#                   (libFuzzer's -merge=1 by edge coverage keeps the fewest that cover it all), to
#                   review and commit
#     targets       shape, query, world, primitives, decompose, snapshot (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
seed=0
parallel=$(( $(nproc) < 2 ? 1 : 2 ))
seeds=0
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --seeds) seeds=1; shift ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(shape query world primitives decompose snapshot)

cmake -S fuzz -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build/fuzz -j "$(nproc)"
if [ "$seeds" = 1 ]; then ./build/fuzz/make_seeds fuzz/corpus; fi
mkdir -p build/fuzz/artifacts

run_target() {
  local t="$1" work="build/fuzz/work/$1" log="build/fuzz/$1.log" secs="$seconds"
  # The snapshot reader is small and its corpus walks it fast: 20 s at most.
  if [ "$t" = snapshot ] && [ "$secs" -gt 20 ]; then secs=20; fi
  mkdir -p "$work"
  if ./build/fuzz/"$t"_fuzz -max_total_time="$secs" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -max_len=2048 -print_final_stats=1 \
       -artifact_prefix=build/fuzz/artifacts/"$t"- "$work" fuzz/corpus/"$t" >"$log" 2>&1; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz $t: ${runs:-?} executions in ${secs} s, no failure"
  else
    echo "fuzz $t: FAILED (log: $log)"
    grep -E "invariant violated|runtime error|ERROR: (Address|libFuzzer)|Test unit written" -A6 "$log" | head -40
    return 1
  fi
}

status=0
pids=()
for t in "${targets[@]}"; do
  run_target "$t" & pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done

# Known issues (FUZZ_KNOWN_ISSUE in fuzz/*.cpp) are printed by the targets without failing the run.
for t in "${targets[@]}"; do
  grep -h "known issue" "build/fuzz/$t.log" 2>/dev/null | sed "s/^/fuzz $t: /" | sort -u || true
done

if [ "$merge" = 1 ] && [ "$status" = 0 ]; then
  for t in "${targets[@]}"; do
    # Edge coverage only (no hit counts), which keeps the committed corpus small.
    ./build/fuzz/"$t"_fuzz -merge=1 -use_counters=0 -max_len=2048 fuzz/corpus/"$t" build/fuzz/work/"$t" 2>&1 |
      grep -E "MERGE-OUTER: [0-9]+ new files" | sed "s/^/fuzz $t: /" || true
  done
fi
exit "$status"
