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

  python3 scripts/alignment_gold.py [--gold DIR] [--check]   # --check: fail if a written file differs
  python3 scripts/alignment_gold.py --gold DIR --show N      # line N's tokens with their indices

The gold folder's languages come from its `languages` file (`en fr`, `en de`); without one, English→French.
"""
import argparse
import os
import sys
import types

# The text tools need none of the package's PyTorch side: its folder stands in for the package, so
# that `alignscope/__init__.py` (which loads torch, seconds per call) is not run for --show.
_PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "alignscope")
sys.modules.setdefault("alignscope", types.ModuleType("alignscope")).__path__ = [_PACKAGE]
from alignscope.text_forms import format_gold, parse_gold, project_gold, tokenized, tokens_by_word  # noqa: E402

GOLD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "alignment-gold")


def lines(gold_dir, name):
    with open(os.path.join(gold_dir, name), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def languages(gold_dir):
    path = os.path.join(gold_dir, "languages")
    if not os.path.exists(path):
        return "en", "fr"
    src, tgt = open(path, encoding="utf-8").read().split()
    return src, tgt


def show(gold_dir, n):
    src_lang, tgt_lang = languages(gold_dir)
    src, tgt = lines(gold_dir, "pairs.tsv")[n - 1].split("\t")
    for language, text in ((src_lang, src), (tgt_lang, tgt)):
        tokens = [t for w in tokens_by_word(text, language) for t in w]
        print(f"{language}: " + " ".join(f"{k}:{t}" for k, t in enumerate(tokens)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--gold", default=GOLD, help="the gold folder (default docs/alignment-gold)")
    ap.add_argument("--show", type=int, metavar="N", help="print line N's tokens with their indices")
    a = ap.parse_args()
    if a.show:
        return show(a.gold, a.show)
    src_lang, tgt_lang = languages(a.gold)
    pairs = [line.split("\t") for line in lines(a.gold, "pairs.tsv")]
    gold = lines(a.gold, "gold.tokens.txt")
    split = [line.split("\t") for line in lines(a.gold, "split.tsv")[1:]]
    if not len(pairs) == len(gold) == len(split):
        sys.exit(f"pairs.tsv ({len(pairs)}), gold.tokens.txt ({len(gold)}) and split.tsv ({len(split)}) "
                 f"must have one line per pair")
    files = {}
    words, token_pairs = [], []
    for k, ((src, tgt), line) in enumerate(zip(pairs, gold)):
        sure, possible = parse_gold(line)
        n_src = sum(len(w) for w in tokens_by_word(src, src_lang))
        n_tgt = sum(len(w) for w in tokens_by_word(tgt, tgt_lang))
        bad = [(i, j) for i, j in sure | possible if not (0 <= i < n_src and 0 <= j < n_tgt)]
        if bad:
            sys.exit(f"gold.tokens.txt:{k + 1}: links {bad} past the tokens ({n_src} {src_lang}, {n_tgt} {tgt_lang})")
        words.append(format_gold(*project_gold(sure, possible, src, tgt, src_lang, tgt_lang)))
        token_pairs.append(f"{tokenized(src, src_lang)}\t{tokenized(tgt, tgt_lang)}")
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
        path = os.path.join(a.gold, name)
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
