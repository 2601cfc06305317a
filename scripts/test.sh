#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole suite under CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-test-tools
# the live page's pinned npm packages into build/ (once; a failed fetch stops here, saying why)
scripts/fetch_onnxruntime_web.sh
scripts/build.sh
export QT_QPA_PLATFORM=offscreen
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 600
