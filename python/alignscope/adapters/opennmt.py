"""OpenNMT-py RNN checkpoints (RNNEncoder + InputFeedRNNDecoder / StdRNNDecoder + GlobalAttention)
as AlignScope models (format v2).

    from alignscope.adapters.opennmt import from_opennmt
    from_opennmt("model_step_1000.pt").save("model.alignscope.pt")

OpenNMT-py itself is not needed: the modules it builds for an RNN model are re-typed below with
its own parameter names (`_Onmt*`), loaded strictly from the checkpoint's state dict, and serve as
the reference the converted file is checked against. The converted module (`OpenNMTRNN`) computes
the same thing one decoder step at a time: the encoder holds each direction's state on padding
(as packed sequences do), the state row packs every decoder layer's h (and c) plus the
input-feeding vector, and `step` runs the cell first and then attends from its output (Luong's
order, which OpenNMT-py follows for every attention type).
"""

import argparse
import collections
import copyreg
import os
from collections import OrderedDict
from typing import Any, Dict, List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .. import unpickling
from ..adapted import AdaptedModel
from ..files import open_input
from ..model_archive import check_archive
from .common import SplitEncoder, frozen_copy, special_ids, tokenizer_option

__all__ = ["from_opennmt", "OpenNMTRNN"]

# onmt.constants.DefaultTokens
UNK, PAD, BOS, EOS = "<unk>", "<blank>", "<s>", "</s>"
# OpenNMT-py translate -max_length default (100 in most releases; some later ones use 250)
DEFAULT_MAX_LENGTH = 100
# OpenNMT-py reads text tokenized beforehand: split on whitespace, joined with spaces.
PRETOKENIZED: Dict[str, Any] = {"kind": "whitespace", "normalizers": [], "detokenizer": "spaces"}

_ATTENTION_KINDS = {"mlp": 0, "general": 1, "dot": 2}


# =================================================================================================
# Reading the checkpoint


