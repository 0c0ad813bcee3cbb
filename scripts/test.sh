#!/usr/bin/env bash
# Builds everything and runs every test: the release build (library, tests, benchmarks,
# tools, the Python module, whose pytest suite is the ctest test python_test), an install +
# find_package / add_subdirectory check, the WebAssembly build with its browser and npm package
# tests (scripts/web.sh test, docs/web.md), the whole suite again under
# AddressSanitizer + UndefinedBehaviorSanitizer (line tables only, -g1; the random sweeps that
# tests/random_cases.hpp's kSanitizerScale shrinks run smaller there), the determinism test (tests/determinism/check.sh:
# the same result bits from g++ and clang++, -O0 and -O2, every SIMD path), the same digest from
# ARM64 under qemu (scripts/arm64.sh digest; scripts/arm64.sh tests runs the whole suite there), then a bounded run of
# each fuzz target (clang, libFuzzer; PEBBLE_FUZZ_SECONDS per target, default 45; PEBBLE_FUZZ_STRICT=1,
# so that a check still marked as a known issue fails the run too). Installs
# missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's heading carries the seconds since the start, so a slow step shows in the log.
step() { echo "== $* [${SECONDS} s]"; }
step "maps: docs/architecture.md, the README's layout and the comments' citations against the tree"
/usr/bin/python3 scripts/check_architecture.py
scripts/install-deps.sh
step "format: every C++ file against .clang-format (scripts/check_format.sh)"
scripts/check_format.sh
jobs=$(nproc)

step "release build and tests"
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"
# `pip install .` (pyproject.toml) into a fresh venv: builds only the Python module (in build/pip) and imports it
PEBBLE_JOBS=$jobs python/tools/check_pip_install.sh

step "double positions: PEBBLE_DOUBLE_POSITIONS=ON, the library and every test file (docs/world.md, Huge worlds)"
cmake --preset double
cmake --build --preset double -j "$jobs"
ctest --preset double -j "$jobs"

step "install, then consume with find_package (g++) and with add_subdirectory (clang++)"
rm -rf build/install build/consumer-find build/consumer-sub
cmake --install build/release --prefix build/install >/dev/null
if grep -rlE 'Manifold collide_generic\(|DistanceResult distance_generic\(|bounds_portable|use_simd_path' build/install/include; then
  echo "the installed headers above declare a test hook (src/test_hooks.hpp holds them)"; exit 1
fi
cmake -S tests/consumer -B build/consumer-find -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" >/dev/null
cmake --build build/consumer-find >/dev/null
./build/consumer-find/consumer
# (this one with clang++, so that the public headers are also checked by clang at -Wall -Werror, and
# without threads, as a WebAssembly build makes it: no std::thread may be left in the library)
cmake -S tests/consumer -B build/consumer-sub -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DPEBBLE_CONSUMER_SUBDIR="$PWD" \
  -DPEBBLE_THREADS=OFF >/dev/null
cmake --build build/consumer-sub >/dev/null
./build/consumer-sub/consumer
if nm -C build/consumer-sub/pebble/libpebble.a | grep -q "std::thread"; then
  echo "a build with PEBBLE_THREADS=OFF still uses std::thread"; exit 1
fi

step "API reference: Doxygen over include/pebble/, every public name documented (scripts/docs.sh, build/docs)"
scripts/docs.sh

step "WebAssembly: build with Emscripten, then the playground in headless chromium and the npm package (scripts/web.sh test)"
scripts/web.sh test

step "ASan + UBSan build and tests"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

step "determinism: g++ and clang++, -O0 and -O2, every SIMD path, against the expected digest"
tests/determinism/check.sh
step "determinism with double positions: g++ and clang++ -O2, every SIMD path, against expected_digest_double.txt"
tests/determinism/check.sh --double --o2-only

step "ARM64: the digest cross-compiled with g++-aarch64-linux-gnu (-O2, -O0), on NEON and scalar under qemu (scripts/arm64.sh digest)"
scripts/arm64.sh digest

step "fuzz: each target ${PEBBLE_FUZZ_SECONDS:-45} s from its corpus, seed ${PEBBLE_FUZZ_SEED:-1}, known issues fatal (scripts/fuzz.sh)"
PEBBLE_FUZZ_STRICT=1 scripts/fuzz.sh --seconds "${PEBBLE_FUZZ_SECONDS:-45}" --seed "${PEBBLE_FUZZ_SEED:-1}"
echo "pebble: all tests passed (release, double positions, pip, API reference, web, asan+ubsan, determinism, ARM64 digest, fuzz) in ${SECONDS} s"
