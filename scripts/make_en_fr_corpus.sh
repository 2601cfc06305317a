#!/usr/bin/env bash
# The corpus of the cased sub-word en-fr model (issue 14): Tatoeba and 600k Europarl pairs from
# ../shared/data (see its README for format and credit), each split by English sentence as
# `alignscope-cli train` splits (seed 1). Tatoeba's test split is the one the bundled en-fr model
# held out (3,248 pairs, models/en-fr.md), so the two models are measured on the same pairs; neither
# test split is ever trained on.
#
#   bash scripts/make_en_fr_corpus.sh [OUT_DIR]   # default work/en-fr-corpus (ignored by git)
#
# Writes train.tsv (Tatoeba train + Europarl train), valid.tsv, tatoeba-test.tsv, europarl-test.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-work/en-fr-corpus}"
data="${ALIGNSCOPE_DATA:-../shared/data}"
cli=build/app/alignscope-cli
[[ -x "$cli" ]] || { echo "make_en_fr_corpus.sh: build the project first (scripts/build.sh)" >&2; exit 2; }
for f in fra-eng.txt europarl-fr-en-600k.tsv.xz; do
  [[ -f "$data/$f" ]] || { echo "make_en_fr_corpus.sh: '$data/$f' is missing (set ALIGNSCOPE_DATA to the data folder)" >&2; exit 2; }
done
mkdir -p "$out"
"$cli" split --corpus "$data/fra-eng.txt" --valid-fraction 0.01 --test-fraction 0.02 --seed 1 \
  --train-out "$out/tatoeba-train.tsv" --valid-out "$out/tatoeba-valid.tsv" --test-out "$out/tatoeba-test.tsv"
xz -dc "$data/europarl-fr-en-600k.tsv.xz" > "$out/europarl.tsv"
# Europarl: 0.5 % test (about 3,000 pairs, as a WMT test set), 0.2 % validation.
"$cli" split --corpus "$out/europarl.tsv" --valid-fraction 0.002 --test-fraction 0.005 --seed 1 \
  --train-out "$out/europarl-train.tsv" --valid-out "$out/europarl-valid.tsv" --test-out "$out/europarl-test.tsv"
rm "$out/europarl.tsv"
cat "$out/tatoeba-train.tsv" "$out/europarl-train.tsv" > "$out/train.tsv"
cat "$out/tatoeba-valid.tsv" "$out/europarl-valid.tsv" > "$out/valid.tsv"
wc -l "$out"/*.tsv >&2
