"""Decoding one sentence in Python through a model file's own TorchScript methods (`encode`, `step`),
driven as core/decoding drives them: DecodingSession's steps (greedy, or forced along a target or a
beam's best hypothesis) with their top candidates, and Beam's search. What alignscope.show() draws;
its numbers are alignscope-cli trace's (python/tests/test_show.py)."""

import binascii
import io
import math
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from .files import FORMAT_VERSION, path_name
from .model_archive import CHECKS
from .model_file import (MAX_DECLARED_LENGTH, MIN_DECLARED_LENGTH, MAX_TOKENIZER_BYTES, attribute_json,
                         load_model_file)
from .model_tokenizer import ModelTokenizer, TokenizerFailure
from .text import is_blank

MAX_SOURCE_TOKENS: int = CHECKS["model"]["max_source_tokens"]  # Model.cpp's kMaxSourceTokens
PADDING_COLUMN = "<padding>"  # Model::kPaddingColumn: a model's own padding, attended (attends_padding)


@dataclass
class Architecture:
    """ArchitectureSummary.cpp's reading of the metadata: what Step explained says about the decoder."""
    encoder_cell: str = "rnn"
    decoder_cell: str = "rnn"
    bidirectional: bool = False
    attention: str = "additive"
    attention_after_cell: bool = False
    input_feeding: bool = False
    conditional: bool = False

    @staticmethod
    def of(metadata: Dict[str, Any]) -> "Architecture":
        a = Architecture()
        own = metadata.get("architecture")
        if isinstance(own, dict):  # AlignScope's own models
            a.encoder_cell = a.decoder_cell = str(own.get("cell", "gru"))
            a.bidirectional = bool(own.get("bidirectional", True))
            a.attention = str(own.get("attention", "additive"))
            a.conditional = own.get("decoder", "bahdanau") == "conditional"
        encoder, decoder, attention = (metadata.get(k) for k in ("encoder", "decoder", "attention"))
        if isinstance(encoder, dict):
            a.encoder_cell = str(encoder.get("cell", a.encoder_cell))
            a.bidirectional = bool(encoder.get("bidirectional", a.bidirectional))
        if isinstance(decoder, dict):
            a.decoder_cell = str(decoder.get("cell", a.decoder_cell))
            a.input_feeding = bool(decoder.get("input_feeding", a.input_feeding))
        if isinstance(attention, dict):
            a.attention = str(attention.get("kind", a.attention))
            a.attention_after_cell = attention.get("when", "before_cell") == "after_cell"
        elif isinstance(attention, str):
            a.attention = attention
        if metadata.get("alpha_is_uniform") is True:
            a.attention = "none"
        return a


# Model::tokenizeSource's refusal: a line with nothing visible is blank, never a sentence.
BLANK_SOURCE = "the sentence has nothing visible to translate (only spaces, line separators or invisible characters)"


