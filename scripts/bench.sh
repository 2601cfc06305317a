#!/usr/bin/env bash
# Benchmarks AlignScope beside the same model in PyTorch eager, prints ONE markdown table and writes
# it to docs/performance.md. Run on a quiet machine (the table shows the load average it saw).
#
#   bash scripts/bench.sh                 # full run: 10 repetitions of every row
#   BENCH_QUICK=1 bash scripts/bench.sh   # smoke run: 3 short repetitions (not numbers to quote)
#
# Environment: ALIGNSCOPE_BENCH_MODEL (default models/en-fr.pt), ALIGNSCOPE_BENCH_SECOND_MODEL (default
# models/en-fr-subword.pt where it exists, empty for none: its step, greedy, beam and Step -> repaint
# rows beside the first model's), BENCH_BUILD_DIR (default build),
# BENCH_OUT (default docs/performance.md), BENCH_PYTHON (default /usr/bin/python3: Debian's, with torch),
# BENCH_REPETITIONS / BENCH_MIN_TIME to override the repetitions and seconds per repetition,
# BENCH_CORPUS (default ../shared/data/fra-eng.txt), BENCH_CORPUS_OUT (default docs/performance-corpus.md)
# and BENCH_SKIP_CORPUS=1 for the corpus-scale table.
#
# Runs: tests/bench/CoreBenchmark.cpp (alignscope_core_benchmark), the GUI's Step -> repaint
# benchmark (alignscope_gui_benchmark, offscreen, 30 tokens), the export benchmark's one-PNG rows
# (alignscope_export_benchmark, when built), the GUI's cold start (alignscope --screenshot), and
# scripts/bench_reference.py (PyTorch eager; its training row a second time with AlignScope's malloc
# settings); scripts/bench_report.py assembles the table. Then scripts/bench_corpus.sh writes
# docs/performance-corpus.md (whole processes on a corpus, batched beside one at a time).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BENCH_BUILD_DIR:-build}
model=$(realpath "${ALIGNSCOPE_BENCH_MODEL:-$root/models/en-fr.pt}")
second=${ALIGNSCOPE_BENCH_SECOND_MODEL-$root/models/en-fr-subword.pt}
[[ -n $second && -f $second ]] && second=$(realpath "$second")
out=${BENCH_OUT:-docs/performance.md}
python=${BENCH_PYTHON:-/usr/bin/python3}
quick=${BENCH_QUICK:-0}
if [[ $quick == 1 ]]; then
  reps=${BENCH_REPETITIONS:-3} min_time=${BENCH_MIN_TIME:-0.1} cold_runs=3 export_min_time=0.5 intraop2_reps=0
else
  reps=${BENCH_REPETITIONS:-10} min_time=${BENCH_MIN_TIME:-0.5} cold_runs=5 export_min_time=3 intraop2_reps=3
fi
export ALIGNSCOPE_BENCH_MODEL=$model
export QT_QPA_PLATFORM=offscreen

"$python" -c 'import torch' 2>/dev/null || {
  echo "bench.sh: $python has no torch (install python3-torch, or set BENCH_PYTHON)" >&2
  exit 1
}

work=$(mktemp -d -t alignscope-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
log() { echo "== $*" >&2; }

log "machine"
"$python" scripts/bench_report.py machine --out "$work/machine.json" --root "$root" --model "$model" --min-time "$min_time"

log "building into $build/"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DALIGNSCOPE_BUILD_TESTS=ON >/dev/null
targets=(alignscope_core_benchmark alignscope-cli)
gui=0
if grep -q '^ALIGNSCOPE_BUILD_GUI:BOOL=ON' "$build/CMakeCache.txt"; then
  gui=1
  targets+=(alignscope alignscope_gui_benchmark)
  [[ -f tests/bench/ExportBenchmark.cpp ]] && targets+=(alignscope_export_benchmark)
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >&2

gb=(--benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true --benchmark_out_format=json
    --benchmark_min_warmup_time=0.2)

log "model"
"$build/app/alignscope-cli" inspect --model "$model" --json >"$work/inspect.json"

# Every process of the run on the kernels AlignScope uses: where OpenBLAS does not know the CPU and
# falls back to old kernels, AlignScope switches them (core/runtime/BlasKernels), and the eager reference
# would otherwise keep the fallback and look slower than it is.
kernels=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1])).get("blas_kernels", ""))' "$work/inspect.json")
if [[ -n $kernels && -z ${OPENBLAS_CORETYPE:-} ]]; then
  export OPENBLAS_CORETYPE=$kernels
  log "OpenBLAS kernels for every process: $kernels"
fi

log "core benchmark ($reps repetitions)"
"$build/tests/alignscope_core_benchmark" "${gb[@]}" --benchmark_min_time="$min_time" --benchmark_filter=-Pairs2400 \
  --benchmark_out="$work/core.json" >&2

