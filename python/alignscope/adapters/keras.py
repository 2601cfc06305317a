"""The deeplearning.ai Sequence Models course, week 3 "Neural Machine Translation" (human-readable
dates -> ISO dates), from its Keras 2 weights file, as an AlignScope model (format v2).

The course model (Keras 2):

    X [m, Tx, len(human_vocab)] (one-hot of string_to_int: lower-cased, ',' removed, one token per
        character, padded with '<pad>' to Tx)
    a = Bidirectional(LSTM(n_a, return_sequences=True))(X)             # [m, Tx, 2 n_a], no mask
    s = c = zeros(n_s)
    for t in range(Ty):
        e      = Dense(10, "tanh")(Concatenate(-1)([a, RepeatVector(Tx)(s)]))
        alphas = softmax(Dense(1, "relu")(e), axis=1)                   # over all Tx positions
        context = Dot(axes=1)([alphas, a])
        s, _, c = LSTM(n_s, return_state=True)(context, initial_state=[s, c])
        out[t] = Dense(len(machine_vocab), "softmax")(s)

`from_keras_h5` reads `model.save_weights("x.h5")` (or a whole `model.save("x.h5")`), finds the
five layers with weights by their shapes, and returns an `AdaptedModel` whose `save(path)` writes
the AlignScope file after comparing it with an independent float64 run of the Keras math.

The same model over words (a Keras `Tokenizer` vocabulary instead of characters) converts too: the
tokenization is read from the vocabularies (`keras_tokenizer`), or given as src_tokenizer= /
tgt_tokenizer=.
"""

import copy
import json
import os
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import torch
from torch import Tensor, nn

from ..adapted import AdaptedModel
from ..files import regular_input
from .common import SplitEncoder, positive_int, special_ids, tokenizer_option, tokens_by_id

Vocab = Union[Mapping[Any, Any], Sequence[str]]

RECURRENT_ACTIVATIONS = ("sigmoid", "hard_sigmoid")
_ROLE_OF = {"enc_f_kernel": "encoder", "enc_f_recurrent": "encoder", "enc_f_bias": "encoder",
            "enc_b_kernel": "encoder", "enc_b_recurrent": "encoder", "enc_b_bias": "encoder",
            "dec_kernel": "post_attention_lstm", "dec_recurrent": "post_attention_lstm", "dec_bias": "post_attention_lstm",
            "att1_kernel": "attention_dense_1", "att1_bias": "attention_dense_1",
            "att2_kernel": "attention_dense_2", "att2_bias": "attention_dense_2",
            "out_kernel": "output_dense", "out_bias": "output_dense"}
COURSE = 'deeplearning.ai Sequence Models, week 3 "Neural Machine Translation" (Keras 2)'

# Tokenizations (docs/model-format.md, "Tokenizers"). The course's string_to_int: lower-case, commas
# removed, one token per character, spaces included.
COURSE_SOURCE_CHARS: Dict[str, Any] = {"kind": "char", "keep_spaces": True, "detokenizer": "concat",
                                       "normalizers": [{"type": "lowercase"}, {"type": "replace", "pattern": ",", "content": ""}]}
COURSE_TARGET_CHARS: Dict[str, Any] = {"kind": "char", "detokenizer": "concat"}
# Keras' text_to_word_sequence (keras.preprocessing.text, what its Tokenizer splits text with):
# lower-case, every character of `filters` made a space, split on " " only (U+00A0 and U+202F, which
# French text puts before "?" and "!", stay inside tokens), empty pieces dropped.
KERAS_WORD_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'
KERAS_WORDS: Dict[str, Any] = {
    "kind": "whitespace", "split": "space", "detokenizer": "spaces",
    "normalizers": [{"type": "lowercase"},
                    {"type": "replace", "content": " ",  # an ECMAScript class of the filters, each escaped
                     "pattern": "[" + "".join("\\" + c if c in "\\]^-[" else {"\t": "\\t", "\n": "\\n"}.get(c, c)
                                          for c in KERAS_WORD_FILTERS) + "]"}],
}


def _is_special(token: str) -> bool:
    return len(token) > 2 and token.startswith("<") and token.endswith(">")