class LoadedModel:
    """A model file (a path, or what an adapter returns) as the decoder needs it, checked as the C++
    loader checks it (model_file.py, TorchModelContract.cpp): a file that breaks the contract is
    refused with a ValueError naming it and what is wrong, before a sentence is decoded."""

    def __init__(self, model: Any, name: Optional[str] = None, _probe: bool = True) -> None:
        if isinstance(model, (str, os.PathLike)):
            path = path_name(model, "the model file")
            if not os.path.exists(path):
                raise FileNotFoundError(f"cannot read the model file '{path}': no such file")
            self.module = load_model_file(path, probe=_probe)
            stem = os.path.splitext(os.path.basename(path))[0]
            self.origin = f"the model file '{path}'"
        elif hasattr(model, "script"):  # AdaptedModel: the file it would write, without the file
            buffer = io.BytesIO()
            torch.jit.save(model.script(), buffer)
            self.module = torch.jit.load(io.BytesIO(buffer.getvalue()), map_location="cpu")
            stem, self.origin = "model", "the adapted model"
        elif isinstance(model, torch.jit.ScriptModule):
            self.module, stem, self.origin = model, "model", "the TorchScript module"
        else:
            raise TypeError("show() takes a model file's path or what an adapter returns (alignscope.from_d2l(...) and "
                            f"the others), not {type(model).__name__}")
        m = self.module
        where = self.origin
        for method in ("encode", "step"):
            if not hasattr(m, method):
                raise ValueError(f"{where} does not meet the AlignScope model contract (docs/model-format.md): "
                                 f"missing method '{method}'")
        # float16 files are widened on load, as the C++ loader does (integer buffers keep their type)
        bad = []
        for weight, tensor in list(m.named_parameters()) + list(m.named_buffers()):
            if tensor.is_floating_point() and tensor.dtype != torch.float32:
                tensor.data = tensor.data.float()
            # NaN or inf may leave a test sentence's numbers finite and every translation wrong (TorchModelContract.cpp)
            if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
                bad.append(weight)
        if bad:
            raise ValueError(f"{where} does not meet the AlignScope model contract: non-finite weights: {', '.join(bad)}")
        self.module.eval()
        version = getattr(m, "format_version", 1)
        if type(version) is not int or version < 1:
            raise ValueError(f"{where}: attribute 'format_version' must be a positive integer")
        if version > FORMAT_VERSION:
            raise ValueError(f"{where}: format_version {version} is newer than this AlignScope reads ({FORMAT_VERSION})")
        self.format_version = version
        self.src_vocab: List[str] = _vocabulary(m, "src_vocab", where)
        self.tgt_vocab: List[str] = _vocabulary(m, "tgt_vocab", where)
        meta = attribute_json(_attribute(m, "metadata", where), "metadata", where) if hasattr(m, "metadata") else {}
        if not isinstance(meta, dict):
            raise ValueError(f"{where}: attribute 'metadata' must be a JSON object, not {type(meta).__name__}")
        self.metadata: Dict[str, Any] = meta
        if self.format_version >= 2:
            self.src_specials = _specials(m, "src_specials", len(self.src_vocab), where)
            self.tgt_specials = _specials(m, "tgt_specials", len(self.tgt_vocab), where)
        else:  # format 1: the same four ids in both vocabularies
            self.src_specials = self.tgt_specials = {"pad": 0, "unk": 1, "bos": 2, "eos": 3}
        self.src_tokenizer, self.tgt_tokenizer = (_tokenizer(m, attribute, where)
                                                  for attribute in ("src_tokenizer", "tgt_tokenizer"))
        self.src_index = {t: i for i, t in enumerate(self.src_vocab)}
        self.tgt_index = {t: i for i, t in enumerate(self.tgt_vocab)}
        _check_metadata(meta, where)
        self.name = name or (meta["name"] if isinstance(meta.get("name"), str) else stem)
        self.max_length = meta.get("max_length") or 0
        self.max_source_length = meta.get("max_source_length") or 0
        self.source_eos = meta.get("source_eos", True) is not False
        self.attends_padding = meta.get("attends_padding") is True
        if self.source_eos and self.src_specials.get("eos", -1) < 0:
            raise ValueError(f"{where}: sources end in </s> (metadata source_eos) but the source vocabulary has no eos")
        self.architecture = Architecture.of(meta)
        self._last_tokens: Dict[int, Tuple[Any, List[Tuple[str, int]]]] = {}

    def probe(self) -> None:
        """TorchModel::probe's first part: encode and one step on a test sentence (an ordinary source
        token, then </s>), their outputs as the contract says (step() checks them)."""
        word = next((i for i in range(len(self.src_vocab)) if i not in self.src_specials.values()), 0)
        ids = [word] + ([self.src_specials["eos"]] if self.source_eos else [])
        with torch.inference_mode():
            enc = self.encode(ids)
            self.step(torch.tensor([self.start_id]), enc[1], enc, 0)

    def encode(self, ids: Sequence[int]) -> Tuple[Tensor, ...]:
        """The model's encode of one sentence: (enc, state, mask, keys), or ValueError naming the model."""
        try:
            enc = tuple(self.module.encode(torch.tensor([list(ids)]), torch.tensor([len(ids)])))
        except (RuntimeError, torch.jit.Error) as e:  # type: ignore[attr-defined]
            raise ValueError(f"{self.origin}: its encode failed: {_cause(e)}") from None
        if len(enc) < 4 or not all(isinstance(t, Tensor) for t in enc[:4]):
            raise ValueError(f"{self.origin}: encode must return (enc, state, mask, keys) tensors")
        e, state, mask = enc[0], enc[1], enc[2]
        if e.dim() != 3 or e.size(0) != 1 or e.size(1) != len(ids):
            raise ValueError(f"{self.origin}: encode: enc must be [B,S,E], got {list(e.shape)}")
        if state.dim() != 2 or state.size(0) != 1:
            raise ValueError(f"{self.origin}: encode: state must be [B,D], got {list(state.shape)}")
        if mask.dim() != 2 or mask.size(1) != len(ids) or mask.dtype != torch.bool:
            raise ValueError(f"{self.origin}: encode: mask must be bool [B,S], got {list(mask.shape)}")
        for key, t in (("enc", e), ("state", state)):
            if t.is_floating_point() and not bool(torch.isfinite(t).all()):
                raise ValueError(f"{self.origin}: on this sentence, encode returned non-finite {key} values")
        return enc

    @property
    def eos(self) -> int:
        return self.tgt_specials.get("eos", -1)

    @property
    def start_id(self) -> int:
        return max(0, self.tgt_specials.get("bos", -1))

    def target_token(self, i: int) -> str:
        if 0 <= i < len(self.tgt_vocab):
            return self.tgt_vocab[i]
        unk = self.tgt_specials.get("unk", -1)
        return self.tgt_vocab[unk] if unk >= 0 else "<unk>"

    def written(self, i: int) -> bool:
        return i not in (self.tgt_specials.get(k, -1) for k in ("eos", "pad", "bos"))

    def _ids(self, pairs: Sequence[Tuple[str, int]], vocab: Dict[str, int], specials: Dict[str, int],
             side: str) -> Tuple[List[str], List[int], List[int]]:
        tokens, ids, words = [], [], []
        for token, word in pairs:
            if token not in vocab and specials.get("unk", -1) < 0:
                raise ValueError(f"'{token}' is not in the model's {side} vocabulary, and the model has no "
                                 "unknown-word token to stand for it")
            tokens.append(token)
            ids.append(vocab.get(token, specials.get("unk", -1)))
            words.append(word)
        return tokens, ids, words

    def _tokenize(self, tokenizer: ModelTokenizer, text: str) -> List[Tuple[str, int]]:
        # The last text of each side is kept: decode_within tokenizes in the caller's thread, where a
        # backtracking pattern's timer can ring, and the worker then finds the tokens here.
        key = (id(tokenizer), text)
        if self._last_tokens.get(id(tokenizer), (None, None))[0] == key:
            return list(self._last_tokens[id(tokenizer)][1])
        try:
            tokens = tokenizer.tokenize(text)
        except TokenizerFailure as e:
            raise ValueError(f"{self.origin}: {e}") from None
        self._last_tokens[id(tokenizer)] = (key, list(tokens))
        return tokens

    def tokenize_source(self, text: str) -> Tuple[List[str], List[int], List[int]]:
        if is_blank(text):
            raise ValueError(BLANK_SOURCE)
        tokens, ids, words = self._ids(self._tokenize(self.src_tokenizer, text), self.src_index, self.src_specials,
                                       "source")
        limit = self.max_source_length or MAX_SOURCE_TOKENS
        if len(ids) + self.source_eos > limit:
            raise ValueError(f"the sentence has {len(ids)} tokens; this model takes at most {limit - self.source_eos}"
                             + (" (its declared max_source_length)" if self.max_source_length else ""))
        if self.source_eos:
            eos = self.src_specials["eos"]
            tokens, ids, words = tokens + [self.src_vocab[eos]], ids + [eos], words + [-1]
        if not ids:
            raise ValueError("the sentence has no tokens this model reads")
        return tokens, ids, words

    def tokenize_target(self, text: str) -> Tuple[List[str], List[int], List[int]]:
        tokens, ids, words = self._ids(self._tokenize(self.tgt_tokenizer, text), self.tgt_index, self.tgt_specials,
                                       "target")
        if len(ids) > MAX_SOURCE_TOKENS:
            raise ValueError(f"the target has {len(ids)} tokens; at most {MAX_SOURCE_TOKENS} are accepted")
        return tokens, ids, words

    def detokenize(self, ids: Sequence[int]) -> str:
        return self.tgt_tokenizer.detokenize([self.target_token(i) for i in ids if self.written(i)])

    def target_words(self, ids: Sequence[int]) -> List[int]:
        written = iter(self.tgt_tokenizer.detokenized_words([self.target_token(i) for i in ids if self.written(i)]))
        return [next(written) if self.written(i) else -1 for i in ids]

    def step(self, y_prev: Tensor, state: Tensor, enc: Tuple[Tensor, ...], t: int = 0) -> Dict[str, Tensor]:
        """The model's step, alpha widened by its own padding's column where it attends it (TorchModel.cpp),
        its outputs checked as the C++ side checks them: a NaN would end up in the page as text JSON
        cannot read. `t`: the step's index, for messages."""
        at = f"at step {t + 1}"
        try:
            out = dict(self.module.step(y_prev, state, enc[0], enc[3], enc[2]))
        except (RuntimeError, torch.jit.Error) as e:  # type: ignore[attr-defined]
            raise ValueError(f"{self.origin}: its step failed {at}: {_cause(e)}") from None
        for key in ("log_probs", "state", "alpha", "context") + (("alpha_padding",) if self.attends_padding else ()):
            if not isinstance(out.get(key), Tensor):
                raise ValueError(f"{self.origin}: its step returned no '{key}' {at}"
                                 + (" (metadata attends_padding: step must return alpha_padding)"
                                    if key == "alpha_padding" else ""))
        if self.attends_padding:
            out["alpha"] = torch.cat([out["alpha"], out.pop("alpha_padding").unsqueeze(1).to(out["alpha"].dtype)], 1)
        B = y_prev.size(0)
        expected = {"log_probs": (B, len(self.tgt_vocab)), "state": tuple(state.shape),
                    "alpha": (B, enc[0].size(1) + (1 if self.attends_padding else 0)), "context": (B, enc[0].size(2))}
        for key, shape in expected.items():
            if tuple(out[key].shape) != shape:
                raise ValueError(f"{self.origin}: its step returned '{key}' of shape {list(out[key].shape)} {at}, "
                                 f"not {list(shape)}")
            out[key] = out[key].float()
        # -inf is a fair log-probability (a token ruled out); NaN, +inf or a row with nothing finite is not
        if not bool(torch.isfinite(out["log_probs"].amax(1)).all()) or bool(torch.isnan(out["log_probs"]).any()):
            raise ValueError(f"{self.origin}: its step returned non-finite log_probs (NaN or +inf) {at}")
        for key in ("alpha", "context", "state"):
            if not bool(torch.isfinite(out[key]).all()):
                raise ValueError(f"{self.origin}: its step returned non-finite {key} values {at}")
        return out


