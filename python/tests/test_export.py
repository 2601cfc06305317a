"""export() and load(): an eager model written as an AlignScope file (format 2) and read back
gives the same weights and the same numbers; the file carries the attributes the C++ loader checks."""

import json
import os

import pytest
import torch

import alignscope
from alignscope.batching import make_batch
from alignscope.checkpoint import load_checkpoint, save_checkpoint
from alignscope.guided import guidance_tensor
from alignscope.text import DEFAULT_TOKENIZER, SPECIALS

SRC_VOCAB = SPECIALS + ["the", "red", "car", "is", "big", ".", "a", "house"]
TGT_VOCAB = SPECIALS + ["la", "voiture", "rouge", "est", "grande", ".", "une", "maison", "l'"]

VARIANTS = {
    "gru-additive-bi": alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=12,
                                               attention_size=6, readout_size=8),
    "lstm-general-uni": alignscope.Architecture(cell="lstm", attention="general", bidirectional=False,
                                                embedding_size=8, encoder_hidden=8, decoder_hidden=10,
                                                readout_size=8),
    "gru-dot-untied": alignscope.Architecture(attention="dot", embedding_size=8, encoder_hidden=6,
                                              decoder_hidden=12, readout_size=7, tie_output=False),
    "gru-none": alignscope.Architecture(attention="none", embedding_size=8, encoder_hidden=8, decoder_hidden=12,
                                        readout_size=8),
    "gru-additive-conditional": alignscope.Architecture(embedding_size=8, encoder_hidden=8, decoder_hidden=12,
                                                        attention_size=6, readout_size=8, decoder="conditional"),
    "lstm-dot-conditional": alignscope.Architecture(cell="lstm", attention="dot", embedding_size=8, encoder_hidden=6,
                                                    decoder_hidden=12, readout_size=8, decoder="conditional"),
}

# (source ids, target ids) without specials: a padded batch of different lengths.
PAIRS = [([4, 5, 6, 7, 8, 9], [4, 5, 6, 7, 8]), ([10, 11], [10, 11, 12]), ([6, 4, 9], [5])]


def model_of(arch: alignscope.Architecture, seed: int = 3) -> alignscope.Seq2SeqAttention:
    return alignscope.Seq2SeqAttention(len(SRC_VOCAB), len(TGT_VOCAB), arch, seed=seed).eval()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_export_then_load_gives_the_same_model(variant, tmp_path):
    model = model_of(VARIANTS[variant])
    path = tmp_path / "model.pt"
    alignscope.export(model, SRC_VOCAB, TGT_VOCAB, str(path), name="round-trip", metadata={"license": "CC0"})
    loaded, src_vocab, tgt_vocab, info = alignscope.load(str(path))

    assert (src_vocab, tgt_vocab) == (SRC_VOCAB, TGT_VOCAB)
    assert loaded.arch == model.arch
    assert info["metadata"]["name"] == "round-trip" and info["metadata"]["license"] == "CC0"
    assert info["src_tokenizer"] == DEFAULT_TOKENIZER
    for name, value in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], value), name

    batch = make_batch(PAIRS)  # src [3,7], src_len [3], tgt_in [3,6], tgt_out [3,6]
    with torch.no_grad():
        lp_a, alpha_a = model(*batch[:3])  # [B,T,V], [B,T,S]
        lp_b, alpha_b = loaded.eval()(*batch[:3])
    assert (lp_a - lp_b).abs().max().item() <= 1e-6
    assert (alpha_a - alpha_b).abs().max().item() <= 1e-6


