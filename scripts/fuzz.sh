#!/usr/bin/env bash
# Builds AlignScope's libFuzzer targets with clang-14 (AddressSanitizer and UBSan) into build/fuzz
# and runs each for a while from its seed corpus: the archive and pickle checks a model file meets
# before LibTorch reads it, the tokenizers, and the 'source ||| target' line parser.
#
#   bash scripts/fuzz.sh                  # 60 s per target (a longer run: --seconds 3600)
#   bash scripts/fuzz.sh --seconds 12     # what CI runs (CTest entry fuzz_short)
#
# A finding stops the run with libFuzzer's report and leaves the input as build/fuzz/crash-<target>-*;
# add it to tests/fuzz/corpus/<target>/ once fixed. Corpora grow in a scratch folder, not here.
# SentencePiece's own model parser (a library AlignScope does not own) is left out: the tokenizer
# target runs without the SentencePiece module.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    *) echo "usage: scripts/fuzz.sh [--seconds N]" >&2; exit 2 ;;
  esac
done
cxx="${FUZZ_CXX:-clang++-14}"
command -v "$cxx" >/dev/null || { echo "scripts/fuzz.sh: $cxx is missing (Debian: clang-14 libfuzzer-14-dev)" >&2; exit 2; }
out=build/fuzz
mkdir -p "$out"
# build/core/generated: the files of the Python package the core embeds (the CMake build writes them)
[[ -d build/core/generated ]] || { echo "scripts/fuzz.sh: build the project first (scripts/build.sh): build/core/generated is missing" >&2; exit 2; }
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. -Ibuild/core/generated $(pkg-config --cflags libutf8proc))
text_sources=(core/InstallLayout.cpp core/text/Tokenizer.cpp core/text/PieceText.cpp core/text/NormalizedText.cpp core/text/SentencePieceModel.cpp)
declare -A sources=(
  [model_archive]="tests/fuzz/FuzzModelArchive.cpp core/model/ModelArchive.cpp core/model/PickleScanner.cpp"
  [pickle]="tests/fuzz/FuzzPickle.cpp core/model/PickleScanner.cpp"
  [tokenizer]="tests/fuzz/FuzzTokenizer.cpp ${text_sources[*]}"
  [pair_line]="tests/fuzz/FuzzPairLine.cpp core/text/PairLine.cpp ${text_sources[*]}"
)
targets=(model_archive pickle tokenizer pair_line)

build() {  # rebuilt only when a source or header is newer than the binary
  local t="$1" bin="$out/fuzz_$1"
  if [[ -x "$bin" ]] && [[ -z "$(find core tests/fuzz -newer "$bin" \( -name '*.cpp' -o -name '*.h' \) -print -quit)" ]]; then
    return
  fi
  echo "building $bin"
  # shellcheck disable=SC2086
  "$cxx" "${flags[@]}" ${sources[$t]} -o "$bin" \
    $(pkg-config --libs libutf8proc) -lz -ldl
}

seeds() {  # the committed seeds, plus what comes from the bundled model file
  local t="$1" dir="$2"
  [[ -d "tests/fuzz/corpus/$t" ]] && cp -r "tests/fuzz/corpus/$t/." "$dir/"
  case "$t" in
    model_archive) cp models/lesson-dates.pt "$dir/lesson-dates.pt" ;;
    pickle) python3 - "$dir" <<'PY'
import sys, zipfile
with zipfile.ZipFile("models/lesson-dates.pt") as z:
    for name in z.namelist():
        if name.endswith((".pkl", ".debug_pkl")):
            open(f"{sys.argv[1]}/{name.replace('/', '_')}", "wb").write(z.read(name))
PY
    ;;
    pair_line) cp tests/data/fuzz/*.txt "$dir/" ;;
  esac
}

for t in "${targets[@]}"; do build "$t"; done
status=0
for t in "${targets[@]}"; do
  corpus=$(mktemp -d)
  seeds "$t" "$corpus"
  echo "fuzzing $t for ${seconds}s"
  if ! ALIGNSCOPE_SENTENCEPIECE_MODULE=/nonexistent "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=300000 -print_final_stats=1 -artifact_prefix="$out/crash-$t-" "$corpus" 2>"$out/$t.log"; then
    echo "scripts/fuzz.sh: $t found a problem; the report:" >&2
    tail -60 "$out/$t.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$t.log" | sed "s/^/  $t /"
  fi
  rm -rf "$corpus"
done
exit "$status"
