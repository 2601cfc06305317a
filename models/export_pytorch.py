#!/usr/bin/env python3
"""PyTorch reference of AlignScope's attention model, and an exporter to AlignScope's model format.

The model is the RNN encoder-decoder with additive attention of Bahdanau, Cho & Bengio (2014):
a bidirectional GRU reads the source, and at step t the decoder state s_{t-1} scores every source
annotation h_i with e_ti = v^T tanh(W s_{t-1} + U h_i); alpha_t = softmax(e_t) (0 on padding),
c_t = sum_i alpha_ti h_i, s_t = GRU([emb(y_{t-1}); c_t], s_{t-1}),
r_t = tanh(W_o [s_t; c_t; emb(y_{t-1})] + b_o) and log p(y_t) = log_softmax(E_tgt r_t + b).
LSTM cells and dot/general/no attention are options. The math is the same as the TorchScript
code in core/TorchScriptSource.cpp, so a model trained here or in AlignScope means the same thing.

Subcommands (run with Debian's Python, which has python3-torch: /usr/bin/python3):
  demo       small random model -> DIR/model.pt and DIR/reference.json (eager outputs, for tests)
  reference  an existing model file's outputs, computed by the eager model (checks AlignScope's math)
  train      train the eager reference on a TSV corpus for N steps; prints target tokens/s
  export     checkpoint (from `train --save` or save_checkpoint()) -> AlignScope model file
  import     AlignScope model file -> checkpoint, to fine-tune a model in PyTorch

From Python: build or load a Seq2SeqAttention, then
  export(model, src_vocab, tgt_vocab, "model.pt", name="my-model").
See docs/pytorch-export.md.
"""

import argparse
import dataclasses
import json
import math
import os
import pickle
import random
import sys
import tempfile
import time
import unicodedata
from typing import Any, Dict, Final, Iterable, List, Optional, Sequence, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

FORMAT_VERSION = 1
PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
DEFAULT_TOKENIZER: Dict[str, Any] = {
    "kind": "word",
    "normalization": "NFKC",
    "lowercase": True,
    "split_punctuation": True,
    "split_elision": False,
}


# --------------------------------------------------------------------------------------------------
# Architecture


@dataclasses.dataclass
class Architecture:
    """Same fields and defaults as core/ModelSpec.h."""

    cell: str = "gru"  # gru | lstm
    bidirectional: bool = True
    attention: str = "additive"  # additive | dot | general | none
    embedding_size: int = 256
    encoder_hidden: int = 256  # per direction
    decoder_hidden: int = 512
    attention_size: int = 256  # width of v (additive only)
    readout_size: int = 256
    tie_output: bool = True  # output projection = target embeddings (readout == embedding size)

    @property
    def encoder_output_size(self) -> int:
        return 2 * self.encoder_hidden if self.bidirectional else self.encoder_hidden

    @property
    def state_size(self) -> int:
        return 2 * self.decoder_hidden if self.cell == "lstm" else self.decoder_hidden

    def validate(self) -> None:
        if self.cell not in ("gru", "lstm"):
            raise ValueError(f"unknown cell '{self.cell}' (gru or lstm)")
        if self.attention not in ("additive", "dot", "general", "none"):
            raise ValueError(f"unknown attention '{self.attention}' (additive, dot, general or none)")
        for name in ("embedding_size", "encoder_hidden", "decoder_hidden", "attention_size", "readout_size"):
            if not 1 <= getattr(self, name) <= 8192:
                raise ValueError(f"{name} must be between 1 and 8192")
        if self.tie_output and self.readout_size != self.embedding_size:
            raise ValueError("a tied output layer needs readout size == embedding size")
        if self.attention == "dot" and self.decoder_hidden != self.encoder_output_size:
            raise ValueError(f"dot attention needs decoder hidden size == encoder output size ({self.encoder_output_size})")

    def to_json(self) -> Dict[str, Any]:
        """The "architecture" metadata, as ModelSpec::toJson writes it."""
        j = dataclasses.asdict(self)
        j["encoder_output_size"] = self.encoder_output_size
        j["state_size"] = self.state_size
        return j

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "Architecture":
        names = {f.name for f in dataclasses.fields(Architecture)}
        return Architecture(**{k: v for k, v in j.items() if k in names})


# --------------------------------------------------------------------------------------------------
# The eager reference model


