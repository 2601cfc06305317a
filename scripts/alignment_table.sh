#!/usr/bin/env bash
# AER of every attribution method and link rule on the hand-aligned pairs (docs/alignment.md,
# "Measured"): prints a markdown table. Needs a model of the other direction for the symmetric
# rules (docs/alignment.md says how the fr-en one was trained). Either model may be a
# comma-separated list of files: an ensemble (`align -m A -m B`, docs/alignment.md "Ensembles").
#   bash scripts/alignment_table.sh [FORWARD_MODEL] REVERSE_MODEL
#   bash scripts/alignment_table.sh models/en-fr.pt,models/en-fr-subword.pt fr-en.pt,fr-en-subword.pt
set -euo pipefail
cd "$(dirname "$0")/.."
forward=${2:+$1}
forward=${forward:-models/en-fr.pt}
reverse=${2:-${1:?usage: alignment_table.sh [FORWARD_MODEL] REVERSE_MODEL}}
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
forward_args=() reverse_model_args=()
IFS=, read -ra files <<<"$forward"; for f in "${files[@]}"; do forward_args+=(--model "$f"); done
IFS=, read -ra files <<<"$reverse"; for f in "${files[@]}"; do reverse_model_args+=(--reverse-model "$f"); done
work=$(mktemp -d -t alignscope-aer.XXXXXX)
trap 'rm -rf "$work"' EXIT
sed 's/\t/ ||| /' docs/alignment-gold/pairs.tsv >"$work/pairs.txt"
rules=(argmax threshold intersection grow-diag-final-and agreement-intersection agreement-grow-diag-final-and)
header="| method |"; for rule in "${rules[@]}"; do header+=" $rule |"; done; echo "$header"
printf '| --- |'; for _ in "${rules[@]}"; do printf ' --- |'; done; echo
for method in attention grad-x-input integrated-gradients occlusion attention-x-occlusion; do
  row="| \`$method\` |"
  for rule in "${rules[@]}"; do
    reverse_args=()
    [[ $rule == argmax || $rule == threshold ]] || reverse_args=("${reverse_model_args[@]}")
    "$cli" align "${forward_args[@]}" --method "$method" --links "$rule" "${reverse_args[@]}" --no-progress \
      -i "$work/pairs.txt" -o "$work/links.txt"
    aer=$("$cli" aer --json --gold docs/alignment-gold/gold.txt --hyp "$work/links.txt" --pairs docs/alignment-gold/pairs.tsv)
    row+=$(python3 -c 'import json, sys; a = json.loads(sys.argv[1]); print(" %.2f (P %.1f, R %.1f) |" % (a["aer"], a["precision"], a["recall"]))' "$aer")
  done
  echo "$row"
done
