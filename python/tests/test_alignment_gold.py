"""The hand-aligned gold sets (docs/alignment-gold, docs/alignment-gold-en-de): every written file is
what scripts/alignment_gold.py makes of the hand-made token gold, every link lies inside its pair's
tokens, and the halves are disjoint and together the whole."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOLDS = [os.path.join(ROOT, "docs", "alignment-gold"), os.path.join(ROOT, "docs", "alignment-gold-en-de")]


@pytest.mark.parametrize("gold", GOLDS, ids=os.path.basename)
def test_written_files_are_up_to_date(gold):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "alignment_gold.py"), "--gold", gold, "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("gold", GOLDS, ids=os.path.basename)
def test_halves_split_the_pairs(gold):
    def lines(name):
        with open(os.path.join(gold, name), encoding="utf-8") as f:
            return f.read().splitlines()
    pairs = lines("pairs.tsv")
    halves = [row.split("\t")[2] for row in lines("split.tsv")[1:]]
    assert len(halves) == len(pairs)
    assert sorted(lines("dev/pairs.tsv") + lines("test/pairs.tsv")) == sorted(pairs)
    assert abs(halves.count("dev") - halves.count("test")) <= len(pairs) // 10


def test_german_gold_links_every_pair_and_the_reordered_verbs():
    gold = GOLDS[1]
    with open(os.path.join(gold, "gold.tokens.txt"), encoding="utf-8") as f:
        rows = f.read().splitlines()
    assert len(rows) >= 200 and all(row.strip() for row in rows)
    with open(os.path.join(gold, "pairs.tsv"), encoding="utf-8") as f:
        pairs = [line.split("\t") for line in f.read().splitlines()]
    # "I have read the book" <-> "Ich habe das Buch gelesen": a verb-final pair links the English verb
    # to the German word at the end of its clause, not along the diagonal.
    with open(os.path.join(gold, "split.tsv"), encoding="utf-8") as f:
        kinds = [row.split("\t")[1] for row in f.read().splitlines()[1:]]
    crossing = 0
    for (en, de), row, kind in zip(pairs, rows, kinds):
        if kind != "participle-final":
            continue
        links = [tuple(map(int, link.replace("p", "-").split("-"))) for link in row.split() if "-" in link]
        crossing += any(i < k and j > m for i, j in links for k, m in links)
    assert crossing >= 20
