#!/usr/bin/env bash
# Formats every C++ file of the project with its .clang-format (clang-format 14, Debian 12's
# `clang-format` package); --check lists the files that differ and exits 1 instead.
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-$(command -v clang-format || command -v clang-format-14 || true)}
[[ -n "$format" ]] || { echo "format.sh: clang-format is not installed (apt install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' 'app/*.cpp' 'app/*.h' 'tests/*.cpp' 'tests/*.h')
if [[ "${1:-}" == "--check" ]]; then
  # One process for all files: each one that differs is named with its first difference.
  "$format" --dry-run -Werror "${files[@]}" || { echo "format.sh: not as .clang-format lays them out (bash scripts/format.sh rewrites them)" >&2; exit 1; }
  exit 0
fi
"$format" -i "${files[@]}"