def _cause(e: BaseException) -> str:
    """The line of a TorchScript error that says what went wrong (TorchModelChecks.h causeOf)."""
    lines = [line for line in str(e).strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(e).__name__


def _attribute(m: Any, attribute: str, where: str) -> Any:
    try:
        return getattr(m, attribute)
    except UnicodeDecodeError:
        raise ValueError(f"{where}: attribute '{attribute}' holds text that is not valid UTF-8") from None
    except (AttributeError, RuntimeError):
        raise ValueError(f"{where} has no attribute '{attribute}' (an AlignScope model file has src_vocab, tgt_vocab, "
                         "metadata, ...: docs/model-format.md)") from None


def _vocabulary(m: Any, attribute: str, where: str) -> List[str]:
    value = _attribute(m, attribute, where)
    try:
        tokens = list(value)
    except UnicodeDecodeError:
        raise ValueError(f"{where}: attribute '{attribute}' holds a token that is not valid UTF-8") from None
    except TypeError:
        raise ValueError(f"{where}: attribute '{attribute}' must be a list of strings") from None
    if not tokens or not all(isinstance(t, str) for t in tokens):
        raise ValueError(f"{where}: attribute '{attribute}' must be a non-empty list of strings")
    return tokens


def _specials(m: Any, attribute: str, size: int, where: str) -> Dict[str, int]:
    value = attribute_json(_attribute(m, attribute, where), attribute, where)
    if not isinstance(value, dict):
        raise ValueError(f"{where}: attribute '{attribute}' must be a JSON object (\"pad\", \"unk\", \"bos\", \"eos\")")
    out = {}
    for k, v in value.items():
        if v is None:
            continue
        if type(v) is not int or not 0 <= v < size:
            raise ValueError(f"{where}: attribute '{attribute}': '{k}' must be an id of the vocabulary (0 to {size - 1}) "
                             "or null")
        out[k] = v
    return out


def _tokenizer(m: Any, attribute: str, where: str) -> ModelTokenizer:
    if not hasattr(m, attribute):
        return ModelTokenizer({"kind": "word"})
    description = attribute_json(_attribute(m, attribute, where), attribute, where, MAX_TOKENIZER_BYTES)
    if not isinstance(description, dict):
        raise ValueError(f"{where}: attribute '{attribute}' must be a JSON object")
    try:
        return ModelTokenizer(description)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RuntimeError, binascii.Error) as e:
        why = str(e).strip() or type(e).__name__
        raise ValueError(f"{where}: attribute '{attribute}': {why}") from None