def keras_tokenizer(tokens: Sequence[str], arg: str, side: str) -> Dict[str, Any]:
    """The tokenization a vocabulary implies: one token per character when every token but the
    specials (<pad>, <unk>, ...) is one character (the course's), else Keras' word tokenizer
    (KERAS_WORDS), provided every token is something text_to_word_sequence can give (lower-case,
    no filtered character, no U+0020 space: other spaces are kept in tokens); otherwise refused, since neither rule could produce it.
    `side` is "source" or "target"; `arg` names the vocabulary argument in messages."""
    plain = [t for t in tokens if not _is_special(t)]
    words = [t for t in plain if len(t) > 1]
    if not words:
        return copy.deepcopy(COURSE_SOURCE_CHARS if side == "source" else COURSE_TARGET_CHARS)
    never = [t for t in plain if t != t.lower() or " " in t or any(c in KERAS_WORD_FILTERS for c in t)]
    if never:
        option = "src_tokenizer" if side == "source" else "tgt_tokenizer"
        raise ValueError(
            f"{arg} holds multi-character tokens ({', '.join(map(repr, words[:3]))}), so it reads as a word "
            f"vocabulary, tokenized as Keras' text_to_word_sequence does (lower-case, punctuation filtered, split on "
            f"spaces); but {', '.join(map(repr, never[:3]))} could never come out of that rule. Pass {option}= with "
            f"the tokenizer the model was trained with (docs/bring-your-model.md, \"Keras\")")
    return copy.deepcopy(KERAS_WORDS)


# -------------------------------------------------------------------------------------------------
# The AlignScope module


