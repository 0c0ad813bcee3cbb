#!/usr/bin/env bash
# pebble in the browser and in Node (docs/web.md):
#   scripts/web.sh build     compiles the library, the sandbox stepper and the bindings with Debian's
#                            Emscripten (3.1.6) into build/wasm/pkg/, the npm package folder
#   scripts/web.sh serve     builds, then serves the playground at http://127.0.0.1:8024/ (PORT=...)
#   scripts/web.sh test      builds, then the browser and package tests (needs build/release's
#                            `pebble query` and Python module, or those of PEBBLE_QUERY's build:
#                            scripts/test.sh runs this after the release build)
#   scripts/web.sh bench     builds, then pebble's WASM against planck.js in Node (docs/web.md)
# PEBBLE_WASM_DIR=build/other builds there instead of build/wasm (the tests that read the package
# through it follow; those that import build/wasm/pkg directly do not).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cmd=${1:-build}
wasm_dir=${PEBBLE_WASM_DIR:-build/wasm}
export PEBBLE_WASM_DIR=$wasm_dir

build() {
  # Debian's Emscripten keeps its prebuilt system libraries in a frozen cache under /usr/share; a
  # cache folder inside the build tree (links to those libraries, plus the lock file Emscripten
  # writes) lets any user build without writing there. Debian's acorn (node-acorn) lives in
  # /usr/share/nodejs, which a Node that is not Debian's does not search by itself.
  local cache=$wasm_dir/em-cache
  mkdir -p "$cache"
  for f in /usr/share/emscripten/cache/*; do
    [ "$(basename "$f")" = cache.lock ] || ln -sfn "$f" "$cache/$(basename "$f")"
  done
  export EM_CACHE=$root/$cache NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
  if [ ! -f "$wasm_dir/CMakeCache.txt" ]; then
    emcmake cmake -S web -B "$wasm_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$wasm_dir" -j "${PEBBLE_JOBS:-$(nproc)}"
}

npm_ci() {
  # playwright-core (driving Debian's chromium) and planck (the benchmark's rival), from
  # web/package-lock.json.
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

case "$cmd" in
  build) build ;;
  serve)
    build
    exec node web/tools/serve.mjs "${PORT:-8024}"
    ;;
  test)
    query=${PEBBLE_QUERY:-build/release/tools/pebble}
    if [ ! -x "$query" ]; then
      echo "scripts/web.sh test compares with the native $query: build it first (cmake --preset release && cmake --build --preset release)" >&2
      exit 1
    fi
    # playwright-core 1.65 needs Node 20 (Debian 12's own nodejs is 18).
    if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
      echo "scripts/web.sh test needs Node.js 20 or newer (this is $(node --version))" >&2
      exit 1
    fi
    build
    npm_ci
    # The Python module beside that program is the reference of the batch and mover tests.
    PEBBLE_QUERY=$query PEBBLE_PYTHON=${PEBBLE_PYTHON:-$(dirname "$(dirname "$query")")/python} node --test web/test/*.test.mjs
    ;;
  bench)
    build
    npm_ci
    node web/bench/bench.mjs "${@:2}"
    ;;
  *) echo "usage: scripts/web.sh build|serve|test|bench" >&2; exit 2 ;;
esac