def _check_metadata(meta: Dict[str, Any], where: str) -> None:
    """TorchModel's metadata checks (TorchModelContract.cpp): declared lengths within what decoding
    and the page can hold, flags true or false, and the architecture descriptions' values."""
    for key in ("max_length", "max_source_length"):
        v = meta.get(key)
        if v is not None and (type(v) is not int or not MIN_DECLARED_LENGTH <= v <= MAX_DECLARED_LENGTH):
            raise ValueError(f"{where}: metadata '{key}' must be an integer from {MIN_DECLARED_LENGTH} to "
                             f"{MAX_DECLARED_LENGTH}")
    for key in ("source_eos", "attends_padding", "alpha_is_uniform"):
        if meta.get(key) is not None and not isinstance(meta[key], bool):
            raise ValueError(f"{where}: metadata '{key}' must be true or false")
    cells, layers = ("gru", "lstm", "rnn"), "an integer from 1 to 64"
    checks = {"encoder": {"cell": cells, "layers": layers, "bidirectional": bool},
              "decoder": {"cell": cells, "layers": layers, "input_feeding": bool},
              "attention": {"bias": bool, "kind": ("additive", "mlp", "general", "dot", "none"),
                            "when": ("before_cell", "after_cell")}}
    for obj, keys in checks.items():
        if obj not in meta:
            continue
        o = meta[obj]
        if obj == "attention" and isinstance(o, str):
            continue
        if not isinstance(o, dict):
            raise ValueError(f"{where}: metadata '{obj}' must be an object")
        for key, valid in keys.items():
            if key not in o:
                continue
            v = o[key]
            if valid is bool and not isinstance(v, bool):
                raise ValueError(f"{where}: metadata '{obj}.{key}' must be true or false")
            if valid == layers and (type(v) is not int or not 1 <= v <= 64):
                raise ValueError(f"{where}: metadata '{obj}.{key}' must be {layers}")
            if isinstance(valid, tuple) and v not in valid:
                raise ValueError(f"{where}: metadata '{obj}.{key}' must be " + " or ".join(f'"{x}"' for x in valid))


