#!/usr/bin/env bash
# Configures and builds AlignScope into build/ (incremental after the first run).
# A new build folder uses Ninja: it rebuilds only what a change touches and keeps per-unit timings
# (build/.ninja_log).
# An existing folder keeps the generator it was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" "$@"
