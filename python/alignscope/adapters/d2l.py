"""d2l.ai's "Bahdanau Attention" chapter (PyTorch) as an AlignScope model (format v2).

The chapter's model is `EncoderDecoder(Seq2SeqEncoder, Seq2SeqAttentionDecoder)` (`d2l.Seq2Seq` in
d2l 1.0): an embedding and a multi-layer GRU read the source time-major, padding included, up to
num_steps; the decoder's query is the top layer of its previous hidden state, additive attention
without biases (W_k, W_q, w_v) with d2l's masked_softmax (-1e6 on positions >= the valid length),
the GRU input is cat(context, embedding), and a dense layer gives the logits.

Both layouts are read: d2l 1.0 (the encoder's `rnn` is a `d2l.GRU` wrapping an `nn.GRU` as `.rnn`,
LazyLinear layers) and d2l 0.17 (`nn.GRU` directly, Linear layers); the names are otherwise the same.
"""

from typing import Any, Dict, List, Optional, Tuple

import torch
from torch import Tensor, nn

from ..adapted import AdaptedModel
from .common import (SplitEncoder, eval_mode, frozen_copy, positive_int, special_ids, submodule, tokenizer_option,
                     tokens_by_id)

# d2l's MTFraEng._preprocess (and 0.17's preprocess_nmt), as AlignScope normalisers: non-breaking
# spaces become spaces, the text is lower-cased, and a space goes before , . ! ? (d2l skips the
# space where one is already there or at the start; an extra space changes no token, since d2l
# drops empty tokens and the whitespace tokenizer splits on runs of spaces).
D2L_NORMALIZERS: List[Dict[str, str]] = [
    {"type": "replace", "pattern": "\u202f", "content": " "},
    {"type": "replace", "pattern": "\u00a0", "content": " "},
    {"type": "lowercase"},
    {"type": "replace", "pattern": "([,.!?])", "content": " $1"},
]

D2L_TOKENIZER: Dict[str, Any] = {"kind": "whitespace", "normalizers": D2L_NORMALIZERS, "detokenizer": "spaces"}

# d2l's reserved tokens (a Vocab sorts them among the words, so their ids vary)
D2L_SPECIALS = {"pad": "<pad>", "unk": "<unk>", "bos": "<bos>", "eos": "<eos>"}

# d2l fills masked scores with -1e6; exp(-1e6 + |score|) is exactly 0 in float32 while
# |score| <= sum|w_v| stays below this (exp underflows to 0 below about -104).
_UNDERFLOW_MARGIN = 1e6 - 200.0


