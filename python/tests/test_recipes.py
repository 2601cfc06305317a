"""The recipe the shipped conditional models' cards cite, run end to end on the CPU on a small
corpus: scripts/train_conditional.sh (the mixture's links by `guide`, then `train --init-from
--decoder conditional`), as a card's `--steps N` line runs it on a machine without a GPU, and a
second call that resumes where the first stopped (a lent GPU's 10-minute calls); and the last step of
en-fr-subword-guided's recipe, scripts/make_self_guided_corpus.sh and scripts/train_self_guided.sh."""

import dataclasses
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


def test_self_guided_recipe_aligns_a_sample_with_the_model_pair_and_trains_toward_it(repo_root, toy_tsv, tmp_path,
                                                                                      cli):
    # en-fr-subword-guided's last step: a sample of the mixture aligned by attention x occlusion of a
    # model and its declared reverse model (agreement-intersection), then the guided model trained on
    # toward those links. A small conditional pair stands in for the default pair.
    arch = dataclasses.replace(ARCH, decoder="conditional")
    reverse_tsv = tmp_path / "reverse.tsv"
    reverse_tsv.write_text("".join("\t".join(reversed(line.split("\t"))) + "\n"
                                   for line in toy_tsv.read_text(encoding="utf-8").splitlines()), encoding="utf-8")
    teacher, reverse = tmp_path / "teacher.pt", tmp_path / "reverse.pt"
    for data, out in ((toy_tsv, teacher), (reverse_tsv, reverse)):
        alignscope.train(str(data), arch, steps=5, out=str(out), name=out.stem, tokenizer="sentencepiece",
                         pieces=300, batch_size=16, log_every=0, device="cpu")
    env = dict(os.environ, PYTHON=sys.executable, OMP_NUM_THREADS="1", ALIGNSCOPE_CLI=str(cli))
    env.pop("WORLD_SIZE", None)

    def run(script, *args):
        r = subprocess.run(["bash", str(repo_root / "scripts" / script), *map(str, args)], env=env,
                           capture_output=True, text=True, timeout=600)
        return r

    r = run("make_self_guided_corpus.sh", "--mix", toy_tsv, "--pairs", 30, "--model", teacher, "--out", tmp_path / "s")
    assert r.returncode != 0 and "reverse" in r.stderr  # the teacher declares no reverse model: said, nothing written
    subprocess.run([sys.executable, str(repo_root / "scripts" / "model_metadata.py"), str(teacher),
                    'reverse_model="reverse.pt"'], check=True, env=env)
    r = run("make_self_guided_corpus.sh", "--mix", toy_tsv, "--pairs", 30, "--model", teacher, "--out", tmp_path / "s")
    assert r.returncode == 0, r.stdout + r.stderr
    pairs = (tmp_path / "s" / "self.tsv").read_text(encoding="utf-8").splitlines()
    links = (tmp_path / "s" / "self.links").read_text(encoding="utf-8").splitlines()
    assert len(pairs) == len(links) == 30 and len(set(pairs)) == 30
    for pair, line in zip(pairs, links):  # every link joins words of its own line
        src, tgt = (side.split() for side in pair.split("\t"))
        for link in line.split():
            i, j = map(int, link.split("-"))
            assert i < len(src) and j < len(tgt), (pair, line)
    assert any(line.strip() for line in links)

    r = run("train_self_guided.sh", "--device", "cpu", "--epochs", 1, "--guided-weight", 3, "--init-from", teacher,
            "--self", tmp_path / "s", "--out", tmp_path / "o")
    assert r.returncode == 0, r.stdout + r.stderr
    meta = metadata(tmp_path / "o" / "en-fr-subword-guided.pt")
    assert meta["continued_from"]["model"] == "teacher.pt"
    assert meta["guided_alignment"]["links"] == "self.links" and meta["guided_alignment"]["weight"] == 3.0

    r = run("train_self_guided.sh", "--device", "cpu", "--steps", 2, "--reverse", "--init-from", reverse,
            "--self", tmp_path / "s", "--out", tmp_path / "o")  # the reverse model on the same links flipped
    assert r.returncode == 0, r.stdout + r.stderr
    flipped = (tmp_path / "o" / "self.fr-en.links").read_text(encoding="utf-8").splitlines()
    assert [sorted(link.split("-")[::-1] for link in line.split()) for line in links] == \
        [sorted(link.split("-") for link in line.split()) for line in flipped]
    meta = metadata(tmp_path / "o" / "fr-en-subword-guided.pt")
    assert meta["name"] == "fr-en-subword-guided" and meta["train_steps"] == 2
    assert meta["continued_from"]["model"] == "reverse.pt" and meta["guided_alignment"]["links"] == "self.fr-en.links"