class KerasDateNMT(SplitEncoder):
    """The course model with `encode`/`step` (docs/model-format.md).

    encode: the source is put on Tx positions padded with '<pad>' (as string_to_int does) and the
    bidirectional LSTM runs over all Tx of them, padding included, as in Keras: the backward LSTM
    starts at position Tx-1, so a result never depends on how a batch was padded.
    keys = [a | a W1_a + b1] over all Tx positions ([B, Tx, 2 n_a + d1]); enc = a on the real
    positions only. state = [s | c].
    step: y_prev is ignored (the course decoder is fed only the context). The softmax covers all Tx
    positions; "alpha" is its part on the real positions, "alpha_padding" the rest.
    """

    def __init__(self, w: Dict[str, np.ndarray], Tx: int, pad_id: int, hard_sigmoid: bool) -> None:
        super().__init__()

        def p(a: np.ndarray) -> nn.Parameter:
            return nn.Parameter(torch.tensor(np.ascontiguousarray(a), dtype=torch.float32), requires_grad=False)

        self.Tx = int(Tx)
        self.pad_id = int(pad_id)
        self.hard_sigmoid = bool(hard_sigmoid)
        self.n_a = int(w["enc_f_recurrent"].shape[0])
        self.n_s = int(w["dec_recurrent"].shape[0])
        E = 2 * self.n_a
        self.enc_f_kernel = p(w["enc_f_kernel"])        # [V_src, 4 n_a]: one-hot x @ kernel = row of kernel
        self.enc_f_recurrent = p(w["enc_f_recurrent"])  # [n_a, 4 n_a]
        self.enc_f_bias = p(w["enc_f_bias"])            # [4 n_a]
        self.enc_b_kernel = p(w["enc_b_kernel"])
        self.enc_b_recurrent = p(w["enc_b_recurrent"])
        self.enc_b_bias = p(w["enc_b_bias"])
        self.att1_a = p(w["att1_kernel"][:E])           # rows of densor1 that see a (Concatenate([a, s]))
        self.att1_s = p(w["att1_kernel"][E:])           # rows that see s_{t-1}
        self.att1_bias = p(w["att1_bias"])
        self.att2_kernel = p(w["att2_kernel"])          # [d1, 1]
        self.att2_bias = p(w["att2_bias"])              # [1]
        self.dec_kernel = p(w["dec_kernel"])            # [2 n_a, 4 n_s]
        self.dec_recurrent = p(w["dec_recurrent"])      # [n_s, 4 n_s]
        self.dec_bias = p(w["dec_bias"])
        self.out_kernel = p(w["out_kernel"])            # [n_s, V_tgt]
        self.out_bias = p(w["out_bias"])

    def _gate(self, x: Tensor) -> Tensor:
        if self.hard_sigmoid:
            return torch.clamp(0.2 * x + 0.5, 0.0, 1.0)
        return torch.sigmoid(x)

    def _lstm(self, z: Tensor, c: Tensor) -> Tuple[Tensor, Tensor]:
        # Keras gate order i, f, c, o; activation tanh
        i, f, g, o = z.chunk(4, 1)
        c = self._gate(f) * c + self._gate(i) * torch.tanh(g)
        return self._gate(o) * torch.tanh(c), c

    def _direction(self, gi: Tensor, recurrent: Tensor, reverse: bool) -> Tensor:
        B = gi.size(0)
        n = recurrent.size(0)
        h = torch.zeros([B, n], dtype=gi.dtype)
        c = torch.zeros([B, n], dtype=gi.dtype)
        outs: List[Tensor] = []
        for i in range(self.Tx):
            t = self.Tx - 1 - i if reverse else i
            h, c = self._lstm(gi[:, t] + torch.matmul(h, recurrent), c)
            outs.append(h)
        if reverse:
            outs.reverse()
        return torch.stack(outs, 1)

    # The encoder split at its input (the format's optional methods), so gradient attributions
    # (grad-x-input, integrated gradients) can differentiate with respect to it. The course feeds
    # the Bi-LSTM one-hot characters, so the "embedding" of a token is its one-hot row, and
    # one-hot times the kernel is the kernel's row, as the lookup was.
    @torch.jit.export
    def embed_source(self, src: Tensor) -> Tensor:
        return torch.nn.functional.one_hot(src, self.enc_f_kernel.size(0)).to(self.enc_f_kernel.dtype)  # [B,S,V]

    @torch.jit.export
    def encode_embedded(self, x: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        B = x.size(0)
        S = x.size(1)
        if B > 0 and int(src_len.max()) > self.Tx:
            raise RuntimeError("the source has " + str(int(src_len.max())) + " tokens; this model reads at most "
                               + str(self.Tx) + " (Tx)")
        mask = torch.arange(S).unsqueeze(0) < src_len.unsqueeze(1)
        take = min(S, self.Tx)
        # The model reads Tx tokens: the real ones, then <pad>'s one-hot row (a constant).
        pad = torch.nn.functional.one_hot(torch.tensor(self.pad_id), x.size(2)).to(x.dtype)
        xs = torch.where(mask[:, :take].unsqueeze(2), x[:, :take], pad.expand(B, take, x.size(2)))
        if take < self.Tx:
            xs = torch.cat([xs, pad.expand(B, self.Tx - take, x.size(2))], 1)
        fwd = self._direction(torch.matmul(xs, self.enc_f_kernel) + self.enc_f_bias, self.enc_f_recurrent, False)
        bwd = self._direction(torch.matmul(xs, self.enc_b_kernel) + self.enc_b_bias, self.enc_b_recurrent, True)
        a = torch.cat([fwd, bwd], 2)                                     # [B, Tx, 2 n_a]
        keys = torch.cat([a, torch.matmul(a, self.att1_a) + self.att1_bias], 2)
        enc = torch.zeros([B, S, a.size(2)], dtype=a.dtype)
        enc[:, :take] = a[:, :take] * mask[:, :take].unsqueeze(2).to(a.dtype)
        state = torch.zeros([B, 2 * self.n_s], dtype=a.dtype)             # s0 = c0 = 0
        return enc, state, mask, keys

    @torch.jit.export
    def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
        E = 2 * self.n_a
        s = state[:, : self.n_s]
        c = state[:, self.n_s:]
        a = keys[:, :, :E]
        query = torch.matmul(s, self.att1_s)                             # [B, d1]
        e = torch.tanh(keys[:, :, E:] + query.unsqueeze(1))              # densor1 over [a; s]
        energies = torch.relu(torch.matmul(e, self.att2_kernel) + self.att2_bias).squeeze(2)  # [B, Tx]
        weights = torch.softmax(energies, 1)                             # over all Tx positions
        context = torch.bmm(weights.unsqueeze(1), a).squeeze(1)
        z = torch.matmul(context, self.dec_kernel) + torch.matmul(s, self.dec_recurrent) + self.dec_bias
        s, c = self._lstm(z, c)
        log_probs = torch.log_softmax(torch.matmul(s, self.out_kernel) + self.out_bias, 1)

        B = mask.size(0)
        S = mask.size(1)
        take = min(S, self.Tx)
        real = torch.arange(self.Tx).unsqueeze(0) < mask.sum(1).unsqueeze(1)  # [B, Tx]
        alpha_padding = weights.masked_fill(real, 0.0).sum(1)
        m = mask[:, :take]
        alpha = torch.zeros([B, S], dtype=weights.dtype)
        alpha[:, :take] = weights[:, :take].masked_fill(torch.logical_not(m), 0.0)
        shown = torch.zeros([B, S], dtype=energies.dtype)
        shown[:, :take] = energies[:, :take].masked_fill(torch.logical_not(m), 0.0)
        return {"log_probs": log_probs, "state": torch.cat([s, c], 1), "alpha": alpha,
                "alpha_padding": alpha_padding, "context": context, "energies": shown, "query": query}


# -------------------------------------------------------------------------------------------------
# The original math, in float64 numpy, straight from the arrays of the file


def _np_gate(x: np.ndarray, hard: bool) -> np.ndarray:
    if hard:
        return np.clip(0.2 * x + 0.5, 0.0, 1.0)
    return 1.0 / (1.0 + np.exp(-x))


def _np_lstm_step(x, h, c, kernel, recurrent, bias, hard):
    z = x @ kernel + h @ recurrent + bias
    u = recurrent.shape[0]
    i = _np_gate(z[:u], hard)
    f = _np_gate(z[u:2 * u], hard)
    g = np.tanh(z[2 * u:3 * u])
    o = _np_gate(z[3 * u:], hard)
    c = f * c + i * g
    return o * np.tanh(c), c


def keras_forward(w: Dict[str, np.ndarray], ids: Sequence[int], Tx: int, Ty: int, pad_id: int,
                  hard_sigmoid: bool) -> Tuple[np.ndarray, np.ndarray]:
    """The course model on one sentence (ids without padding), as Keras computes it:
    returns (log-probabilities [Ty, V_tgt], alphas [Ty, Tx]) in float64."""
    w = {k: np.asarray(v, dtype=np.float64) for k, v in w.items()}
    ids = list(ids)[:Tx] + [pad_id] * max(0, Tx - len(ids))
    X = np.eye(w["enc_f_kernel"].shape[0])[ids]                          # one-hot [Tx, V_src]
    n_a = w["enc_f_recurrent"].shape[0]
    n_s = w["dec_recurrent"].shape[0]

    def run(xs, d):
        h, c, out = np.zeros(n_a), np.zeros(n_a), []
        for x in xs:
            h, c = _np_lstm_step(x, h, c, w[f"enc_{d}_kernel"], w[f"enc_{d}_recurrent"], w[f"enc_{d}_bias"], hard_sigmoid)
            out.append(h)
        return np.stack(out)

    a = np.concatenate([run(X, "f"), run(X[::-1], "b")[::-1]], axis=1)   # Bidirectional, merge_mode concat
    s, c = np.zeros(n_s), np.zeros(n_s)
    log_probs, alphas = [], []
    for _ in range(Ty):
        concat = np.concatenate([a, np.repeat(s[None, :], Tx, axis=0)], axis=1)   # [a; RepeatVector(s)]
        e = np.tanh(concat @ w["att1_kernel"] + w["att1_bias"])
        energies = np.maximum(e @ w["att2_kernel"] + w["att2_bias"], 0.0)[:, 0]
        ex = np.exp(energies - energies.max())
        alpha = ex / ex.sum()
        context = alpha @ a                                                # Dot(axes=1)
        s, c = _np_lstm_step(context, s, c, w["dec_kernel"], w["dec_recurrent"], w["dec_bias"], hard_sigmoid)
        logits = s @ w["out_kernel"] + w["out_bias"]
        z = logits - logits.max()
        log_probs.append(z - np.log(np.exp(z).sum()))
        alphas.append(alpha)
    return np.stack(log_probs), np.stack(alphas)


# -------------------------------------------------------------------------------------------------
# Reading the Keras file


def _strings(values: Any) -> List[str]:
    if isinstance(values, (bytes, str)):
        values = [values]
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for v in values]


