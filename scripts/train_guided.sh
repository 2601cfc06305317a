#!/usr/bin/env bash
# The recipe of the guided-alignment models (issues 35 and 36), with the Python package, on a CUDA GPU
# or on the CPU: the same commands, the device and the length of training aside.
#
#   bash scripts/train_guided.sh [--device cuda|cpu] [--minutes M | --steps N] [--out DIR] [--corpus DIR | --mix FILE]
#
# 1–2. scripts/make_guided_corpus.sh: the mixture (the Tatoeba training split twice and every second
#    pair of the Europarl training split; neither test split is trained on) and its fast_align links
#    (grow-diag-final-and over tokens, on the GPU where there is one), 30 % of the lines lower-cased
#    and tokenised, as alignment gold sets are, so that the models read both forms. The gold set's
#    sentences (docs/alignment-gold) are aligned with the corpus, as unsupervised aligners are used,
#    which gives the fast_align baseline of docs/alignment.md.
# 3. Four trainings side by side (one GPU holds them all; on the CPU run them one at a time with
#    JOBS=1), each ending after M minutes or N updates, written as float16 model files:
#      en-fr-guided-w03.pt, en-fr-guided-w1.pt: the default model continued with guided alignment,
#        weight 0.3 and 1 (docs/alignment.md chooses between them on the development half of the gold);
#      en-fr-plain.pt: the default model continued on the same lines without guidance (the comparison);
#      fr-en-guided.pt: French -> English from scratch with the default model's pieces, guided (weight 1):
#        the reverse model of `align --links agreement-…`.
# A model's metadata records its updates (train_steps): `--steps N` with that N repeats the run in the
# same data order on any machine.
set -euo pipefail
cd "$(dirname "$0")/.."
device=cuda minutes="" steps="" out=work/guided corpus=work/en-fr-corpus mix=""
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --mix) mix=$2; shift 2 ;;  # the mixture of step 1, made before (another machine carries it)
    *) echo "train_guided.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -n "$minutes" || -n "$steps" ]] || { echo "train_guided.sh: give --minutes M or --steps N" >&2; exit 2; }
py=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mix_args=(--corpus "$corpus")
[[ -n "$mix" ]] && mix_args=(--mix "$mix")
bash scripts/make_guided_corpus.sh --device "$device" --out "$out" "${mix_args[@]}"

# TRAIN_UNTIL (seconds since the epoch): a machine lent for a fixed time; the trainings end 75 s
# before it (the time to read the corpus) less than --minutes, whatever the steps before took.
if [[ -n "${TRAIN_UNTIL:-}" ]]; then
  minutes=$(awk -v until="$TRAIN_UNTIL" -v now="$(date +%s)" -v m="${minutes:-1e9}" \
    'BEGIN { x = (until - now - 75) / 60; if (x > m) x = m; if (x < 0.5) x = 0.5; printf "%.2f", x }')
  echo "training for $minutes minutes" >&2
fi
length=()
[[ -n "$minutes" ]] && length+=(--max-minutes "$minutes")
[[ -n "$steps" ]] && length+=(--steps "$steps") || length+=(--epochs 1)
common=(train --device "$device" --batch-tokens 16000 --max-len 60 --dropout 0.2 --smoothing 0.1 --clip 1.0
        --lr 1e-3 --seed 2 --log-every 100 --half "${length[@]}")
run() {  # NAME ARGS...: one training, its log beside its model
  local name=$1; shift
  "$py" -m alignscope "${common[@]}" --name "$name" --out "$out/$name.pt" "$@" > "$out/$name.log" 2>&1
}
jobs_at_once=${JOBS:-4}
pids=()
start() { run "$@" & pids+=($!); if ((${#pids[@]} >= jobs_at_once)); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi; }
start en-fr-guided-w1 --data "$out/guided.tsv" --init-from models/en-fr-subword-bahdanau.pt \
  --guided-alignment "$out/guided.links" --guided-weight 1.0
start en-fr-guided-w03 --data "$out/guided.tsv" --init-from models/en-fr-subword-bahdanau.pt \
  --guided-alignment "$out/guided.links" --guided-weight 0.3
start en-fr-plain --data "$out/guided.tsv" --init-from models/en-fr-subword-bahdanau.pt
start fr-en-guided --data "$out/guided.fr-en.tsv" --tokenizer-from models/en-fr-subword.pt \
  --guided-alignment "$out/guided.fr-en.links" --guided-weight 1.0
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
tail -n 3 "$out"/*.log
exit $status
