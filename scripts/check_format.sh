#!/usr/bin/env bash
# Checks that every C++ file the repository tracks is laid out as .clang-format says
# (clang-format 14, Debian's clang-format-14). To fix: scripts/check_format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$tool" ] || { echo "clang-format-14 is missing (scripts/install-deps.sh installs it)"; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc')
if [ "${1:-}" = --fix ]; then
  "$tool" -i "${files[@]}"
  exit 0
fi
if ! "$tool" --dry-run --Werror "${files[@]}" 2>/tmp/pebble-format.$$; then
  grep -E '^[^ ].*: (error|warning):' /tmp/pebble-format.$$ | sed 's/: \(error\|warning\):.*//' | sort -u | head -40
  rm -f /tmp/pebble-format.$$
  echo "these files differ from .clang-format's layout: run scripts/check_format.sh --fix"
  exit 1
fi
rm -f /tmp/pebble-format.$$
echo "format: ${#files[@]} files as .clang-format says"
