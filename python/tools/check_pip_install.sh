#!/usr/bin/env bash
# `pip install .` as a user runs it without the network (pyproject.toml, setup.py): into a fresh
# virtual environment that sees Debian's packages (numpy, setuptools), then, from outside the source
# tree, import pebble, answer one query, and check the version, the licence metadata and the stubs.
# scripts/test.sh runs it after the release tests. The CMake build is kept in PEBBLE_PIP_BUILD_DIR
# (default build/pip), so that a second run compiles only what changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PEBBLE_PIP_BUILD_DIR=${PEBBLE_PIP_BUILD_DIR:-$root/build/pip}
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --no-build-isolation --no-index "$root" >"$tmp/pip.log" 2>&1 || {
  tail -40 "$tmp/pip.log" >&2
  echo "pip install . failed (log above)" >&2
  exit 1
}
expected=$(sed -n 's/^project(pebble VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
cd "$tmp"
"$tmp/venv/bin/python" - "$expected" "$tmp/venv" <<'PY'
import importlib.metadata as md
import pathlib
import sys

import pebble

expected, venv = sys.argv[1], pathlib.Path(sys.argv[2])
where = pathlib.Path(pebble.__file__).parent
assert where.is_relative_to(venv), f"imported {where}, not the installed package"
d = pebble.distance(pebble.Shape.circle(1), pebble.Transform(), pebble.Shape.box(0.5, 0.5), pebble.Transform((3, 0), 0.0))
assert d.distance == 1.5 and d.normal == pebble.Vec2(1, 0), d
assert pebble.__version__ == expected, (pebble.__version__, expected)
meta = md.metadata("pebble-collide")
assert meta["Version"] == expected and meta["License"] == "MIT", (meta["Version"], meta["License"])
for stub in ["__init__.pyi", "batch.pyi", "prim.pyi", "py.typed"]:
    assert (where / stub).exists(), stub
print(f"pip install .: pebble {pebble.__version__} in {where}, distance {d.distance}")
PY
