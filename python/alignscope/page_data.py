"""A Python decoding (decoding.py) as the AlignScope alignment JSON, version 2: the data the one
renderer reads (resources/web/page.schema.json, docs/page-format.md), field for field what
ui/PageData.cpp writes for `alignscope-cli export --format html` (rounded display numbers, the whole
matrix) or, with rounded=None, exact engine values."""

import base64
import importlib.metadata
import math
import os
import unicodedata
from typing import Any, Dict, List, Optional, Sequence

from .decoding import PADDING_COLUMN, Decoding, LoadedModel
from .model_tokenizer import WORD_START, _fallback_byte
from .text import _is_space

PAGE_DECIMALS = 4  # the page's numbers (PageData's `rounded` for html): a 30-token page stays small


def _norm(v: Sequence[float]) -> float:
    return math.sqrt(sum(float(x) * x for x in v))


class _Numbers:
    def __init__(self, decimals: Optional[int]) -> None:
        self.decimals = decimals

    def __call__(self, v: float) -> float:
        if self.decimals is None or not math.isfinite(v):
            return float(v)
        scale = 10.0 ** self.decimals
        r = math.floor(abs(v) * scale + 0.5) / scale  # std::round: halves away from zero
        r = math.copysign(r, v)
        return 0.0 if r == 0 else r

    def row(self, values: Sequence[float]) -> List[float]:
        return [self(v) for v in values]

    def matrix(self, rows: Sequence[Sequence[float]]) -> List[List[float]]:
        return [self.row(r) for r in rows]


def _quantised(values: Sequence[float]) -> str:
    """PageData's quantised(): each value clamped to [-1, 1] as a signed byte round(127 v), base64."""
    out = bytearray()
    for v in values:
        x = min(1.0, max(-1.0, float(v))) if math.isfinite(v) else 0.0
        q = int(math.copysign(math.floor(abs(127 * x) + 0.5), x))  # std::lround: halves away from zero
        out.append(q & 0xFF)
    return base64.b64encode(bytes(out)).decode("ascii")


def _join_pieces(pieces: Sequence[str]) -> str:
    """PieceText::join: byte pieces as their bytes, the word mark as a space."""
    data = bytearray()
    for piece in pieces:
        byte = _fallback_byte(piece)
        data += bytes([byte]) if byte >= 0 else piece.replace(WORD_START, " ").encode("utf-8")
    return data.decode("utf-8", errors="replace")


JOIN_MARK = "\u2040"  # PieceText::joinMark: "this byte belongs to the letter before"


def piece_labels(tokens: Sequence[str]) -> List[str]:
    """PieceText::labels (its Python copy, docs/architecture.md): a run of byte pieces that spells
    one printable character reads as it on its first piece and JOIN_MARK on the rest; incomplete
    or invalid runs, control characters and spaces stay as the pieces."""
    out = list(tokens)
    i = 0
    while i < len(tokens):
        lead = _fallback_byte(tokens[i])
        n = (0 if lead < 0 else 1 if lead < 0x80 else 2 if lead & 0xE0 == 0xC0 else 3 if lead & 0xF0 == 0xE0
             else 4 if lead & 0xF8 == 0xF0 else 0)
        run = [_fallback_byte(t) for t in tokens[i:i + n]] if n else []
        try:
            char = bytes(run).decode("utf-8") if len(run) == n and n and min(run) >= 0 else ""
        except UnicodeDecodeError:
            char = ""
        if len(char) != 1 or unicodedata.category(char) in ("Cc", "Cn") or _is_space(char):
            i += 1
            continue
        out[i:i + n] = [char] + [JOIN_MARK] * (n - 1)
        i += n
    return out


def _word_labels(tokens: Sequence[str], words: Sequence[int], count: int) -> List[str]:
    """LinkExtraction::wordLabels: each word spelled by its tokens."""
    pieces: List[List[str]] = [[] for _ in range(count)]
    for token, word in zip(tokens, words):
        if 0 <= word < count:
            pieces[word].append(token)
    return [_join_pieces(p).strip(" ") or "?" for p in pieces]


def _text_words(text: str) -> List[str]:
    """LinkSet::words: the text's whitespace-separated words."""
    return "".join(" " if _is_space(ch) else ch for ch in text).split()


