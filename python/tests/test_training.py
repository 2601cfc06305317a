"""The trainer: length-bucketed batches, learning, checkpoints a resumed run continues from exactly,
and several processes under torchrun (gloo on the CPU) writing the same model file."""

import dataclasses
import json
import os
import re
import subprocess
import sys

import pytest
import torch

import alignscope
from alignscope.batching import LengthBuckets, make_batch
from alignscope.checkpoint import load_checkpoint, training_checkpoints
from alignscope.corpus import Corpus
from alignscope.subwords import PieceTokenizer
from alignscope.timeline import snapshot_steps

ARCH = alignscope.Architecture(embedding_size=12, encoder_hidden=10, decoder_hidden=16, attention_size=8,
                               readout_size=12)
FAST = dict(batch_size=16, log_every=0, device="cpu")


def same_parameters(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k].cpu(), sb[k].cpu()) for k in sa)


def nll_per_token(corpus_tsv, donor, models):
    """NLL per target token of each named model on the whole corpus in one batch, read with the donor
    model file's pieces and vocabularies."""
    scripted = torch.jit.load(str(donor))
    corpus = Corpus.from_tsv(str(corpus_tsv), src_vocab=list(scripted.src_vocab), tgt_vocab=list(scripted.tgt_vocab),
                             src_tokenize=PieceTokenizer.from_description(json.loads(scripted.src_tokenizer)),
                             tgt_tokenize=PieceTokenizer.from_description(json.loads(scripted.tgt_tokenizer)))
    batch = make_batch(corpus.pairs)
    with torch.no_grad():
        return {name: (lambda r: r[1].item() / r[2].item())(m.eval().loss(*batch)) for name, m in models.items()}


# --------------------------------------------------------------------------------------------------
# Batches


def test_buckets_take_every_pair_once_an_epoch_within_the_limits(toy_tsv):
    pairs = Corpus.from_tsv(str(toy_tsv)).pairs
    for size, tokens in ((16, None), (None, 60), (8, 40)):
        buckets = LengthBuckets(pairs, size, tokens, pool_size=50, seed=4)
        batches = buckets.epoch(0)
        assert sorted(i for b in batches for i in b) == list(range(len(pairs)))
        for b in batches:
            longest = max(max(buckets.lengths[i]) for i in b)
            assert size is None or len(b) <= size
            assert tokens is None or len(b) == 1 or len(b) * longest <= tokens
        assert buckets.epoch(0) == batches  # a function of (seed, epoch): ranks and resumed runs agree
        assert buckets.epoch(1) != batches


def test_buckets_pad_less_than_random_batches(toy_tsv):
    pairs = Corpus.from_tsv(str(toy_tsv)).pairs
    bucketed = LengthBuckets(pairs, 16, pool_size=10000, seed=1).epoch(0)
    shuffled = [list(range(len(pairs)))[i: i + 16] for i in range(0, len(pairs), 16)]

    def padding(batches):
        return sum(make_batch([pairs[i] for i in b])[3].eq(0).sum().item() for b in batches)

    assert padding(bucketed) < padding(shuffled) / 2


# --------------------------------------------------------------------------------------------------
# One process


def test_training_learns_and_writes_a_model_file(toy_tsv, tmp_path):
    out = tmp_path / "toy.pt"
    result = alignscope.train(str(toy_tsv), ARCH, steps=40, lr=1e-2, out=str(out), name="toy", **FAST)
    assert result.stats["steps"] == 40 and result.stats["world_size"] == 1
    assert result.stats["target_tokens"] > 0 and result.stats["target_tokens_per_second"] > 0

    corpus = Corpus.from_tsv(str(toy_tsv))
    fresh = alignscope.Seq2SeqAttention(len(corpus.src_vocab), len(corpus.tgt_vocab), ARCH, seed=1).eval()
    batch = make_batch(corpus.pairs)
    with torch.no_grad():
        before = fresh.loss(*batch)
        after = result.model.loss(*batch)
    assert after[1].item() / after[2].item() < 0.85 * before[1].item() / before[2].item()

    m = torch.jit.load(str(out))  # the file C++ reads: TorchScript with the format's attributes
    assert m.format_version == 2 and list(m.tgt_vocab) == result.tgt_vocab
    meta = json.loads(m.metadata)
    assert meta["name"] == "toy" and meta["train_steps"] == 40
    loaded, src_vocab, _, _ = alignscope.load(str(out))
    assert src_vocab == result.src_vocab and same_parameters(loaded, result.model)


