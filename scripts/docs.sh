#!/usr/bin/env bash
# The API reference: Doxygen (Debian's doxygen) over include/pebble/ into build/docs/html/
# (open build/docs/html/index.html). Every public name must be documented: a Doxygen warning fails
# the script (Doxyfile: WARN_AS_ERROR), after listing all of them. scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v doxygen >/dev/null; then
  echo "scripts/docs.sh needs doxygen (apt-get install doxygen)" >&2
  exit 1
fi
export PEBBLE_VERSION=$(sed -n 's/^project(pebble VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
export PEBBLE_DOCS_DIR=${PEBBLE_DOCS_DIR:-build/docs}
rm -rf "$PEBBLE_DOCS_DIR/html"
mkdir -p "$PEBBLE_DOCS_DIR"
doxygen Doxyfile
echo "API reference of pebble $PEBBLE_VERSION: $PEBBLE_DOCS_DIR/html/index.html"
