#!/usr/bin/env bash
# Builds pebble (release preset) and runs the example program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target pebble_example
./build/release/examples/pebble_example "$@"