class _Stub:
    """Stands in for a class of a package that is not installed (onmt, torchtext) while unpickling
    an older checkpoint: it only keeps the pickled state, so `vocab.itos` and the like stay readable."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "_Stub":
        return object.__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__["_stub_args"] = args
        self.__dict__.update(kwargs)

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) == 2 and all(s is None or isinstance(s, dict) for s in state):
            for part in state:
                if part:
                    self.__dict__.update(part)
        elif isinstance(state, dict):
            self.__dict__.update(state)
        else:
            self.__dict__["_stub_state"] = state

    def __call__(self, *args: Any, **kwargs: Any) -> None:  # a stubbed function (defaultdict factory)
        return None


_STUBS: Dict[Tuple[str, str], type] = {}


def _stub(module: str, name: str) -> type:
    key = (module, name)
    if key not in _STUBS:
        _STUBS[key] = type(name, (_Stub,), {"__module__": "alignscope_stub." + module})
    return _STUBS[key]


# What an OpenNMT-py checkpoint may name besides tensors (unpickling.allowed_globals): its options
# (an argparse Namespace) and the containers torchtext's vocabularies are made of. Every other class
# or function (onmt's, torchtext's, or os.system) becomes a _Stub that keeps the pickled data only.
_OPENNMT_GLOBALS: Dict[str, Any] = {
    "argparse.Namespace": argparse.Namespace, "collections.OrderedDict": OrderedDict,
    "collections.defaultdict": collections.defaultdict, "collections.Counter": collections.Counter,
    "builtins.set": set, "builtins.frozenset": frozenset, "builtins.object": object,
    "copyreg._reconstructor": copyreg._reconstructor,
}


def _load_checkpoint(checkpoint: Any) -> Tuple[Dict[str, Any], str]:
    """The checkpoint dict and a name for it. OpenNMT-py pickles its options (an argparse Namespace)
    and, before 3.x, torchtext Fields into the file: they are read as data (unpickling.py), each
    class the file names that is not a plain container standing in as a _Stub, so no code in the
    file runs, whatever it names."""
    if isinstance(checkpoint, dict):
        return checkpoint, "OpenNMT-py model"
    if not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"from_opennmt: expected a checkpoint path or the dict torch.load gives, "
                        f"not {type(checkpoint).__name__}")
    path = os.fspath(checkpoint)
    if not os.path.isfile(path):
        raise ValueError(f"OpenNMT-py checkpoint not found: {path}")
    try:
        with open_input(path, "OpenNMT-py checkpoint") as f:
            if f.read(2) == b"PK":
                check_archive(path, saved=True)  # the model files' checks: storages against their records, no zip bomb
            f.seek(0)
            loaded = unpickling.load(f, _OPENNMT_GLOBALS, _stub)
    except Exception as e:  # not a torch file, truncated, damaged, ...
        raise ValueError(f"{path}: not a readable PyTorch checkpoint ({type(e).__name__}: {e})") from e
    if not isinstance(loaded, dict):
        raise ValueError(f"{path}: expected an OpenNMT-py checkpoint (a dict with 'model', 'generator', "
                         f"'vocab', 'opt'), found a {type(loaded).__name__}")
    stem = os.path.splitext(os.path.basename(path))[0]
    return loaded, stem


def _options(checkpoint: Dict[str, Any]) -> Dict[str, Any]:
    opt = checkpoint.get("opt")
    if opt is None:
        return {}
    if isinstance(opt, dict):
        return dict(opt)
    if isinstance(opt, argparse.Namespace) or hasattr(opt, "__dict__"):
        return {k: v for k, v in vars(opt).items() if not k.startswith("_stub")}
    raise ValueError(f"checkpoint['opt'] is a {type(opt).__name__}; expected an argparse Namespace or a dict")


def _tokens_of(value: Any, side: str) -> Tuple[List[str], Dict[str, Optional[str]]]:
    """Tokens by id of one side of the vocabulary, in whatever form that OpenNMT-py version saved
    it, and the special tokens a torchtext Field names (older versions)."""
    field_specials: Dict[str, Optional[str]] = {}
    for _ in range(4):  # Field -> Vocab, TextMultiField -> Field -> Vocab
        if isinstance(value, (list, tuple)) and all(isinstance(t, str) for t in value):
            return list(value), field_specials
        if hasattr(value, "ids_to_tokens"):  # pyonmttok.Vocab (3.x, in memory)
            return [str(t) for t in value.ids_to_tokens], field_specials
        if hasattr(value, "itos"):  # torchtext Vocab (0.x-2.x)
            return [str(t) for t in value.itos], field_specials
        fields = getattr(value, "fields", None)
        if isinstance(fields, (list, tuple)) and fields:  # TextMultiField (1.x-2.x)
            if len(fields) > 1:
                raise ValueError(f"the {side} side has word features ({len(fields) - 1}); "
                                 f"AlignScope models take words only")
            value = fields[0][1] if isinstance(fields[0], (list, tuple)) else fields[0]
            continue
        if hasattr(value, "base_field"):
            value = value.base_field
            continue
        if hasattr(value, "vocab"):  # torchtext Field
            for key, attr in (("pad", "pad_token"), ("unk", "unk_token"), ("bos", "init_token"),
                              ("eos", "eos_token")):
                token = getattr(value, attr, None)
                if isinstance(token, str):
                    field_specials[key] = token
            value = value.vocab
            continue
        break
    raise ValueError(f"checkpoint['vocab']: cannot read the {side} vocabulary from a {type(value).__name__}")


def _vocabularies(checkpoint: Dict[str, Any]) -> Tuple[List[str], List[str], Dict[str, Dict[str, Optional[str]]],
                                                       Optional[str]]:
    vocab = checkpoint.get("vocab")
    if vocab is None:
        raise ValueError("the checkpoint has no 'vocab' (OpenNMT-py stores the vocabularies under 'vocab')")
    if isinstance(vocab, (list, tuple)):  # 0.x/1.x old-style: [('src', Vocab), ('tgt', Vocab), ...]
        try:
            vocab = dict(vocab)
        except (TypeError, ValueError) as e:
            raise ValueError("checkpoint['vocab']: expected a dict or a list of (name, vocabulary) pairs") from e
    if not isinstance(vocab, dict):
        raise ValueError(f"checkpoint['vocab'] is a {type(vocab).__name__}; expected a dict with 'src' and 'tgt'")
    if vocab.get("data_task", "seq2seq") not in ("seq2seq", None):
        raise ValueError(f"data_task '{vocab.get('data_task')}': only sequence-to-sequence models "
                         f"(encoder and decoder) can be converted, not language models")
    if vocab.get("src_feats"):
        raise ValueError("the checkpoint has source features (src_feats); AlignScope models take words only")
    feats = [k for k in vocab if isinstance(k, str) and ("_feat_" in k)]
    if feats:
        raise ValueError(f"the checkpoint has word features ({', '.join(sorted(feats))}); "
                         f"AlignScope models take words only")
    for side in ("src", "tgt"):
        if side not in vocab:
            raise ValueError(f"checkpoint['vocab'] has no '{side}' vocabulary")
    src, src_field = _tokens_of(vocab["src"], "source")
    tgt, tgt_field = _tokens_of(vocab["tgt"], "target")
    start = vocab.get("decoder_start_token")
    return src, tgt, {"src": src_field, "tgt": tgt_field}, start if isinstance(start, str) and start else None


# =================================================================================================
# The architecture, read from the weights and checked against the options

_UNSUPPORTED_KEYS = [  # (part of a state-dict key, what it means, the option)
    ("encoder.bridge.", "a bridge between encoder and decoder states", "bridge"),
    ("decoder.context_gate.", "a context gate", "context_gate"),
    ("decoder.attn.linear_cover.", "coverage attention", "coverage_attn"),
    ("decoder.copy_attn.", "copy attention", "copy_attn"),
    ("linear_copy.", "a copy generator", "copy_attn"),
    ("emb_luts.1.", "word features", "src_feats / feat_merge"),
    (".make_embedding.mlp.", "word features merged by an MLP", "feat_merge"),
    (".make_embedding.pe.", "positional encoding", "position_encoding"),
    ("lora_", "LoRA layers", "lora_layers"),
    ("transformer", "a Transformer", "encoder_type / decoder_type"),
    ("layer_norm", "a Transformer", "encoder_type / decoder_type"),
]


def _check_options(opt: Dict[str, Any]) -> None:
    """Options OpenNMT-py keeps in the checkpoint that change the computation without showing in the
    weights (or that we want to name before the weights are looked at)."""

    def on(name: str) -> Any:
        return opt.get(name)

    task = on("model_task")
    if task not in (None, "seq2seq"):
        raise ValueError(f"model_task '{task}': only sequence-to-sequence models can be converted, not language models")
    model_type = on("model_type")
    if model_type not in (None, "text"):
        raise ValueError(f"model_type '{model_type}': only text models can be converted")
    encoder_type = on("encoder_type")
    if encoder_type not in (None, "rnn", "brnn"):
        raise ValueError(f"encoder_type '{encoder_type}' is not supported: only RNN encoders "
                         f"(-encoder_type rnn or brnn) can be converted")
    decoder_type = on("decoder_type")
    if decoder_type not in (None, "rnn"):
        raise ValueError(f"decoder_type '{decoder_type}' is not supported: only RNN decoders (-decoder_type rnn) "
                         f"can be converted")
    rnn_type = on("rnn_type")
    if rnn_type not in (None, "LSTM", "GRU"):
        raise ValueError(f"rnn_type '{rnn_type}' is not supported: only LSTM and GRU models can be converted")
    if on("bridge"):
        raise ValueError("option bridge is not supported (a learned layer between the encoder's final state "
                         "and the decoder's initial state): retrain without -bridge")
    if on("coverage_attn"):
        raise ValueError("option coverage_attn is not supported (coverage attention): retrain without -coverage_attn")
    if on("copy_attn"):
        raise ValueError("option copy_attn is not supported (copy attention / pointer-generator): "
                         "retrain without -copy_attn")
    if on("context_gate"):
        raise ValueError(f"option context_gate '{on('context_gate')}' is not supported: retrain without -context_gate")
    if on("position_encoding"):
        raise ValueError("option position_encoding is not supported in RNN models: retrain without -position_encoding")
    attention = on("global_attention")
    if attention is not None and str(attention).lower() not in _ATTENTION_KINDS:
        raise ValueError(f"global_attention '{attention}' is not supported: mlp, general and dot can be converted "
                         f"(a model without attention has no alignment to show)")
    function = on("global_attention_function")
    if function not in (None, "softmax"):
        raise ValueError(f"global_attention_function '{function}' is not supported: only softmax")
    generator_function = on("generator_function")
    if generator_function not in (None, "softmax"):
        raise ValueError(f"generator_function '{generator_function}' is not supported: only softmax")
    for name in ("lora_layers", "quant_layers"):
        if on(name):
            raise ValueError(f"option {name} {on(name)!r} is not supported: convert a merged/unquantised model")
    if on("lora_embedding"):
        raise ValueError("option lora_embedding is not supported: convert a merged model")


class _Architecture:
    def __init__(self, model: Dict[str, Tensor], generator: Dict[str, Tensor], opt: Dict[str, Any]) -> None:
        for key in list(model) + ["generator." + k for k in generator]:
            for part, what, option in _UNSUPPORTED_KEYS:
                if part in key:
                    raise ValueError(f"option {option} is not supported: the checkpoint has {what} ({key})")

        def shape(key: str) -> Tuple[int, ...]:
            if key not in model:
                raise ValueError(f"the checkpoint's model has no '{key}': not an OpenNMT-py RNN model "
                                 f"(encoder_type/decoder_type rnn or brnn)")
            return tuple(model[key].shape)

        # encoder: nn.LSTM / nn.GRU named encoder.rnn
        if "encoder.rnn.weight_ih_l0" not in model:
            enc_keys = sorted({k.split(".")[1] for k in model if k.startswith("encoder.")})
            raise ValueError(f"encoder_type: the checkpoint's encoder is not an RNN encoder (it holds "
                             f"{', '.join(enc_keys) or 'nothing'}); only -encoder_type rnn/brnn can be converted")
        self.bidirectional = "encoder.rnn.weight_ih_l0_reverse" in model
        self.enc_layers = 0
        while f"encoder.rnn.weight_ih_l{self.enc_layers}" in model:
            self.enc_layers += 1
        gates_rows, self.enc_hidden = shape("encoder.rnn.weight_hh_l0")
        enc_gates = gates_rows // self.enc_hidden
        self.src_vocab_size, self.src_emb_size = shape("encoder.embeddings.make_embedding.emb_luts.0.weight")

        # decoder: StackedLSTM/StackedGRU (input feeding) or nn.LSTM/nn.GRU (StdRNNDecoder)
        if "decoder.rnn.layers.0.weight_ih" in model:
            self.input_feed = True
            self.dec_layers = 0
            while f"decoder.rnn.layers.{self.dec_layers}.weight_ih" in model:
                self.dec_layers += 1
            gates_rows, self.hidden = shape("decoder.rnn.layers.0.weight_hh")
        elif "decoder.rnn.weight_ih_l0" in model:
            self.input_feed = False
            self.dec_layers = 0
            while f"decoder.rnn.weight_ih_l{self.dec_layers}" in model:
                self.dec_layers += 1
            gates_rows, self.hidden = shape("decoder.rnn.weight_hh_l0")
        else:
            dec_keys = sorted({k.split(".")[1] for k in model if k.startswith("decoder.")})
            raise ValueError(f"decoder_type: the checkpoint's decoder is not an RNN decoder (it holds "
                             f"{', '.join(dec_keys) or 'nothing'}); only -decoder_type rnn can be converted")
        dec_gates = gates_rows // self.hidden
        self.tgt_vocab_size, self.tgt_emb_size = shape("decoder.embeddings.make_embedding.emb_luts.0.weight")

        cells = {4: "lstm", 3: "gru"}
        if enc_gates != dec_gates or enc_gates not in cells:
            raise ValueError(f"rnn_type: only LSTM and GRU models can be converted (the encoder's cell has "
                             f"{enc_gates} gate blocks, the decoder's {dec_gates})")
        self.cell = cells[enc_gates]
        rnn_type = opt.get("rnn_type")
        if rnn_type is not None and rnn_type.lower() != self.cell:
            raise ValueError(f"rnn_type: the options say {rnn_type} but the weights are those of a {self.cell.upper()}")
        # attention
        if "decoder.attn.linear_context.weight" in model:
            self.attention = "mlp"
        elif "decoder.attn.linear_in.weight" in model:
            self.attention = "general"
        elif "decoder.attn.linear_out.weight" in model:
            self.attention = "dot"
        else:
            raise ValueError("global_attention 'none' is not supported: the decoder has no attention "
                             "(no decoder.attn weights), so there is no alignment to show")
        attention = opt.get("global_attention")
        if attention is not None and str(attention).lower() != self.attention:
            raise ValueError(f"global_attention: the options say {attention} but the weights are those of "
                             f"{self.attention} attention")

        # sizes OpenNMT-py itself would refuse to run with
        directions = 2 if self.bidirectional else 1
        if self.enc_hidden * directions != self.hidden:
            raise ValueError(f"the encoder's states ({directions} x {self.enc_hidden}) do not match the decoder's "
                             f"hidden size {self.hidden}: the decoder cannot start from them without a bridge")
        if self.enc_layers != self.dec_layers:
            raise ValueError(f"enc_layers {self.enc_layers} != dec_layers {self.dec_layers}: the decoder starts from "
                             f"the encoder's final states layer by layer, which needs as many layers on both sides")
        gen = generator.get("weight")
        if gen is None:
            raise ValueError("the checkpoint's generator has no weight (expected generator 'weight' or '0.weight')")
        if tuple(gen.shape) != (self.tgt_vocab_size, self.hidden):
            raise ValueError(f"the generator's weight is {tuple(gen.shape)}, expected "
                             f"({self.tgt_vocab_size}, {self.hidden}) from the decoder")
        self.generator_bias = "bias" in generator

    def describe(self) -> Dict[str, Any]:
        return {
            "encoder": {"cell": self.cell, "layers": self.enc_layers, "bidirectional": self.bidirectional},
            "decoder": {"cell": self.cell, "layers": self.dec_layers, "input_feeding": self.input_feed},
            "attention": ({"kind": "additive", "bias": True, "when": "after_cell"} if self.attention == "mlp"
                          else {"kind": self.attention, "bias": False, "when": "after_cell"}),
        }


# =================================================================================================
# OpenNMT-py's modules, re-typed (3.x; parameter names as in its state dicts). The reference.


class _OnmtEmbeddings(nn.Module):
    """onmt.modules.Embeddings with words only (no features, no position encoding)."""

    def __init__(self, vocab_size: int, dim: int, padding_idx: Optional[int]) -> None:
        super().__init__()
        self.make_embedding = nn.Sequential(OrderedDict(
            emb_luts=nn.ModuleList([nn.Embedding(vocab_size, dim, padding_idx=padding_idx)])))

    def forward(self, source: Tensor) -> Tensor:
        return self.make_embedding.emb_luts[0](source)


class _OnmtRNNEncoder(nn.Module):
    """onmt.encoders.RNNEncoder (batch first, packed by lengths, no bridge)."""

    def __init__(self, cell: str, bidirectional: bool, layers: int, hidden: int,
                 embeddings: _OnmtEmbeddings, emb_size: int) -> None:
        super().__init__()
        self.embeddings = embeddings
        rnn = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = rnn(emb_size, hidden, num_layers=layers, bidirectional=bidirectional, batch_first=True)

    def forward(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Any, Tensor]:
        emb = self.embeddings(src)
        packed = pack_padded_sequence(emb, src_len.view(-1).tolist(), batch_first=True, enforce_sorted=False)
        enc_out, enc_final_hs = self.rnn(packed)
        enc_out = pad_packed_sequence(enc_out, batch_first=True, total_length=src.size(1))[0]
        return enc_out, enc_final_hs, src_len


class _OnmtGlobalAttention(nn.Module):
    """onmt.modules.GlobalAttention (softmax, no coverage)."""

    def __init__(self, dim: int, attn_type: str) -> None:
        super().__init__()
        self.dim = dim
        self.attn_type = attn_type
        if attn_type == "general":
            self.linear_in = nn.Linear(dim, dim, bias=False)
        elif attn_type == "mlp":
            self.linear_context = nn.Linear(dim, dim, bias=False)
            self.linear_query = nn.Linear(dim, dim, bias=True)
            self.v = nn.Linear(dim, 1, bias=False)
        self.linear_out = nn.Linear(dim * 2, dim, bias=attn_type == "mlp")

    def score(self, h_t: Tensor, h_s: Tensor) -> Tensor:
        src_batch, src_len, _ = h_s.size()
        tgt_batch, tgt_len, tgt_dim = h_t.size()
        if self.attn_type in ("general", "dot"):
            if self.attn_type == "general":
                h_t = self.linear_in(h_t.view(tgt_batch * tgt_len, tgt_dim)).view(tgt_batch, tgt_len, tgt_dim)
            return torch.bmm(h_t, h_s.transpose(1, 2))
        dim = self.dim
        wq = self.linear_query(h_t.view(-1, dim)).view(tgt_batch, tgt_len, 1, dim)
        wq = wq.expand(tgt_batch, tgt_len, src_len, dim)
        uh = self.linear_context(h_s.contiguous().view(-1, dim)).view(src_batch, 1, src_len, dim)
        uh = uh.expand(src_batch, tgt_len, src_len, dim)
        return self.v(torch.tanh(wq + uh).view(-1, dim)).view(tgt_batch, tgt_len, src_len)

    def forward(self, src: Tensor, enc_out: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor]:
        one_step = src.dim() == 2
        if one_step:
            src = src.unsqueeze(1)
        batch, src_l, dim = enc_out.size()
        _, target_l, _ = src.size()
        align = self.score(src, enc_out)
        mask = torch.arange(src_l, device=src_len.device).unsqueeze(0) < src_len.unsqueeze(1)
        align = align.masked_fill(~mask.unsqueeze(1), -float("inf"))
        align_vectors = F.softmax(align.view(batch * target_l, src_l), -1).view(batch, target_l, src_l)
        c = torch.bmm(align_vectors, enc_out)
        concat_c = torch.cat([c, src], 2).view(batch * target_l, dim * 2)
        attn_h = self.linear_out(concat_c).view(batch, target_l, dim)
        if self.attn_type in ("general", "dot"):
            attn_h = torch.tanh(attn_h)
        if one_step:
            attn_h, align_vectors = attn_h.squeeze(1), align_vectors.squeeze(1)
        return attn_h, align_vectors


class _OnmtStackedRNN(nn.Module):
    """onmt.modules.stacked_rnn.StackedLSTM / StackedGRU."""

    def __init__(self, cell: str, layers: int, input_size: int, hidden: int) -> None:
        super().__init__()
        self.cell = cell
        self.layers = nn.ModuleList()
        for _ in range(layers):
            self.layers.append(nn.LSTMCell(input_size, hidden) if cell == "lstm" else nn.GRUCell(input_size, hidden))
            input_size = hidden

    def forward(self, input_feed: Tensor, hidden: Tuple[Tensor, ...]) -> Tuple[Tensor, Tuple[Tensor, ...]]:
        h_1, c_1 = [], []
        for i, layer in enumerate(self.layers):
            if self.cell == "lstm":
                h_1_i, c_1_i = layer(input_feed, (hidden[0][i], hidden[1][i]))
                c_1.append(c_1_i)
            else:
                h_1_i = layer(input_feed, hidden[0][i])
            input_feed = h_1_i  # dropout between layers: identity in eval mode
            h_1.append(h_1_i)
        if self.cell == "lstm":
            return input_feed, (torch.stack(h_1), torch.stack(c_1))
        return input_feed, (torch.stack(h_1),)


class _OnmtRNNDecoder(nn.Module):
    """onmt.decoders.InputFeedRNNDecoder (input_feed=True) or StdRNNDecoder, without context gate,
    coverage or copy attention."""

    def __init__(self, arch: _Architecture, embeddings: _OnmtEmbeddings) -> None:
        super().__init__()
        self.cell = arch.cell
        self.input_feed = arch.input_feed
        self.bidirectional_encoder = arch.bidirectional
        self.hidden_size = arch.hidden
        self.embeddings = embeddings
        if self.input_feed:
            self.rnn = _OnmtStackedRNN(arch.cell, arch.dec_layers, arch.tgt_emb_size + arch.hidden, arch.hidden)
        else:
            rnn = nn.LSTM if arch.cell == "lstm" else nn.GRU
            self.rnn = rnn(arch.tgt_emb_size, arch.hidden, num_layers=arch.dec_layers, batch_first=True)
        self.attn = _OnmtGlobalAttention(arch.hidden, arch.attention)
        self.state: Dict[str, Any] = {}

    def init_state(self, enc_final_hs: Any) -> None:
        def _fix_enc_hidden(hidden: Tensor) -> Tensor:
            if self.bidirectional_encoder:
                hidden = torch.cat([hidden[0:hidden.size(0):2], hidden[1:hidden.size(0):2]], 2)
            return hidden

        if isinstance(enc_final_hs, tuple):
            self.state["hidden"] = tuple(_fix_enc_hidden(h) for h in enc_final_hs)
        else:
            self.state["hidden"] = (_fix_enc_hidden(enc_final_hs),)
        batch_size = self.state["hidden"][0].size(1)
        self.state["input_feed"] = self.state["hidden"][0].new_zeros(batch_size, self.hidden_size).unsqueeze(0)

    def forward(self, tgt: Tensor, enc_out: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor]:
        emb = self.embeddings(tgt)
        if not self.input_feed:
            hidden = self.state["hidden"]
            rnn_out, _ = self.rnn(emb, hidden if self.cell == "lstm" else hidden[0])
            dec_outs, attns = self.attn(rnn_out, enc_out, src_len)
            return dec_outs, attns.transpose(0, 1)
        input_feed = self.state["input_feed"].squeeze(0)
        dec_state = self.state["hidden"]
        dec_outs, attns = [], []
        for emb_t in emb.split(1, dim=1):
            dec_in = torch.cat([emb_t.squeeze(1), input_feed], 1)
            rnn_out, dec_state = self.rnn(dec_in, dec_state)
            dec_out, p_attn = self.attn(rnn_out, enc_out, src_len)
            input_feed = dec_out  # dropout: identity in eval mode
            dec_outs.append(dec_out)
            attns.append(p_attn)
        return torch.stack(dec_outs, dim=1), torch.stack(attns)  # [B,T,H], [T,B,S]


class _OnmtNMTModel(nn.Module):
    def __init__(self, arch: _Architecture, src_pad: Optional[int], tgt_pad: Optional[int]) -> None:
        super().__init__()
        self.encoder = _OnmtRNNEncoder(arch.cell, arch.bidirectional, arch.enc_layers, arch.enc_hidden,
                                       _OnmtEmbeddings(arch.src_vocab_size, arch.src_emb_size, src_pad),
                                       arch.src_emb_size)
        self.decoder = _OnmtRNNDecoder(arch, _OnmtEmbeddings(arch.tgt_vocab_size, arch.tgt_emb_size, tgt_pad))


# =================================================================================================
# The converted module


class _Cell(nn.Module):
    """One LSTM/GRU cell (torch.lstm_cell / torch.gru_cell, as nn.LSTMCell and nn.GRUCell run)."""

    is_lstm: bool

    def __init__(self, is_lstm: bool, weight_ih: Tensor, weight_hh: Tensor, bias_ih: Tensor, bias_hh: Tensor) -> None:
        super().__init__()
        self.is_lstm = is_lstm
        self.weight_ih = nn.Parameter(weight_ih.detach().clone().float(), requires_grad=False)
        self.weight_hh = nn.Parameter(weight_hh.detach().clone().float(), requires_grad=False)
        self.bias_ih = nn.Parameter(bias_ih.detach().clone().float(), requires_grad=False)
        self.bias_hh = nn.Parameter(bias_hh.detach().clone().float(), requires_grad=False)

    def forward(self, x: Tensor, h: Tensor, c: Tensor) -> Tuple[Tensor, Tensor]:
        if self.is_lstm:
            hc = torch.lstm_cell(x, [h, c], self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
            return hc[0], hc[1]
        return torch.gru_cell(x, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh), c


class _EncoderLayer(nn.Module):
    """One layer of the (bidirectional) encoder RNN over a padded batch: each direction's state is
    held on padding, so each row's result is that of its sentence alone (as with packed sequences)."""

    hidden: int

    def __init__(self, cells: List[_Cell], hidden: int) -> None:
        super().__init__()
        self.directions = nn.ModuleList(cells)
        self.hidden = hidden

    def forward(self, x: Tensor, mask: Tensor) -> Tuple[Tensor, List[Tensor], List[Tensor]]:
        B, S = x.size(0), x.size(1)
        outputs: List[Tensor] = []
        final_h: List[Tensor] = []
        final_c: List[Tensor] = []
        for d, cell in enumerate(self.directions):
            h = x.new_zeros(B, self.hidden)
            c = x.new_zeros(B, self.hidden)
            ys: List[Tensor] = []
            for i in range(S):
                t = i if d == 0 else S - 1 - i
                keep = mask[:, t].unsqueeze(1)
                h2, c2 = cell(x[:, t], h, c)
                h = torch.where(keep, h2, h)
                c = torch.where(keep, c2, c)
                ys.append(h)
            if d != 0:
                ys.reverse()
            outputs.append(torch.stack(ys, 1))
            final_h.append(h)
            final_c.append(c)
        out = torch.cat(outputs, 2).masked_fill(~mask.unsqueeze(2), 0.0)
        return out, final_h, final_c


