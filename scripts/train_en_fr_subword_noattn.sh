#!/usr/bin/env bash
# The recipe of en-fr-subword's comparison model without attention (lesson 1, docs/bleu-by-length.md):
# scripts/train_en_fr_subword.sh's corpus, split, schedule and architecture with the attention taken
# out, reading and writing the same pieces (--tokenizer-from: en-fr-subword's SentencePiece model and
# vocabulary, which its trainer made once from its training split before the first update, so the
# finished model and any of its checkpoints carry the same one). Resumable like that recipe, and
# like it goes on from a model file with --continue MODEL when the checkpoint is gone.
#
#   bash scripts/train_en_fr_subword_noattn.sh [--resume | --continue MODEL] [--train-threads N] [other train options]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=work/en-fr-corpus
mix="$corpus/mix-t3-e3.tsv"
[[ -f "$mix" ]] || { echo "no $mix: run scripts/train_en_fr_subword.sh first (it makes the corpus and the pieces)" >&2; exit 2; }
if [[ "${1:-}" == "--continue" ]]; then
  [[ -f "${2:-}" ]] || { echo "train_en_fr_subword_noattn.sh: --continue takes a model file ('${2:-}' is not one)" >&2; exit 2; }
  start=(--init-from "$2")
  shift 2
else
  pieces=work/en-fr-subword-pieces.pt
  if [[ ! -f "$pieces" ]]; then
    for donor in models/en-fr-subword.pt work/en-fr-subword.pt work/en-fr-subword.ckpt/model.pt; do
      if [[ -f "$donor" ]]; then cp "$donor" "$pieces.part" && mv "$pieces.part" "$pieces"; break; fi
    done
  fi
  [[ -f "$pieces" ]] || { echo "no en-fr-subword model or checkpoint yet to take the pieces from" >&2; exit 2; }
  start=(--tokenizer-from "$pieces" --attention none)
fi
exec build/app/alignscope-cli train --corpus "$mix" \
  --corpus-name "Tatoeba English-French (manythings.org fra-eng, 2019-04-07) x3 + Europarl v7 fr-en (every third pair of the 600k)" \
  --corpus-licence "Tatoeba: CC BY 2.0 FR; Sentence pairs from the Tatoeba Project (tatoeba.org), via www.manythings.org/anki. Europarl v7 (Koehn 2005), European Parliament proceedings; distributed freely, no known copyright restrictions" \
  --name en-fr-subword-noattn -o work/en-fr-subword-noattn.pt --checkpoint-dir work/en-fr-subword-noattn.ckpt \
  "${start[@]}" --max-len 60 \
  --valid-fraction 0.003 --test-fraction 0 --seed 2 --valid-bleu 300 \
  --epochs 8 --checkpoint-minutes 10 --half "$@"