class Seq2SeqAttention(nn.Module):
    """Bahdanau-style encoder-decoder in plain eager PyTorch (the readable reference)."""

    def __init__(self, src_vocab_size: int, tgt_vocab_size: int, arch: Optional[Architecture] = None,
                 dropout: float = 0.0, seed: Optional[int] = None) -> None:
        super().__init__()
        arch = arch or Architecture()
        arch.validate()
        self.arch = arch
        self.dropout = dropout  # on embeddings and readout, in training mode only
        M, H, E, Dh, A, R = (arch.embedding_size, arch.encoder_hidden, arch.encoder_output_size,
                             arch.decoder_hidden, arch.attention_size, arch.readout_size)
        rnn = nn.GRU if arch.cell == "gru" else nn.LSTM
        cell = nn.GRUCell if arch.cell == "gru" else nn.LSTMCell
        self.src_emb = nn.Embedding(src_vocab_size, M)
        self.tgt_emb = nn.Embedding(tgt_vocab_size, M)
        self.encoder = rnn(M, H, batch_first=True, bidirectional=arch.bidirectional)
        self.init = nn.Linear(E, Dh)  # s_0 = tanh(W_init [h_fwd_last; h_bwd_first] + b)
        if arch.attention == "additive":
            self.att_W = nn.Linear(Dh, A, bias=False)  # on the decoder state
            self.att_U = nn.Linear(E, A, bias=False)  # on the annotations, once per sentence
            self.att_v = nn.Parameter(torch.empty(A))
        elif arch.attention == "general":
            self.att_Wa = nn.Linear(E, Dh, bias=False)
        self.decoder = cell(M + E, Dh)
        self.readout = nn.Linear(Dh + E + M, R)
        self.proj_w = None if arch.tie_output else nn.Parameter(torch.empty(tgt_vocab_size, R))
        self.proj_b = nn.Parameter(torch.zeros(tgt_vocab_size))
        self.reset_parameters(seed)

    def reset_parameters(self, seed: Optional[int] = None) -> None:
        """Initialises as core/ModelBuilder.cpp does (not bit-identical: another random stream)."""
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        M = self.arch.embedding_size

        def uniform(t: Tensor, fan_in: int) -> None:
            k = 1.0 / math.sqrt(fan_in)
            t.uniform_(-k, k, generator=gen)

        with torch.no_grad():
            self.src_emb.weight.normal_(0.0, 1.0 / math.sqrt(M), generator=gen)
            self.tgt_emb.weight.normal_(0.0, 1.0 / math.sqrt(M), generator=gen)
            for p in self.encoder.parameters():
                uniform(p, self.arch.encoder_hidden)
            uniform(self.init.weight, self.arch.encoder_output_size)
            self.init.bias.zero_()
            if self.arch.attention == "additive":
                uniform(self.att_W.weight, self.arch.decoder_hidden)
                uniform(self.att_U.weight, self.arch.encoder_output_size)
                uniform(self.att_v, self.arch.attention_size)
            elif self.arch.attention == "general":
                uniform(self.att_Wa.weight, self.arch.encoder_output_size)
            for p in self.decoder.parameters():
                uniform(p, self.arch.decoder_hidden)
            uniform(self.readout.weight, self.readout.in_features)
            self.readout.bias.zero_()
            if self.proj_w is not None:
                uniform(self.proj_w, self.arch.readout_size)
            self.proj_b.zero_()

    def _drop(self, x: Tensor) -> Tensor:
        return F.dropout(x, self.dropout, self.training)

    def _hidden(self, state: Tensor) -> Tensor:
        """The h part of a decoder state (an LSTM state is [h; c] in one tensor, as in the format)."""
        return state[:, : self.arch.decoder_hidden] if self.arch.cell == "lstm" else state

    def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """src [B,S], src_len [B] -> enc [B,S,E] (0 on padding), state [B,D], mask [B,S], keys."""
        S = src.size(1)
        mask = torch.arange(S).unsqueeze(0) < src_len.unsqueeze(1)
        x = self._drop(self.src_emb(src))
        packed = pack_padded_sequence(x, src_len.cpu(), batch_first=True, enforce_sorted=False)
        out, last = self.encoder(packed)
        enc, _ = pad_packed_sequence(out, batch_first=True, total_length=S)
        h_n = last[0] if self.arch.cell == "lstm" else last  # [directions, B, H]
        summary = torch.cat([h_n[0], h_n[1]], 1) if self.arch.bidirectional else h_n[0]
        h0 = torch.tanh(self.init(summary))
        state = torch.cat([h0, torch.zeros_like(h0)], 1) if self.arch.cell == "lstm" else h0
        if self.arch.attention == "additive":
            keys = self.att_U(enc)
        elif self.arch.attention == "general":
            keys = self.att_Wa(enc)
        elif self.arch.attention == "dot":
            keys = enc
        else:
            keys = summary.unsqueeze(1)  # no attention: the context is always the summary
        return enc, state, mask, keys

    def attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
        """Query h [B,Dh] -> alpha [B,S], context [B,E], energies [B,S]."""
        if self.arch.attention == "none":
            m = mask.to(enc.dtype)
            alpha = m / m.sum(1, keepdim=True)
            return alpha, keys.squeeze(1), torch.zeros_like(alpha)
        if self.arch.attention == "additive":
            energies = torch.tanh(keys + self.att_W(h).unsqueeze(1)) @ self.att_v
        else:
            energies = torch.bmm(keys, h.unsqueeze(2)).squeeze(2)
        alpha = torch.softmax(energies.masked_fill(~mask, float("-inf")), 1)
        context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
        return alpha, context, energies

    def decode_step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor,
                    mask: Tensor) -> Dict[str, Tensor]:
        """One decoder step from token ids y_prev [B]; the readout feeds logits()."""
        return self._decode(self._drop(self.tgt_emb(y_prev)), state, enc, keys, mask)

    def _decode(self, y: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        """Attention from s_{t-1}, then the cell, readout; y [B,M] is the embedded previous token."""
        alpha, context, energies = self.attend(self._hidden(state), enc, keys, mask)
        x = torch.cat([y, context], 1)
        if self.arch.cell == "lstm":
            Dh = self.arch.decoder_hidden
            h, c = self.decoder(x, (state[:, :Dh], state[:, Dh:]))
            new_state = torch.cat([h, c], 1)
        else:
            new_state = self.decoder(x, state)
        readout = self._drop(torch.tanh(self.readout(torch.cat([self._hidden(new_state), context, y], 1))))
        return {"state": new_state, "alpha": alpha, "context": context, "energies": energies, "readout": readout}

    def logits(self, readout: Tensor) -> Tensor:
        weight = self.tgt_emb.weight if self.proj_w is None else self.proj_w
        return F.linear(readout, weight, self.proj_b)

    def forward(self, src: Tensor, src_len: Tensor, tgt_in: Tensor) -> Tuple[Tensor, Tensor]:
        """Teacher forcing: log-probs [B,T,V] and alpha [B,T,S] for the target prefix tgt_in [B,T]."""
        enc, state, mask, keys = self.encode(src, src_len)
        ys = self._drop(self.tgt_emb(tgt_in))  # one embedding lookup (and gradient) for all steps
        readouts, alphas = [], []
        for t in range(tgt_in.size(1)):
            out = self._decode(ys[:, t], state, enc, keys, mask)
            state = out["state"]
            readouts.append(out["readout"])
            alphas.append(out["alpha"])
        return torch.log_softmax(self.logits(torch.stack(readouts, 1)), -1), torch.stack(alphas, 1)

    def loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor,
             smoothing: float = 0.0) -> Tuple[Tensor, Tensor, Tensor]:
        """(label-smoothed loss sum, NLL sum, target token count), padding (id 0) excluded."""
        lp, _ = self.forward(src, src_len, tgt_in)
        lp = lp.reshape(-1, lp.size(-1))
        target = tgt_out.reshape(-1)
        valid = (target != PAD).to(lp.dtype)
        nll = -lp.gather(1, target.unsqueeze(1)).squeeze(1)
        smoothed = (1.0 - smoothing) * nll - smoothing * lp.mean(1)
        return (smoothed * valid).sum(), (nll * valid).sum(), valid.sum()


