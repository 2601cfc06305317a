"""A tiny random model and the eager model's own outputs for it: what the C++ parity test
(tests/PyTorchParityTest.cpp) compares AlignScope's numbers with, through `demo` and `reference`."""

import json
import os
from typing import Any, Dict, List, Optional, Sequence

import torch

from .architecture import Architecture
from .batching import make_batch
from .export import export
from .files import atomic_write
from .guided import guidance_tensor
from .reference import Seq2SeqAttention
from .text import BOS, DEFAULT_TOKENIZER, EOS, SPECIALS, UNK, tokenize

DEMO_SRC_WORDS = ["the", "red", "car", "a", "house", "is", "big", "small", ".", "?", "!", ","]
DEMO_TGT_WORDS = ["la", "voiture", "rouge", "une", "maison", "est", "grande", "petite", ".", "?", "l'"]
DEMO_SOURCE = "the red car is big ."
DEMO_TARGET = "la voiture rouge est grande ."


def demo_architecture(cell: str = "gru", attention: str = "additive", bidirectional: bool = True,
                      decoder: str = "bahdanau") -> Architecture:
    arch = Architecture(cell=cell, attention=attention, bidirectional=bidirectional, embedding_size=8,
                        encoder_hidden=8, decoder_hidden=12, attention_size=8, readout_size=8, tie_output=True,
                        decoder=decoder)
    if attention == "dot":
        arch.decoder_hidden = arch.encoder_output_size
    return arch


def eager_reference(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str], source: str,
                    target: str, src_tokenizer: Optional[Dict[str, Any]] = None,
                    tgt_tokenizer: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The eager model's own outputs for `source`, teacher-forced through `target` and </s>."""
    def ids(text: str, vocab: Sequence[str], settings: Optional[Dict[str, Any]]) -> List[int]:
        index = {t: i for i, t in enumerate(vocab)}
        return [index.get(t, UNK) for t in tokenize(text, settings)] + [EOS]

    src_ids, tgt_ids = ids(source, src_vocab, src_tokenizer), ids(target, tgt_vocab, tgt_tokenizer)
    steps = []
    was_training = model.training
    model.eval()
    with torch.no_grad():  # the eager nn.Module only: a scripted file is what gets checked against this
        enc, state, mask, keys = model.encode(torch.tensor([src_ids]), torch.tensor([len(src_ids)]))
        initial_state = state[0].tolist()
        y_prev = BOS
        for y in tgt_ids:
            out = model.decode_step(torch.tensor([y_prev]), state, enc, keys, mask)
            log_probs = torch.log_softmax(model.logits(out["readout"]), 1)
            steps.append({"y_prev": y_prev, "token": y, "alpha": out["alpha"][0].tolist(),
                          "log_probs": log_probs[0].tolist(), "context": out["context"][0].tolist()})
            state, y_prev = out["state"], y
        # The training entry point on the same pair (the format's `loss`, no dropout).
        src, src_len, tgt_in, tgt_out = make_batch([(src_ids[:-1], tgt_ids[:-1])])
        smoothing = 0.1
        loss_sum, nll_sum, n_tokens = model.loss(src, src_len, tgt_in, tgt_out, smoothing)
        # And with guided alignment: each target step (</s> included) toward the mirrored source
        # token, the first also toward a second one (a row of two links).
        S, T = len(src_ids), len(tgt_ids)
        guide = [(j, (S - 1 - j) % S) for j in range(T)] + [(0, (S - 2) % S)]
        guide = sorted(set(guide))
        weight = 0.5
        guided = model.guided_loss(src, src_len, tgt_in, tgt_out, smoothing, guidance_tensor([guide], T, S), weight)
    model.train(was_training)
    return {"torch_version": torch.__version__, "architecture": model.arch.to_json(), "source_text": source,
            "target_text": target, "source_ids": src_ids, "target_ids": tgt_ids, "initial_state": initial_state,
            "steps": steps, "loss": {"smoothing": smoothing, "loss_sum": loss_sum.item(), "nll_sum": nll_sum.item(),
                                     "n_tokens": n_tokens.item()},
            "guided_loss": {"smoothing": smoothing, "guide": guide, "weight": weight, "loss_sum": guided[0].item(),
                            "nll_sum": guided[1].item(), "n_tokens": guided[2].item(), "ce_sum": guided[3].item()}}


def write_json(path: str, value: Any) -> None:
    with atomic_write(path, encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)


def demo(out_dir: str, arch: Architecture, seed: int = 7) -> Dict[str, Any]:
    """Writes out_dir/model.pt and out_dir/reference.json (eager alpha and log-probs per step)."""
    os.makedirs(out_dir, exist_ok=True)
    src_vocab, tgt_vocab = SPECIALS + DEMO_SRC_WORDS, SPECIALS + DEMO_TGT_WORDS
    model = Seq2SeqAttention(len(src_vocab), len(tgt_vocab), arch, seed=seed).eval()
    tgt_tokenizer = dict(DEFAULT_TOKENIZER, split_elision=True)
    export(model, src_vocab, tgt_vocab, os.path.join(out_dir, "model.pt"), name="pytorch-demo",
           metadata={"demo_seed": seed}, tgt_tokenizer=tgt_tokenizer)
    reference = eager_reference(model, src_vocab, tgt_vocab, DEMO_SOURCE, DEMO_TARGET, DEFAULT_TOKENIZER,
                                tgt_tokenizer)
    reference["seed"] = seed
    write_json(os.path.join(out_dir, "reference.json"), reference)
    return reference

