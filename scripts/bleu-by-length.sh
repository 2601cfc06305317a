#!/usr/bin/env bash
# Reproduces the BLEU-by-source-length comparison (Bahdanau et al. 2014, Fig. 2) with the two
# bundled models: docs/bleu-by-length.png and the table in docs/bleu-by-length.md.
#
#   bash scripts/bleu-by-length.sh TEST.tsv
#
# TEST.tsv is the held-out split the en-fr recipe writes (--test-out en-fr-test.tsv; the
# en-fr-noattn recipe writes the same pairs). Needs a GUI build (scripts/build.sh).
set -euo pipefail
test_file=$(realpath "${1:?usage: scripts/bleu-by-length.sh TEST.tsv (the --test-out file of the recipe)}")
[[ -n ${ALIGNSCOPE_CLI:-} ]] && ALIGNSCOPE_CLI=$(realpath "$ALIGNSCOPE_CLI")
cd "$(dirname "$0")/.."
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
buckets=4,5,6,7,8,9,10,11,12,14
work=$(mktemp -d -t alignscope-bleu.XXXXXX)
trap 'rm -rf "$work"' EXIT
for model in en-fr en-fr-noattn; do
  echo "== evaluating $model" >&2
  "$cli" --threads 1 evaluate --model "models/$model.pt" --test "$test_file" --beam 5 --buckets "$buckets" \
    --json "$work/$model.json" >"$work/$model.txt"
  cat "$work/$model.txt" >&2
done
"$cli" plot-bleu --eval "$work/en-fr.json" --name "en-fr (attention)" \
  --eval "$work/en-fr-noattn.json" --name "en-fr-noattn (no attention)" \
  --title "BLEU by source sentence length, held-out Tatoeba en-fr test split" \
  -o docs/bleu-by-length.png --table "$work/table.md"
{
  sed -n '1,/^<!-- table -->$/p' docs/bleu-by-length.md
  cat "$work/table.md"
  sed -n '/^<!-- end of table -->$/,$p' docs/bleu-by-length.md
} >"$work/doc.md"
mv "$work/doc.md" docs/bleu-by-length.md
echo "wrote docs/bleu-by-length.png and the table in docs/bleu-by-length.md" >&2
