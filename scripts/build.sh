#!/usr/bin/env bash
# Configures and builds AlignScope into build/ (incremental after the first run).
# A new build folder uses Ninja: it rebuilds only what a change touches and keeps per-unit timings
# (build/.ninja_log).
# An existing folder keeps the generator it was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
launcher=()
# ccache, where installed, lets a second checkout (a fresh clone, a worktree) reuse the objects of
# units it did not change.
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" "$@"
