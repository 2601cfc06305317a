#!/usr/bin/env bash
# AER on one half of the hand-aligned gold (docs/alignment-gold), in both forms (as written, and
# lower-cased and tokenised), each against the fast_align baseline by a paired bootstrap
# (docs/alignment.md, "Measured"). Prints one markdown row per configuration.
#
#   bash scripts/alignment_table.sh HALF MODEL METHOD RULE [MODEL METHOD RULE ...]
#   bash scripts/alignment_table.sh dev models/en-fr-subword-guided.pt attention-x-occlusion agreement-intersection
#
# HALF is dev (choose there) or test (report only). Rules that join two directions use the reverse
# model the model declares (metadata reverse_model). RULE may carry the threshold: threshold:0.3.
# GOLD_CORPUS=tatoeba (or europarl) keeps that corpus's pairs of the half only (split.tsv says which).
set -euo pipefail
cd "$(dirname "$0")/.."
half=${1:?usage: alignment_table.sh dev|test MODEL METHOD RULE ...}
shift
[[ $half == dev || $half == test ]] || { echo "alignment_table.sh: the half is dev or test, not '$half'" >&2; exit 2; }
(($# % 3 == 0 && $# > 0)) || { echo "alignment_table.sh: give MODEL METHOD RULE triples" >&2; exit 2; }
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
gold=${GOLD_DIR:-docs/alignment-gold}  # GOLD_DIR=docs/alignment-gold-en-de for English-German
work=$(mktemp -d -t alignscope-aer.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [[ -n "${GOLD_CORPUS:-}" ]]; then  # the half's files, that corpus's lines only, laid out as $gold is
  mkdir -p "$work/gold/$half" "$work/gold/fast-align"
  keep() {  # FILE -> the lines of the half's pairs from GOLD_CORPUS
    awk -F'\t' -v half="$half" -v corpus="$GOLD_CORPUS" 'NR == FNR { if (FNR > 1 && $3 == half) want[++n] = ($2 == corpus); next }
      want[FNR]' "$gold/split.tsv" "$1"
  }
  for f in pairs.tsv pairs.tokens.tsv gold.txt gold.tokens.txt; do keep "$gold/$half/$f" >"$work/gold/$half/$f"; done
  for f in words tokens; do keep "$gold/fast-align/$half.$f.txt" >"$work/gold/fast-align/$half.$f.txt"; done
  [[ -s "$work/gold/$half/pairs.tsv" ]] || { echo "alignment_table.sh: no $GOLD_CORPUS pairs in the $half half" >&2; exit 2; }
  gold=$work/gold
fi
echo "| model | method | rule | as written: AER (P, R) | vs fast_align, 95 % | lower-cased, tokenised: AER (P, R) | vs fast_align, 95 % |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
row() {  # form pairs gold baseline -> two cells
  local pairs=$1 gold_file=$2 baseline=$3
  sed 's/\t/ ||| /' "$pairs" >"$work/pairs.txt"
  "$cli" align --model "$model" --method "$method" "${rule_args[@]}" --no-progress -i "$work/pairs.txt" -o "$work/links.txt"
  "$cli" aer --json --gold "$gold_file" --hyp "$work/links.txt" --pairs "$pairs" --versus "$baseline" >"$work/aer.json"
  python3 - "$work/aer.json" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = a["bootstrap"]
print(" %.2f (%.1f, %.1f) | %+.2f [%+.2f, %+.2f] |" % (a["aer"], a["precision"], a["recall"],
      b["difference"], *b["interval_95"]), end="")
EOF
}
while (($#)); do
  model=$1 method=$2 rule=$3
  shift 3
  rule_args=(--links "${rule%%:*}")
  [[ $rule == threshold:* ]] && rule_args+=(--threshold "${rule#threshold:}")
  line="| $(basename "$model" .pt) | $method | $rule |"
  line+=$(row "$gold/$half/pairs.tsv" "$gold/$half/gold.txt" "$gold/fast-align/$half.words.txt")
  line+=$(row "$gold/$half/pairs.tokens.tsv" "$gold/$half/gold.tokens.txt" "$gold/fast-align/$half.tokens.txt")
  echo "$line"
done
echo
echo "fast_align grow-diag-final-and on the same pairs: as written $("$cli" aer --gold "$gold/$half/gold.txt" --hyp "$gold/fast-align/$half.words.txt" --pairs "$gold/$half/pairs.tsv" | head -1);" \
  "tokenised $("$cli" aer --gold "$gold/$half/gold.tokens.txt" --hyp "$gold/fast-align/$half.tokens.txt" --pairs "$gold/$half/pairs.tokens.tsv" | head -1)"
