#!/usr/bin/env bash
# The recipe of a model with the conditional decoder (issue 36; docs/alignment.md, "Decoders"):
# English -> French from scratch with the default model's pieces, default sizes, `--decoder
# conditional`, on the guided mixture (scripts/make_guided_corpus.sh), guided alignment weight 1
# (en-fr-subword-conditional.pt) or, with --guided-weight 0, none (en-fr-subword-conditional-plain.pt:
# at a small size its attention aligned as well unguided).
# --init-from MODEL: a warm start from a Bahdanau model of the default's sizes (its weights in the
# conditional decoder's two cells, reference.with_conditional_decoder) instead of from scratch.
# --reverse: French -> English on the same mixture reversed (fr-en-subword-conditional.pt; with
# --init-from, a French -> English model).
# Resumable: every call continues from OUT/NAME.ckpt until --epochs are done, so a lent GPU's
# 10-minute calls add up (carry OUT/NAME.ckpt from call to call).
#
#   bash scripts/train_conditional.sh [--device cuda|cpu] [--epochs E | --steps N] [--minutes M] [--guided-weight W]
#                                     [--init-from MODEL] [--reverse] [--out DIR] [--corpus DIR | --mix FILE]
#
# Writes OUT/NAME.pt (float16) at the end of every call, checkpoints in OUT/NAME.ckpt; its metadata
# records the updates so far (train_steps).
set -euo pipefail
cd "$(dirname "$0")/.."
device=cuda epochs=4 steps="" minutes="" weight=1.0 out=work/guided corpus=work/en-fr-corpus mix="" init="" reverse=0
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --guided-weight) weight=$2; shift 2 ;;
    --init-from) init=$2; shift 2 ;;
    --reverse) reverse=1; shift ;;
    --out) out=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --mix) mix=$2; shift 2 ;;
    *) echo "train_conditional.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
py=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mix_args=(--corpus "$corpus")
[[ -n "$mix" ]] && mix_args=(--mix "$mix")
bash scripts/make_guided_corpus.sh --device "$device" --out "$out" "${mix_args[@]}"
length=(--epochs "$epochs")
[[ -n "$steps" ]] && length=(--steps "$steps")  # a run's updates again, in the same data order
[[ -n "$minutes" ]] && length+=(--max-minutes "$minutes")
pair=en-fr data=$out/guided.tsv links=$out/guided.links pieces=models/en-fr-subword.pt
if ((reverse)); then pair=fr-en data=$out/guided.fr-en.tsv links=$out/guided.fr-en.links pieces=models/fr-en-subword.pt; fi
name=$pair-subword-conditional guidance=(--guided-alignment "$links" --guided-weight "$weight")
if awk -v w="$weight" 'BEGIN { exit !(w == 0) }'; then name=$name-plain guidance=(); fi
start=(--tokenizer-from "$pieces")
[[ -n "$init" ]] && start=(--init-from "$init")
"$py" -m alignscope train --device "$device" --batch-tokens 16000 --max-len 60 --dropout 0.2 --smoothing 0.1 \
  --clip 1.0 --lr 1e-3 --seed 2 --log-every 100 --half "${length[@]}" \
  --name "$name" --out "$out/$name.pt" --data "$data" \
  "${start[@]}" --decoder conditional "${guidance[@]}" \
  --checkpoint-dir "$out/$name.ckpt" --checkpoint-every 200 --resume