log "align against greedy translate, the same 2,400 pairs in one process (3 repetitions)"
"$build/tests/alignscope_core_benchmark" --benchmark_filter=Pairs2400 --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out="$work/pairs.json" >/dev/null
"$python" - "$work/pairs.json" >&2 <<'EOF_PAIRS'
import json, sys
rate = {b["run_name"].split("/")[1]: b["sentences_per_second"] for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}
print("translate %.0f sentences/s, align %.0f pairs/s: align / translate %.2f" % (rate["translate"], rate["align"], rate["align"] / rate["translate"]))
EOF_PAIRS

log "PyTorch eager reference ($reps repetitions)"
"$python" scripts/bench_reference.py --model "$model" --repetitions "$reps" --min-time "$min_time" \
  --intraop2-repetitions "$intraop2_reps" --out "$work/reference.json" >/dev/null

log "PyTorch eager reference, training only, with glibc's malloc set as AlignScope's trainer sets it"
# The same settings as core::Runtime::reuseFreedMemory, from the process's start.
MALLOC_MMAP_THRESHOLD_=$((32 << 20)) MALLOC_TRIM_THRESHOLD_=$((512 << 20)) \
  "$python" scripts/bench_reference.py --model "$model" --repetitions "$reps" --min-time "$min_time" \
  --skip-inference --train-name train_reused_memory --intraop2-repetitions 0 \
  --out "$work/reference-reused-memory.json" >/dev/null

if [[ $gui == 1 ]]; then
  log "GUI: Step -> repainted window, 30 tokens, offscreen"
  "$build/tests/alignscope_gui_benchmark" "${gb[@]}" --benchmark_min_time="$min_time" \
    --benchmark_filter='^StepToRepaint/tokens:30/' --benchmark_out="$work/gui.json" >&2

  if [[ -x $build/tests/alignscope_export_benchmark ]]; then
    log "export: one PNG"
    # BatchLine sets its own minimum time (3 s), which --benchmark_min_time does not shorten.
    "$build/tests/alignscope_export_benchmark" "${gb[@]}" --benchmark_min_time="$export_min_time" \
      --benchmark_filter='^(BatchLine/format:0/dpi:300|Render/format:0/dpi:300/encoder:1)(/|$)' \
      --benchmark_out="$work/export.json" >&2 || log "export benchmark failed; its rows stay empty"
  fi

  log "GUI cold start ($cold_runs launches)"
  "$python" scripts/bench_report.py coldstart --app "$build/app/alignscope" --model "$model" \
    --runs "$cold_runs" --out "$work/cold.json" || log "cold start failed; its row stays empty"
fi

if [[ -n $second && -f $second ]]; then
  log "second model: $second (step, greedy, beam, Step -> repaint; beside the first in the same run)"
  "$build/app/alignscope-cli" inspect --model "$second" --json >"$work/second-inspect.json"
  ALIGNSCOPE_BENCH_MODEL=$second "$build/tests/alignscope_core_benchmark" "${gb[@]}" --benchmark_min_time="$min_time" \
    --benchmark_filter='^(DecoderStep/src_tokens:10|SessionStep/src_tokens:10|Translate/)' \
    --benchmark_out="$work/second-core.json" >&2
  if [[ $gui == 1 ]]; then
    ALIGNSCOPE_BENCH_MODEL=$second "$build/tests/alignscope_gui_benchmark" "${gb[@]}" --benchmark_min_time="$min_time" \
      --benchmark_filter='^StepToRepaint/tokens:30/encoder:1' --benchmark_out="$work/second-gui.json" >&2
  fi
fi

mkdir -p "$(dirname "$out")"
quick_flag=()
[[ $quick == 1 ]] && quick_flag=(--quick)
"$python" scripts/bench_report.py table --dir "$work" --out "$out" "${quick_flag[@]}"
if [[ -n ${BENCH_KEEP:-} ]]; then
  mkdir -p "$BENCH_KEEP" && cp "$work"/*.json "$BENCH_KEEP"/
  log "raw JSON kept in $BENCH_KEEP"
fi
log "written to $out"

# Corpus scale (issue 16): whole processes, batched beside one sentence at a time, in the same run
# (scripts/bench_corpus.sh writes its own table). BENCH_SKIP_CORPUS=1 leaves it out.
corpus=${BENCH_CORPUS:-../shared/data/fra-eng.txt}
if [[ ${BENCH_SKIP_CORPUS:-0} == 1 ]]; then
  log "corpus scale: skipped (BENCH_SKIP_CORPUS=1)"
elif [[ ! -f $corpus ]]; then
  log "corpus scale: skipped, no corpus at $corpus (set BENCH_CORPUS)"
elif [[ $quick == 1 ]]; then
  log "corpus scale, smoke run (200 lines, once; not written to docs)"
  BENCH_CORPUS=$corpus BENCH_LINES=200 BENCH_REPETITIONS=1 BENCH_OUT="$work/corpus.md" bash scripts/bench_corpus.sh >/dev/null
  log "corpus scale: ran"
else
  log "corpus scale (scripts/bench_corpus.sh)"
  corpus_out=${BENCH_CORPUS_OUT:-docs/performance-corpus.md}
  BENCH_CORPUS=$corpus BENCH_REPETITIONS=3 BENCH_OUT=$corpus_out bash scripts/bench_corpus.sh >/dev/null
  log "written to $corpus_out"
fi