def _merge_to_words(matrix: Sequence[Sequence[float]], source_words: Sequence[int],
                    target_words: Sequence[int]) -> List[List[float]]:
    """LinkExtraction::mergeToWords: a source word's columns summed, a target word's rows averaged,
    the columns of no word (</s>) left out."""
    S = len(source_words)
    sources = max([w + 1 for w in source_words] + [0])
    targets = max([w + 1 for w in target_words] + [0])
    sums = [[0.0] * (sources + 1) for _ in range(targets)]
    rows = [0] * targets
    for t, row in enumerate(matrix[:len(target_words)]):
        w = target_words[t]
        if w < 0 or len(row) < S or S == 0:
            continue
        rows[w] += 1
        for i in range(S):
            sums[w][source_words[i] if source_words[i] >= 0 else sources] += row[i]
    return [[v / max(1, rows[w]) for v in sums[w][:sources]] for w in range(targets)]


def model_card(model: LoadedModel, decoding: Decoding, file: str) -> List[Dict[str, str]]:
    """ModelCard::facts (core/model/ModelCard.cpp): the model's facts in reading order."""
    a = model.architecture
    decoder = a.decoder_cell.upper() + (" (conditional: attends from s'_t)" if a.conditional
                                        else " (Luong's order: attends from s_t)" if a.attention_after_cell
                                        else " (Bahdanau's order: attends from s_{t-1})")
    encoder = ("bidirectional " if a.bidirectional else "") + a.encoder_cell.upper()
    step = decoding.steps[0] if decoding.steps else None
    E, D = (len(step.context), len(step.state)) if step else (0, 0)
    card = [("name", model.name), ("file", file), ("encoder", f"{encoder}, E = {E}"), ("decoder", f"{decoder}, D = {D}"),
            ("attention", "none (alpha shown uniform)" if model.metadata.get("alpha_is_uniform") is True else a.attention),
            ("source tokenizer", model.src_tokenizer.describe()), ("target tokenizer", model.tgt_tokenizer.describe()),
            ("vocabularies", f"{len(model.src_vocab)} source, {len(model.tgt_vocab)} target"),
            ("parameters", str(sum(p.numel() for p in model.module.parameters()))),
            ("model format", f"v{model.format_version}")]
    card += [(key, model.metadata[key]) for key in ("description", "languages", "training")
             if isinstance(model.metadata.get(key), str)]
    return [{"label": label, "value": value} for label, value in card]


def _piece_kind(model: LoadedModel, token_id: int, token: str) -> Optional[str]:
    if model.tgt_tokenizer.kind != "sentencepiece" or token_id == model.eos:
        return None
    byte = _fallback_byte(token)
    if byte >= 0:
        return f"byte:0x{byte:02x}"
    return "start" if token.startswith(WORD_START) else "continue"


def generator() -> str:
    """The producer's name and version, as the data records it."""
    try:
        return f"alignscope (Python) {importlib.metadata.version('alignscope')}"
    except importlib.metadata.PackageNotFoundError:
        return "alignscope (Python, source tree)"


