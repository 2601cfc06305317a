#!/usr/bin/env bash
# Builds AlignScope's libFuzzer targets with clang-14 (AddressSanitizer and UBSan) into build/fuzz
# and runs each for a while from its seed corpus: the archive and pickle checks a model file meets
# before LibTorch reads it, the tokenizers (descriptions with normaliser chains, and lines), the
# JSON attributes a model file carries, the 'source ||| target' line parser, and lesson files (their
# JSON and the markup of their text), and JsonText, the writer of every JSON the tools print.
#
#   bash scripts/fuzz.sh                  # 60 s per target (a longer run: --seconds 3600)
#   bash scripts/fuzz.sh --seconds 10     # what CI runs (CTest entry fuzz_short)
#
# A finding stops the run with libFuzzer's report and leaves the input as build/fuzz/crash-<target>-*;
# add it to tests/fuzz/corpus/<target>/ once fixed. Corpora grow in a scratch folder, not here.
# Where ../shared/fuzz/repro is beside the checkout, the JSON attributes of its model files (and
# its input lines, for the tokenizer) join the seeds.
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
text_sources=(core/platform/InstallLayout.cpp core/text/Tokenizer.cpp core/text/PieceText.cpp core/text/NormalizedText.cpp
              core/text/Normalizer.cpp core/text/ReplacePattern.cpp core/text/SentencePieceModel.cpp)
declare -A sources=(
  [model_archive]="tests/fuzz/FuzzModelArchive.cpp core/model/ModelArchive.cpp core/model/PickleScanner.cpp"
  [pickle]="tests/fuzz/FuzzPickle.cpp core/model/PickleScanner.cpp"
  [tokenizer]="tests/fuzz/FuzzTokenizer.cpp ${text_sources[*]}"
  [pair_line]="tests/fuzz/FuzzPairLine.cpp core/text/PairLine.cpp ${text_sources[*]}"
  [attribute_json]="tests/fuzz/FuzzAttributeJson.cpp core/model/AttributeJson.cpp core/platform/BoundedFile.cpp core/text/Vocabulary.cpp ${text_sources[*]}"
  [lesson]="tests/fuzz/FuzzLesson.cpp core/lesson/LessonFormat.cpp core/lesson/LessonMarkup.cpp core/model/AttributeJson.cpp core/platform/BoundedFile.cpp"
  [json_text]="tests/fuzz/FuzzJsonText.cpp core/text/JsonText.cpp"
)
targets=(model_archive pickle tokenizer pair_line attribute_json lesson json_text)

build() {  # rebuilt only when a source or header is newer than the binary
  local t="$1" bin="$out/fuzz_$1"
  if [[ -x "$bin" ]] && [[ -z "$(find core tests/fuzz -newer "$bin" \( -name '*.cpp' -o -name '*.h' \) -print -quit)" ]]; then
    return
  fi
  echo "building $bin"
  # shellcheck disable=SC2086
  "$cxx" "${flags[@]}" ${sources[$t]} -o "$bin" \
    $(pkg-config --libs libutf8proc re2) -lz -ldl
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
    pair_line|json_text)
      cp tests/data/fuzz/*.txt "$dir/"
      # the campaigns' input lines (invisible lines, line separators, hostile text) where the repro folder is
      if [[ -d ../shared/fuzz/repro ]]; then
        find ../shared/fuzz/repro -name '*.txt' -size -64k -print0 | while IFS= read -r -d '' f; do
          cp "$f" "$dir/$(echo "$f" | tr '/' '_')"
        done
      fi
      ;;
    lesson) cp resources/lessons/*.json "$dir/" ;;
    tokenizer|attribute_json)
      # The shared repro files seed these targets where the folder is beside the checkout (a clone
      # elsewhere has none; `[[ ]] &&` alone would end this script under set -e).
      [[ -d ../shared/fuzz/repro ]] || return 0
      python3 - "$t" "$dir" ../shared/fuzz/repro <<'PY'
import pathlib, re, sys, zipfile
target, out, repro = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
# the campaigns' folders too (campaign4/<problem>/...): their lines and their models' attributes
texts = [p for p in sorted(repro.rglob("*.txt")) if p.stat().st_size < 1 << 20]
lines = [line[:20000] for p in texts for line in p.read_bytes().split(b"\n")[:4] if line][:40] + [b"the fifth of march , 1998"]
for model in sorted(p for p in repro.rglob("*.pt") if p.is_file() and p.stat().st_size < 64 << 20):
    try:
        with zipfile.ZipFile(model) as z:
            pickle = z.read(next(n for n in z.namelist() if n.endswith("/data.pkl")))
    except (zipfile.BadZipFile, StopIteration, OSError, EOFError, ValueError):
        continue  # the campaigns' damaged archives are the model_archive target's seeds, not attributes
    # each string attribute: its name, then (after memo instructions) BINUNICODE and its length
    for m in re.finditer(rb"(src_tokenizer|tgt_tokenizer|src_specials|tgt_specials|metadata)[^X]{0,8}X(....)", pickle, re.S):
        size = int.from_bytes(m.group(2), "little")
        value = pickle[m.end():m.end() + size]
        if not value.startswith((b"{", b"[")) or size > 300000:
            continue
        name = f"{model.parent.name}.{model.stem}.{m.group(1).decode()}"
        if target == "attribute_json":
            (out / name).write_bytes(value)
        elif m.group(1).endswith(b"tokenizer"):
            for k, line in enumerate(lines):
                (out / f"{name}.{k}").write_bytes(value + b"\0" + line)
PY
    ;;
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