class D2LBahdanauModule(SplitEncoder):
    """encode/step with d2l's exact math; the encoder reads the source padded to num_steps."""

    def __init__(self, src_embedding: nn.Embedding, encoder_rnn: nn.GRU, tgt_embedding: nn.Embedding,
                 decoder_rnn: nn.GRU, W_k: nn.Linear, W_q: nn.Linear, w_v: nn.Linear, dense: nn.Linear,
                 num_steps: int, src_pad: int, attends_padding: bool) -> None:
        super().__init__()
        self.src_embedding = src_embedding
        self.encoder_rnn = encoder_rnn
        self.tgt_embedding = tgt_embedding
        self.decoder_rnn = decoder_rnn
        self.W_k = W_k
        self.W_q = W_q
        self.w_v = w_v
        self.dense = dense
        self.num_steps = int(num_steps)
        self.src_pad = int(src_pad)
        self.hidden_size = int(encoder_rnn.hidden_size)
        self.num_layers = int(encoder_rnn.num_layers)
        self.attends_padding = bool(attends_padding)

    # The encoder split at its embeddings (the format's optional methods), so gradient attributions
    # (grad-x-input, integrated gradients) can differentiate with respect to them.
    @torch.jit.export
    def embed_source(self, src: Tensor) -> Tensor:
        return self.src_embedding(src)                      # [B,S,E]

    @torch.jit.export
    def encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        B = x.size(0)
        S = x.size(1)
        P = max(S, self.num_steps)
        # d2l pads every source to num_steps with <pad> and its GRU reads the padding: the final
        # state (the decoder's initial state) depends on it, so pad here whatever the batch holds,
        # with <pad>'s embedding (a constant: attributions go to the real tokens only).
        pad = self.src_embedding.weight[self.src_pad].detach()
        if P > S:
            x = torch.cat([x, pad.expand(B, P - S, x.size(2))], 1)
        valid = torch.arange(P, device=x.device).unsqueeze(0) < src_len.to(x.device).unsqueeze(1)
        x = torch.where(valid.unsqueeze(2), x, pad.expand(B, P, x.size(2)))
        embs = x.transpose(0, 1)                            # [P,B,E] (d2l: embedding(X.t()))
        outputs, hidden = self.encoder_rnn(embs)            # [P,B,H], [L,B,H]
        enc_full = outputs.permute(1, 0, 2)                 # [B,P,H] (d2l's init_state)
        mask = valid[:, :S]
        enc = enc_full[:, :S].masked_fill(~mask.unsqueeze(2), 0.0)
        state = hidden.permute(1, 0, 2).reshape(B, self.num_layers * self.hidden_size)
        # keys: the full padded encoder output (attention values) and W_k of it (attention keys)
        keys = torch.cat([enc_full, self.W_k(enc_full)], 2)
        return enc, state, mask, keys

    @torch.jit.export
    def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        B = y_prev.size(0)
        S = mask.size(1)
        P = keys.size(1)
        H = self.hidden_size
        values = keys[:, :, :H]
        projected_keys = keys[:, :, H:]
        src_len = mask.sum(1)
        valid = torch.arange(P, device=keys.device).unsqueeze(0) < src_len.unsqueeze(1)   # [B,P]
        hidden = state.reshape(B, self.num_layers, H).permute(1, 0, 2).contiguous()      # [L,B,H]
        x = self.tgt_embedding(y_prev)                                                    # [B,E]
        # AdditiveAttention(query = hidden_state[-1], keys = values = enc_outputs, valid_lens)
        queries = self.W_q(hidden[-1].unsqueeze(1))                                       # [B,1,H]
        features = torch.tanh(queries.unsqueeze(2) + projected_keys.unsqueeze(1))         # [B,1,P,H]
        scores = self.w_v(features).squeeze(-1)                                           # [B,1,P]
        scores = scores.masked_fill(~valid.unsqueeze(1), -1e6)                            # masked_softmax
        weights = torch.softmax(scores, dim=-1)
        context = torch.bmm(weights, values)                                              # [B,1,H]
        rnn_input = torch.cat((context, x.unsqueeze(1)), dim=-1).permute(1, 0, 2)         # [1,B,H+E]
        out, hidden = self.decoder_rnn(rnn_input, hidden)
        readout = out[0]                                                                  # [B,H]
        log_probs = torch.log_softmax(self.dense(readout), dim=-1)
        w = weights.squeeze(1)                                                            # [B,P]
        alpha = w[:, :S].masked_fill(~mask, 0.0)
        result: Dict[str, Tensor] = {
            "log_probs": log_probs,
            "state": hidden.permute(1, 0, 2).reshape(B, self.num_layers * H),
            "alpha": alpha,
            "context": context.squeeze(1),
            "energies": scores.squeeze(1)[:, :S].masked_fill(~mask, 0.0),
            "query": queries.squeeze(1),
            "readout": readout,
        }
        if self.attends_padding:
            result["alpha_padding"] = w.masked_fill(valid, 0.0).sum(1)
        return result


# -------------------------------------------------------------------------------------------------
# Reading the d2l objects


def _tokens_of(vocab: Any, which: str) -> List[str]:
    """The tokens by id of a d2l Vocab (idx_to_token), a token list, or a token -> id dict."""
    if hasattr(vocab, "idx_to_token"):
        vocab = list(vocab.idx_to_token)
    return tokens_by_id(vocab, which, "a d2l Vocab (with idx_to_token), a list of tokens or a token -> id dict")


def _gru_of(owner: nn.Module, where: str) -> Tuple[nn.GRU, str]:
    """The nn.GRU of d2l 0.17 (`rnn` itself) or d2l 1.0 (`d2l.GRU`, whose `.rnn` is the nn.GRU)."""
    rnn = getattr(owner, "rnn", None)
    if isinstance(rnn, nn.GRU):
        return rnn, "0.17"
    inner = getattr(rnn, "rnn", None)
    if isinstance(inner, nn.GRU):
        return inner, "1.0"
    kind = type(rnn).__name__ if rnn is not None else "missing"
    raise ValueError(f"{where}.rnn is {kind}, not a GRU (nn.GRU or d2l.GRU): from_d2l converts the GRU "
                     f"encoder-decoder of d2l's Bahdanau attention chapter")


def _module(owner: nn.Module, name: str, kind: type, where: str) -> Any:
    """A layer of d2l's model, by its name there."""
    return submodule(owner, name, kind, where, "from_d2l converts d2l's Seq2SeqEncoder + Seq2SeqAttentionDecoder")


def _find_num_steps(net: nn.Module, data: Any) -> Optional[int]:
    for owner in (data, net):
        if owner is None:
            continue
        value = getattr(owner, "num_steps", None)
        if value is None:
            hparams = getattr(owner, "hparams", None)
            if isinstance(hparams, dict):
                value = hparams.get("num_steps")
        if value is not None:
            return value
    return None


