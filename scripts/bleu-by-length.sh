#!/usr/bin/env bash
# Reproduces the BLEU-by-source-length comparison (Bahdanau et al. 2014, Fig. 2) with a model pair
# that differs only in the attention: a PNG and the table spliced into its markdown page.
#
#   bash scripts/bleu-by-length.sh TEST.tsv                      # en-fr / en-fr-noattn: docs/bleu-by-length.{png,md}
#   bash scripts/bleu-by-length.sh --subword [TEST.tsv]          # en-fr-subword-bahdanau / en-fr-subword-noattn on held-out
#                                                                # Europarl: docs/bleu-by-length-subword.md and
#                                                                # resources/lessons/figures/bleu-by-length-subword.png (lesson 1 shows it)
#
# TEST.tsv is a held-out split: for the word pair the --test-out file of its recipe (the noattn
# recipe writes the same pairs); for the sub-word pair work/en-fr-corpus/europarl-test.tsv of
# scripts/make_en_fr_corpus.sh (made when missing). Needs a GUI build (scripts/build.sh).
set -euo pipefail
subword=0
[[ ${1:-} == --subword ]] && { subword=1; shift; }
[[ -n ${ALIGNSCOPE_CLI:-} ]] && ALIGNSCOPE_CLI=$(realpath "$ALIGNSCOPE_CLI")
if [[ $subword == 1 ]]; then
  [[ -n ${1:-} ]] && test_file=$(realpath "$1")
  cd "$(dirname "$0")/.."
  if [[ -z ${test_file:-} ]]; then
    [[ -f work/en-fr-corpus/europarl-test.tsv ]] || bash scripts/make_en_fr_corpus.sh work/en-fr-corpus
    test_file=$PWD/work/en-fr-corpus/europarl-test.tsv
  fi
  attention=en-fr-subword-bahdanau plain=en-fr-subword-noattn out=docs/bleu-by-length-subword
  png=resources/lessons/figures/bleu-by-length-subword.png
  # Source length in pieces (</s> not counted); Europarl sentences run to 80 pieces and more.
  buckets=10,15,20,25,30,40,50,60 scoring=(--tokenize 13a)
  title="BLEU by source length (pieces), held-out Europarl v7 fr-en, cased"
else
  test_file=$(realpath "${1:?usage: scripts/bleu-by-length.sh TEST.tsv (the --test-out file of the recipe) | --subword [TEST.tsv]}")
  cd "$(dirname "$0")/.."
  attention=en-fr plain=en-fr-noattn out=docs/bleu-by-length
  buckets=4,5,6,7,8,9,10,11,12,14 scoring=()
  title="BLEU by source sentence length, held-out Tatoeba en-fr test split"
fi
png=${png:-$out.png}
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
work=$(mktemp -d -t alignscope-bleu.XXXXXX)
trap 'rm -rf "$work"' EXIT
for model in "$attention" "$plain"; do
  echo "== evaluating $model on $test_file" >&2
  "$cli" evaluate --model "models/$model.pt" --test "$test_file" --beam 5 --buckets "$buckets" "${scoring[@]}" \
    --no-progress --json "$work/$model.json" >"$work/$model.txt"
  cat "$work/$model.txt" >&2
done
"$cli" plot-bleu --eval "$work/$attention.json" --name "$attention (attention)" \
  --eval "$work/$plain.json" --name "$plain (no attention)" \
  --title "$title" -o "$png" --table "$work/table.md"
{
  sed -n '1,/^<!-- table -->$/p' "$out.md"
  cat "$work/table.md"
  sed -n '/^<!-- end of table -->$/,$p' "$out.md"
} >"$work/doc.md"
mv "$work/doc.md" "$out.md"
echo "wrote $png and the table in $out.md" >&2