class OpenNMTRNN(SplitEncoder):
    """encode/step (AlignScope model format v2) for an OpenNMT-py RNN encoder-decoder.

    state row: [h_0 .. h_{L-1}, (c_0 .. c_{L-1} for LSTM), (input_feed when input feeding)].
    keys: linear_context(enc) for mlp attention, enc itself otherwise.
    """

    is_lstm: bool
    input_feed: bool
    attn_kind: int
    hidden: int
    dec_layers: int

    def __init__(self, ref: _OnmtNMTModel, arch: _Architecture, generator: nn.Linear) -> None:
        super().__init__()
        self.is_lstm = arch.cell == "lstm"
        self.input_feed = arch.input_feed
        self.attn_kind = _ATTENTION_KINDS[arch.attention]
        self.hidden = arch.hidden
        self.dec_layers = arch.dec_layers

        enc, dec = ref.encoder, ref.decoder
        self.src_embedding = frozen_copy(enc.embeddings.make_embedding.emb_luts[0])
        self.tgt_embedding = frozen_copy(dec.embeddings.make_embedding.emb_luts[0])

        layers = []
        for k in range(arch.enc_layers):
            cells = []
            for suffix in ([""] + (["_reverse"] if arch.bidirectional else [])):
                w = lambda n: getattr(enc.rnn, f"{n}_l{k}{suffix}")  # noqa: E731
                cells.append(_Cell(self.is_lstm, w("weight_ih"), w("weight_hh"), w("bias_ih"), w("bias_hh")))
            layers.append(_EncoderLayer(cells, arch.enc_hidden))
        self.encoder_layers = nn.ModuleList(layers)

        cells = []
        for k in range(arch.dec_layers):
            if arch.input_feed:
                layer = dec.rnn.layers[k]
                cells.append(_Cell(self.is_lstm, layer.weight_ih, layer.weight_hh, layer.bias_ih, layer.bias_hh))
            else:
                w = lambda n: getattr(dec.rnn, f"{n}_l{k}")  # noqa: E731
                cells.append(_Cell(self.is_lstm, w("weight_ih"), w("weight_hh"), w("bias_ih"), w("bias_hh")))
        self.decoder_cells = nn.ModuleList(cells)

        attn = dec.attn
        self.linear_in = frozen_copy(attn.linear_in) if arch.attention == "general" else nn.Identity()
        self.linear_context = frozen_copy(attn.linear_context) if arch.attention == "mlp" else nn.Identity()
        self.linear_query = frozen_copy(attn.linear_query) if arch.attention == "mlp" else nn.Identity()
        self.v = frozen_copy(attn.v) if arch.attention == "mlp" else nn.Identity()
        self.linear_out = frozen_copy(attn.linear_out)
        self.generator = frozen_copy(generator)

    # The encoder split after OpenNMT's Embeddings module (the format's optional methods), so
    # gradient attributions (grad-x-input, integrated gradients) can differentiate with respect to
    # what it gives the encoder.
    @torch.jit.export
    def embed_source(self, src: Tensor) -> Tensor:
        return self.src_embedding(src)  # [B,S,E]

    @torch.jit.export
    def encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        B, S = x.size(0), x.size(1)
        mask = torch.arange(S, device=x.device).unsqueeze(0) < src_len.to(x.device).unsqueeze(1)
        hs: List[Tensor] = []
        cs: List[Tensor] = []
        for layer in self.encoder_layers:
            x, final_h, final_c = layer(x, mask)
            hs.append(torch.cat(final_h, 1))  # _fix_enc_hidden: [fwd; bwd] per layer
            cs.append(torch.cat(final_c, 1))
        parts = hs
        if self.is_lstm:
            parts = parts + cs
        if self.input_feed:
            parts = parts + [x.new_zeros(B, self.hidden)]
        state = torch.cat(parts, 1)
        if self.attn_kind == 0:
            keys = self.linear_context(x.contiguous().view(-1, self.hidden)).view(B, S, self.hidden)
        else:
            keys = x
        return x, state, mask, keys

    @torch.jit.export
    def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        H, L = self.hidden, self.dec_layers
        B, S = enc.size(0), enc.size(1)
        inp = self.tgt_embedding(y_prev)
        if self.input_feed:
            offset = (2 * L if self.is_lstm else L) * H
            inp = torch.cat([inp, state[:, offset:offset + H]], 1)
        new_h: List[Tensor] = []
        new_c: List[Tensor] = []
        for i, cell in enumerate(self.decoder_cells):
            h = state[:, i * H:(i + 1) * H]
            c = state[:, (L + i) * H:(L + i + 1) * H] if self.is_lstm else h
            h, c = cell(inp, h, c)
            new_h.append(h)
            new_c.append(c)
            inp = h
        query = inp
        if self.attn_kind == 0:  # mlp: v^T tanh(W_q s + b + U h)
            wq = self.linear_query(query).view(B, 1, H)
            energies = self.v(torch.tanh(wq + keys).view(-1, H)).view(B, S)
        elif self.attn_kind == 1:  # general: s^T W h
            q = self.linear_in(query).view(B, 1, H)
            energies = torch.bmm(q, enc.transpose(1, 2)).view(B, S)
        else:  # dot
            energies = torch.bmm(query.view(B, 1, H), enc.transpose(1, 2)).view(B, S)
        alpha = torch.softmax(energies.masked_fill(~mask, float("-inf")), -1)
        context = torch.bmm(alpha.unsqueeze(1), enc).squeeze(1)
        readout = self.linear_out(torch.cat([context, query], 1))
        if self.attn_kind != 0:
            readout = torch.tanh(readout)
        log_probs = torch.log_softmax(self.generator(readout), -1)
        parts = new_h
        if self.is_lstm:
            parts = parts + new_c
        if self.input_feed:
            parts = parts + [readout]
        return {
            "log_probs": log_probs,
            "state": torch.cat(parts, 1),
            "alpha": alpha,
            "context": context,
            "energies": energies.masked_fill(~mask, 0.0),
            "query": query,
            "readout": readout,
        }


