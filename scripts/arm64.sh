#!/usr/bin/env bash
# pebble on ARM64 (docs/robustness.md, "Cross-platform results"): cross-compiles with Debian's
# g++-aarch64-linux-gnu (cmake/aarch64-linux-gnu.cmake) and runs what it builds under qemu-user.
#   scripts/arm64.sh digest   the determinism digest program (tests/determinism/), g++ -O2 and -O0
#                             and clang++ -O2, on the NEON and the scalar copy of the kernels, against
#                             expected_digest.txt (the x86-64 and WebAssembly bits). scripts/test.sh runs this.
#   scripts/arm64.sh tests    the library and the whole C++ test suite (ctest: every test on the
#                             NEON copy, the manifold and distance oracle tests on the scalar copy too)
#   scripts/arm64.sh          both
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh g++-aarch64-linux-gnu qemu-user
what=${1:-all}
jobs=$(nproc)
toolchain=$PWD/cmake/aarch64-linux-gnu.cmake
run() { qemu-aarch64 -L /usr/aarch64-linux-gnu "$@"; }
status=0

if [ "$what" = all ] || [ "$what" = digest ]; then
  expected=$(grep -v '^#' tests/determinism/expected_digest.txt)
  for b in "g++ O2 Release -O2" "g++ O0 Debug -O0" "clang++ O2 Release -O2"; do
    read -r cxx name type flags <<<"$b"
    clang=OFF
    [ "$cxx" = clang++ ] && clang=ON
    dir=build/arm64-digest-$cxx-$name
    cmake -S tests/determinism -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DPEBBLE_ARM64_CLANG=$clang \
      -DCMAKE_BUILD_TYPE="$type" -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_CXX_FLAGS_RELEASE="$flags -DNDEBUG" >/dev/null
    cmake --build "$dir" -j "$jobs" >/dev/null
    for path in neon scalar; do
      used=$(PEBBLE_SIMD=$path run "$dir/pebble_digest" --path)
      if [ "$used" != "$path" ]; then
        echo "arm64: $cxx -$name: asked for the $path path, ran $used"
        status=1
        continue
      fi
      out=$(PEBBLE_SIMD=$path run "$dir/pebble_digest")
      if [ "$out" = "$expected" ]; then
        echo "arm64: $cxx -$name $path: $(awk '$1 == "all" {print $2}' <<<"$out"), as expected_digest.txt"
      else
        echo "arm64: $cxx -$name $path differs from expected_digest.txt:"
        diff <(echo "$expected") <(echo "$out") || true
        status=1
      fi
    done
  done
fi

if [ "$what" = all ] || [ "$what" = tests ]; then
  dir=build/arm64
  cmake -S . -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DPEBBLE_BUILD_TOOLS=OFF -DPEBBLE_BUILD_BENCH=OFF -DPEBBLE_PYTHON=OFF >/dev/null
  cmake --build "$dir" -j "$jobs"
  # ctest runs each test through qemu (CMAKE_CROSSCOMPILING_EMULATOR in the toolchain file).
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure || status=1
fi
[ "$status" = 0 ] && echo "arm64: passed" || echo "arm64: FAILED"
exit "$status"