def test_resumed_training_reaches_the_same_parameters(toy_tsv, tmp_path):
    """Stopped at step 13 (mid-epoch: 120 pairs give 8 batches of 16) and resumed to 30, with dropout
    on, the run ends where an uninterrupted one ends, bit for bit."""
    options = dict(FAST, lr=3e-3, dropout=0.2, smoothing=0.1, checkpoint_every=5)
    whole = alignscope.train(str(toy_tsv), ARCH, steps=30, checkpoint_dir=str(tmp_path / "whole"), **options)

    folder = str(tmp_path / "parts")
    first = alignscope.train(str(toy_tsv), ARCH, steps=13, checkpoint_dir=folder, keep_checkpoints=2, **options)
    assert [s for s, _ in training_checkpoints(folder)] == [10, 13]  # every 5, the last, the newest 2 kept
    assert not same_parameters(first.model, whole.model)
    resumed = alignscope.train(str(toy_tsv), ARCH, steps=30, checkpoint_dir=folder, resume=True, **options)
    assert resumed.stats["run_steps"] == 17 and resumed.stats["steps"] == 30
    assert same_parameters(resumed.model, whole.model)

    # The training checkpoint is also an ordinary checkpoint (export --checkpoint reads it).
    model, ckpt = load_checkpoint(os.path.join(folder, "step-00000030.pt"))
    assert ckpt["step"] == 30 and ckpt["epoch"] == 3 and ckpt["batches_done"] == 6
    assert same_parameters(model, whole.model)

    # A resumed run refuses another corpus rather than continue at a meaningless position.
    other = tmp_path / "other.tsv"
    other.write_text(toy_tsv.read_text(encoding="utf-8") + "one more\tpair\n", encoding="utf-8")
    with pytest.raises(ValueError, match="other data settings"):
        alignscope.train(str(other), ARCH, steps=40, checkpoint_dir=folder, resume=True, **options)


def test_epochs_and_token_budget(toy_tsv, tmp_path):
    result = alignscope.train(str(toy_tsv), ARCH, epochs=2, batch_size=None, batch_tokens=100, log_every=0,
                              device="cpu")
    batches = LengthBuckets(Corpus.from_tsv(str(toy_tsv)).pairs, None, 100, seed=1)
    assert result.stats["steps"] == len(batches.epoch(0)) + len(batches.epoch(1))
    assert result.stats["epochs_done"] == 2


def test_snapshots_at_the_shared_schedule_and_a_resumed_run_goes_on(toy_tsv, tmp_path):
    """train --snapshots K writes K model files at the updates timeline_code picks (the function the
    C++ trainer compiles), with the per-update loss; a resumed run keeps the earlier ones."""
    out = tmp_path / "run" / "toy.pt"
    out.parent.mkdir()
    folder = str(tmp_path / "ckpt")
    options = dict(FAST, lr=1e-2, out=str(out), name="toy", snapshots=4, checkpoint_dir=folder, checkpoint_every=5)
    alignscope.train(str(toy_tsv), ARCH, steps=12, **options)
    index = json.loads((out.parent / "toy.timeline.json").read_text(encoding="utf-8"))
    assert index["format"] == "alignscope-timeline"
    assert [s["step"] for s in index["snapshots"]] == snapshot_steps(4, 12) == [1, 2, 5, 12]
    assert len(index["loss"]) == 12 and all(x > 0 for x in index["loss"])
    for s in index["snapshots"]:
        m = torch.jit.load(str(out.parent / s["file"]))
        assert json.loads(m.metadata)["train_steps"] == s["step"]

    # Resumed to 30 updates: the earlier snapshots stay, the longer run's schedule goes on after them,
    # and the index keeps the loss of every update (the checkpoint carries it).
    alignscope.train(str(toy_tsv), ARCH, steps=30, resume=True, **options)
    index = json.loads((out.parent / "toy.timeline.json").read_text(encoding="utf-8"))
    assert [s["step"] for s in index["snapshots"]] == [1, 2, 5, 12, 30]
    assert len(index["loss"]) == 30


