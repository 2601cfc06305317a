#!/usr/bin/env bash
# The live page's full checks (issue 57, docs/live-page.md), run before submitting: every bundled
# model the test names, every architecture, beam on four sentences, and the tokenizers on >= 2,000
# Tatoeba test sentences of both languages. CTest's web_live runs only a fast subset of these.
#   bash scripts/check_live_page.sh [CLI [PYTEST_ARGS...]]      (default: build/app/alignscope-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
export ALIGNSCOPE_CLI=$(realpath "${1:-build/app/alignscope-cli}")
shift || true
[ -x "$ALIGNSCOPE_CLI" ] || { echo "no alignscope-cli at $ALIGNSCOPE_CLI (scripts/build.sh builds it)" >&2; exit 2; }
scripts/fetch_onnxruntime_web.sh
export ALIGNSCOPE_LIVE_FULL=1 QT_QPA_PLATFORM=offscreen
nice /usr/bin/python3 -m pytest -q -p no:cacheprovider -s --durations=10 tests/web/test_live_model.py tests/web/test_live_tokenizer.py tests/web/test_live_page.py "$@"
