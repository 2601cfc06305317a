#!/usr/bin/env bash
# Configures and builds AlignScope into build/ (incremental after the first run).
# A new build folder uses Ninja: with Make, adding a source file to core/ rewrites the flags file
# its precompiled LibTorch header depends on, so every core unit was compiled again (~15 min).
# An existing folder keeps the generator it was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" "$@"