# =================================================================================================


def _state_dicts(checkpoint: Dict[str, Any]) -> Tuple[Dict[str, Tensor], Dict[str, Tensor]]:
    model = checkpoint.get("model")
    if not isinstance(model, dict):
        if hasattr(model, "state_dict"):
            model = model.state_dict()
        else:
            keys = ", ".join(map(str, checkpoint)) or "nothing"
            raise ValueError(f"not an OpenNMT-py checkpoint: no 'model' state dict (the dict holds {keys})")
    model = {k: v for k, v in model.items() if isinstance(v, Tensor)}
    generator = checkpoint.get("generator")
    if generator is None:  # some versions keep the generator inside the model's state dict
        generator = {k[len("generator."):]: v for k, v in model.items() if k.startswith("generator.")}
    elif hasattr(generator, "state_dict"):
        generator = generator.state_dict()
    model = {k: v for k, v in model.items() if not k.startswith("generator.")}
    generator = dict(generator)
    for name in ("weight", "bias"):  # 0.x-2.x: nn.Sequential(Linear, [Cast,] LogSoftmax)
        if f"0.{name}" in generator and name not in generator:
            generator[name] = generator.pop(f"0.{name}")
    if not generator:
        raise ValueError("the checkpoint has no generator (the output layer, checkpoint['generator'])")
    return model, generator


