"""Decoding one sentence in Python through a model file's own TorchScript methods (`encode`, `step`),
driven as core/decoding drives them: DecodingSession's steps (greedy, or forced along a target or a
beam's best hypothesis) with their top candidates, and Beam's search. What alignscope.show() draws;
its numbers are alignscope-cli trace's (python/tests/test_show.py)."""

import io
import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from .model_tokenizer import ModelTokenizer

MAX_SOURCE_TOKENS = 1000  # Model.cpp's kMaxSourceTokens
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


class LoadedModel:
    """A model file (a path, or what an adapter returns) as the decoder needs it."""

    def __init__(self, model: Any, name: Optional[str] = None) -> None:
        if isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"cannot read the model file '{path}': "
                                        f"{'no such file' if not os.path.exists(path) else 'not a file'}")
            try:
                self.module = torch.jit.load(path, map_location="cpu")
            except (RuntimeError, ValueError) as e:
                raise ValueError(f"the model file '{path}' is not a TorchScript model: {str(e).splitlines()[0]}") from None
            stem = os.path.splitext(os.path.basename(path))[0]
        elif hasattr(model, "script"):  # AdaptedModel: the file it would write, without the file
            buffer = io.BytesIO()
            torch.jit.save(model.script(), buffer)
            self.module = torch.jit.load(io.BytesIO(buffer.getvalue()), map_location="cpu")
            stem = "model"
        elif isinstance(model, torch.jit.ScriptModule):
            self.module, stem = model, "model"
        else:
            raise TypeError("show() takes a model file's path or what an adapter returns (alignscope.from_d2l(...) and "
                            f"the others), not {type(model).__name__}")
        m = self.module
        # float16 files are widened on load, as the C++ loader does (integer buffers keep their type)
        for _, tensor in list(m.named_parameters()) + list(m.named_buffers()):
            if tensor.is_floating_point() and tensor.dtype != torch.float32:
                tensor.data = tensor.data.float()
        self.module.eval()
        self.format_version = int(getattr(m, "format_version", 1))
        self.src_vocab: List[str] = list(m.src_vocab)
        self.tgt_vocab: List[str] = list(m.tgt_vocab)
        self.metadata: Dict[str, Any] = json.loads(m.metadata) if hasattr(m, "metadata") else {}
        if self.format_version >= 2:
            self.src_specials = _specials(json.loads(m.src_specials))
            self.tgt_specials = _specials(json.loads(m.tgt_specials))
        else:  # format 1: the same four ids in both vocabularies
            self.src_specials = self.tgt_specials = {"pad": 0, "unk": 1, "bos": 2, "eos": 3}
        self.src_tokenizer, self.tgt_tokenizer = (
            ModelTokenizer(json.loads(getattr(m, attribute)) if hasattr(m, attribute) else {"kind": "word"})
            for attribute in ("src_tokenizer", "tgt_tokenizer"))
        self.src_index = {t: i for i, t in enumerate(self.src_vocab)}
        self.tgt_index = {t: i for i, t in enumerate(self.tgt_vocab)}
        meta = self.metadata
        self.name = name or (meta["name"] if isinstance(meta.get("name"), str) else stem)
        self.max_length = int(meta.get("max_length") or 0)
        self.max_source_length = int(meta.get("max_source_length") or 0)
        self.source_eos = meta.get("source_eos", True) is not False
        self.attends_padding = meta.get("attends_padding") is True
        self.architecture = Architecture.of(meta)

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

    def tokenize_source(self, text: str) -> Tuple[List[str], List[int], List[int]]:
        tokens, ids, words = self._ids(self.src_tokenizer.tokenize(text), self.src_index, self.src_specials, "source")
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
        tokens, ids, words = self._ids(self.tgt_tokenizer.tokenize(text), self.tgt_index, self.tgt_specials, "target")
        if len(ids) > MAX_SOURCE_TOKENS:
            raise ValueError(f"the target has {len(ids)} tokens; at most {MAX_SOURCE_TOKENS} are accepted")
        return tokens, ids, words

    def detokenize(self, ids: Sequence[int]) -> str:
        return self.tgt_tokenizer.detokenize([self.target_token(i) for i in ids if self.written(i)])

    def target_words(self, ids: Sequence[int]) -> List[int]:
        written = iter(self.tgt_tokenizer.detokenized_words([self.target_token(i) for i in ids if self.written(i)]))
        return [next(written) if self.written(i) else -1 for i in ids]

    def step(self, y_prev: Tensor, state: Tensor, enc: Tuple[Tensor, ...]) -> Dict[str, Tensor]:
        """The model's step, alpha widened by its own padding's column where it attends it (TorchModel.cpp)."""
        out = dict(self.module.step(y_prev, state, enc[0], enc[3], enc[2]))
        for key in ("log_probs", "state", "alpha", "context"):
            if key not in out:
                raise ValueError(f"the model's step returned no '{key}'")
        if self.attends_padding:
            out["alpha"] = torch.cat([out["alpha"], out.pop("alpha_padding").unsqueeze(1).to(out["alpha"].dtype)], 1)
        for key in ("log_probs", "alpha", "context", "state"):
            out[key] = out[key].float()
        return out


def _specials(specials: Dict[str, Any]) -> Dict[str, int]:
    return {k: int(v) for k, v in specials.items() if v is not None}


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


def length_limit(max_length: int, source_length: int, declared: int) -> int:
    """SearchOptions::lengthLimit."""
    if max_length > 0:
        return max_length
    return declared if declared > 0 else 2 * source_length + 10


def decode(model: LoadedModel, source: str, target: Optional[str] = None, beam: Optional[int] = None,
           max_length: int = 0, top_k: int = 10, keep_log_probs: bool = False) -> Decoding:
    """DecodingSession as the exports use it (BatchExporter::snapshot): teacher-forced along `target`
    (then </s>), else a beam's best hypothesis forced step by step, else greedy to </s> or the cap."""
    if beam is not None and not 1 <= beam <= 64:
        raise ValueError(f"beam must be 1 to 64, not {beam}")
    tokens, ids, words = model.tokenize_source(source)
    d = Decoding(model, source, tokens, ids, words, target_text=target, beam=beam or 1)
    with torch.inference_mode():
        enc = tuple(model.module.encode(torch.tensor([ids]), torch.tensor([len(ids)])))
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
            d.hypotheses = beam_search(model, enc, S, beam, limit)
            forced, forced_texts = d.hypotheses[0].ids, [None] * len(d.hypotheses[0].ids)
        states = [enc[1]]
        while True:
            t = len(d.steps)
            if forced is not None and t >= len(forced):
                break
            if forced is None and ((d.steps and d.steps[-1].token_id == model.eos) or t >= limit):
                break
            previous = d.steps[-1].token_id if d.steps else model.start_id
            out = model.step(torch.tensor([previous]), states[-1], enc)
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
                length_penalty: float = 1.0) -> List[Hypothesis]:
    """BeamSearch.cpp with Beam.cpp: 2 x width candidates a step, an end among the best `width`
    finishes a hypothesis, stop once `width` finished that no open prefix can beat."""
    def normalised(h: Hypothesis) -> float:
        return h.log_prob if length_penalty == 0 else h.log_prob / (len(h.ids) ** length_penalty)

    alive, finished = [Hypothesis([], [], [])], []
    state, rows_enc, y = enc[1], enc, torch.tensor([model.start_id])
    steps, done = 0, limit < 1
    while not done:
        out = model.step(y, state, rows_enc)
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