def test_sentencepiece_training_writes_a_subword_model_cpp_reads(toy_tsv, tmp_path, cli):
    """--tokenizer sentencepiece: pieces trained on the corpus (subwords.py) are the vocabularies, the
    model file carries them, and the C++ side translates with it (no <unk>, whatever the input)."""
    out = tmp_path / "pieces.pt"
    result = alignscope.train(str(toy_tsv), ARCH, steps=5, lr=1e-2, out=str(out), name="pieces",
                              tokenizer="sentencepiece", pieces=300, **FAST)
    m = torch.jit.load(str(out))
    src_tokenizer = json.loads(m.src_tokenizer) if isinstance(m.src_tokenizer, str) else m.src_tokenizer
    assert src_tokenizer["kind"] == "sentencepiece"
    pieces = PieceTokenizer.from_description(src_tokenizer)
    assert list(m.src_vocab) == pieces.pieces() == result.src_vocab
    assert result.src_vocab[:4] == ["<pad>", "<unk>", "<s>", "</s>"]
    assert "<0xE2>" in result.src_vocab  # byte fallback: any character can be spelled
    r = subprocess.run([str(cli), "translate", "--model", str(out)], input="The red CAR € 1992\n", capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "<unk>" not in r.stdout
    r = subprocess.run([str(cli), "inspect", "--model", str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "SentencePiece" in r.stdout, r.stdout + r.stderr


def test_tokenizer_from_takes_another_models_pieces_as_they_are(toy_tsv, tmp_path):
    """--tokenizer-from: a comparison model without attention reads and writes the donor's pieces (not
    pieces trained afresh), and resuming it keeps them; a word-level donor is refused with its name."""
    donor = tmp_path / "donor.pt"
    alignscope.train(str(toy_tsv), ARCH, steps=2, out=str(donor), name="donor", tokenizer="sentencepiece", pieces=300,
                     **FAST)
    other = tmp_path / "other.tsv"
    other.write_text("".join(f"Zebra {i % 5} runs.\tLe zèbre {i % 5} court.\n" for i in range(60)), encoding="utf-8")
    plain_arch = alignscope.Architecture(embedding_size=12, encoder_hidden=10, decoder_hidden=16, attention="none",
                                         readout_size=12)
    out, ckpt = tmp_path / "plain.pt", tmp_path / "ckpt"
    options = dict(out=str(out), name="plain", tokenizer_from=str(donor), checkpoint_dir=str(ckpt), checkpoint_every=2,
                   **FAST)
    result = alignscope.train(str(other), plain_arch, steps=2, **options)
    d, p = torch.jit.load(str(donor)), torch.jit.load(str(out))
    assert list(p.src_vocab) == list(d.src_vocab) == result.src_vocab
    assert list(p.tgt_vocab) == list(d.tgt_vocab)
    assert json.loads(p.src_tokenizer) == json.loads(d.src_tokenizer)
    assert json.loads(p.tgt_tokenizer) == json.loads(d.tgt_tokenizer)
    resumed = alignscope.train(str(other), plain_arch, steps=4, resume=True, **options)
    assert resumed.src_vocab == result.src_vocab
    word = tmp_path / "word.pt"
    alignscope.train(str(toy_tsv), ARCH, steps=1, out=str(word), name="word", **FAST)
    with pytest.raises(ValueError, match="word.pt.*word tokenizer"):
        alignscope.train(str(other), plain_arch, steps=1, tokenizer_from=str(word), **FAST)
    with pytest.raises(ValueError, match="donor.pt' takes .*leave out --tokenizer, --vocab-size"):
        alignscope.train(str(other), plain_arch, steps=1, tokenizer_from=str(donor), tokenizer="sentencepiece",
                         pieces=300, **FAST)


def test_init_from_trains_a_model_file_on_from_where_it_stands(toy_tsv, tmp_path):
    """--init-from: a model file (say a committed one, its checkpoints gone with another machine) is
    trained on with its own weights, pieces and architecture, and the result says what it came from;
    settings that would build another model are refused with the file's name."""
    donor = tmp_path / "donor.pt"
    alignscope.train(str(toy_tsv), ARCH, steps=20, lr=1e-2, out=str(donor), name="donor", tokenizer="sentencepiece",
                     pieces=300, **FAST)
    start, src_vocab, tgt_vocab, _ = alignscope.load(str(donor))

    unchanged = alignscope.train(str(toy_tsv), steps=0, init_from=str(donor), **FAST)
    assert unchanged.src_vocab == src_vocab and unchanged.tgt_vocab == tgt_vocab
    assert unchanged.model.arch == ARCH and same_parameters(unchanged.model, start)

    out, ckpt = tmp_path / "more.pt", tmp_path / "ckpt"
    options = dict(out=str(out), name="more", init_from=str(donor), checkpoint_dir=str(ckpt), checkpoint_every=3,
                   lr=1e-2, **FAST)
    more = alignscope.train(str(toy_tsv), steps=3, **options)
    fresh = alignscope.train(str(toy_tsv), ARCH, steps=3, lr=1e-2, tokenizer="sentencepiece", pieces=300, **FAST)
    nll = nll_per_token(toy_tsv, donor, {"more": more.model, "fresh": fresh.model})
    assert nll["more"] < 0.8 * nll["fresh"], nll  # 23 updates in all against 3
    meta = json.loads(torch.jit.load(str(out)).metadata)
    assert meta["name"] == "more" and meta["train_steps"] == 3
    assert meta["continued_from"]["model"] == "donor.pt" and meta["continued_from"]["train_steps"] == 20

    resumed = alignscope.train(str(toy_tsv), steps=5, resume=True, **options)  # the record survives a resume
    assert resumed.stats["run_steps"] == 2
    assert json.loads(torch.jit.load(str(out)).metadata)["continued_from"]["model"] == "donor.pt"

    with pytest.raises(ValueError, match="donor.pt' takes .*leave out --tokenizer, --vocab-size"):
        alignscope.train(str(toy_tsv), steps=1, init_from=str(donor), tokenizer="sentencepiece", pieces=300, **FAST)
    with pytest.raises(ValueError, match="donor.pt' trains that model's own architecture"):
        alignscope.train(str(toy_tsv), ARCH, steps=1, init_from=str(donor), **FAST)


def test_init_from_a_bahdanau_model_warm_starts_the_conditional_decoder(toy_tsv, tmp_path):
    """--init-from MODEL --decoder conditional: a Bahdanau model's weights in the conditional decoder's
    two cells (the first keeps W_y and the recurrence, the second reads the context with W_c), its sizes
    and pieces kept; it starts far nearer the donor's loss than a fresh conditional model does."""
    donor = tmp_path / "donor.pt"
    alignscope.train(str(toy_tsv), ARCH, steps=40, lr=1e-2, out=str(donor), name="donor", tokenizer="sentencepiece",
                     pieces=300, **FAST)
    start = alignscope.load(str(donor))[0]
    conditional = alignscope.Architecture(decoder="conditional")
    out = tmp_path / "warm.pt"
    warm = alignscope.train(str(toy_tsv), conditional, steps=0, init_from=str(donor), out=str(out), name="warm", **FAST)
    assert warm.model.arch == dataclasses.replace(ARCH, decoder="conditional")
    old, new = start.state_dict(), warm.model.state_dict()
    M = ARCH.embedding_size
    assert torch.equal(new["decoder.weight_ih"], old["decoder.weight_ih"][:, :M])
    assert torch.equal(new["decoder2.weight_ih"], old["decoder.weight_ih"][:, M:])
    assert torch.equal(new["decoder2.weight_hh"], old["decoder.weight_hh"])
    assert all(torch.equal(new[k], v) for k, v in old.items() if not k.startswith("decoder."))
    meta = json.loads(torch.jit.load(str(out)).metadata)
    assert meta["architecture"]["decoder"] == "conditional" and meta["continued_from"]["model"] == "donor.pt"
    assert "bahdanau" in meta["continued_from"]["decoder"]

    fresh = alignscope.train(str(toy_tsv), dataclasses.replace(ARCH, decoder="conditional"), steps=0,
                             tokenizer="sentencepiece", pieces=300, **FAST)
    nll = nll_per_token(toy_tsv, donor, {"donor": start, "warm": warm.model, "fresh": fresh.model})
    assert nll["warm"] < 0.8 * nll["fresh"], nll

    # A conditional model given --decoder conditional is trained on as it is (a recipe's second call).
    again = alignscope.train(str(toy_tsv), conditional, steps=0, init_from=str(out), **FAST)
    assert again.model.arch == warm.model.arch and same_parameters(again.model, warm.model)


def test_snapshot_schedule_is_the_one_cpp_uses():
    assert snapshot_steps(4, 30) == [1, 3, 10, 30]
    assert snapshot_steps(5, 3) == [1, 2, 3]
    assert snapshot_steps(1, 7) == [7] and snapshot_steps(0, 7) == []
    assert snapshot_steps(8, 3000) == [1, 3, 10, 31, 97, 305, 956, 3000]  # models/dates-run, written by the C++ trainer


def test_a_python_run_opens_in_the_cpp_viewer(toy_tsv, tmp_path, cli):
    """The C++ side reads the Python trainer's run: export --timeline draws one GIF frame per snapshot."""
    out = tmp_path / "toy.pt"
    alignscope.train(str(toy_tsv), ARCH, steps=20, lr=1e-2, out=str(out), name="toy", snapshots=3, **FAST)
    line = toy_tsv.read_text(encoding="utf-8").splitlines()[0].split("\t")
    (tmp_path / "in.txt").write_text(f"{line[0]} ||| {line[1]}\n", encoding="utf-8")
    r = subprocess.run([str(cli), "export", "--format", "gif", "--timeline", str(tmp_path), "-i", str(tmp_path / "in.txt"),
                        "-o", str(tmp_path / "gif"), "--no-progress"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    gifs = list((tmp_path / "gif").glob("*.gif"))
    assert len(gifs) == 1
    assert gif_frames(gifs[0].read_bytes()) == 3


def gif_frames(data: bytes) -> int:
    """Image descriptors in a GIF, walking its blocks (GIF89a specification)."""
    assert data[:6] in (b"GIF87a", b"GIF89a")
    at, frames = 13, 0
    if data[10] & 0x80:
        at += 3 * (2 << (data[10] & 7))  # global colour table

    def skip_sub_blocks(at: int) -> int:
        while data[at]:
            at += data[at] + 1
        return at + 1

    while data[at] != 0x3B:
        if data[at] == 0x21:  # extension: label, then sub-blocks
            at = skip_sub_blocks(at + 2)
        elif data[at] == 0x2C:  # image: descriptor, local colour table, LZW code size, sub-blocks
            flags = data[at + 9]
            at += 10 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
            at = skip_sub_blocks(at + 1)
            frames += 1
        else:
            raise AssertionError(f"unexpected GIF block 0x{data[at]:02x} at {at}")
    return frames


# --------------------------------------------------------------------------------------------------
# Several processes


def torchrun_command(nproc: int):
    """torchrun as a module of this Python. Debian 12's torch 1.13 on Python 3.11 cannot parse its own
    default --redirects/--tee ("0": Python 3.11's enum.Flag treats 0 as no member): pass a value it parses."""
    from torch.distributed.elastic.multiprocessing.api import Std

    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", str(nproc),
           "--monitor_interval", "0.5"]  # the default 5 s is mostly waiting, here
    if Std.from_str("0") is None:
        cmd += ["--redirects", "2", "--tee", "2"]
    return cmd


def test_two_processes_on_gloo_equal_one_process_on_both_batches(toy_tsv, tmp_path, repo_root):
    out = tmp_path / "ddp.pt"
    steps = 6
    env = dict(os.environ, PYTHONPATH=str(repo_root / "python"), OMP_NUM_THREADS="1")
    r = subprocess.run(torchrun_command(2) + ["-m", "alignscope", "--threads", "1", "train", "--data", str(toy_tsv),
                                              "--device", "cpu", "--steps", str(steps), "--batch-size", "16",
                                              # the reference below: no dropout or smoothing, clip 5, every word
                                              "--dropout", "0", "--smoothing", "0", "--clip", "5", "--min-count", "1",
                                              "--lr", "3e-3", "--embedding-size", "12", "--encoder-hidden", "10",
                                              "--decoder-hidden", "16", "--attention-size", "8", "--readout-size",
                                              "12", "--checkpoint-dir", str(tmp_path / "ckpt"), "--out", str(out),
                                              "--json"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])  # rank 0 alone prints
    assert stats["world_size"] == 2 and stats["steps"] == steps
    assert [s for s, _ in training_checkpoints(str(tmp_path / "ckpt"))] == [steps]
    assert len(torch.load(str(tmp_path / "ckpt" / f"step-{steps:08d}.pt"))["rng"]) == 2  # every rank's

    m = torch.jit.load(str(out))
    assert m.format_version == 2 and json.loads(m.metadata)["train_world_size"] == 2
    ddp_model, _, _, _ = alignscope.load(str(out))

    # The same updates in one process: rank r of step i takes batch 2i + r; DDP's gradient is that of
    # both batches together, every target token weighted alike.
    corpus = Corpus.from_tsv(str(toy_tsv))
    model = alignscope.Seq2SeqAttention(len(corpus.src_vocab), len(corpus.tgt_vocab), ARCH, seed=1)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    buckets = LengthBuckets(corpus.pairs, 16, seed=1)
    batches = buckets.epoch(0) + buckets.epoch(1)  # 8 batches an epoch: 4 steps of 2 ranks
    assert len(buckets.epoch(0)) == 8
    for i in range(steps):
        both = make_batch([corpus.pairs[j] for j in batches[2 * i] + batches[2 * i + 1]])
        loss_sum, _, n = model.loss(*both)
        optimizer.zero_grad()
        (loss_sum / n).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
    worst = max((a - b).abs().max().item() for a, b in zip(model.state_dict().values(),
                                                           ddp_model.state_dict().values()))
    assert worst <= 1e-5


def test_both_trainers_read_the_shared_options_with_one_default(cli):
    """training_options.json is the one list of what the two trainers share: the C++ trainer's help
    and the Python trainer's parser and options type give every shared option's flags, and one default."""
    import argparse
    from alignscope.__main__ import _parser
    from alignscope.training import SHARED_OPTIONS, TrainingOptions, shared_default

    cpp_help = subprocess.run([str(cli), "train", "--help"], capture_output=True, text=True, check=True).stdout
    train_parser = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["train"]
    python_flags = {flag: action for action in train_parser._actions for flag in action.option_strings}
    assert len(SHARED_OPTIONS) >= 10
    for name, option in SHARED_OPTIONS.items():
        default = shared_default(name)
        for flag in option["flags"]:
            assert flag in python_flags, f"python3 -m alignscope train has no {flag}"
            # CLI11 lists "--smoothing,--label-smoothing FLOAT:FLOAT in [0 - 0.99]=0.1"
            assert re.search(rf"(^|[ ,]){re.escape(flag)}\b", cpp_help, re.M), f"alignscope-cli train has no {flag}"
        cpp_line = next(line for line in cpp_help.splitlines() if re.search(rf"(^|[ ,]){re.escape(option['flags'][0])}\b", line))
        shown = re.search(r"=(-?[0-9][0-9.e+-]*)", cpp_line)
        assert shown and float(shown.group(1)) == default, f"{name}: C++ shows {cpp_line.strip()!r}, the schema {default}"
        if name not in ("epochs",):  # None in the options type: the default applies when --steps is not given
            assert getattr(TrainingOptions(), name) == default, name
        if name not in ("epochs", "batch_size"):
            assert python_flags[option["flags"][0]].default == default, name
