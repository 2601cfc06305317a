#!/usr/bin/env bash
# The start command: installs what is missing, builds, and opens AlignScope on the bundled model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
if [[ -x build/app/alignscope ]]; then
  exec build/app/alignscope "$@"
fi
echo "the red car is big ." | build/app/alignscope-cli translate
