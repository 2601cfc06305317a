#!/usr/bin/env bash
# Links for guided alignment from AlignScope's own best aligner instead of fast_align (issue 36):
# a seeded sample of the guided mixture's distinct pairs, a share rewritten lower-cased and tokenised
# as `alignscope guide` does, aligned by attention x occlusion of a model and its declared reverse
# model, joined by agreement-intersection (docs/alignment.md, "A better teacher": 11.4 / 8.4 AER
# on the test half with the default pair, fast_align 16.3 / 14.7). Like awesome-align's
# self-training, a model trained toward these links learns from a better teacher than fast_align.
#
#   bash scripts/make_self_guided_corpus.sh --mix FILE [--pairs N] [--model MODEL] [--max-words W] [--out DIR]
#
# Writes OUT/self.tsv and OUT/self.links (line for line), in chunks of 2,000 pairs so that an
# interrupted run resumes where it stopped. Needs build/app/alignscope-cli (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mix="" pairs=16000 model=models/en-fr-subword.pt max_words=40 out=work/self
while (($#)); do
  case "$1" in
    --mix) mix=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --max-words) max_words=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "make_self_guided_corpus.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -f "$mix" ]] || { echo "make_self_guided_corpus.sh: give the mixture with --mix FILE (scripts/make_guided_corpus.sh writes it)" >&2; exit 2; }
py=${PYTHON:-python3} cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out/chunks"
if [[ ! -f "$out/sample.tsv" ]]; then
  "$py" - "$mix" "$pairs" "$max_words" "$out/sample.tsv" <<'PY'
import random, sys
from alignscope.text import read_tsv_by_line
from alignscope.text_forms import tokenized
mix, n, max_words, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pairs = sorted({p for p in read_tsv_by_line(mix) if p is not None
                and 0 < len(p[0].split()) <= max_words and 0 < len(p[1].split()) <= max_words})
rng = random.Random("alignscope-self-guide:1")
sample = rng.sample(pairs, min(n, len(pairs)))
with open(out + ".part", "w", encoding="utf-8") as f:
    for s, t in sample:  # 30 % in the tokenised form, as `alignscope guide` writes its corpus
        if rng.random() < 0.3:
            s, t = tokenized(s, "en"), tokenized(t, "fr")
        f.write(f"{s}\t{t}\n")
print(f"self guide: {len(sample)} of {len(pairs)} distinct pairs of <= {max_words} words", file=sys.stderr)
PY
  mv "$out/sample.tsv.part" "$out/sample.tsv"
fi
split -l 2000 -d -a 3 "$out/sample.tsv" "$out/chunks/pairs."
for chunk in "$out"/chunks/pairs.[0-9][0-9][0-9]; do
  links=${chunk/pairs./links.}
  [[ -f "$links" ]] && continue
  start=$SECONDS
  sed 's/\t/ ||| /' "$chunk" | "$cli" align --model "$model" --method attention-x-occlusion \
    --links agreement-intersection --no-progress -o "$links.part"
  mv "$links.part" "$links"
  echo "self guide: $(basename "$chunk") aligned in $((SECONDS - start)) s" >&2
done
cat "$out"/chunks/pairs.[0-9][0-9][0-9] > "$out/self.tsv"
cat "$out"/chunks/links.[0-9][0-9][0-9] > "$out/self.links"
[[ $(wc -l < "$out/self.tsv") == $(wc -l < "$out/self.links") ]] || { echo "make_self_guided_corpus.sh: corpus and links differ in length" >&2; exit 1; }
echo "self guide: $(wc -l < "$out/self.tsv") pairs and their links in $out/self.tsv, $out/self.links" >&2