# --------------------------------------------------------------------------------------------------
# The exported form: flat parameters named as core/ModelBuilder.cpp names them, and encode/step/loss
# written as core/TorchScriptSource.cpp writes them (masked loops, so a padded batch equals the
# sentences run alone). AlignScope can therefore also fine-tune an exported model.


class AlignScopeModule(nn.Module):
    # Architecture switches as Final bools: TorchScript compiles only the taken branch, so a
    # branch may name a parameter this variant lacks (Final str comparisons are not folded).
    lstm: Final[bool]
    bidirectional: Final[bool]
    additive: Final[bool]
    general: Final[bool]
    no_attention: Final[bool]
    tied: Final[bool]
    # Attributes the loader reads (TorchModel::checkContract).
    format_version: int
    pad_id: int
    unk_id: int
    bos_id: int
    eos_id: int
    src_vocab: List[str]
    tgt_vocab: List[str]
    src_tokenizer: str
    tgt_tokenizer: str
    metadata: str

    def __init__(self, params: Dict[str, Tensor], arch: Architecture, src_vocab: List[str], tgt_vocab: List[str],
                 src_tokenizer: str, tgt_tokenizer: str, metadata: str) -> None:
        super().__init__()
        self.lstm = arch.cell == "lstm"
        self.additive = arch.attention == "additive"
        self.general = arch.attention == "general"
        self.no_attention = arch.attention == "none"
        self.bidirectional = arch.bidirectional
        self.tied = arch.tie_output
        self.format_version = FORMAT_VERSION
        self.pad_id, self.unk_id, self.bos_id, self.eos_id = PAD, UNK, BOS, EOS
        self.src_vocab = list(src_vocab)
        self.tgt_vocab = list(tgt_vocab)
        self.src_tokenizer = src_tokenizer
        self.tgt_tokenizer = tgt_tokenizer
        self.metadata = metadata
        for name, value in params.items():
            self.register_parameter(name, nn.Parameter(value.detach().clone().float().contiguous()))

    # The same code as AlignScope's core/TorchScriptSource.cpp writes (keep them in step): weight
    # products go through _linear, a matrix-vector product at batch 1 (several times faster there
    # than a one-row addmm); the cells take their input gates W_ih x + b_ih ready-made, so a
    # sequence's inputs are projected in one product before the recurrence.
    def _linear(self, x: Tensor, w: Tensor, b: Tensor) -> Tensor:
        if x.size(0) == 1:
            return torch.addmv(b, w, x[0]).unsqueeze(0)
        return torch.addmm(b, x, w.t())

    def _project(self, x: Tensor, w: Tensor) -> Tensor:
        if x.size(0) == 1:
            return torch.mv(w, x[0]).unsqueeze(0)
        return torch.mm(x, w.t())

    def _cell(self, gi: Tensor, s: Tensor, w_hh: Tensor, b_hh: Tensor) -> Tensor:
        if self.lstm:
            n = w_hh.size(1)
            h = s[:, :n]
            c = s[:, n:]
            i, f, g, o = (gi + self._linear(h, w_hh, b_hh)).chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            return torch.cat([torch.sigmoid(o) * torch.tanh(c), c], 1)
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = self._linear(s, w_hh, b_hh).chunk(3, 1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return n + z * (s - n)

    def _hidden(self, s: Tensor) -> Tensor:
        if self.lstm:
            return s[:, : s.size(1) // 2]
        return s

    def _zero_state(self, batch: int, w_hh: Tensor) -> Tensor:
        n = 2 * w_hh.size(1) if self.lstm else w_hh.size(1)
        return torch.zeros([batch, n], dtype=w_hh.dtype)

    def _initial_state(self, h0: Tensor) -> Tensor:
        if self.lstm:
            return torch.cat([h0, torch.zeros_like(h0)], 1)
        return h0

    def _run_direction(self, x: Tensor, mask: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor,
                       reverse: bool) -> Tuple[Tensor, Tensor]:
        # Padded positions leave the state untouched: the backward pass starts at each sentence's end.
        S = x.size(1)
        gi = (torch.matmul(x, w_ih.t()) + b_ih).unbind(1)
        s = self._zero_state(x.size(0), w_hh)
        outs: List[Tensor] = []
        for i in range(S):
            t = S - 1 - i if reverse else i
            s = torch.where(mask[:, t].unsqueeze(1), self._cell(gi[t], s, w_hh, b_hh), s)
            outs.append(self._hidden(s))
        if reverse:
            outs.reverse()
        return torch.stack(outs, 1), self._hidden(s)

    def _encode(self, src: Tensor, src_len: Tensor, p: float) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        mask = torch.arange(src.size(1)).unsqueeze(0) < src_len.unsqueeze(1)
        x = torch.dropout(torch.embedding(self.src_emb, src), p, p > 0.0)
        fwd, last_f = self._run_direction(x, mask, self.enc_f_wih, self.enc_f_whh, self.enc_f_bih, self.enc_f_bhh,
                                          False)
        if self.bidirectional:
            bwd, last_b = self._run_direction(x, mask, self.enc_b_wih, self.enc_b_whh, self.enc_b_bih,
                                              self.enc_b_bhh, True)
            enc = torch.cat([fwd, bwd], 2)
            summary = torch.cat([last_f, last_b], 1)
        else:
            enc = fwd
            summary = last_f
        enc = enc * mask.unsqueeze(2).to(enc.dtype)
        state = self._initial_state(torch.tanh(self._linear(summary, self.init_w, self.init_b)))
        if self.additive:
            keys = torch.matmul(enc, self.att_U.t())
        elif self.general:
            keys = torch.matmul(enc, self.att_Wa.t())
        elif self.no_attention:
            keys = summary.unsqueeze(1)
        else:  # dot
            keys = enc
        return enc, state, mask, keys

    @torch.jit.export
    def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        return self._encode(src, src_len, 0.0)

    def _attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        if self.no_attention:
            m = mask.to(enc.dtype)
            alpha = m / m.sum(1, keepdim=True)
            return alpha, keys.squeeze(1), torch.zeros_like(alpha), h
        if self.additive:
            query = self._project(h, self.att_W)
            energies = torch.matmul(torch.tanh(keys + query.unsqueeze(1)), self.att_v)
        else:
            query = h
            energies = torch.bmm(keys, h.unsqueeze(2)).squeeze(2)
        alpha = torch.softmax(energies.masked_fill(torch.logical_not(mask), float("-inf")), 1)
        context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
        return alpha, context, energies, query

    # The decoder's input weights are [W_y | W_c] over [y, c]: W_y y (gy) does not depend on the
    # recurrence, so `loss` computes it for all steps at once, and the readout after the loop.
    def _step(self, gy: Tensor, w_c: Tensor, state: Tensor, enc: Tensor, keys: Tensor,
              mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        alpha, context, energies, query = self._attend(self._hidden(state), enc, keys, mask)
        new_state = self._cell(gy + self._project(context, w_c), state, self.dec_whh, self.dec_bhh)
        return new_state, alpha, context, energies, query

    def _input_gates(self, y: Tensor) -> Tensor:
        return self._linear(y, self.dec_wih[:, : self.tgt_emb.size(1)], self.dec_bih)

    def _context_weights(self) -> Tensor:
        return self.dec_wih[:, self.tgt_emb.size(1):]

    def _readout(self, features: Tensor, p: float) -> Tensor:
        return torch.dropout(torch.tanh(self._linear(features, self.out_w, self.out_b)), p, p > 0.0)

    def _logits(self, readout: Tensor) -> Tensor:
        if self.tied:
            return self._linear(readout, self.tgt_emb, self.proj_b)
        return self._linear(readout, self.proj_w, self.proj_b)

    @torch.jit.export
    def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        y = torch.embedding(self.tgt_emb, y_prev)
        new_state, alpha, context, energies, query = self._step(self._input_gates(y), self._context_weights(), state,
                                                                enc, keys, mask)
        readout = self._readout(torch.cat([self._hidden(new_state), context, y], 1), 0.0)
        out: Dict[str, Tensor] = {"log_probs": torch.log_softmax(self._logits(readout), 1), "state": new_state,
                                  "alpha": alpha, "context": context, "readout": readout}
        if not self.no_attention:
            out["energies"] = energies
            out["query"] = query
        return out

    @torch.jit.export
    def loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, dropout: float,
             smoothing: float) -> Tuple[Tensor, Tensor, Tensor]:
        enc, state, mask, keys = self._encode(src, src_len, dropout)
        B = tgt_in.size(0)
        T = tgt_in.size(1)
        ys = torch.dropout(torch.embedding(self.tgt_emb, tgt_in), dropout, dropout > 0.0)
        gys = self._input_gates(ys.reshape([B * T, -1])).reshape([B, T, -1]).unbind(1)
        w_c = self._context_weights()
        hiddens: List[Tensor] = []
        contexts: List[Tensor] = []
        for t in range(T):
            state, alpha, context, energies, query = self._step(gys[t], w_c, state, enc, keys, mask)
            hiddens.append(self._hidden(state))
            contexts.append(context)
        # The readout and the vocabulary only at real target positions, not padding.
        target = tgt_out.reshape([-1])
        keep = (target != self.pad_id).nonzero().squeeze(1)
        features = torch.cat([torch.stack(hiddens, 1), torch.stack(contexts, 1), ys], 2).reshape([B * T, -1])
        readout = self._readout(features.index_select(0, keep), dropout)
        lp = torch.log_softmax(self._logits(readout), 1)
        nll = -lp.gather(1, target.index_select(0, keep).unsqueeze(1)).squeeze(1)
        smoothed = (1.0 - smoothing) * nll - lp.sum(1) * (smoothing / lp.size(1))
        return smoothed.sum(), nll.sum(), torch.full([], keep.size(0), dtype=lp.dtype)


def _rnn_names(prefix: str, suffix: str) -> Dict[str, str]:
    return {f"{prefix}_wih": f"weight_ih{suffix}", f"{prefix}_whh": f"weight_hh{suffix}",
            f"{prefix}_bih": f"bias_ih{suffix}", f"{prefix}_bhh": f"bias_hh{suffix}"}


def format_parameter_names(arch: Architecture) -> Dict[str, str]:
    """AlignScope parameter name -> name in Seq2SeqAttention.state_dict()."""
    names = {"src_emb": "src_emb.weight", "tgt_emb": "tgt_emb.weight"}
    names.update({k: "encoder." + v for k, v in _rnn_names("enc_f", "_l0").items()})
    if arch.bidirectional:
        names.update({k: "encoder." + v for k, v in _rnn_names("enc_b", "_l0_reverse").items()})
    names.update({"init_w": "init.weight", "init_b": "init.bias"})
    if arch.attention == "additive":
        names.update({"att_W": "att_W.weight", "att_U": "att_U.weight", "att_v": "att_v"})
    elif arch.attention == "general":
        names["att_Wa"] = "att_Wa.weight"
    names.update({k: "decoder." + v for k, v in _rnn_names("dec", "").items()})
    names.update({"out_w": "readout.weight", "out_b": "readout.bias"})
    if not arch.tie_output:
        names["proj_w"] = "proj_w"
    names["proj_b"] = "proj_b"
    return names


def _check_vocab(vocab: Sequence[str], size: int, which: str) -> None:
    if list(vocab[:4]) != SPECIALS:
        raise ValueError(f"the {which} vocabulary must start with {SPECIALS}")
    if len(set(vocab)) != len(vocab):
        raise ValueError(f"the {which} vocabulary repeats a token")
    if len(vocab) != size:
        raise ValueError(f"the {which} vocabulary has {len(vocab)} tokens but the model's embeddings have {size} rows")


def to_script(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
              name: str = "pytorch-model", metadata: Optional[Dict[str, Any]] = None,
              src_tokenizer: Optional[Dict[str, Any]] = None,
              tgt_tokenizer: Optional[Dict[str, Any]] = None) -> torch.jit.ScriptModule:
    """The scripted AlignScope module for `model` (what export() saves)."""
    _check_vocab(src_vocab, model.src_emb.num_embeddings, "source")
    _check_vocab(tgt_vocab, model.tgt_emb.num_embeddings, "target")
    state = model.state_dict()
    params = {k: state[v] for k, v in format_parameter_names(model.arch).items()}
    meta: Dict[str, Any] = {
        "name": name,
        "architecture": model.arch.to_json(),
        "family": "rnn-encoder-decoder",
        "alpha_is_uniform": model.arch.attention == "none",
        "created_by": f"models/export_pytorch.py (PyTorch {torch.__version__})",
        "stored_dtype": "float32",
    }
    meta.update(metadata or {})
    module = AlignScopeModule(params, model.arch, list(src_vocab), list(tgt_vocab),
                              json.dumps(src_tokenizer or DEFAULT_TOKENIZER), json.dumps(tgt_tokenizer or DEFAULT_TOKENIZER),
                              json.dumps(meta, ensure_ascii=False))
    return torch.jit.script(module.eval())


def check_export(model: Seq2SeqAttention, scripted: torch.jit.ScriptModule, tolerance: float = 1e-4) -> None:
    """Raises when the scripted module disagrees with the eager model on a random padded batch."""
    gen = torch.Generator().manual_seed(0)
    lengths = torch.tensor([5, 3])
    src = torch.randint(4, model.src_emb.num_embeddings, (2, 5), generator=gen)
    src[1, 3:] = PAD
    src[torch.arange(2), lengths - 1] = EOS
    y = torch.tensor([BOS, BOS])
    was_training = model.training
    model.eval()
    with torch.no_grad():
        e_enc, e_state, e_mask, e_keys = model.encode(src, lengths)
        s_enc, s_state, s_mask, s_keys = scripted.encode(src, lengths)
        for t in range(3):
            e = model.decode_step(y, e_state, e_enc, e_keys, e_mask)
            s = scripted.step(y, s_state, s_enc, s_keys, s_mask)
            e_lp = torch.log_softmax(model.logits(e["readout"]), 1)
            diff = max((e_lp - s["log_probs"]).abs().max().item(), (e["alpha"] - s["alpha"]).abs().max().item())
            if not diff <= tolerance:
                raise RuntimeError(f"exported model differs from the eager one by {diff:g} at step {t}")
            e_state, s_state = e["state"], s["state"]
            y = e_lp.argmax(1)
    model.train(was_training)


def export(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str], path: str,
           name: str = "pytorch-model", metadata: Optional[Dict[str, Any]] = None,
           src_tokenizer: Optional[Dict[str, Any]] = None, tgt_tokenizer: Optional[Dict[str, Any]] = None,
           check: bool = True) -> torch.jit.ScriptModule:
    """Writes `model` as an AlignScope model file (TorchScript) at `path`.

    Vocabularies are token lists starting with "<pad>", "<unk>", "<s>", "</s>"; tokenizers are
    AlignScope tokenizer settings (default: DEFAULT_TOKENIZER); `metadata` is merged into the
    file's metadata. With `check`, the file's code is first compared with the eager model.
    """
    scripted = to_script(model, src_vocab, tgt_vocab, name, metadata, src_tokenizer, tgt_tokenizer)
    if check:
        check_export(model, scripted)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    try:  # temporary file, then rename: a reader never sees half a model
        scripted.save(tmp)
        os.chmod(tmp, 0o666 & ~umask)  # as a newly created file, not mkstemp's 0600
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return scripted


def load_alignscope(path: str) -> Tuple[Seq2SeqAttention, List[str], List[str], Dict[str, Any]]:
    """Reads an AlignScope model file (made here or by AlignScope) into the eager model.

    Returns (model, src_vocab, tgt_vocab, info) with info holding "metadata", "src_tokenizer"
    and "tgt_tokenizer" as dicts.
    """
    module = torch.jit.load(path, map_location="cpu")
    meta = json.loads(module.metadata)
    if "architecture" not in meta:
        raise ValueError(f"'{path}' has no architecture in its metadata: not an RNN encoder-decoder AlignScope model")
    arch = Architecture.from_json(meta["architecture"])
    src_vocab, tgt_vocab = list(module.src_vocab), list(module.tgt_vocab)
    model = Seq2SeqAttention(len(src_vocab), len(tgt_vocab), arch)
    params = dict(module.named_parameters())
    state = {v: params[k].detach().float() for k, v in format_parameter_names(arch).items()}
    model.load_state_dict(state)
    info = {"metadata": meta, "src_tokenizer": json.loads(module.src_tokenizer),
            "tgt_tokenizer": json.loads(module.tgt_tokenizer)}
    return model, src_vocab, tgt_vocab, info


# --------------------------------------------------------------------------------------------------
# Checkpoints: what `train --save` writes and `export --checkpoint` reads.


def save_checkpoint(path: str, model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
                    name: str = "pytorch-model", src_tokenizer: Optional[Dict[str, Any]] = None,
                    tgt_tokenizer: Optional[Dict[str, Any]] = None) -> None:
    torch.save({"architecture": dataclasses.asdict(model.arch), "state_dict": model.state_dict(),
                "src_vocab": list(src_vocab), "tgt_vocab": list(tgt_vocab), "name": name,
                "src_tokenizer": src_tokenizer or DEFAULT_TOKENIZER,
                "tgt_tokenizer": tgt_tokenizer or DEFAULT_TOKENIZER}, path)


def load_checkpoint(path: str) -> Tuple[Seq2SeqAttention, Dict[str, Any]]:
    try:
        ckpt = torch.load(path, map_location="cpu")
    except (OSError, RuntimeError, EOFError, pickle.UnpicklingError) as e:
        raise ValueError(f"cannot read checkpoint '{path}': {e}") from None
    if not isinstance(ckpt, dict) or "state_dict" not in ckpt or "architecture" not in ckpt:
        raise ValueError(f"'{path}' is not a checkpoint of this script (a dict with 'architecture' and 'state_dict')")
    arch = Architecture.from_json(ckpt["architecture"])
    sd = ckpt["state_dict"]
    model = Seq2SeqAttention(sd["src_emb.weight"].size(0), sd["tgt_emb.weight"].size(0), arch)
    model.load_state_dict(sd)
    return model, ckpt


# --------------------------------------------------------------------------------------------------
# Text: the same word tokenizer as core/Tokenizer.cpp (NFKC, case folding, punctuation split).


def _is_space(ch: str) -> bool:
    return ch in "\t\n\r\v\f" or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf")


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in ("P", "S")


def _is_word_char(ch: str) -> bool:
    return not (_is_space(ch) or _is_punct(ch) or _is_control(ch))


def tokenize(text: str, settings: Optional[Dict[str, Any]] = None) -> List[str]:
    s = settings or DEFAULT_TOKENIZER
    text = unicodedata.normalize("NFKC", text)
    if s.get("lowercase", True):
        text = unicodedata.normalize("NFKC", text.casefold())
    split_punct, split_elision = s.get("split_punctuation", True), s.get("split_elision", False)
    tokens: List[str] = []
    current = ""
    for i, ch in enumerate(text):
        if ch in "\u2019\u02bc":  # typographic apostrophes
            ch = "'"
        if _is_space(ch):
            if current:
                tokens.append(current)
            current = ""
            continue
        if _is_control(ch):
            continue
        if not split_punct or _is_word_char(ch):
            current += ch
            continue
        between = bool(current) and i + 1 < len(text) and _is_word_char(text[i + 1])
        if between and ch == "'":
            current += ch
            if split_elision:
                tokens.append(current)
                current = ""
            continue
        if between and ch == "-":
            current += ch
            continue
        if current:
            tokens.append(current)
        current = ""
        tokens.append(ch)
    if current:
        tokens.append(current)
    return tokens


def build_vocab(sentences: Iterable[List[str]], min_count: int = 1, max_size: int = 0) -> List[str]:
    """As Vocabulary::fromCounts: most frequent first, ties by token text, specials first."""
    counts: Dict[str, int] = {}
    for sentence in sentences:
        for tok in sentence:
            counts[tok] = counts.get(tok, 0) + 1
    words = sorted((t for t, c in counts.items() if c >= min_count and t not in SPECIALS),
                   key=lambda t: (-counts[t], t.encode("utf-8")))
    vocab = SPECIALS + words
    return vocab[:max_size] if max_size > 0 else vocab


def read_tsv(path: str) -> List[Tuple[str, str]]:
    """`source<TAB>target[<TAB>...]` lines; malformed lines are skipped."""
    pairs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            cols = line.rstrip("\r\n").split("\t")
            if len(cols) >= 2 and cols[0] and cols[1]:
                pairs.append((cols[0], cols[1]))
    return pairs


def _pad(rows: List[List[int]]) -> Tensor:
    out = torch.full((len(rows), max(len(r) for r in rows)), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return out


def make_batch(pairs: List[Tuple[List[int], List[int]]]) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """(source ids, target ids) without specials -> src, src_len, tgt_in, tgt_out."""
    src = [s + [EOS] for s, _ in pairs]
    return (_pad(src), torch.tensor([len(s) for s in src]), _pad([[BOS] + t for _, t in pairs]),
            _pad([t + [EOS] for _, t in pairs]))


# --------------------------------------------------------------------------------------------------
# Training (the eager baseline a benchmark compares AlignScope's trainer against)


def train(data: str, steps: int, batch_size: int, arch: Architecture, lr: float = 1e-3, dropout: float = 0.0,
          smoothing: float = 0.0, clip: float = 5.0, max_len: int = 50, min_count: int = 1, max_vocab: int = 0,
          seed: int = 1, warmup: int = 1,
          log_every: int = 50) -> Tuple[Seq2SeqAttention, List[str], List[str], Dict[str, float]]:
    """Adam on random batches of a TSV corpus for `steps` steps; returns model, vocabularies and speed.

    Speed counts target tokens (</s> included, padding not) of the steps after the first `warmup`
    steps, which train too but carry one-off allocation costs.
    """
    pairs = read_tsv(data)
    if not pairs:
        raise ValueError(f"no 'source<TAB>target' lines in '{data}'")
    src_tok = [tokenize(s)[:max_len] for s, _ in pairs]
    tgt_tok = [tokenize(t)[:max_len] for _, t in pairs]
    src_vocab, tgt_vocab = build_vocab(src_tok, min_count, max_vocab), build_vocab(tgt_tok, min_count, max_vocab)
    s_ids = {t: i for i, t in enumerate(src_vocab)}
    t_ids = {t: i for i, t in enumerate(tgt_vocab)}
    data_ids = [([s_ids.get(t, UNK) for t in s], [t_ids.get(t, UNK) for t in t]) for s, t in zip(src_tok, tgt_tok)]
    data_ids = [p for p in data_ids if p[0] and p[1]]

    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = Seq2SeqAttention(len(src_vocab), len(tgt_vocab), arch, dropout=dropout, seed=seed)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    warmup = warmup if 0 <= warmup < steps else 0  # too few steps: time them all
    tokens = 0
    start = time.perf_counter()
    for step in range(1, steps + 1):
        if step == warmup + 1:
            tokens, start = 0, time.perf_counter()
        src, src_len, tgt_in, tgt_out = make_batch(rng.sample(data_ids, min(batch_size, len(data_ids))))
        loss_sum, nll_sum, n = model.loss(src, src_len, tgt_in, tgt_out, smoothing)
        opt.zero_grad()
        (loss_sum / n).backward()
        if clip > 0:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        tokens += int(n.item())
        if log_every > 0 and (step % log_every == 0 or step == steps):
            print(f"step {step}/{steps}  nll/token {nll_sum.item() / n.item():.3f}", file=sys.stderr)
    seconds = time.perf_counter() - start
    stats = {"steps": steps, "timed_steps": steps - warmup, "batch_size": batch_size,
             "target_tokens": tokens, "seconds": seconds,
             "target_tokens_per_second": tokens / seconds if seconds > 0 else 0.0}
    return model, src_vocab, tgt_vocab, stats


# --------------------------------------------------------------------------------------------------
# Demo: a tiny random model and the eager model's own outputs, for the C++ parity test.

DEMO_SRC_WORDS = ["the", "red", "car", "a", "house", "is", "big", "small", ".", "?", "!", ","]
DEMO_TGT_WORDS = ["la", "voiture", "rouge", "une", "maison", "est", "grande", "petite", ".", "?", "l'"]
DEMO_SOURCE = "the red car is big ."
DEMO_TARGET = "la voiture rouge est grande ."


def demo_architecture(cell: str = "gru", attention: str = "additive", bidirectional: bool = True) -> Architecture:
    arch = Architecture(cell=cell, attention=attention, bidirectional=bidirectional, embedding_size=8,
                        encoder_hidden=8, decoder_hidden=12, attention_size=8, readout_size=8, tie_output=True)
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
    model.train(was_training)
    return {"torch_version": torch.__version__, "architecture": model.arch.to_json(), "source_text": source,
            "target_text": target, "source_ids": src_ids, "target_ids": tgt_ids, "initial_state": initial_state,
            "steps": steps, "loss": {"smoothing": smoothing, "loss_sum": loss_sum.item(), "nll_sum": nll_sum.item(),
                                     "n_tokens": n_tokens.item()}}


def _write_json(path: str, value: Any) -> None:
    with open(path, "w", encoding="utf-8") as f:
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
    _write_json(os.path.join(out_dir, "reference.json"), reference)
    return reference


# --------------------------------------------------------------------------------------------------
# Command line


def _add_arch_args(p: argparse.ArgumentParser, small: bool = False) -> None:
    d = demo_architecture() if small else Architecture()
    p.add_argument("--cell", choices=["gru", "lstm"], default=d.cell)
    p.add_argument("--attention", choices=["additive", "dot", "general", "none"], default=d.attention)
    p.add_argument("--unidirectional", action="store_true", help="forward-only encoder")
    if not small:
        p.add_argument("--embedding-size", type=int, default=d.embedding_size)
        p.add_argument("--encoder-hidden", type=int, default=d.encoder_hidden, help="per direction")
        p.add_argument("--decoder-hidden", type=int, default=d.decoder_hidden)
        p.add_argument("--attention-size", type=int, default=d.attention_size)
        p.add_argument("--readout-size", type=int, default=d.readout_size)
        p.add_argument("--untied", action="store_true", help="own output projection instead of tied embeddings")


def _arch_from_args(a: argparse.Namespace) -> Architecture:
    return Architecture(cell=a.cell, bidirectional=not a.unidirectional, attention=a.attention,
                        embedding_size=a.embedding_size, encoder_hidden=a.encoder_hidden,
                        decoder_hidden=a.decoder_hidden, attention_size=a.attention_size,
                        readout_size=a.readout_size, tie_output=not a.untied)


def _read_lines(path: str) -> List[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\r\n") for line in f if line.rstrip("\r\n")]


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description="PyTorch reference of AlignScope's attention model, and exporter to its model format.",
        epilog="Examples:\n"
               "  /usr/bin/python3 models/export_pytorch.py train --data corpus.tsv --steps 1000 "
               "--batch-size 64 --save ckpt.pt\n"
               "  /usr/bin/python3 models/export_pytorch.py export --checkpoint ckpt.pt --out model.pt "
               "--name my-en-fr\n"
               "  alignscope-cli inspect --model model.pt\n"
               "  /usr/bin/python3 models/export_pytorch.py import --model model.pt --out ckpt.pt\n"
               "  /usr/bin/python3 models/export_pytorch.py demo --out /tmp/demo\n"
               "Details: docs/pytorch-export.md",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads (default: PyTorch's)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("demo", help="tiny random model + eager reference outputs (for the parity test)")
    p.add_argument("--out", required=True, help="folder for model.pt and reference.json")
    p.add_argument("--seed", type=int, default=7)
    _add_arch_args(p, small=True)

    p = sub.add_parser("reference", help="an AlignScope model file's outputs computed by the eager model (JSON)")
    p.add_argument("--model", required=True, help="model file, made here or by AlignScope")
    p.add_argument("--out", required=True, help="JSON file to write (same layout as demo's reference.json)")
    p.add_argument("--source", default=DEMO_SOURCE)
    p.add_argument("--target", default=DEMO_TARGET, help="forced target (</s> is appended)")

    p = sub.add_parser("export", help="checkpoint -> AlignScope model file")
    p.add_argument("--checkpoint", required=True, help="file from `train --save` or save_checkpoint()")
    p.add_argument("--out", required=True, help="model file to write (.pt)")
    p.add_argument("--name", help="model name shown in AlignScope (default: the checkpoint's)")
    p.add_argument("--src-vocab", help="source tokens, one per line, specials first (default: the checkpoint's)")
    p.add_argument("--tgt-vocab", help="target tokens, one per line, specials first (default: the checkpoint's)")
    p.add_argument("--metadata", default="{}", help="JSON object merged into the model's metadata")
    p.add_argument("--no-check", action="store_true", help="skip comparing the exported code with the eager model")

    p = sub.add_parser("import", help="AlignScope model file -> checkpoint")
    p.add_argument("--model", required=True)
    p.add_argument("--out", required=True)

    p = sub.add_parser("train", help="train the eager model on a TSV corpus; prints target tokens/s")
    p.add_argument("--data", required=True, help="source<TAB>target per line")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--smoothing", type=float, default=0.0, help="label smoothing")
    p.add_argument("--clip", type=float, default=5.0, help="gradient norm clip (0: none)")
    p.add_argument("--max-len", type=int, default=50, help="tokens kept per sentence")
    p.add_argument("--min-count", type=int, default=1)
    p.add_argument("--max-vocab", type=int, default=0, help="vocabulary cap incl. specials (0: none)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--warmup", type=int, default=1, help="first steps left out of the timing")
    p.add_argument("--save", help="write a checkpoint here")
    p.add_argument("--export", help="also write an AlignScope model file here")
    p.add_argument("--name", default="pytorch-model")
    p.add_argument("--json", action="store_true", help="print the speed as JSON")
    _add_arch_args(p)

    a = parser.parse_args(argv)
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    try:
        if a.command == "demo":
            arch = demo_architecture(a.cell, a.attention, not a.unidirectional)
            demo(a.out, arch, a.seed)
            print(os.path.join(a.out, "model.pt"))
        elif a.command == "reference":
            model, src_vocab, tgt_vocab, info = load_alignscope(a.model)
            _write_json(a.out, eager_reference(model, src_vocab, tgt_vocab, a.source, a.target,
                                               info["src_tokenizer"], info["tgt_tokenizer"]))
            print(a.out)
        elif a.command == "export":
            model, ckpt = load_checkpoint(a.checkpoint)
            src_vocab = _read_lines(a.src_vocab) if a.src_vocab else ckpt.get("src_vocab")
            tgt_vocab = _read_lines(a.tgt_vocab) if a.tgt_vocab else ckpt.get("tgt_vocab")
            if src_vocab is None or tgt_vocab is None:
                raise ValueError("the checkpoint holds no vocabularies: give --src-vocab and --tgt-vocab")
            extra = json.loads(a.metadata)
            if not isinstance(extra, dict):
                raise ValueError("--metadata must be a JSON object")
            export(model.eval(), src_vocab, tgt_vocab, a.out, name=a.name or ckpt.get("name", "pytorch-model"),
                   metadata=extra, src_tokenizer=ckpt.get("src_tokenizer"), tgt_tokenizer=ckpt.get("tgt_tokenizer"),
                   check=not a.no_check)
            print(a.out)
        elif a.command == "import":
            model, src_vocab, tgt_vocab, info = load_alignscope(a.model)
            save_checkpoint(a.out, model, src_vocab, tgt_vocab, info["metadata"].get("name", "imported"),
                            info["src_tokenizer"], info["tgt_tokenizer"])
            print(a.out)
        elif a.command == "train":
            model, src_vocab, tgt_vocab, stats = train(
                a.data, a.steps, a.batch_size, _arch_from_args(a), a.lr, a.dropout, a.smoothing, a.clip,
                a.max_len, a.min_count, a.max_vocab, a.seed, a.warmup)
            stats["threads"] = torch.get_num_threads()
            if a.json:
                print(json.dumps(stats))
            else:
                print(f"{stats['timed_steps']} timed steps of {stats['batch_size']}: {stats['target_tokens']} target tokens in "
                      f"{stats['seconds']:.2f} s = {stats['target_tokens_per_second']:.0f} target tokens/s "
                      f"({stats['threads']} threads)")
            model.eval()
            if a.save:
                save_checkpoint(a.save, model, src_vocab, tgt_vocab, a.name)
            if a.export:
                export(model, src_vocab, tgt_vocab, a.export, name=a.name,
                       metadata={"trained_with": "export_pytorch.py train", "train_steps": a.steps})
    except (ValueError, OSError, RuntimeError) as e:
        print(f"export_pytorch.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
