"""The decoding and training code of AlignScope's own models, in TorchScript.

This one file is the model's math for both languages: the C++ core embeds it at build time
(core/model/ModelCode.cpp) and the Python package reads it (alignscope.scripted); each compiles the
methods below onto a module that holds the weights and these Final constants, so the two cannot
drift. The constants pick the architecture (core/model/ModelSpec.h): before compiling, both sides write
each `self.<constant>` below as the literal True or False, and TorchScript resolves an `if` on a
literal when it compiles, so a model's code holds only its own branches and a branch may name a
weight that other architectures lack.

  lstm: bool                 LSTM cells (else GRU); an LSTM's (h, c) is one state [B, 2H]
  bidirectional: bool        the encoder reads the source both ways
  attention_additive: bool   e = v^T tanh(W s + U h)        (Bahdanau et al. 2014)
  attention_general: bool    e = s^T W_a h
  attention_dot: bool        e = s^T h
  attention_none: bool       the context is the encoder's final state at every step
  tied: bool                 the output projection is the target embedding matrix
  conditional: bool          the decoder reads y_{t-1} before it attends (Sennrich et al. 2017's
                             conditional GRU): s'_t = cell(y_{t-1}, s_{t-1}), alpha_t from s'_t,
                             s_t = cell2(c_t, s'_t); else Bahdanau's order, alpha_t from s_{t-1},
                             which has not read y_{t-1} (docs/model-format.md, "Decoders")

Written for speed on a CPU: at batch 1 (the app's steps) every weight product is a
matrix-vector product (addmv), several times faster there than a one-row addmm; the inputs of a
recurrence are projected in one product before its loop; `loss` runs the readout and the
vocabulary only at real target positions (docs/performance.md).
"""

from typing import Dict, List, Optional, Tuple

import torch
from torch import Tensor

MARKER = "# --- TorchScript methods: everything below is compiled as it stands ---"
CONSTANTS = ("lstm", "bidirectional", "attention_additive", "attention_general", "attention_dot", "attention_none", "tied",
             "conditional")

# --- TorchScript methods: everything below is compiled as it stands ---