def test_half_export_stores_float16_weights_that_the_cpp_side_opens(tmp_path, cli):
    """export(half=True), as `alignscope-cli train --half` writes: about half the file, the weights
    rounded to float16 and widened back on load, and AlignScope opens and decodes it."""
    model = model_of(alignscope.Architecture(embedding_size=32, encoder_hidden=32, decoder_hidden=48,
                                             attention_size=16, readout_size=32))
    whole, half = tmp_path / "whole.pt", tmp_path / "half.pt"
    alignscope.export(model, SRC_VOCAB, TGT_VOCAB, str(whole))
    alignscope.export(model, SRC_VOCAB, TGT_VOCAB, str(half), half=True)
    assert os.path.getsize(half) < 0.75 * os.path.getsize(whole)
    scripted = torch.jit.load(str(half))
    assert {p.dtype for p in scripted.parameters()} == {torch.float16}
    assert json.loads(scripted.metadata)["stored_dtype"] == "float16"
    loaded, _, _, _ = alignscope.load(str(half))
    for name, value in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], value.half().float()), name
    assert all(p.dtype == torch.float32 for p in model.parameters()), "the caller's model is left as it was"
    import subprocess
    r = subprocess.run([str(cli), "translate", "--model", str(half)], input="the red car is big .\n",
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_file_code_equals_eager_model_on_a_padded_batch(variant, tmp_path):
    """The file's own encode/step/loss (TorchScript) against the eager model: the C++ side runs those."""
    model = model_of(VARIANTS[variant])
    path = tmp_path / "model.pt"
    alignscope.export(model, SRC_VOCAB, TGT_VOCAB, str(path))
    scripted = torch.jit.load(str(path))
    src, src_len, tgt_in, tgt_out = make_batch(PAIRS)
    with torch.no_grad():
        e_enc, e_state, e_mask, e_keys = model.encode(src, src_len)
        s_enc, s_state, s_mask, s_keys = scripted.encode(src, src_len)
        assert torch.equal(e_mask, s_mask)
        assert (e_state - s_state).abs().max().item() <= 1e-6
        for t in range(tgt_in.size(1)):
            e = model.decode_step(tgt_in[:, t], e_state, e_enc, e_keys, e_mask)
            s = scripted.step(tgt_in[:, t], s_state, s_enc, s_keys, s_mask)
            e_lp = torch.log_softmax(model.logits(e["readout"]), 1)  # [B,V]
            assert (e_lp - s["log_probs"]).abs().max().item() <= 1e-5
            assert (e["alpha"] - s["alpha"]).abs().max().item() <= 1e-6
            assert torch.all(s["alpha"][~s_mask] == 0)  # exactly 0 on padding
            e_state, s_state = e["state"], s["state"]
        for smoothing in (0.0, 0.1):
            e_loss = model.loss(src, src_len, tgt_in, tgt_out, smoothing)
            s_loss = scripted.loss(src, src_len, tgt_in, tgt_out, 0.0, smoothing)
            assert s_loss[2].item() == e_loss[2].item() == sum(len(t) + 1 for _, t in PAIRS)
            for a, b in zip(e_loss[:2], s_loss[:2]):
                assert abs(a.item() - b.item()) <= 1e-4
        # guided alignment: each target step (</s> included) guided toward one or two source tokens
        guides = [[(j, j % (len(s) + 1)) for j in range(len(t) + 1)] + [(0, len(s))] for s, t in PAIRS]
        guidance = guidance_tensor(guides, tgt_in.size(1), src.size(1))
        e_guided = model.guided_loss(src, src_len, tgt_in, tgt_out, 0.1, guidance, 0.5)
        s_guided = scripted.guided_loss(src, src_len, tgt_in, tgt_out, 0.0, 0.1, guidance, 0.5)
        assert e_guided[3].item() > 0
        for a, b in zip(e_guided, s_guided):
            assert abs(a.item() - b.item()) <= 1e-4


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_force_attention_gives_steps_alphas_and_states_bit_for_bit(variant, tmp_path):
    """force_attention (forced alignment without the output distribution) against the loop a caller
    runs with step, rows leaving the batch at their own lengths: the same bits, not just close."""
    path = tmp_path / "model.pt"
    alignscope.export(model_of(VARIANTS[variant]), SRC_VOCAB, TGT_VOCAB, str(path))
    scripted = torch.jit.load(str(path))
    src, src_len, tgt_in, tgt_out = make_batch(PAIRS)
    lengths = torch.tensor([len(t) + 1 for _, t in PAIRS])
    with torch.no_grad():
        enc, state, mask, keys = scripted.encode(src, src_len)
        forced = scripted.force_attention(tgt_in, lengths, state, enc, keys, mask)
        alive = torch.arange(len(PAIRS))
        for t in range(tgt_in.size(1)):
            keep = (lengths[alive] > t).nonzero().squeeze(1)
            if keep.numel() < alive.numel():
                alive, state, enc, keys, mask = (x.index_select(0, keep) for x in (alive, state, enc, keys, mask))
            s = scripted.step(tgt_in[alive, t], state, enc, keys, mask)
            assert torch.equal(forced["alpha"][alive, t], s["alpha"])
            assert torch.equal(forced["state"][alive, t], s["state"])
            state = s["state"]
        for b, n in enumerate(lengths.tolist()):
            assert torch.all(forced["alpha"][b, n:] == 0)


def test_file_carries_the_format_attributes(tmp_path):
    path = tmp_path / "model.pt"
    tgt_tokenizer = dict(DEFAULT_TOKENIZER, split_elision=True)
    alignscope.export(model_of(VARIANTS["gru-additive-bi"]), SRC_VOCAB, TGT_VOCAB, str(path), name="attrs",
                      tgt_tokenizer=tgt_tokenizer)
    m = torch.jit.load(str(path))
    assert m.format_version == alignscope.FORMAT_VERSION == 2
    assert json.loads(m.src_specials) == json.loads(m.tgt_specials) == {"pad": 0, "unk": 1, "bos": 2, "eos": 3}
    assert list(m.src_vocab) == SRC_VOCAB and list(m.tgt_vocab) == TGT_VOCAB
    assert json.loads(m.tgt_tokenizer) == tgt_tokenizer
    meta = json.loads(m.metadata)
    assert meta["name"] == "attrs" and meta["family"] == "rnn-encoder-decoder"
    assert meta["architecture"]["encoder_output_size"] == 16 and meta["architecture"]["state_size"] == 12
    assert meta["created_by"].startswith("alignscope Python package")
    # Written under its name only (no temporary file left), readable as a new file would be.
    assert os.listdir(tmp_path) == ["model.pt"]
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask


def test_check_export_gives_the_model_back_in_its_mode_even_when_it_fails(tmp_path):
    model = model_of(VARIANTS["gru-additive-bi"]).train()
    other = alignscope.to_script(model_of(VARIANTS["gru-additive-bi"], seed=4), SRC_VOCAB, TGT_VOCAB)
    with pytest.raises(RuntimeError, match="differs from the eager one"):
        alignscope.check_export(model, other)
    assert model.training
    alignscope.check_export(model, alignscope.to_script(model, SRC_VOCAB, TGT_VOCAB))
    assert model.training


def test_a_failed_write_leaves_the_old_file_and_a_rewrite_keeps_its_permissions(tmp_path):
    from alignscope.files import atomic_write

    path = tmp_path / "model.pt"
    path.write_bytes(b"old")
    os.chmod(path, 0o600)
    with pytest.raises(RuntimeError, match="interrupted"):
        with atomic_write(str(path)) as f:
            f.write(b"half a ")
            raise RuntimeError("interrupted")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["model.pt"]
    alignscope.export(model_of(VARIANTS["gru-none"]), SRC_VOCAB, TGT_VOCAB, str(path))
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.listdir(tmp_path) == ["model.pt"]
    assert torch.jit.load(str(path)).format_version == alignscope.FORMAT_VERSION


def test_export_refuses_vocabularies_that_do_not_fit(tmp_path):
    model = model_of(VARIANTS["gru-none"])
    with pytest.raises(ValueError, match="must start with"):
        alignscope.export(model, ["the"] + SRC_VOCAB[1:], TGT_VOCAB, str(tmp_path / "m.pt"))
    with pytest.raises(ValueError, match="embeddings have"):
        alignscope.export(model, SRC_VOCAB + ["extra"], TGT_VOCAB, str(tmp_path / "m.pt"))
    with pytest.raises(ValueError, match="repeats"):
        alignscope.export(model, SRC_VOCAB[:-1] + ["the"], TGT_VOCAB, str(tmp_path / "m.pt"))
    assert not os.listdir(tmp_path)


def test_checkpoint_round_trip(tmp_path):
    model = model_of(VARIANTS["lstm-general-uni"])
    path = tmp_path / "ckpt.pt"
    save_checkpoint(str(path), model, SRC_VOCAB, TGT_VOCAB, name="ck")
    loaded, ckpt = load_checkpoint(str(path))
    assert loaded.arch == model.arch and ckpt["name"] == "ck" and ckpt["src_vocab"] == SRC_VOCAB
    for name, value in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[name], value)
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="junk.pt"):
        load_checkpoint(str(tmp_path / "junk.pt"))


