#!/usr/bin/env python3
"""Draws the sentence pairs of the hand-aligned English-German gold (issue 49) from the held-out test
split of scripts/make_en_de_corpus.sh: distinct English sentences (one German translation each, the
first), 3 to 20 English words, 30 for each phenomenon that reorders German against English (found by
the patterns below on the German side) and 40 plain pairs that match none, with a fixed seed. Each
pair's phenomenon goes to split.tsv; the halves alternate within each phenomenon (dev, test, ...).

  python3 scripts/select_en_de_gold.py work/en-de-corpus/test.tsv docs/alignment-gold-en-de
"""
import os
import random
import re
import sys

# The German side's patterns, tried in this order; a pair counts for the first that matches.
PHENOMENA = [
    ("verb-final", re.compile(r",\s*(dass|weil|wenn|ob|als|bevor|nachdem|obwohl|damit|während|bis|da|wo|was|wer|wie|warum|der|die|das|den|dem)\s.+\b\w+(en|t|st|te|ten)\s*[.!?]$")),
    ("participle-final", re.compile(r"\b(habe|hast|hat|haben|habt|hatte|hatten|bin|bist|ist|sind|seid|war|waren|wurde|wurden|wird|worden)\b.+\s(ge\w+(t|en)|\w+(iert))\s*[.!?]$")),
    ("infinitive-final", re.compile(r"\b(will|willst|wollen|kann|kannst|können|muss|musst|müssen|möchte|möchtest|möchten|soll|sollst|sollten|darf|werde|wirst|werden)\b.+\s\w+en\s*[.!?]$")),
    ("separable-verb", re.compile(r"\b\w+\s.+\s(an|auf|aus|ab|ein|mit|vor|zu|zurück|weg|los|fest|fern|nach|um|her|hin)\s*[.!?]$")),
    ("inversion", re.compile(r"^(Morgen|Gestern|Heute|Dann|Hier|Dort|Jetzt|Vielleicht|Leider|Manchmal|Bald|Damals|Trotzdem|Deshalb|Deswegen|Darum|Natürlich|Plötzlich|Oft|Immer|Schon|Nun|So|Da|Letzte \w+|Nächste \w+|Letztes Jahr|Nächstes Jahr|Gestern Abend|Heute Abend|Morgen früh|Zum Glück|Im \w+|Am \w+|In \w+|Nach \w+)\s+[a-zäöü]\w*\s+(ich|du|er|sie|es|wir|ihr|Tom|Maria|man)\b")),
    ("compound", re.compile(r"\b[A-ZÄÖÜ][a-zäöüß]{11,}\b")),
]
PER_PHENOMENON, PLAIN = 30, 49


def main():
    test, out = sys.argv[1], sys.argv[2]
    first = {}
    with open(test, encoding="utf-8") as f:
        for line in f:
            en, de = line.rstrip("\n").split("\t")
            first.setdefault(en, de)
    rng = random.Random(49)
    pairs = [(en, de) for en, de in first.items() if 3 <= len(en.split()) <= 20]
    rng.shuffle(pairs)
    chosen = {name: [] for name, _ in PHENOMENA}
    chosen["plain"] = []
    for en, de in pairs:
        kind = next((name for name, rx in PHENOMENA if rx.search(de)), "plain")
        want = PLAIN if kind == "plain" else PER_PHENOMENON
        if kind == "plain" and len(en.split()) < 4:
            continue
        if len(chosen[kind]) < want:
            chosen[kind].append((en, de))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "pairs.tsv"), "w", encoding="utf-8") as p, \
            open(os.path.join(out, "split.tsv"), "w", encoding="utf-8") as s:
        s.write("line\tphenomenon\thalf\n")
        n = 0
        for kind, items in chosen.items():
            for k, (en, de) in enumerate(items):
                n += 1
                p.write(f"{en}\t{de}\n")
                s.write(f"{n}\t{kind}\t{'dev' if k % 2 == 0 else 'test'}\n")
    print({k: len(v) for k, v in chosen.items()}, file=sys.stderr)


if __name__ == "__main__":
    main()
