#!/usr/bin/env bash
# The statistical baseline of the English-German gold (issue 49): fast_align's model each way
# (python/alignscope/statistical_alignment.py, as for docs/alignment-gold/fast-align) over the tokens
# of the en-de training split together with the gold's pairs, as unsupervised aligners are run,
# joined by grow-diag-final-and; written for each half and form into docs/alignment-gold-en-de/fast-align.
#
#   bash scripts/fast_align_en_de.sh [--device cpu|cuda] [--corpus DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
device=cpu corpus=work/en-de-corpus
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    *) echo "fast_align_en_de.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
gold=docs/alignment-gold-en-de
py=${PYTHON:-/usr/bin/python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
[[ -f "$corpus/train.tsv" ]] || bash scripts/make_en_de_corpus.sh "$corpus"
work=$(mktemp -d -t alignscope-fast-align.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$py" -m alignscope guide --data "$corpus/train.tsv" --out-corpus "$work/corpus.tsv" --out-links "$work/corpus.links" \
  --source-language en --target-language de --tokenized-share 0 --seed 1 --device "$device" \
  --processes "$(nproc)" --also "$gold/pairs.tsv" --also-out "$work/gold"
mkdir -p "$gold/fast-align"
for form in words tokens; do
  for half in dev test; do
    # Line k of the links belongs to line k+1 of split.tsv (its header first).
    awk -F'\t' -v half="$half" 'NR == FNR { if (FNR > 1) keep[FNR - 1] = ($3 == half); next } keep[FNR]' \
      "$gold/split.tsv" "$work/gold.$form.txt" > "$gold/fast-align/$half.$form.txt"
  done
done
wc -l "$gold"/fast-align/*.txt >&2
