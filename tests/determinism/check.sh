#!/usr/bin/env bash
# The determinism test: builds tests/determinism/digest.cpp (and pebble with it) with g++ and
# clang++, at -O0 and -O2, runs each build on every SIMD copy of the contact kernels this CPU has
# (PEBBLE_SIMD=scalar, sse2, avx2), and checks that every run prints the same digest of every
# query's output bytes, and that it equals tests/determinism/expected_digest.txt.
#
#   tests/determinism/check.sh            the test (scripts/test.sh runs it)
#   tests/determinism/check.sh --update   rewrites expected_digest.txt from the g++ -O2 build, after
#                                         checking that all builds and paths agree. Results change
#                                         only deliberately: say in the commit which query kinds'
#                                         lines changed and why (docs/robustness.md).
#   tests/determinism/check.sh --double [--update] [--o2-only]   the same for the build with double positions
#                                         (-DPEBBLE_DOUBLE_POSITIONS=ON, docs/world.md "Huge worlds"),
#                                         against expected_digest_double.txt: its world points are
#                                         doubles, so its digest is its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/determinism
update=0
double=OFF
o2_only=0
expected_file=$here/expected_digest.txt
suffix=""
for arg in "$@"; do
  case "$arg" in
    --update) update=1 ;;
    --double) double=ON expected_file=$here/expected_digest_double.txt suffix=-double ;;
    --o2-only) o2_only=1 ;;
    *) echo "check.sh: unknown option $arg"; exit 2 ;;
  esac
done

# -O0 is CMake's Debug type with -O0 alone (the contact kernels too); -O2 is Release with -O2
# (the library still compiles its contact kernels at -O3 there, as it does for every user).
builds=("g++ O0 Debug -O0" "g++ O2 Release -O2" "clang++-14 O0 Debug -O0" "clang++-14 O2 Release -O2")
# --o2-only: the two -O2 builds alone (g++ against clang++ still catches a compiler's own rewrite);
# the test command checks the double-positions build so, to stay within its time.
[ "$o2_only" = 1 ] && builds=("g++ O2 Release -O2" "clang++-14 O2 Release -O2")
first=""
status=0
for b in "${builds[@]}"; do
  read -r cxx name type flags <<<"$b"
  dir=build/determinism/${cxx%%-*}-$name$suffix
  cmake -S "$here" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE="$type" -DPEBBLE_DOUBLE_POSITIONS=$double \
    -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_CXX_FLAGS_RELEASE="$flags -DNDEBUG" >/dev/null
  cmake --build "$dir" -j "$(nproc)" >/dev/null
  for path in scalar sse2 avx2; do
    out=$(PEBBLE_SIMD=$path "$dir/pebble_digest")
    used=$(PEBBLE_SIMD=$path "$dir/pebble_digest" --path)
    if [ "$used" != "$path" ]; then
      echo "determinism: $cxx -$name: no $path path on this CPU or build (runs $used), skipped"
      continue
    fi
    if [ -z "$first" ]; then
      first=$out
      first_name="$cxx -$name $path"
      echo "$out"
    elif [ "$out" != "$first" ]; then
      echo "determinism: $cxx -$name $path differs from $first_name:"
      diff <(echo "$first") <(echo "$out") || true
      status=1
    fi
    echo "determinism: $cxx -$name $path: $(echo "$out" | awk '$1 == "all" {print $2}')"
  done
done
[ "$status" = 0 ] || { echo "determinism: FAILED (builds or SIMD paths disagree)"; exit 1; }

expected=$(grep -v '^#' "$expected_file" 2>/dev/null || true)
if [ "$update" = 1 ]; then
  { sed -n '/^#/p' "$expected_file" 2>/dev/null; echo "$first"; } >"$expected_file.new"
  mv "$expected_file.new" "$expected_file"
  echo "determinism: $expected_file rewritten; the lines that changed:"
  diff <(echo "$expected") <(echo "$first") || true
  exit 0
fi
if [ "$first" != "$expected" ]; then
  echo "determinism: FAILED: the results differ from $expected_file:"
  diff <(echo "$expected") <(echo "$first") || true
  echo "(a deliberate change: tests/determinism/check.sh --update, and say in the commit which results changed and why)"
  exit 1
fi
echo "determinism: all builds and SIMD paths agree with $expected_file"
