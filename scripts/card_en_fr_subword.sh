#!/usr/bin/env bash
# The figures of the sub-word en-fr model's card (issue 14), measured the same way every time:
#
#   bash scripts/card_en_fr_subword.sh [MODEL] [N]     # N: the first N distinct sources of each test split (default: all)
#
# MODEL defaults to models/en-fr-subword.pt. The held-out splits are those of
# scripts/make_en_fr_corpus.sh (never trained on); the gold alignments are the test half of
# docs/alignment-gold (its pairs come from those test splits). Prints markdown:
# - cased BLEU (13a, as sacrebleu), greedy and beam 5, on held-out Tatoeba and Europarl, and the
#   bundled word model's case-blind BLEU on the same Tatoeba pairs (issue 14's bar);
# - <unk> in any translation, how often numbers of the source come out as they were, and a few
#   probes with names and numbers;
# - AER against the gold, links merged to words, for attention, occlusion, integrated gradients and
#   attention-x-occlusion.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-models/en-fr-subword.pt}
limit=${2:-0}
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
corpus=work/en-fr-corpus
[[ -x "$cli" ]] || { echo "card_en_fr_subword.sh: build first ($cli is missing)" >&2; exit 1; }
[[ -f "$model" ]] || { echo "card_en_fr_subword.sh: no model at $model" >&2; exit 1; }
[[ -f "$corpus/tatoeba-test.tsv" && -f "$corpus/europarl-test.tsv" ]] || bash scripts/make_en_fr_corpus.sh "$corpus"
work=$(mktemp -d -t alignscope-card.XXXXXX)
trap 'rm -rf "$work"' EXIT

evaluate() {  # model, split, extra options... -> JSON in $work/<name>.json, hypotheses beside it
  local m="$1" split="$2" name="$3"
  shift 3
  "$cli" evaluate --model "$m" --test "$corpus/$split-test.tsv" --beam 5 --tokenize 13a --max-sentences "$limit" \
    --no-progress --json "$work/$name.json" --hypotheses "$work/$name.hyp" "$@" >/dev/null
}
evaluate "$model" tatoeba tatoeba
evaluate "$model" europarl europarl
evaluate models/en-fr.pt tatoeba bundled --lowercase

sed 's/\t/ ||| /' docs/alignment-gold/test/pairs.tsv >"$work/gold-pairs.txt"
for method in attention occlusion integrated-gradients attention-x-occlusion; do
  "$cli" align --model "$model" --method "$method" --no-progress -i "$work/gold-pairs.txt" -o "$work/$method.links"
  "$cli" aer --json --gold docs/alignment-gold/test/gold.txt --hyp "$work/$method.links" --pairs docs/alignment-gold/test/pairs.tsv \
    >"$work/$method.aer.json"
done

# Names and numbers a user types first (issue 14's examples), beam 5.
printf '%s\n' "The agreement on the European Economic Area was signed in August 1992." "Tom lives in Berlin." \
  "Mary bought 3 apples in Paris yesterday." "Angela Merkel met Barack Obama in Washington on 14 June 2011." >"$work/probes.txt"
"$cli" translate --model "$model" --beam 5 --no-progress -i "$work/probes.txt" -o "$work/probes.out"

python3 - "$work" "$model" "$limit" <<'EOF'
import json, re, sys
from pathlib import Path

work, model, limit = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def scores(name):
    data = json.loads((work / f"{name}.json").read_text(encoding="utf-8"))
    return {s["name"]: s for s in data["searches"]}, data

def bleu(search):
    return f"{search['bleu']:.2f}"

def hypotheses(name):
    rows = (work / f"{name}.hyp").read_text(encoding="utf-8").split("\n")[1:]
    return [r.split("\t") for r in rows if r]

print(f"Model `{model}`; {'all' if limit == 0 else f'the first {limit}'} distinct sources of each held-out split.\n")
print("| test set | sources | greedy (cased, 13a) | beam 5 (cased, 13a) |")
print("| --- | ---: | ---: | ---: |")
for name, label in (("tatoeba", "Tatoeba (held out)"), ("europarl", "Europarl v7 (held out)")):
    s, data = scores(name)
    print(f"| {label} | {data['sentences']} | {bleu(s['greedy'])} | {bleu(s['beam 5'])} |")
b, data = scores("bundled")
print(f"| the bundled word model (`models/en-fr.pt`), same Tatoeba sources, case-blind | {data['sentences']} "
      f"| {bleu(b['greedy'])} | {bleu(b['beam 5'])} |")
print()

unknown = total = 0
numbers = copied = 0
for name in ("tatoeba", "europarl"):
    for row in hypotheses(name):
        source, outputs = row[0], row[1:]
        total += len(outputs)
        unknown += sum("<unk>" in o for o in outputs)
        for n in re.findall(r"\d+(?:[.,]\d+)*", source):
            numbers += 1
            # French writes 1,000.5 as 1 000,5: compare digits only.
            digits = re.sub(r"\D", "", n)
            copied += digits in re.sub(r"(?<=\d)[\s\u00a0\u202f.,](?=\d)", "", outputs[-1])
print(f"- `<unk>` in {unknown} of {total} translations (greedy and beam, both splits).")
print(f"- Numbers of the source found in the beam-5 translation: {copied} of {numbers}.")
print()
print("Probes (beam 5):\n")
for source, target in zip((work / "probes.txt").read_text(encoding="utf-8").splitlines(),
                          (work / "probes.out").read_text(encoding="utf-8").splitlines()):
    print(f"- {source} → {target}")
print()
print("AER on the test half of docs/alignment-gold (150 pairs as written, one link per target word, argmax):\n")
print("| method | AER | precision | recall |")
print("| --- | ---: | ---: | ---: |")
for method in ("attention", "occlusion", "integrated-gradients", "attention-x-occlusion"):
    a = json.loads((work / f"{method}.aer.json").read_text(encoding="utf-8"))
    print(f"| {method} | {a['aer']:.2f} | {a['precision']:.2f} | {a['recall']:.2f} |")
EOF
