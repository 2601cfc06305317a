#!/usr/bin/env python3
"""Writes a model file again with metadata entries set (the weights, vocabularies, tokenizers and the
rest of the metadata as they were; the code is the package's current model code, as `alignscope-cli
update-code` writes it). Used to declare a bundled model's reverse model (docs/alignment.md):

  python3 scripts/model_metadata.py models/en-fr-subword.pt reverse_model='"fr-en-subword.pt"' [-o OUT] [--half]

Each KEY=VALUE sets metadata KEY to the JSON VALUE (a value that is not JSON is taken as a string).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from alignscope import export, load  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("entries", nargs="+", metavar="KEY=VALUE")
    ap.add_argument("-o", "--out", help="file to write (default: the model file itself)")
    ap.add_argument("--half", action="store_true", help="store the weights as float16")
    a = ap.parse_args()
    model, src_vocab, tgt_vocab, info = load(a.model)
    meta = dict(info["metadata"])
    for entry in a.entries:
        key, sep, value = entry.partition("=")
        if not sep or not key:
            ap.error(f"'{entry}' is not KEY=VALUE")
        try:
            meta[key] = json.loads(value)
        except json.JSONDecodeError:
            meta[key] = value
    export(model.eval(), src_vocab, tgt_vocab, a.out or a.model, name=meta.get("name", "model"), metadata=meta,
           src_tokenizer=info["src_tokenizer"], tgt_tokenizer=info["tgt_tokenizer"], half=a.half)
    return 0


if __name__ == "__main__":
    sys.exit(main())
