#!/usr/bin/env bash
# Installs the Debian packages pebble's build, tests, benchmarks and tools need, only those
# that are missing. Runs apt-get as root, or through sudo when not root.
set -euo pipefail
packages=(cmake ninja-build g++ libgtest-dev libgmock-dev libbenchmark-dev libbox2d-dev)
# The `pebble` program (tools/): command line, scene files, PNG/SVG pictures, animated GIFs.
packages+=(libcli11-dev nlohmann-json3-dev libcairo2-dev libfontconfig-dev libgif-dev pkg-config fonts-dejavu-core)
# Its tests read the SVG pictures back.
packages+=(libxml2-dev)
# The fuzz targets (fuzz/, scripts/fuzz.sh: libFuzzer with ASan + UBSan) and the determinism test,
# which builds the digest program with clang++ as well as g++ (tests/determinism/).
packages+=(clang-14 clang-format-14 libfuzzer-14-dev libclang-rt-14-dev)
# The Python module (python/: pybind11 for Debian's /usr/bin/python3), its tests (pytest, hypothesis),
# its benchmark's comparison (shapely 1.8) and its examples (matplotlib; Dask for dask_batch.py).
packages+=(pybind11-dev python3-dev python3-numpy python3-pytest python3-hypothesis python3-shapely python3-matplotlib python3-dask python3-distributed)
# `pip install .` into a virtual environment, offline (pyproject.toml, python/tools/check_pip_install.sh).
packages+=(python3-venv python3-pip python3-setuptools python3-wheel)
# The API reference (Doxyfile, scripts/docs.sh).
packages+=(doxygen)
# ARM64: the cross compiler and qemu-user, which runs what it builds (scripts/arm64.sh).
packages+=(g++-aarch64-linux-gnu qemu-user)
# The WebAssembly build and its browser tests (web/, docs/web.md): Debian's Emscripten 3.1.6 and
# Chromium (playwright-core drives /usr/bin/chromium); npm for web/package-lock.json, from Debian
# only when the machine has no npm of its own.
packages+=(emscripten chromium)
command -v npm >/dev/null 2>&1 || packages+=(npm)
packages+=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "pebble: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
