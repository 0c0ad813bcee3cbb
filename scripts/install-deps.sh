#!/usr/bin/env bash
# Installs the Debian packages pebble's build, tests, benchmarks and tools need, only those
# that are missing. Runs apt-get as root, or through sudo when not root.
set -euo pipefail
packages=(cmake ninja-build g++ libgtest-dev libgmock-dev libbenchmark-dev libbox2d-dev)
# The `pebble` program (tools/): command line, scene files, PNG/SVG pictures, animated GIFs.
packages+=(libcli11-dev nlohmann-json3-dev libcairo2-dev libfontconfig-dev libgif-dev pkg-config fonts-dejavu-core)
# Its tests read the SVG pictures back.
packages+=(libxml2-dev)
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