@dataclass
class Step:
    """One decoder step as core/decoding/StepRecord.h holds it."""
    token_id: int
    token: str
    forced: bool
    log_prob: float
    candidates: List[Tuple[int, str, float]]  # (id, token, probability), most probable first
    alpha: List[float]
    context: List[float]
    previous_state: List[float]
    state: List[float]
    extras: Dict[str, List[float]]
    log_probs: Optional[List[float]] = None


@dataclass
class Hypothesis:
    ids: List[int]
    tokens: List[str]
    alpha: List[List[float]]
    log_prob: float = 0.0
    score: float = 0.0
    finished: bool = False


@dataclass
class Decoding:
    """One sentence decoded: its source as the model read it, the steps, and a beam's hypotheses."""
    model: LoadedModel
    source_text: str
    source_tokens: List[str]
    source_ids: List[int]
    source_words: List[int]
    steps: List[Step] = field(default_factory=list)
    target_text: Optional[str] = None
    target_words: Optional[List[int]] = None  # a followed target's words (the user's)
    hypotheses: List[Hypothesis] = field(default_factory=list)
    beam: int = 1
    encoder_states: List[List[float]] = field(default_factory=list)  # [S][E] h_i (a padding column: zeros)
    initial_state: List[float] = field(default_factory=list)  # [D] s_0

    @property
    def translation(self) -> str:
        return self.model.detokenize([s.token_id for s in self.steps])