def from_opennmt(checkpoint: Any, *, name: Optional[str] = None, max_length: Optional[int] = None,
                 src_tokenizer: Any = None, tgt_tokenizer: Any = None) -> AdaptedModel:
    """An AlignScope model from an OpenNMT-py RNN checkpoint (a path to the file onmt_train saved,
    e.g. model_step_1000.pt, or the dict torch.load gives).

    Supported: RNNEncoder (rnn or brnn, LSTM or GRU, any number of layers), InputFeedRNNDecoder or
    StdRNNDecoder (-input_feed 0), global attention mlp, general or dot with softmax, a plain
    generator. Refused with a ValueError naming the option: bridge, coverage_attn, copy_attn,
    context_gate, word features, position_encoding, transformer/cnn encoders or decoders,
    global_attention none, sparsemax, language models.
    src_tokenizer, tgt_tokenizer: how text becomes tokens, a description as the model format's JSON
    (docs/model-format.md, "Tokenizers"); default whitespace (OpenNMT-py reads pre-tokenized text:
    pass the tokenizer the training data went through, e.g. a "sentencepiece" one).
    """
    src_tokenizer = tokenizer_option(src_tokenizer, "src_tokenizer", PRETOKENIZED)
    tgt_tokenizer = tokenizer_option(tgt_tokenizer, "tgt_tokenizer", PRETOKENIZED)
    ckpt, stem = _load_checkpoint(checkpoint)
    opt = _options(ckpt)
    _check_options(opt)
    model_sd, generator_sd = _state_dicts(ckpt)
    arch = _Architecture(model_sd, generator_sd, opt)
    src_vocab, tgt_vocab, field_specials, start_token = _vocabularies(ckpt)
    if len(src_vocab) != arch.src_vocab_size:
        raise ValueError(f"the source vocabulary has {len(src_vocab)} tokens but the encoder's embeddings "
                         f"{arch.src_vocab_size} rows")
    if len(tgt_vocab) != arch.tgt_vocab_size:
        raise ValueError(f"the target vocabulary has {len(tgt_vocab)} tokens but the decoder's embeddings "
                         f"{arch.tgt_vocab_size} rows")

    sf, tf = field_specials["src"], field_specials["tgt"]
    src_specials = special_ids(src_vocab, {"unk": sf.get("unk", UNK), "pad": sf.get("pad", PAD)})
    tgt_specials = special_ids(tgt_vocab, {"unk": tf.get("unk", UNK), "pad": tf.get("pad", PAD),
                                           "bos": start_token or tf.get("bos", BOS), "eos": tf.get("eos", EOS)})
    for key, token in (("bos", start_token or tf.get("bos", BOS)), ("eos", tf.get("eos", EOS))):
        if tgt_specials[key] is None:
            raise ValueError(f"the target vocabulary has no '{token}' ({key}): OpenNMT-py starts decoding with "
                             f"{start_token or BOS!r} and stops at {tf.get('eos', EOS)!r}")

    ref = _OnmtNMTModel(arch, src_specials.get("pad"), tgt_specials.get("pad"))
    missing, unexpected = ref.load_state_dict(model_sd, strict=False)
    if missing or unexpected:
        details = []
        if unexpected:
            details.append("unexpected " + ", ".join(sorted(unexpected)[:8]))
        if missing:
            details.append("missing " + ", ".join(sorted(missing)[:8]))
        raise ValueError("the checkpoint's model is not an OpenNMT-py RNN model this converter knows ("
                         + "; ".join(details) + ")")
    generator = nn.Linear(arch.hidden, arch.tgt_vocab_size, bias=arch.generator_bias)
    try:
        generator.load_state_dict(generator_sd, strict=True)
    except RuntimeError as e:
        raise ValueError(f"the checkpoint's generator is not a plain linear layer: {e}") from e
    ref = ref.float().eval()
    generator = generator.float().eval()

    def reference(sources: List[List[int]], targets: List[List[int]]) -> List[Tuple[Tensor, Tensor]]:
        """OpenNMT-py's computation, teacher-forced, one pair at a time."""
        out = []
        with torch.no_grad():
            for src, tgt in zip(sources, targets):
                src_t = torch.tensor([src], dtype=torch.long)
                src_len = torch.tensor([len(src)])
                enc_out, enc_final_hs, src_len = ref.encoder(src_t, src_len)
                ref.decoder.init_state(enc_final_hs)
                dec_outs, attns = ref.decoder(torch.tensor([tgt], dtype=torch.long), enc_out, src_len)
                log_probs = F.log_softmax(generator(dec_outs), dim=-1)
                out.append((log_probs[0], attns[:, 0, :]))
        return out

    if max_length is None:
        opt_max = opt.get("max_length")
        max_length = opt_max if isinstance(opt_max, int) and opt_max > 0 else DEFAULT_MAX_LENGTH
    metadata: Dict[str, Any] = {
        "name": name or stem,
        "max_length": int(max_length),
        "source_eos": False,
        **arch.describe(),
        "converted_from": f"OpenNMT-py RNN checkpoint ({stem}): {'brnn' if arch.bidirectional else 'rnn'} "
                          f"{arch.cell.upper()} encoder, {'input-feeding ' if arch.input_feed else ''}RNN decoder, "
                          f"{arch.attention} global attention",
        "opennmt": {
            "hidden_size": arch.hidden, "src_word_vec_size": arch.src_emb_size,
            "tgt_word_vec_size": arch.tgt_emb_size, "global_attention": arch.attention,
        },
    }
    module = OpenNMTRNN(ref, arch, generator)
    return AdaptedModel(module, src_vocab=src_vocab, tgt_vocab=tgt_vocab,
                        src_specials=src_specials, tgt_specials=tgt_specials,
                        src_tokenizer=src_tokenizer, tgt_tokenizer=tgt_tokenizer,
                        metadata=metadata, reference=reference)
