#!/usr/bin/env bash
# A corpus and its Pharaoh word links for the other direction: the columns of each
# `source<TAB>target` line swapped and each link i-j written j-i. The one flip the guided recipes
# share (scripts/make_guided_corpus.sh, scripts/train_self_guided.sh --reverse).
#
#   bash scripts/reverse_pairs.sh CORPUS LINKS OUT_CORPUS OUT_LINKS
set -euo pipefail
(($# == 4)) || { echo "usage: reverse_pairs.sh CORPUS LINKS OUT_CORPUS OUT_LINKS" >&2; exit 2; }
awk -F'\t' '{print $2 "\t" $1}' "$1" > "$3"
awk '{for (i = 1; i <= NF; i++) {split($i, l, "-"); $i = l[2] "-" l[1]} print}' "$2" > "$4"