def from_d2l(net: nn.Module, src_vocab: Any, tgt_vocab: Any = None, num_steps: Optional[int] = None, *,
             name: Optional[str] = None, src_tokenizer: Any = None, tgt_tokenizer: Any = None) -> AdaptedModel:
    """An AlignScope model from a trained d2l Bahdanau-attention model.

    net: the d2l model (`d2l.Seq2Seq` / `d2l.EncoderDecoder` with `.encoder` = Seq2SeqEncoder and
    `.decoder` = Seq2SeqAttentionDecoder). src_vocab, tgt_vocab: d2l Vocab objects (data.src_vocab,
    data.tgt_vocab), token lists or token -> id dicts; or pass the d2l data module (MTFraEng) as
    src_vocab alone, and its vocabularies and num_steps are used. num_steps: the length d2l padded
    sources to (data.num_steps); it is also the number of decoder steps of predict_step.
    src_tokenizer, tgt_tokenizer: how text becomes tokens, a description as the model format's JSON
    (docs/model-format.md, "Tokenizers"); default d2l's preprocess and tokenize.
    """
    src_tokenizer = tokenizer_option(src_tokenizer, "src_tokenizer", D2L_TOKENIZER)
    tgt_tokenizer = tokenizer_option(tgt_tokenizer, "tgt_tokenizer", D2L_TOKENIZER)
    data = None
    if tgt_vocab is None and hasattr(src_vocab, "src_vocab") and hasattr(src_vocab, "tgt_vocab"):
        data = src_vocab
        src_vocab, tgt_vocab = data.src_vocab, data.tgt_vocab
    if tgt_vocab is None:
        raise ValueError("tgt_vocab is missing: pass both vocabularies (from_d2l(net, data.src_vocab, "
                         "data.tgt_vocab, num_steps=data.num_steps)) or the d2l data module (from_d2l(net, data))")
    if num_steps is None:
        num_steps = _find_num_steps(net, data)
    if num_steps is None:
        raise ValueError("num_steps is unknown: pass num_steps=, the length d2l padded the sources to "
                         "(data.num_steps, 9 in the chapter): d2l's encoder reads the padding, so the "
                         "translations depend on it")
    num_steps = positive_int(num_steps, "num_steps")

    encoder = getattr(net, "encoder", None)
    decoder = getattr(net, "decoder", None)
    if not isinstance(encoder, nn.Module) or not isinstance(decoder, nn.Module):
        raise ValueError("net has no .encoder/.decoder modules: pass the d2l model itself "
                         "(d2l.Seq2Seq or d2l.EncoderDecoder(encoder, decoder))")
    if getattr(decoder, "attention", None) is None:
        raise ValueError("net.decoder has no .attention: this is not the Bahdanau chapter's "
                         "Seq2SeqAttentionDecoder (the seq2seq chapter's decoder has no attention)")
    for pname, p in net.named_parameters():
        if isinstance(p, nn.parameter.UninitializedParameter):
            raise ValueError(f"net.{pname} is not initialised yet (d2l 1.0's LazyLinear): train the model "
                             f"or run it once on a batch before converting")

    src_emb = _module(encoder, "embedding", nn.Embedding, "net.encoder")
    tgt_emb = _module(decoder, "embedding", nn.Embedding, "net.decoder")
    enc_gru, layout = _gru_of(encoder, "net.encoder")
    dec_gru, _ = _gru_of(decoder, "net.decoder")
    attention = decoder.attention
    W_k = _module(attention, "W_k", nn.Linear, "net.decoder.attention")
    W_q = _module(attention, "W_q", nn.Linear, "net.decoder.attention")
    w_v = _module(attention, "w_v", nn.Linear, "net.decoder.attention")
    dense = _module(decoder, "dense", nn.Linear, "net.decoder")

    H, L = enc_gru.hidden_size, enc_gru.num_layers
    for where, g in (("net.encoder", enc_gru), ("net.decoder", dec_gru)):
        if g.bidirectional or g.batch_first or getattr(g, "proj_size", 0):
            raise ValueError(f"{where}'s GRU is bidirectional, batch-first or projected: d2l's is none of these")
    problems = []
    if dec_gru.hidden_size != H or dec_gru.num_layers != L:
        problems.append(f"the decoder GRU ({dec_gru.num_layers} x {dec_gru.hidden_size}) does not match the "
                        f"encoder GRU ({L} x {H}) whose final state it starts from")
    if enc_gru.input_size != src_emb.embedding_dim:
        problems.append("the encoder GRU's input size is not the source embedding size")
    if dec_gru.input_size != H + tgt_emb.embedding_dim:
        problems.append("the decoder GRU's input size is not num_hiddens + the target embedding size "
                        "(d2l's input is cat(context, embedding))")
    if W_k.in_features != H or W_q.in_features != H or W_k.out_features != W_q.out_features \
            or w_v.in_features != W_k.out_features or w_v.out_features != 1:
        problems.append("the attention layers W_k, W_q, w_v do not have d2l's shapes")
    if dense.in_features != H or dense.out_features != tgt_emb.num_embeddings:
        problems.append("net.decoder.dense does not map num_hiddens to the target vocabulary")
    if problems:
        raise ValueError("not d2l's Bahdanau model: " + "; ".join(problems))

    src_tokens = _tokens_of(src_vocab, "src_vocab")
    tgt_tokens = _tokens_of(tgt_vocab, "tgt_vocab")
    if len(src_tokens) != src_emb.num_embeddings or len(tgt_tokens) != tgt_emb.num_embeddings:
        raise ValueError(f"the vocabularies do not fit the model: src_vocab has {len(src_tokens)} tokens and "
                         f"net.encoder.embedding {src_emb.num_embeddings} rows, tgt_vocab {len(tgt_tokens)} tokens "
                         f"and net.decoder.embedding {tgt_emb.num_embeddings} rows; pass the vocabularies the model "
                         f"was trained with (data.src_vocab, data.tgt_vocab), in that order")

    src_specials, tgt_specials = special_ids(src_tokens, D2L_SPECIALS), special_ids(tgt_tokens, D2L_SPECIALS)
    for which, sp, needed in (("src_vocab", src_specials, ("eos", "unk")), ("tgt_vocab", tgt_specials, ("bos", "eos"))):
        missing = [f"<{k}>" for k in needed if sp[k] is None]
        if missing:
            raise ValueError(f"{which} has no {' or '.join(missing)}: d2l's vocabularies have them "
                             f"(is this a d2l Vocab built from the translation data?)")
    # d2l pads with vocab['<pad>'], which is <unk>'s id where the vocabulary has no <pad>
    src_pad = src_specials["pad"] if src_specials["pad"] is not None else src_specials["unk"]
    assert src_pad is not None

    bound = w_v.weight.detach().abs().sum().item() + (w_v.bias.detach().abs().sum().item() if w_v.bias is not None else 0.0)
    attends_padding = not bound < _UNDERFLOW_MARGIN

    module = D2LBahdanauModule(frozen_copy(src_emb), frozen_copy(enc_gru), frozen_copy(tgt_emb),
                               frozen_copy(dec_gru), frozen_copy(W_k), frozen_copy(W_q), frozen_copy(w_v),
                               frozen_copy(dense), num_steps, src_pad, attends_padding)

    device = next(net.parameters()).device

    def reference(sources: List[List[int]], targets: List[List[int]]) -> List[Tuple[Tensor, Tensor]]:
        """The original net, each pair alone: d2l's padding to num_steps, teacher-forced decoder."""
        results = []
        with torch.no_grad(), eval_mode(net):
            for src, tgt in zip(sources, targets):
                padded = list(src) + [src_pad] * max(0, num_steps - len(src))
                X = torch.tensor([padded], dtype=torch.long, device=device)  # [1,P]
                valid_len = torch.tensor([len(src)], device=device)
                enc_outputs = net.encoder(X, valid_len)
                state = net.decoder.init_state(enc_outputs, valid_len)
                Y, _ = net.decoder(torch.tensor([list(tgt)], dtype=torch.long, device=device), state)  # [1,T,V]
                log_probs = torch.log_softmax(Y[0].float(), dim=-1).cpu()  # [T,V]
                # attention_weights: one [1,1,P] per step
                alpha = torch.cat([w.reshape(1, -1) for w in net.decoder.attention_weights]).float().cpu()  # [T,P]
                results.append((log_probs, alpha))
        return results

    bias = W_k.bias is not None or W_q.bias is not None
    metadata: Dict[str, Any] = {
        "name": name or f"d2l Bahdanau attention ({L}-layer GRU, {H} hidden)",
        "max_length": num_steps,
        "max_source_length": num_steps,
        "source_eos": True,
        "attends_padding": attends_padding,
        "encoder": {"cell": "gru", "layers": L, "bidirectional": False},
        "decoder": {"cell": "gru", "layers": L, "input_feeding": False},
        "attention": {"kind": "additive", "bias": bias, "when": "before_cell"},
        "converted_from": f"d2l.ai Bahdanau attention chapter (PyTorch, d2l {layout} layout), num_steps {num_steps}",
    }
    return AdaptedModel(module, src_vocab=src_tokens, tgt_vocab=tgt_tokens, src_specials=src_specials,
                        tgt_specials=tgt_specials, src_tokenizer=src_tokenizer, tgt_tokenizer=tgt_tokenizer,
                        metadata=metadata, reference=reference)
