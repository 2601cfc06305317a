#!/usr/bin/env bash
# Steps 1 and 2 of the guided-alignment recipes (scripts/train_guided.sh, scripts/train_conditional.sh):
# the training mixture and its word links, written to OUT/guided.tsv and OUT/guided.links (and the
# same reversed, OUT/guided.fr-en.*; the gold set's fast_align links, OUT/fast-align-gold.*).
#
#   bash scripts/make_guided_corpus.sh [--device cuda|cpu] [--out DIR] [--corpus DIR | --mix FILE]
#
# 1. The mixture (work/en-fr-corpus, scripts/make_en_fr_corpus.sh; neither test split is trained on):
#    the Tatoeba training split twice and every second pair of the Europarl training split.
# 2. `python3 -m alignscope guide`: its words aligned by fast_align's model both ways, joined by
#    grow-diag-final-and, over tokens (on the GPU where there is one: about a minute; on 2 CPU cores
#    tens of minutes); 30 % of the lines rewritten lower-cased and tokenised.
# Nothing is redone when OUT/guided.links exists.
set -euo pipefail
cd "$(dirname "$0")/.."
device=cuda out=work/guided corpus=work/en-fr-corpus mix=""
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --mix) mix=$2; shift 2 ;;
    *) echo "make_guided_corpus.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -f "$out/guided.links" && -f "$out/guided.fr-en.links" ]] && exit 0
py=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out"
if [[ -z "$mix" ]]; then
  if [[ ! -f "$corpus/tatoeba-train.tsv" ]]; then bash scripts/make_en_fr_corpus.sh "$corpus"; fi
  mix="$out/mix-t2-e2.tsv"
  { cat "$corpus/tatoeba-train.tsv" "$corpus/tatoeba-train.tsv"; awk 'NR % 2 == 1' "$corpus/europarl-train.tsv"; } > "$mix"
fi
"$py" -m alignscope guide --data "$mix" --out-corpus "$out/guided.tsv" --out-links "$out/guided.links" \
  --source-language en --target-language fr --tokenized-share 0.3 --seed 1 --device "$device" \
  --processes "$(nproc)" --also docs/alignment-gold/pairs.tsv --also-out "$out/fast-align-gold"
bash scripts/reverse_pairs.sh "$out/guided.tsv" "$out/guided.links" "$out/guided.fr-en.tsv" "$out/guided.fr-en.links"