def _check_text(text: Optional[str], what: str) -> None:
    """A sentence is text that UTF-8 can hold: a lone surrogate (from a file read with surrogateescape,
    say) would pass the model and then fail the page's save (UnicodeEncodeError)."""
    if text is None:
        return
    if not isinstance(text, str):
        raise TypeError(f"the {what} sentence must be a str, not {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"the {what} sentence is not valid text: character {e.start + 1} is a lone surrogate "
                         f"(U+{ord(text[e.start]):04X})") from None


def length_limit(max_length: int, source_length: int, declared: int) -> int:
    """SearchOptions::lengthLimit."""
    if max_length > 0:
        return max_length
    return declared if declared > 0 else 2 * source_length + 10


def decode(model: LoadedModel, source: str, target: Optional[str] = None, beam: Optional[int] = None,
           max_length: int = 0, top_k: int = 10, keep_log_probs: bool = False,
           progress: Callable[[int], None] = lambda step: None) -> Decoding:
    """DecodingSession as the exports use it (BatchExporter::snapshot): teacher-forced along `target`
    (then </s>), else a beam's best hypothesis forced step by step, else greedy to </s> or the cap."""
    if beam is not None and (type(beam) is not int or not 1 <= beam <= 64):
        raise ValueError(f"beam must be 1 to 64, not {beam!r}")
    for what, text in (("source", source), ("target", target)):
        _check_text(text, what)
    tokens, ids, words = model.tokenize_source(source)
    d = Decoding(model, source, tokens, ids, words, target_text=target, beam=beam or 1)
    with torch.inference_mode():
        progress(0)
        enc = model.encode(ids)
        S = len(ids) + (1 if model.attends_padding else 0)
        d.encoder_states = enc[0][0].float().tolist()
        d.initial_state = enc[1][0].float().tolist()
        if model.attends_padding:
            d.source_tokens.append(PADDING_COLUMN)
            d.source_words.append(-1)
            d.encoder_states.append([0.0] * len(d.encoder_states[0]))  # DecodingSession: the padding column's state is zeros
        limit = length_limit(max_length, S, model.max_length)
        forced: Optional[List[int]] = None
        if target is not None:
            target_tokens, forced, d.target_words = model.tokenize_target(target)
            forced_texts: List[Optional[str]] = list(target_tokens)
            if model.eos >= 0:
                forced, forced_texts = forced + [model.eos], forced_texts + [None]
                d.target_words = d.target_words + [-1]
        elif beam is not None and beam > 1:
            d.hypotheses = beam_search(model, enc, S, beam, limit, progress=progress)
            forced, forced_texts = d.hypotheses[0].ids, [None] * len(d.hypotheses[0].ids)
        states = [enc[1]]
        while True:
            t = len(d.steps)
            if forced is not None and t >= len(forced):
                break
            if forced is None and ((d.steps and d.steps[-1].token_id == model.eos) or t >= limit):
                break
            previous = d.steps[-1].token_id if d.steps else model.start_id
            progress(t + 1)
            out = model.step(torch.tensor([previous]), states[-1], enc, t)
            log_probs = out["log_probs"][0]
            chosen = forced[t] if forced is not None else int(log_probs.argmax())
            k = min(max(1, top_k), log_probs.numel())
            values, indices = log_probs.topk(k)
            text = forced_texts[t] if forced is not None and forced_texts[t] is not None else model.target_token(chosen)
            d.steps.append(Step(
                token_id=chosen, token=text, forced=forced is not None, log_prob=float(log_probs[chosen]),
                candidates=[(int(i), model.target_token(int(i)), math.exp(float(v))) for v, i in zip(values, indices)],
                alpha=out["alpha"][0].tolist(), context=out["context"][0].tolist(),
                previous_state=states[-1][0].float().tolist(), state=out["state"][0].tolist(),
                extras={k2: v[0].float().reshape(-1).tolist() for k2, v in out.items()
                        if k2 not in ("log_probs", "state", "alpha", "context") and v.dim() >= 1 and v.size(0) == 1},
                log_probs=log_probs.tolist() if keep_log_probs else None))
            states.append(out["state"])
    return d


