"""The recipe the shipped conditional models' cards cite, run end to end on the CPU on a small
corpus: scripts/train_conditional.sh (the mixture's links by `guide`, then `train --init-from
--decoder conditional`), as a card's `--steps N` line runs it on a machine without a GPU, and a
second call that resumes where the first stopped (a lent GPU's 10-minute calls)."""

import json
import os
import subprocess
import sys

import torch

import alignscope

ARCH = alignscope.Architecture(embedding_size=12, encoder_hidden=10, decoder_hidden=16, attention_size=8,
                               readout_size=12)


def metadata(path):
    return json.loads(torch.jit.load(str(path), map_location="cpu").metadata)


def test_train_conditional_recipe_warm_starts_resumes_and_guides(repo_root, toy_tsv, tmp_path):
    donor = tmp_path / "donor.pt"  # a small Bahdanau sub-word model, as en-fr-subword-bahdanau is
    alignscope.train(str(toy_tsv), ARCH, steps=5, out=str(donor), name="donor", tokenizer="sentencepiece",
                     pieces=300, batch_size=16, log_every=0, device="cpu")
    out = tmp_path / "out"
    env = dict(os.environ, PYTHON=sys.executable, OMP_NUM_THREADS="1")
    env.pop("WORLD_SIZE", None)

    def recipe(*args):
        r = subprocess.run(["bash", str(repo_root / "scripts" / "train_conditional.sh"), "--device", "cpu",
                            "--mix", str(toy_tsv), "--out", str(out), "--init-from", str(donor), *map(str, args)],
                           env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        return r

    recipe("--guided-weight", 0, "--steps", 2)
    plain = out / "en-fr-subword-conditional-plain.pt"
    meta = metadata(plain)
    assert meta["architecture"]["decoder"] == "conditional" and meta["train_steps"] == 2
    assert meta["continued_from"]["model"] == "donor.pt" and "guided_alignment" not in meta
    assert (out / "guided.tsv").is_file() and (out / "guided.links").is_file()

    r = recipe("--guided-weight", 0, "--steps", 3)  # the next call goes on from the checkpoint
    assert "resumed from" in r.stderr
    assert metadata(plain)["train_steps"] == 3

    recipe("--steps", 2)  # weight 1: the guided sibling, trained toward the links guide wrote
    guided = metadata(out / "en-fr-subword-conditional.pt")
    assert guided["architecture"]["decoder"] == "conditional" and guided["guided_alignment"]["links"] == "guided.links"
