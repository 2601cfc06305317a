#!/usr/bin/env bash
# The corpus of the English -> German models (issue 49): Tatoeba's deu-eng.txt from ../shared/data
# (see its README for provenance and credit), split by English sentence as `alignscope-cli train`
# splits (seed 1; 1 % validation, 2 % test), and the training mixture: the training split with 30 %
# of its lines (seeded) lower-cased and tokenised, the form of alignment gold sets, so that the
# models read both forms (as the guided en-fr mixture does). The test split is never trained on.
#
#   bash scripts/make_en_de_corpus.sh [OUT_DIR]   # default work/en-de-corpus (ignored by git)
#
# Writes train.tsv, valid.tsv, test.tsv, mix.tsv (English -> German) and mix.de-en.tsv (reversed).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-work/en-de-corpus}"
data="${ALIGNSCOPE_DATA:-../shared/data}"
cli=build/app/alignscope-cli
py=${PYTHON:-/usr/bin/python3}
[[ -x "$cli" ]] || { echo "make_en_de_corpus.sh: build the project first (scripts/build.sh)" >&2; exit 2; }
[[ -f "$data/deu-eng.txt" ]] || { echo "make_en_de_corpus.sh: '$data/deu-eng.txt' is missing (set ALIGNSCOPE_DATA to the data folder)" >&2; exit 2; }
mkdir -p "$out"
"$cli" split --corpus "$data/deu-eng.txt" --valid-fraction 0.01 --test-fraction 0.02 --seed 1 \
  --train-out "$out/train.tsv" --valid-out "$out/valid.tsv" --test-out "$out/test.tsv"
PYTHONPATH=$PWD/python "$py" - "$out/train.tsv" "$out/mix.tsv" <<'PY'
import random, sys
from alignscope.text_forms import tokenized
rng = random.Random("alignscope-en-de-mix:1")
with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2] + ".part", "w", encoding="utf-8") as out:
    for line in f:
        en, de = line.rstrip("\n").split("\t")
        if rng.random() < 0.3:
            en, de = tokenized(en, "en"), tokenized(de, "de")
        out.write(f"{en}\t{de}\n")
PY
mv "$out/mix.tsv.part" "$out/mix.tsv"
awk -F'\t' '{print $2 "\t" $1}' "$out/mix.tsv" > "$out/mix.de-en.tsv"
wc -l "$out"/*.tsv >&2
