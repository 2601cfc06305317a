#!/usr/bin/env bash
# The recipe of the cased sub-word en-fr model of issue 14 (models/en-fr-subword-bahdanau.pt since issue 36), on the CPU with AlignScope's own trainer.
# Resumable: run it again with --resume after an interruption and it continues from the newest
# checkpoint in work/en-fr-subword.ckpt on the same loss trajectory. On a new machine, where that
# folder is gone, --continue MODEL goes on from the model file itself (train --init-from: its weights
# and pieces, a fresh optimiser), for example from the committed models/en-fr-subword-bahdanau.pt: the mixture
# is rebuilt byte for byte, so the run goes on at the update the model was saved at, in the same
# data order.
#
#   bash scripts/train_en_fr_subword.sh [--resume | --continue MODEL] [--train-threads N] [other train options]
#
# The mixture, sized so one epoch (about 12M target pieces) fits a 3-hour session on 2 cores: the
# Tatoeba training split three times (everyday sentences keep their weight beside Europarl's long
# debate sentences; a Tatoeba update is a quarter of the cost of a Europarl one) and every third
# pair of the Europarl training split (about 196k), pairs of at most 60 pieces a side. Both test
# splits (scripts/make_en_fr_corpus.sh) are never trained on; the trainer takes its validation
# pairs from the mixture and holds out nothing more (--test-fraction 0). Its split hashes with
# seed 2: the corpus files were split with seed 1, so seed 1 would find nothing left to hold out.
# Writes work/en-fr-subword.pt (float16), the checkpoint with the best validation loss; the figures
# of its card come from scripts/card_en_fr_subword.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=work/en-fr-corpus
[[ -f "$corpus/tatoeba-train.tsv" && -f "$corpus/europarl-train.tsv" ]] || bash scripts/make_en_fr_corpus.sh "$corpus"
mix="$corpus/mix-t3-e3.tsv"
if [[ ! -f "$mix" ]]; then
  { cat "$corpus/tatoeba-train.tsv" "$corpus/tatoeba-train.tsv" "$corpus/tatoeba-train.tsv"
    awk 'NR % 3 == 1' "$corpus/europarl-train.tsv"; } > "$mix.part"
  mv "$mix.part" "$mix"
fi
# The pieces are trained on the mixture, or (--continue MODEL) are the model's own.
start=(--tokenizer sentencepiece --vocab-size 8000 --joint)
if [[ "${1:-}" == "--continue" ]]; then
  [[ -f "${2:-}" ]] || { echo "train_en_fr_subword.sh: --continue takes a model file ('${2:-}' is not one)" >&2; exit 2; }
  start=(--init-from "$2")
  shift 2
fi
exec build/app/alignscope-cli train --corpus "$mix" \
  --corpus-name "Tatoeba English-French (manythings.org fra-eng, 2019-04-07) x3 + Europarl v7 fr-en (every third pair of the 600k)" \
  --corpus-licence "Tatoeba: CC BY 2.0 FR; Sentence pairs from the Tatoeba Project (tatoeba.org), via www.manythings.org/anki. Europarl v7 (Koehn 2005), European Parliament proceedings; distributed freely, no known copyright restrictions" \
  --name en-fr-subword -o work/en-fr-subword.pt --checkpoint-dir work/en-fr-subword.ckpt \
  "${start[@]}" --max-len 60 \
  --valid-fraction 0.003 --test-fraction 0 --seed 2 --valid-bleu 300 \
  --epochs 8 --checkpoint-minutes 10 --half "$@"