def _linear(self, x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    if x.size(0) == 1:
        return torch.addmv(b, w, x[0]).unsqueeze(0)
    return torch.addmm(b, x, w.t())


def _project(self, x: Tensor, w: Tensor) -> Tensor:
    if x.size(0) == 1:
        return torch.mv(w, x[0]).unsqueeze(0)
    return torch.mm(x, w.t())


# A cell takes its input's gate pre-activations `gi` (W_ih x + b_ih) ready-made, so a sequence's
# inputs are projected in one product before the recurrence instead of one per step.
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
    if self.lstm:
        return torch.zeros([batch, 2 * w_hh.size(1)], dtype=w_hh.dtype)
    return torch.zeros([batch, w_hh.size(1)], dtype=w_hh.dtype)


def _initial_state(self, h0: Tensor) -> Tensor:
    if self.lstm:
        return torch.cat([h0, torch.zeros_like(h0)], 1)
    return h0


# One encoder direction over a padded batch: padded positions leave the state untouched, so the
# backward direction starts at each sentence's own last token and a padded batch equals the
# sentences run alone.
def _run_direction(self, x: Tensor, mask: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor, reverse: bool) -> Tuple[Tensor, Tensor]:
    S = x.size(1)
    # unbind: one backward node for all steps (x[:, t] would zero-fill a [B,S,G] gradient per step)
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
    return self._encode_embedded(torch.dropout(self.embed_source(src), p, p > 0.0), src_len)


# The source embeddings, and the encoder from them: attribution methods take gradients with
# respect to the embeddings (docs/model-format.md, optional methods).
def embed_source(self, src: Tensor) -> Tensor:
    return torch.embedding(self.src_emb, src)


def encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return self._encode_embedded(x, src_len)


def _encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    mask = torch.arange(x.size(1)).unsqueeze(0) < src_len.unsqueeze(1)
    fwd, last_f = self._run_direction(x, mask, self.enc_f_wih, self.enc_f_whh, self.enc_f_bih, self.enc_f_bhh, False)
    if self.bidirectional:
        bwd, last_b = self._run_direction(x, mask, self.enc_b_wih, self.enc_b_whh, self.enc_b_bih, self.enc_b_bhh, True)
        enc = torch.cat([fwd, bwd], 2)
        summary = torch.cat([last_f, last_b], 1)
    else:
        enc = fwd
        summary = last_f
    enc = enc * mask.unsqueeze(2).to(enc.dtype)
    state = self._initial_state(torch.tanh(self._linear(summary, self.init_w, self.init_b)))
    # keys: what _attend needs of the source, computed once per sentence
    if self.attention_additive:
        keys = torch.matmul(enc, self.att_U.t())
    elif self.attention_general:
        keys = torch.matmul(enc, self.att_Wa.t())
    elif self.attention_none:
        keys = summary.unsqueeze(1)
    else:
        keys = enc
    return enc, state, mask, keys


def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return self._encode(src, src_len, 0.0)


# Returns (alpha [B,S], context [B,E], energies [B,S], query [B,*]). Without attention, alpha is
# reported as uniform over the real source positions (the metadata says so) and the context is
# the encoder's final state, which keys holds ([B,1,E]).
def _attend(self, h: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    if self.attention_none:
        m = mask.to(enc.dtype)
        alpha = m / m.sum(1, keepdim=True)
        return alpha, keys.squeeze(1), torch.zeros_like(alpha), h
    if self.attention_additive:
        query = self._project(h, self.att_W)
        energies = torch.matmul(torch.tanh(keys + query.unsqueeze(1)), self.att_v)
    else:
        query = h
        energies = torch.bmm(keys, h.unsqueeze(2)).squeeze(2)
    alpha = torch.softmax(energies.masked_fill(torch.logical_not(mask), float("-inf")), 1)
    context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
    return alpha, context, energies, query


# The decoder's input weights are [W_y | W_c] over [y, c]: the W_y y part (gy) does not depend on
# the recurrence, so `loss` computes it for all steps in one product; the readout likewise runs once
# over all steps after the loop.
# Conditional: the first cell (dec_*) reads y (gy holds its W_ih y + b_ih), the second (dec2_*)
# the context, its input weights the "context weights" [G, E].
def _step(self, gy: Tensor, w_c: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    if self.conditional:
        read = self._cell(gy, state, self.dec_whh, self.dec_bhh)  # s'_t: s_{t-1} after reading y_{t-1}
        alpha, context, energies, query = self._attend(self._hidden(read), enc, keys, mask)
        new_state = self._cell(self._linear(context, w_c, self.dec2_bih), read, self.dec2_whh, self.dec2_bhh)
        return new_state, alpha, context, energies, query
    alpha, context, energies, query = self._attend(self._hidden(state), enc, keys, mask)
    gi = gy + self._project(context, w_c)
    new_state = self._cell(gi, state, self.dec_whh, self.dec_bhh)
    return new_state, alpha, context, energies, query


def _input_gates(self, y: Tensor) -> Tensor:
    return self._linear(y, self.dec_wih[:, : self.tgt_emb.size(1)], self.dec_bih)


def _context_weights(self) -> Tensor:
    if self.conditional:
        return self.dec2_wih
    return self.dec_wih[:, self.tgt_emb.size(1) :]


def _readout(self, features: Tensor, p: float) -> Tensor:
    return torch.dropout(torch.tanh(self._linear(features, self.out_w, self.out_b)), p, p > 0.0)


def _logits(self, readout: Tensor) -> Tensor:
    if self.tied:
        return self._linear(readout, self.tgt_emb, self.proj_b)
    return self._linear(readout, self.proj_w, self.proj_b)


# One decoder step up to the vocabulary projection: what step and step_logits both return.
def _decoder_outputs(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    y = torch.embedding(self.tgt_emb, y_prev)
    new_state, alpha, context, energies, query = self._step(self._input_gates(y), self._context_weights(), state, enc, keys, mask)
    readout = self._readout(torch.cat([self._hidden(new_state), context, y], 1), 0.0)
    out: Dict[str, Tensor] = {"state": new_state, "alpha": alpha, "context": context, "readout": readout}
    if not self.attention_none:
        out["energies"] = energies
        out["query"] = query
    return out


def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    out = self._decoder_outputs(y_prev, state, enc, keys, mask)
    out["log_probs"] = torch.log_softmax(self._logits(out["readout"]), 1)
    return out


# step with the scores before their normalisation: batched greedy decoding needs each row's best
# token only, and the log-softmax over the vocabulary (with the checks and argmax over its result)
# was a sixth of a batched step (docs/model-format.md, optional methods). log_softmax(logits) is
# step's log_probs.
def step_logits(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    out = self._decoder_outputs(y_prev, state, enc, keys, mask)
    out["logits"] = self._logits(out["readout"])
    return out


# The decoder's next state only, without the output distribution: an attribution runs a target
# prefix through it, where step would project every prefix position onto the whole vocabulary for
# nothing (docs/model-format.md, optional methods). step's "state" is the same tensor.
def advance(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Tensor:
    y = torch.embedding(self.tgt_emb, y_prev)
    new_state, alpha, context, energies, query = self._step(self._input_gates(y), self._context_weights(), state, enc, keys, mask)
    return new_state


# A teacher-forced pass that keeps the decoder states and alphas and skips the output distribution:
# forced alignment reads alphas, where step would project every position onto the whole vocabulary
# for nothing (docs/model-format.md, optional methods). Each row leaves the batch after its own
# `lengths` steps, as a caller's loop of step drops finished rows, so the alphas are step's, bit for bit.
def force_attention(self, y_prev: Tensor, lengths: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    B = y_prev.size(0)
    T = y_prev.size(1)
    alphas = torch.zeros([B, T, mask.size(1)], dtype=enc.dtype)
    states = torch.zeros([B, T, state.size(1)], dtype=state.dtype)
    alive = torch.arange(B)
    w_c = self._context_weights()
    for t in range(T):
        keep = (lengths.index_select(0, alive) > t).nonzero().squeeze(1)
        if keep.size(0) == 0:
            break
        if keep.size(0) != alive.size(0):
            alive = alive.index_select(0, keep)
            state = state.index_select(0, keep)
            enc = enc.index_select(0, keep)
            keys = keys.index_select(0, keep)
            mask = mask.index_select(0, keep)
        y = torch.embedding(self.tgt_emb, y_prev.index_select(0, alive)[:, t])
        state, alpha, context, energies, query = self._step(self._input_gates(y), w_c, state, enc, keys, mask)
        alphas[alive, t] = alpha
        states[alive, t] = state
    return {"alpha": alphas, "state": states}


def loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, dropout: float, smoothing: float) -> Tuple[Tensor, Tensor, Tensor]:
    loss_sum, nll_sum, n, ce_sum = self._losses(src, src_len, tgt_in, tgt_out, dropout, smoothing, None, 0.0)
    return loss_sum, nll_sum, n


# loss with guided alignment (Chen et al. 2016; Liu et al. 2016): guidance [B,T,S] holds each
# target step's wanted attention (rows of 0 where a step is not guided); weight x the
# cross-entropy between it and alpha, summed over the guided steps, joins the loss sum. Returns
# (loss sum, NLL sum, target tokens, that cross-entropy's sum) (docs/model-format.md, optional methods).
def guided_loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, dropout: float, smoothing: float, guidance: Tensor, weight: float) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return self._losses(src, src_len, tgt_in, tgt_out, dropout, smoothing, guidance, weight)


def _losses(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, dropout: float, smoothing: float, guidance: Optional[Tensor], weight: float) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    enc, state, mask, keys = self._encode(src, src_len, dropout)
    B = tgt_in.size(0)
    T = tgt_in.size(1)
    ys = torch.dropout(torch.embedding(self.tgt_emb, tgt_in), dropout, dropout > 0.0)  # [B,T,M]
    gys = self._input_gates(ys.reshape([B * T, -1])).reshape([B, T, -1]).unbind(1)
    w_c = self._context_weights()
    hiddens: List[Tensor] = []
    contexts: List[Tensor] = []
    alphas: List[Tensor] = []
    for t in range(T):
        state, alpha, context, energies, query = self._step(gys[t], w_c, state, enc, keys, mask)
        hiddens.append(self._hidden(state))
        contexts.append(context)
        if guidance is not None:
            alphas.append(alpha)
    # The readout and the vocabulary (most of the work) only at real target positions, not padding.
    target = tgt_out.reshape([-1])
    keep = (target != self.pad_id).nonzero().squeeze(1)
    features = torch.cat([torch.stack(hiddens, 1), torch.stack(contexts, 1), ys], 2).reshape([B * T, -1])
    readout = self._readout(features.index_select(0, keep), dropout)
    lp = torch.log_softmax(self._logits(readout), 1)
    nll = -lp.gather(1, target.index_select(0, keep).unsqueeze(1)).squeeze(1)
    # sum, not mean: mean's backward writes one more [N,V] tensor
    smoothed = (1.0 - smoothing) * nll - lp.sum(1) * (smoothing / lp.size(1))
    n = torch.full([], keep.size(0), dtype=lp.dtype)
    if guidance is None:
        return smoothed.sum(), nll.sum(), n, torch.zeros([], dtype=lp.dtype)
    # alpha is exactly 0 on source padding, where guidance is 0 too: the clamp keeps 0 x log 0 at 0
    ce = -(guidance * torch.log(torch.stack(alphas, 1).clamp(min=1e-9))).sum()
    return smoothed.sum() + weight * ce, nll.sum(), n, ce.detach()
