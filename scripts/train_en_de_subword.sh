#!/usr/bin/env bash
# The recipe of models/en-de-subword.pt and its reverse models/de-en-subword.pt (issue 49): the
# default model's architecture (bidirectional GRU encoder, conditional decoder, additive attention,
# default sizes) on the mixture of scripts/make_en_de_corpus.sh, with the Python trainer. By default
# a warm start: English -> German from the default en-fr-subword (its English encoder, attention and
# decoder, and its cased SentencePiece pieces, which cut German into more pieces than French), and
# German -> English from fr-en-subword-conditional, so that a few CPU hours go far; --from-scratch
# trains new German pieces (one unigram model for both sides, 8,000 pieces) and every weight anew,
# the recipe for an accelerator.
# Resumable: every call continues from OUT/NAME.ckpt, so interrupted runs and a lent GPU's
# 10-minute calls add up; --steps N gives the same updates in the same data order anywhere.
#
#   bash scripts/train_en_de_subword.sh [--reverse] [--from-scratch] [--init-from MODEL] [--device cpu|cuda] [--threads N] [--batch-tokens N]
#                                       [--epochs E | --steps N] [--minutes M] [--out DIR]
#
# Writes OUT/NAME.pt (float16) at the end of every call (NAME en-de-subword or, with --reverse,
# de-en-subword), its languages in the metadata; the reverse model is declared when the model is
# bundled (its card's recipe).
set -euo pipefail
cd "$(dirname "$0")/.."
device=cpu init="" threads=0 epochs=30 steps="" minutes="" out=work/en-de reverse=0 corpus=work/en-de-corpus scratch=0 batch=2500
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --init-from) init=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --reverse) reverse=1; shift ;;
    --from-scratch) scratch=1; shift ;;
    --batch-tokens) batch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    *) echo "train_en_de_subword.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
py=${PYTHON:-/usr/bin/python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
[[ -f "$corpus/mix.tsv" ]] || bash scripts/make_en_de_corpus.sh "$corpus"
name=en-de-subword data=$corpus/mix.tsv languages=(--source-language en --target-language de)
start=(--init-from models/en-fr-subword.pt)
if ((reverse)); then
  name=de-en-subword data=$corpus/mix.de-en.tsv languages=(--source-language de --target-language en)
  start=(--init-from models/fr-en-subword-conditional.pt)
fi
[[ -n "$init" ]] && start=(--init-from "$init")
((scratch)) && start=(--tokenizer sentencepiece --vocab-size 8000 --joint --decoder conditional)
length=(--epochs "$epochs")
[[ -n "$steps" ]] && length=(--steps "$steps")
[[ -n "$minutes" ]] && length+=(--max-minutes "$minutes")
mkdir -p "$out"
"$py" -m alignscope --threads "$threads" train --device "$device" --batch-tokens "$batch" --max-len 60 \
  --dropout 0.2 --smoothing 0.1 --clip 1.0 --lr 1e-3 --seed 2 --log-every 50 --half "${length[@]}" \
  --name "$name" --out "$out/$name.pt" --data "$data" "${languages[@]}" \
  "${start[@]}" \
  --checkpoint-dir "$out/$name.ckpt" --checkpoint-every 200 --keep-checkpoints 3 --resume