@pytest.mark.parametrize("text, words, elision", [
    ("L\u2019homme est-il là ? C'est « bien ».",
     ["l'homme", "est-il", "là", "?", "c'est", "«", "bien", "»", "."],
     ["l'", "homme", "est-il", "là", "?", "c'", "est", "«", "bien", "»", "."]),
    ("\uff21\uff22\uff23  Straße\u200b!", ["abc", "strasse", "!"], ["abc", "strasse", "!"]),
    ("e-mail, x", ["e-mail", ",", "x"], ["e-mail", ",", "x"]),
])
def test_tokenizer_mirrors_the_cpp_word_tokenizer(text, words, elision):
    assert alignscope.tokenize(text) == words
    assert alignscope.tokenize(text, dict(DEFAULT_TOKENIZER, split_elision=True)) == elision


def test_vocabulary_order_is_alignscopes():
    vocab = alignscope.build_vocab([["b", "a", "c"], ["a", "c"], ["a"]], min_count=1)
    assert vocab == SPECIALS + ["a", "c", "b"]
    assert alignscope.build_vocab([["b", "a", "c"], ["a", "c"]], min_count=2) == SPECIALS + ["a", "c"]
    assert alignscope.build_vocab([["b", "a", "c"]], max_size=5) == SPECIALS + ["a"]
