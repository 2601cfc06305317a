#!/usr/bin/env python3
"""Builds the files of docs/alignment-gold from the hand-made token gold (issue 35).

Hand-made, and the source of everything else: `pairs.tsv` (English<TAB>French as written),
`gold.tokens.txt` (links over the tokens of alignscope.text_forms; guidelines.md, "Token-level
gold") and `split.tsv` (each line's corpus and half). Written from them:
- `gold.txt`: the token gold projected onto the whitespace words as written (text_forms.project_gold;
  for the first 120 pairs, aligned over words by hand before, the projection gives that gold exactly);
- `pairs.tokens.tsv`: the pairs lower-cased and tokenised, as alignment gold sets are given; its
  words are the tokens of gold.tokens.txt;
- `dev/` and `test/`: the four files for each half. Methods, rules, weights and checkpoints are
  chosen on dev; docs report test.

  python3 scripts/alignment_gold.py [--check]   # --check: fail if a written file differs
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from alignscope.text_forms import format_gold, parse_gold, project_gold, tokenized, tokens_by_word  # noqa: E402

GOLD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "alignment-gold")


def lines(name):
    with open(os.path.join(GOLD, name), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    a = ap.parse_args()
    pairs = [line.split("\t") for line in lines("pairs.tsv")]
    gold = lines("gold.tokens.txt")
    split = [line.split("\t") for line in lines("split.tsv")[1:]]
    if not len(pairs) == len(gold) == len(split):
        sys.exit(f"pairs.tsv ({len(pairs)}), gold.tokens.txt ({len(gold)}) and split.tsv ({len(split)}) "
                 f"must have one line per pair")
    files = {}
    words, token_pairs = [], []
    for k, ((en, fr), line) in enumerate(zip(pairs, gold)):
        sure, possible = parse_gold(line)
        n_en = sum(len(w) for w in tokens_by_word(en, "en"))
        n_fr = sum(len(w) for w in tokens_by_word(fr, "fr"))
        bad = [(i, j) for i, j in sure | possible if not (0 <= i < n_en and 0 <= j < n_fr)]
        if bad:
            sys.exit(f"gold.tokens.txt:{k + 1}: links {bad} past the tokens ({n_en} English, {n_fr} French)")
        words.append(format_gold(*project_gold(sure, possible, en, fr, "en", "fr")))
        token_pairs.append(f"{tokenized(en, 'en')}\t{tokenized(fr, 'fr')}")
    files["gold.txt"] = words
    files["pairs.tokens.tsv"] = token_pairs
    for half in ("dev", "test"):
        keep = [k for k, (_, _, h) in enumerate(split) if h == half]
        files[f"{half}/pairs.tsv"] = ["\t".join(pairs[k]) for k in keep]
        files[f"{half}/gold.tokens.txt"] = [gold[k] for k in keep]
        files[f"{half}/gold.txt"] = [words[k] for k in keep]
        files[f"{half}/pairs.tokens.tsv"] = [token_pairs[k] for k in keep]
    differ = []
    for name, rows in files.items():
        path = os.path.join(GOLD, name)
        text = "".join(r + "\n" for r in rows)
        if a.check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != text:
                differ.append(name)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    if differ:
        sys.exit("out of date (run scripts/alignment_gold.py): " + ", ".join(differ))


if __name__ == "__main__":
    main()