def beam_search(model: LoadedModel, enc: Tuple[Tensor, ...], columns: int, width: int, limit: int,
                length_penalty: float = 1.0, progress: Callable[[int], None] = lambda step: None) -> List[Hypothesis]:
    """BeamSearch.cpp with Beam.cpp: 2 x width candidates a step, an end among the best `width`
    finishes a hypothesis, stop once `width` finished that no open prefix can beat."""
    def normalised(h: Hypothesis) -> float:
        return h.log_prob if length_penalty == 0 else h.log_prob / (len(h.ids) ** length_penalty)

    alive, finished = [Hypothesis([], [], [])], []
    state, rows_enc, y = enc[1], enc, torch.tensor([model.start_id])
    steps, done = 0, limit < 1
    while not done:
        progress(steps + 1)
        out = model.step(y, state, rows_enc, steps)
        log_probs, alpha = out["log_probs"], out["alpha"]
        V = log_probs.size(1)
        total = log_probs + torch.tensor([h.log_prob for h in alive]).unsqueeze(1)
        k = min(2 * width, total.numel())
        values, indices = total.reshape(-1).topk(k)
        nxt, rows, tokens = [], [], []
        for j in range(k):
            if len(nxt) >= width:
                break
            row, token = int(indices[j]) // V, int(indices[j]) % V
            parent = alive[row]
            h = Hypothesis(parent.ids + [token], parent.tokens + [model.target_token(token)],
                           parent.alpha + [alpha[row, :columns].tolist()], float(values[j]))
            if token == model.eos:
                if j >= width:
                    continue
                h.finished, h.score = True, normalised(h)
                finished.append(h)
            else:
                nxt.append(h)
                rows.append(row)
                tokens.append(token)
        alive = nxt
        steps += 1
        done = not alive or steps >= limit
        if alive and len(finished) >= width:
            finished.sort(key=lambda h: -h.score)  # stable, as std::stable_sort
            del finished[width:]
            if max(normalised(h) for h in alive) < finished[-1].score:
                done = True
        if done:
            break
        index = torch.tensor(rows)
        state = out["state"].index_select(0, index)
        zeros = torch.zeros(len(rows), dtype=torch.long)
        rows_enc = tuple(t.index_select(0, zeros) for t in enc)
        y = torch.tensor(tokens)
    if not finished:
        for h in alive:
            h.score = normalised(h)
        finished = alive
    finished.sort(key=lambda h: -h.score)
    return finished[:width]


def decode_within(seconds: float, model: LoadedModel, source: str, **options: Any) -> Decoding:
    """decode() watched for silence, as alignscope-cli's --time-limit: model code cannot be interrupted,
    so it runs on a worker thread (TorchScript lets go of the GIL) and a part (encoding, a step) that
    does not return within `seconds` is set aside, its thread left running, and the call refused naming
    the model and the part, as the app sets a stuck computation aside. 0: no limit."""
    if not seconds:
        return decode(model, source, **options)
    # Tokenizing is Python, run here: a backtracking pattern holds the GIL, and only this thread's
    # timer can stop it (model_tokenizer.py); the worker finds the tokens made.
    _check_text(source, "source")
    model.tokenize_source(source)
    if options.get("target") is not None:
        _check_text(options["target"], "target")
        model.tokenize_target(options["target"])
    state: Dict[str, Any] = {"part": 0, "since": time.monotonic()}

    def progress(part: int) -> None:
        state["part"], state["since"] = part, time.monotonic()

    def work() -> None:
        try:
            state["result"] = decode(model, source, progress=progress, **options)
        except BaseException as e:  # handed to the caller's thread
            state["error"] = e
    worker = threading.Thread(target=work, name="alignscope decoding", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
        if worker.is_alive() and time.monotonic() - state["since"] > seconds:
            part = "encoding the sentence" if state["part"] == 0 else f"step {state['part']}"
            raise ValueError(f"{model.origin} did not finish {part} within {seconds:g} s: its code may loop for ever; "
                             "the decoding was set aside (time_limit= sets the limit)")
    if "error" in state:
        raise state["error"]
    return state["result"]