def _attr_list(group: Any, name: str) -> Optional[List[str]]:
    """A list attribute as Keras writes it (split into name0, name1, ... when it is large)."""
    if name in group.attrs:
        return _strings(group.attrs[name])
    if f"{name}0" in group.attrs:
        out: List[str] = []
        k = 0
        while f"{name}{k}" in group.attrs:
            out += _strings(group.attrs[f"{name}{k}"])
            k += 1
        return out
    return None


def _attr_text(group: Any, name: str) -> Optional[str]:
    if name not in group.attrs:
        return None
    v = group.attrs[name]
    return v.decode("utf8") if isinstance(v, bytes) else str(v)


def _shapes(weights: List[Tuple[str, np.ndarray]]) -> str:
    return ", ".join(f"{n.split('/')[-1]} {list(a.shape)}" for n, a in weights) or "no weights"


def _lstm(weights: List[Tuple[str, np.ndarray]]) -> Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(kernel [in, 4u], recurrent_kernel [u, 4u], bias [4u]) when the three arrays are an LSTM's.
    Kernel and recurrent kernel tie in shape when in == u: then the names tell them apart
    ('recurrent_kernel'), or else the order Keras writes them in (kernel first)."""
    if len(weights) != 3:
        return None
    mats = [(n, a) for n, a in weights if a.ndim == 2]
    vecs = [a for _, a in weights if a.ndim == 1]
    if len(mats) != 2 or len(vecs) != 1:
        return None
    by_name = [a for n, a in mats if "recurrent" in n.split("/")[-1]]
    if len(by_name) == 1:
        recurrent = by_name[0]
        kernel = next(a for n, a in mats if a is not recurrent)
    else:
        square = [a for _, a in mats if a.shape[1] == 4 * a.shape[0]]
        if not square:
            return None
        recurrent = square[0] if len(square) == 1 else mats[1][1]
        kernel = mats[0][1] if recurrent is mats[1][1] else mats[1][1]
    u = recurrent.shape[0]
    if recurrent.shape != (u, 4 * u) or kernel.shape[1] != 4 * u or vecs[0].shape != (4 * u,):
        return None
    return kernel, recurrent, vecs[0]


def _bidirectional(weights: List[Tuple[str, np.ndarray]]):
    """((forward kernel, recurrent, bias), (backward ...)) for the six arrays of a Bidirectional LSTM.
    The two directions have the same shapes: names with 'forward'/'backward' tell them apart where
    Keras wrote such names, or else the order (Keras writes the forward layer's weights first)."""
    if len(weights) != 6:
        return None
    fwd = [x for x in weights if "forward" in x[0]]
    bwd = [x for x in weights if "backward" in x[0]]
    if len(fwd) != 3 or len(bwd) != 3:
        fwd, bwd = weights[:3], weights[3:]
    f, b = _lstm(fwd), _lstm(bwd)
    if f is None or b is None or any(x.shape != y.shape for x, y in zip(f, b)):
        return None
    return f, b


def _dense(weights: List[Tuple[str, np.ndarray]]) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    if len(weights) != 2:
        return None
    (_, k), (_, b) = weights if weights[0][1].ndim == 2 else weights[::-1]
    if k.ndim != 2 or b.shape != (k.shape[1],):
        return None
    return k, b


def _vocab_list(vocab: Vocab, which: str, arg: str) -> List[str]:
    """Tokens by id from a dict token -> id (the course's human_vocab / machine_vocab), a dict
    id -> token (inv_machine_vocab) or a list of tokens."""
    course_name = "human_vocab" if which == "source" else "machine_vocab"
    return tokens_by_id(vocab, arg, f"a dict token -> id like the course's {course_name} (or a list of tokens by id)")


def _model_config(f: Any) -> Optional[Dict[str, Any]]:
    """The model config of a whole-model file (model.save("x.h5")), if it is one."""
    text = _attr_text(f, "model_config")
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _config_facts(config: Dict[str, Any], V_src: int) -> Dict[str, Any]:
    """Tx (the input layer's shape), Ty (the number of outputs) and the LSTMs' activations."""
    facts: Dict[str, Any] = {"rec": set(), "act": set()}
    body = config.get("config", {}) if isinstance(config, dict) else {}
    layers = body.get("layers", []) if isinstance(body, dict) else []
    for layer in layers if isinstance(layers, list) else []:
        cls = layer.get("class_name")
        cfg = layer.get("config", {})
        if cls == "InputLayer":
            shape = cfg.get("batch_input_shape") or cfg.get("batch_shape")
            if isinstance(shape, list) and len(shape) == 3 and shape[2] == V_src and isinstance(shape[1], int):
                facts["Tx"] = shape[1]
        if cls == "Bidirectional":
            cfg = cfg.get("layer", {}).get("config", {})
            cls = "LSTM"
        if cls == "LSTM":
            if isinstance(cfg.get("recurrent_activation"), str):
                facts["rec"].add(cfg["recurrent_activation"])
            if isinstance(cfg.get("activation"), str):
                facts["act"].add(cfg["activation"])
    outputs = body.get("output_layers") if isinstance(body, dict) else None
    if isinstance(outputs, list) and outputs:
        facts["Ty"] = len(outputs)
    return facts


def _keras_before_2_3(version: Optional[str]) -> bool:
    """Standalone Keras before 2.3 defaulted LSTM(recurrent_activation='hard_sigmoid').
    ('-tf' versions are tf.keras, whose default depends on TensorFlow 1 or 2: no guess.)"""
    if not version or version.endswith("-tf"):
        return False
    try:
        major, minor = (int(x) for x in version.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) < (2, 3)


def read_keras_course_weights(path: str, V_src: int, V_tgt: int) -> Dict[str, Any]:
    """The course model's arrays from a Keras 2 HDF5 file, found by shape, plus what the file says."""
    try:
        import h5py
    except ImportError as e:  # pragma: no cover
        raise ImportError("from_keras_h5 needs h5py (pip install h5py, or apt install python3-h5py)") from e
    regular_input(path, "Keras file")  # a FIFO would block h5py's open for ever
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ValueError(f"{path} is not an HDF5 file ({e}); save the Keras model with model.save_weights('x.h5')") from e
    with f:
        config = _model_config(f)
        root = f["model_weights"] if "model_weights" in f and isinstance(f["model_weights"], h5py.Group) else f
        layer_names = _attr_list(root, "layer_names")
        if layer_names is None:
            raise ValueError(f"{path} is an HDF5 file but not a Keras 2 weights file (no 'layer_names' attribute); "
                             "save the model with model.save_weights('x.h5') in Keras 2 / tf.keras "
                             "(Keras 3's .weights.h5 layout is not read)")
        keras_version = _attr_text(f, "keras_version") or _attr_text(root, "keras_version")
        layers: List[Tuple[str, List[Tuple[str, np.ndarray]]]] = []
        for name in layer_names:
            if name not in root:
                raise ValueError(f"{path}: layer '{name}' is listed in layer_names but has no group")
            g = root[name]
            weights = []
            for wn in _attr_list(g, "weight_names") or []:
                if wn not in g:
                    raise ValueError(f"{path}: weight '{wn}' of layer '{name}' is listed but missing")
                weights.append((wn, np.array(g[wn])))
            if weights:
                layers.append((name, weights))

    found: Dict[str, Any] = {}
    roles: Dict[str, str] = {}
    bis = [(n, _bidirectional(ws)) for n, ws in layers]
    bis = [(n, b) for n, b in bis if b is not None]
    lstms = [(n, _lstm(ws)) for n, ws in layers]
    lstms = [(n, x) for n, x in lstms if x is not None]
    denses = [(n, _dense(ws)) for n, ws in layers]
    denses = [(n, d) for n, d in denses if d is not None]

    def listing() -> str:
        return "; ".join(f"{n}: {_shapes(ws)}" for n, ws in layers) or "none"

    if not bis:
        raise ValueError(f"{path}: no Bidirectional LSTM found (six arrays: kernel, recurrent_kernel, bias twice); "
                         f"is this the course's model? Layers with weights: {listing()}")
    bi = [(n, b) for n, b in bis if b[0][0].shape[0] == V_src]
    if not bi:
        dims = sorted({b[0][0].shape[0] for _, b in bis})
        raise ValueError(f"the source vocabulary has {V_src} tokens but the Bidirectional LSTM in {path} reads "
                         f"{' or '.join(map(str, dims))}-dimensional one-hot input: pass the human_vocab the model was trained with")
    if len(bi) > 1:
        raise ValueError(f"{path}: two Bidirectional LSTMs read {V_src}-dimensional input "
                         f"({', '.join(n for n, _ in bi)}); the course model has one")
    roles["encoder"], ((fk, fr, fb), (bk, br, bb)) = bi[0]
    n_a = fr.shape[0]
    found.update(enc_f_kernel=fk, enc_f_recurrent=fr, enc_f_bias=fb, enc_b_kernel=bk, enc_b_recurrent=br, enc_b_bias=bb)

    post = [(n, x) for n, x in lstms if x[0].shape[0] == 2 * n_a]
    if len(post) != 1:
        what = "no LSTM reads" if not post else "two LSTMs read"
        raise ValueError(f"{path}: {what} the {2 * n_a}-dimensional context (the post-attention LSTM of the course); "
                         f"layers with weights: {listing()}")
    roles["post_attention_lstm"], (dk, dr, db) = post[0]
    n_s = dr.shape[0]
    found.update(dec_kernel=dk, dec_recurrent=dr, dec_bias=db)

    def one(role: str, cands: List[Tuple[str, Tuple[np.ndarray, np.ndarray]]], what: str) -> Tuple[np.ndarray, np.ndarray]:
        if len(cands) != 1:
            raise ValueError(f"{path}: {'no' if not cands else 'more than one'} Dense layer {what}; "
                             f"layers with weights: {listing()}")
        roles[role] = cands[0][0]
        return cands[0][1]

    a1k, a1b = one("attention_dense_1", [(n, d) for n, d in denses if d[0].shape[0] == 2 * n_a + n_s],
                   f"with a [{2 * n_a + n_s}, *] kernel (densor1 over [a; s_prev])")
    a2k, a2b = one("attention_dense_2", [(n, d) for n, d in denses if d[0].shape == (a1k.shape[1], 1)],
                   f"with a [{a1k.shape[1]}, 1] kernel (densor2)")
    outs = [(n, d) for n, d in denses if d[0].shape[0] == n_s and n not in roles.values()]
    if outs and not any(d[0].shape[1] == V_tgt for _, d in outs):
        raise ValueError(f"the target vocabulary has {V_tgt} tokens but the output layer in {path} has "
                         f"{outs[0][1][0].shape[1]} units: pass the machine_vocab the model was trained with")
    ok, ob = one("output_dense", [(n, d) for n, d in outs if d[0].shape[1] == V_tgt],
                 f"with an [{n_s}, {V_tgt}] kernel (the output layer)")
    found.update(att1_kernel=a1k, att1_bias=a1b, att2_kernel=a2k, att2_bias=a2b, out_kernel=ok, out_bias=ob)

    extra = [n for n, _ in layers if n not in roles.values()]
    if extra:
        raise ValueError(f"{path}: layers with weights that are not part of the course model: "
                         f"{'; '.join(f'{n}: {_shapes(ws)}' for n, ws in layers if n in extra)}")
    for k, v in found.items():
        if not np.all(np.isfinite(v)):
            raise ValueError(f"{path}: the weights {k} (of layer '{roles[_ROLE_OF[k]]}') hold NaN or infinity")
    return {"weights": found, "roles": roles, "keras_version": keras_version, "config": config, "n_a": n_a, "n_s": n_s}


# -------------------------------------------------------------------------------------------------
# The adapter


def from_keras_h5(path: str, src_vocab: Vocab, tgt_vocab: Vocab, Tx: Optional[int] = None, Ty: Optional[int] = None,
                  recurrent_activation: str = "sigmoid", *, src_tokenizer: Any = None,
                  tgt_tokenizer: Any = None, end_token: Optional[str] = None) -> AdaptedModel:
    """The Keras course date translator in `path` (Keras 2 `model.save_weights("x.h5")`, or a whole
    `model.save("x.h5")`) as an AlignScope model; `.save("dates.pt")` writes the file.

    src_vocab, tgt_vocab: the course's human_vocab and machine_vocab (dicts token -> id).
    Tx, Ty: the padded input length and the number of outputs (30 and 10 in the course); a
    weights-only file does not hold them. recurrent_activation: "sigmoid" (tf.keras 2 and Keras >= 2.3)
    or "hard_sigmoid" (the default of Keras 2.0-2.2, which the course first used).
    src_tokenizer, tgt_tokenizer: how text becomes tokens, a description as the model format's JSON
    (docs/model-format.md, "Tokenizers"); by default read from each vocabulary (keras_tokenizer):
    characters as the course, or words as Keras' text_to_word_sequence splits them.
    end_token: the target token that ends a translation (a model trained on targets padded with
    '<pad>' ends them with it), declared as the target's eos: greedy decoding stops there and a
    forced target gets its end step, as the original's output has one. By default '</s>' or '<eos>'
    where the target vocabulary has one; the course's has none (its outputs are Ty tokens).
    """
    if recurrent_activation not in RECURRENT_ACTIVATIONS:
        raise ValueError(f"recurrent_activation must be 'sigmoid' or 'hard_sigmoid', not {recurrent_activation!r}")
    src = _vocab_list(src_vocab, "source", "src_vocab")
    tgt = _vocab_list(tgt_vocab, "target", "tgt_vocab")
    src_tokenizer = (keras_tokenizer(src, "src_vocab", "source") if src_tokenizer is None
                     else tokenizer_option(src_tokenizer, "src_tokenizer", {}))
    tgt_tokenizer = (keras_tokenizer(tgt, "tgt_vocab", "target") if tgt_tokenizer is None
                     else tokenizer_option(tgt_tokenizer, "tgt_tokenizer", {}))
    specials = special_ids(src, {"pad": "<pad>", "unk": "<unk>"})
    if end_token is None:
        end_token = next((t for t in ("</s>", "<eos>") if t in tgt), None)
    elif not isinstance(end_token, str) or end_token not in tgt:
        raise ValueError(f"end_token {end_token!r} is not in the target vocabulary (tgt_vocab)")
    tgt_specials = special_ids(tgt, {"eos": end_token}) if end_token is not None else {}
    pad_id = specials["pad"]
    if pad_id is None:
        raise ValueError("src_vocab has no '<pad>': the course pads every input to Tx with human_vocab['<pad>']")

    Tx = None if Tx is None else positive_int(Tx, "Tx")
    Ty = None if Ty is None else positive_int(Ty, "Ty")

    info = read_keras_course_weights(path, len(src), len(tgt))
    config = info["config"]
    facts = _config_facts(config, len(src)) if config else {"rec": set(), "act": set()}
    for name, given in (("Tx", Tx), ("Ty", Ty)):
        if given is not None and name in facts and given != facts[name]:
            raise ValueError(f"{name}={given} but the model saved in {path} was built with {name}={facts[name]}")
    Tx = Tx if Tx is not None else facts.get("Tx")
    Ty = Ty if Ty is not None else facts.get("Ty")
    if Tx is None or Ty is None:
        missing = " and ".join(n for n, v in (("Tx", Tx), ("Ty", Ty)) if v is None)
        raise ValueError(f"pass {missing}: a weights file does not hold the input length Tx or the number of "
                         f"outputs Ty (the course uses Tx=30, Ty=10: from_keras_h5(path, human_vocab, machine_vocab, Tx=30, Ty=10))")
    Tx, Ty = positive_int(Tx, "Tx"), positive_int(Ty, "Ty")
    if facts["act"] - {"tanh"}:
        raise ValueError(f"{path}: the LSTMs use activation {sorted(facts['act'])}; the course's (and this adapter's) is tanh")
    if facts["rec"]:
        if len(facts["rec"]) > 1:
            raise ValueError(f"{path}: the LSTMs use different recurrent activations {sorted(facts['rec'])}; "
                             "the adapter needs one for all")
        (saved,) = facts["rec"]
        if saved != recurrent_activation:
            raise ValueError(f"the model saved in {path} uses recurrent_activation='{saved}': "
                             f"pass recurrent_activation='{saved}'")
    elif recurrent_activation == "sigmoid" and _keras_before_2_3(info["keras_version"]):
        warnings.warn(f"{path} was written by Keras {info['keras_version']}, whose LSTM defaulted to "
                      "recurrent_activation='hard_sigmoid'; pass recurrent_activation='hard_sigmoid' unless the "
                      "model set 'sigmoid' itself", stacklevel=2)

    hard = recurrent_activation == "hard_sigmoid"
    w = info["weights"]
    module = KerasDateNMT(w, Tx, pad_id, hard)
    weights64 = {k: np.asarray(v, dtype=np.float64) for k, v in w.items()}

    def reference(sources: List[List[int]], targets: List[List[int]]) -> List[Tuple[Tensor, Tensor]]:
        out = []
        for ids, tg in zip(sources, targets):
            lp, alpha = keras_forward(weights64, ids, Tx, Ty, pad_id, hard)
            T = min(len(tg), Ty)
            out.append((torch.from_numpy(lp[:T]), torch.from_numpy(alpha[:T])))
        return out

    name = os.path.splitext(os.path.basename(path))[0]
    version = f", Keras {info['keras_version']}" if info["keras_version"] else ""
    metadata = {
        "name": name,
        "max_length": Ty,
        "max_source_length": Tx,
        "source_eos": False,
        "attends_padding": True,
        "attention": {"kind": "mlp", "bias": True, "when": "before_cell"},
        "encoder": {"cell": "lstm", "layers": 1, "bidirectional": True},
        "decoder": {"cell": "lstm", "layers": 1, "input_feeding": False},
        "converted_from": f"{COURSE}: {os.path.basename(path)}{version}",
        "keras": {"layers": info["roles"], "n_a": info["n_a"], "n_s": info["n_s"],
                  "attention_hidden": int(w["att1_kernel"].shape[1]), "recurrent_activation": recurrent_activation},
    }
    return AdaptedModel(
        module,
        src_vocab=src, tgt_vocab=tgt,
        src_specials=specials,
        tgt_specials=tgt_specials,
        src_tokenizer=src_tokenizer,
        tgt_tokenizer=tgt_tokenizer,
        metadata=metadata,
        reference=reference,
    )
