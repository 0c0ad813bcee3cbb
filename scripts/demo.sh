#!/usr/bin/env bash
# Builds the `pebble` program (release preset) and runs `pebble demo`: about 200 rounded shapes
# rain into a container and settle; it writes pebble-demo/pile.png and pebble-demo/fall.gif and
# prints a summary. Installs missing Debian packages first. Extra arguments go to `pebble demo`,
# e.g. scripts/demo.sh --shapes 400 --seed 7 --steps 900 -o my-pile
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target pebble_cli
./build/release/tools/pebble demo "$@"
