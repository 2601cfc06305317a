"""The eager reference model: AlignScope's attention model as a plain, readable PyTorch nn.Module.

The model is the RNN encoder-decoder with additive attention of Bahdanau, Cho & Bengio (2014):
a bidirectional GRU reads the source, and at step t the decoder state s_{t-1} scores every source
annotation h_i with e_ti = v^T tanh(W s_{t-1} + U h_i); alpha_t = softmax(e_t) (0 on padding),
c_t = sum_i alpha_ti h_i, s_t = GRU([emb(y_{t-1}); c_t], s_{t-1}),
r_t = tanh(W_o [s_t; c_t; emb(y_{t-1})] + b_o) and log p(y_t) = log_softmax(E_tgt r_t + b).
LSTM cells, dot/general/no attention and the conditional decoder (Sennrich et al. 2017: the cell
reads y_{t-1} first, attention comes from that state s'_t, a second cell reads c_t) are options. The math is the same as the TorchScript
code of the model file (scripted.py, the code AlignScope's C++ core writes too), so a model
trained here or in AlignScope means the same thing.
"""

import dataclasses
import math
from typing import Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .architecture import Architecture
from .text import PAD


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
        # Bahdanau's decoder reads [y; c] in one cell; the conditional one reads y, attends, then c.
        conditional = arch.decoder == "conditional"
        self.decoder = cell(M if conditional else M + E, Dh)
        self.decoder2 = cell(E, Dh) if conditional else None
        self.readout = nn.Linear(Dh + E + M, R)
        self.proj_w = None if arch.tie_output else nn.Parameter(torch.empty(tgt_vocab_size, R))
        self.proj_b = nn.Parameter(torch.zeros(tgt_vocab_size))
        self.reset_parameters(seed)

    def reset_parameters(self, seed: Optional[int] = None) -> None:
        """Initialises as core/model/ModelBuilder.cpp does (not bit-identical: another random stream)."""
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
            if self.decoder2 is not None:
                for p in self.decoder2.parameters():
                    uniform(p, self.arch.decoder_hidden)
            uniform(self.readout.weight, self.readout.in_features)
            self.readout.bias.zero_()
            if self.proj_w is not None:
                uniform(self.proj_w, self.arch.readout_size)
            self.proj_b.zero_()

    def with_conditional_decoder(self, seed: Optional[int] = None) -> "Seq2SeqAttention":
        """This Bahdanau model's weights in a conditional-decoder model of the same sizes (a warm start,
        `train --init-from MODEL --decoder conditional`). Every weight of the same name and shape is kept;
        the one cell's input weights [W_y | W_c] are split: the first cell keeps W_y and the recurrence,
        the second reads the context with W_c and starts from a copy of the recurrence, so the context
        still enters the state through the weights it was trained with."""
        if self.arch.decoder != "bahdanau":
            raise ValueError(f"the model's decoder is already '{self.arch.decoder}'")
        arch = dataclasses.replace(self.arch, decoder="conditional")
        new = Seq2SeqAttention(self.src_emb.num_embeddings, self.tgt_emb.num_embeddings, arch,
                               dropout=self.dropout, seed=seed)
        old, weights = self.state_dict(), new.state_dict()
        M = self.arch.embedding_size
        with torch.no_grad():
            for name, value in old.items():
                if name in weights and weights[name].shape == value.shape:
                    weights[name].copy_(value)
            weights["decoder.weight_ih"].copy_(old["decoder.weight_ih"][:, :M])
            weights["decoder2.weight_ih"].copy_(old["decoder.weight_ih"][:, M:])
            weights["decoder2.weight_hh"].copy_(old["decoder.weight_hh"])
            weights["decoder2.bias_hh"].copy_(old["decoder.bias_hh"])
            weights["decoder2.bias_ih"].zero_()  # the first cell's bias already holds the input's
        new.load_state_dict(weights)
        return new

    def _drop(self, x: Tensor) -> Tensor:
        return F.dropout(x, self.dropout, self.training)

    def _hidden(self, state: Tensor) -> Tensor:
        """The h part of a decoder state (an LSTM state is [h; c] in one tensor, as in the format)."""
        return state[:, : self.arch.decoder_hidden] if self.arch.cell == "lstm" else state

    def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """src [B,S], src_len [B] -> enc [B,S,E] (0 on padding), state [B,D], mask [B,S], keys."""
        S = src.size(1)
        mask = torch.arange(S, device=src.device).unsqueeze(0) < src_len.unsqueeze(1)
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

    def _cell(self, cell: nn.Module, x: Tensor, state: Tensor) -> Tensor:
        if self.arch.cell == "lstm":
            Dh = self.arch.decoder_hidden
            h, c = cell(x, (state[:, :Dh], state[:, Dh:]))
            return torch.cat([h, c], 1)
        return cell(x, state)

    def _decode(self, y: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        """Attention from s_{t-1}, then the cell, readout; y [B,M] is the embedded previous token.
        The conditional decoder reads y first: s' = cell(y, s_{t-1}), attention from s', then
        s_t = cell2(c_t, s')."""
        if self.decoder2 is not None:
            read = self._cell(self.decoder, y, state)
            alpha, context, energies = self.attend(self._hidden(read), enc, keys, mask)
            new_state = self._cell(self.decoder2, context, read)
        else:
            alpha, context, energies = self.attend(self._hidden(state), enc, keys, mask)
            new_state = self._cell(self.decoder, torch.cat([y, context], 1), state)
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
        loss_sum, nll_sum, n, _ = self.guided_loss(src, src_len, tgt_in, tgt_out, smoothing)
        return loss_sum, nll_sum, n

    def guided_loss(self, src: Tensor, src_len: Tensor, tgt_in: Tensor, tgt_out: Tensor, smoothing: float = 0.0,
                    guidance: Optional[Tensor] = None, weight: float = 0.0) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        """loss() plus guided alignment: guidance [B,T,S] holds each target step's wanted attention
        (guided.guidance_tensor); weight x the cross-entropy between it and alpha, summed over the
        guided steps, is added to the loss sum. Returns (loss sum, NLL sum, target tokens, that
        cross-entropy's sum)."""
        lp, alpha = self.forward(src, src_len, tgt_in)
        ce = torch.zeros((), dtype=lp.dtype, device=lp.device)
        if guidance is not None:
            ce = -(guidance * torch.log(alpha.clamp(min=1e-9))).sum()
        lp = lp.reshape(-1, lp.size(-1))
        target = tgt_out.reshape(-1)
        valid = (target != PAD).to(lp.dtype)
        nll = -lp.gather(1, target.unsqueeze(1)).squeeze(1)
        smoothed = (1.0 - smoothing) * nll - smoothing * lp.mean(1)
        return (smoothed * valid).sum() + weight * ce, (nll * valid).sum(), valid.sum(), ce.detach()