def page_data(decoding: Decoding, rounded: Optional[int] = PAGE_DECIMALS, words: bool = False,
              file: str = "") -> Dict[str, Any]:
    """The alignment JSON of one decoding (attention as the heatmap, every option at its default)."""
    n = _Numbers(rounded)
    model, d = decoding.model, decoding
    a = model.architecture
    S = len(d.source_tokens)
    padding = S > 0 and d.source_tokens[-1] == PADDING_COLUMN
    end_is_eos = (S > 1 and d.source_words[-1] == -1 and not padding
                  and not (d.source_tokens[-1] and not d.source_tokens[-1].strip()))
    ids = [s.token_id for s in d.steps]
    if d.target_words is not None:
        target_words = list(d.target_words[:len(ids)])
    elif d.hypotheses:
        target_words = model.target_words(d.hypotheses[0].ids)
    else:
        target_words = model.target_words(ids)
    target_words += [-1] * (len(ids) - len(target_words))
    alpha = [s.alpha for s in d.steps]
    real = S - (1 if padding else 0)
    source_words = d.source_words[:real]
    source_count = max([w + 1 for w in source_words] + [0])
    # WordMatrix::merge: a last token of no word (</s>) is a column of its own after the words, so
    # that each row sums as the tokens' row does.
    end_word = real > 0 and source_words[-1] < 0
    merged = _merge_to_words(alpha, source_words[:-1] + [source_count] if end_word else source_words, target_words)
    width = source_count + (1 if end_word else 0)
    for row in merged:
        row += [0.0] * (width - len(row))
    typed = _text_words(d.source_text)
    columns = typed if len(typed) == source_count else _word_labels(d.source_tokens, source_words, source_count)
    if end_word:
        last = d.source_tokens[real - 1]
        columns = columns + ["\u2423" * len(last) if last and not last.strip() else last]
    steps = []
    for r in d.steps:
        chosen = next((k for k, c in enumerate(r.candidates) if c[0] == r.token_id), -1)
        query = r.state if a.attention_after_cell else r.previous_state
        explain: Dict[str, Any] = {
            "query_size": len(query), "query_norm": n(_norm(query)), "context_size": len(r.context),
            "context_norm": n(_norm(r.context)), "previous_state_norm": n(_norm(r.previous_state)),
            "state_norm": n(_norm(r.state)),
            "state_change": n(math.sqrt(sum((float(x) - float(y)) ** 2 for x, y in zip(r.state, r.previous_state))))}
        if "query" in r.extras:
            explain["query_projection_norm"] = n(_norm(r.extras["query"]))
        if "energies" in r.extras:
            explain["energies"] = n.row(r.extras["energies"][:real])
        # A beam hypothesis is stepped through by forcing its tokens, but beam search chose them.
        steps.append({"token": r.token, "id": r.token_id, "forced": r.forced and not d.hypotheses, "p": n(math.exp(r.log_prob)),
                      "chosen": chosen, "candidates": [{"token": t, "id": i, "p": n(p)} for i, t, p in r.candidates],
                      "piece": _piece_kind(model, r.token_id, r.token), "explain": explain})
        if d.encoder_states:
            steps[-1].update(context=_quantised(r.context), state=_quantised(r.state))
    data = {
        "format": "alignscope-alignment",
        "format_version": 2,
        "generator": generator(),
        "rounded": rounded,
        "model": model.name,
        "model_card": model_card(model, d, file),
        "decoder": {"cell": a.decoder_cell, "attention": a.attention, "attention_after_cell": a.attention_after_cell,
                    "conditional_decoder": a.conditional, "input_feeding": a.input_feeding,
                    "own_readout": "architecture" in model.metadata, "bidirectional": a.bidirectional,
                    "target_pieces": model.tgt_tokenizer.kind == "sentencepiece"},
        "source_text": d.source_text,
        "source_tokens": d.source_tokens,
        "source_labels": piece_labels(d.source_tokens),
        "source_words": d.source_words,
        "alpha": n.matrix(alpha),
        "end_column": S - 1 if end_is_eos else None,
        "padding_column": padding,
        "target_tokens": [s.token for s in d.steps],
        "target_labels": piece_labels([s.token for s in d.steps]),
        "target_words": target_words,
        "translation": d.translation,
        "teacher_forced": d.target_text is not None,
        "beam_hypothesis": 0 if d.hypotheses else -1,
        "beam_width": max(d.beam, len(d.hypotheses) if len(d.hypotheses) > 1 else 1),
        "beam": [{"text": model.detokenize(h.ids), "tokens": h.tokens, "labels": piece_labels(h.tokens), "score": n(h.score), "log_prob": n(h.log_prob),
                  "finished": h.finished, "alpha": n.matrix(h.alpha)} for h in d.hypotheses],
        "words": {"source": columns, "target": _word_labels([s.token for s in d.steps], target_words, len(merged)),
                  "alpha": n.matrix(merged)},
        "steps": steps,
        "options": {"end_column": "keep", "color_map": "viridis", "values_in_cells": False, "font_size": 10,
                    "encoder_states": True, "words": words, "title": "", "step": None},
    }
    if d.encoder_states:  # the encoder panel's states (PageData::build)
        data["encoder"] = {"size": len(d.encoder_states[0]),
                           "states": _quantised([v for row in d.encoder_states for v in row]),
                           "initial_state": _quantised(d.initial_state)}
    # The languages the model declares, where it declares them (PageData::build).
    for side in ("source_language", "target_language"):
        code = model.metadata.get(side)
        if isinstance(code, str) and code:
            data[side] = code
    return data


def source_file_name(model: Any) -> str:
    return os.path.basename(os.fspath(model)) if isinstance(model, (str, os.PathLike)) else ""
