"""A model file's tokenizer description (docs/model-format.md, "Tokenizers") run in Python: text ->
tokens with the whitespace word each came from, and tokens -> text, as core/text/Tokenizer.cpp does,
so alignscope.show() feeds a model the ids alignscope-cli would (test_show.py compares the two)."""

import base64
import contextlib
import re
import signal
import threading
import unicodedata
from typing import Any, Callable, Dict, Iterator, List, Sequence, Tuple

from .model_archive import CHECKS
from .text import _is_control, _is_space, word_tokens

_TEXT = CHECKS["text"]
MAX_LINE_CHARACTERS: int = _TEXT["max_line_characters"]  # Tokenizer::kMaxLineCharacters
MAX_GROWTH: int = _TEXT["max_growth"]  # TextBudget::kMaxGrowth
MAX_NORMALIZED_CHARACTERS: int = _TEXT["max_normalized_characters"]  # TextBudget::kMaxNormalizedCharacters
WORD_START = "\u2581"  # SentencePiece's mark of a piece that starts a word
_NO_SPACE_BEFORE = {".", ",", ")", "]", "}", "%", "\u2026"}


def _lowercase(text: str) -> str:
    # utf8proc_tolower: one character's simple lower case (str.lower() may make two, as for U+0130)
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


def _replacement(content: str, pattern: str, groups: int) -> Callable[["re.Match[str]"], str]:
    """The format's `$1`, `$&`/`$0` and `$$` (ReplacePattern.cpp) as a function of the match; a
    reference the pattern cannot fill is refused here, as ReplacePattern refuses it, not at the first match."""
    parts = re.split(r"(\$\$|\$&|\$\d{1,2}|\$`|\$')", content)
    for part in parts:
        if part in ("$`", "$'"):
            raise ValueError(f"normaliser content '{content}' uses {part} (the text before or after the match), "
                             "which is not supported: use groups")
        if part.startswith("$") and part[1:].isdigit():
            # "$12" with fewer than 12 groups is group 1 and a "2", as expand() reads it
            number = int(part[1:]) if len(part) == 2 or int(part[1:]) <= groups else int(part[1])
            if number > groups:
                raise ValueError(f"normaliser content '{content}' refers to group {number} but pattern '{pattern}' has "
                                 f"{groups} group{'' if groups == 1 else 's'}")

    def expand(m: "re.Match[str]") -> str:
        out = []
        for part in parts:
            if part == "$$":
                out.append("$")
            elif part == "$&":
                out.append(m.group(0))
            elif part.startswith("$") and part[1:].isdigit():
                # two digits only where the pattern has that many groups, as the C++ reads them
                number = int(part[1:])
                if number > (m.re.groups or 0) and len(part) == 3:
                    out.append((m.group(int(part[1])) or "") + part[2])
                else:
                    out.append(m.group(number) or "")
            else:
                out.append(part)
        return "".join(out)
    return expand


def _normalizer(step: Dict[str, Any]) -> Callable[[str, int], str]:
    """One normaliser as a function of (text, budget): a replace counts what it writes against the
    budget (it may expand a character to megabytes); the others are checked after they return."""
    if step.get("type") == "replace":
        return _replace(step)
    plain = _plain_normalizer(step)
    return lambda text, budget: plain(text)


def _plain_normalizer(step: Dict[str, Any]) -> Callable[[str], str]:
    kind = step.get("type")
    forms = {"nfkc": "NFKC", "nfc": "NFC", "nfd": "NFD", "nfkd": "NFKD"}
    if kind in forms:
        return lambda text: unicodedata.normalize(forms[kind], text)
    if kind == "casefold":
        return lambda text: unicodedata.normalize("NFC", text.casefold())
    if kind == "lowercase":
        return _lowercase
    if kind == "strip_accents":
        return lambda text: "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    if kind == "strip":
        return lambda text: text.strip("".join(ch for ch in set(text) if _is_space(ch)))
    raise ValueError(f"unknown normaliser {kind!r} (nfkc, nfc, nfd, nfkd, casefold, lowercase, strip_accents, "
                     "strip or replace)")


def _replace(step: Dict[str, Any]) -> Callable[[str, int], str]:
    # RE2's syntax as the format allows it is Python's too, but for \x{HHHH}
    pattern, content = step.get("pattern"), step.get("content")
    if not isinstance(pattern, str) or not isinstance(content, str):
        raise ValueError("a 'replace' normaliser needs a 'pattern' and a 'content', both strings")
    try:
        pattern = re.sub(r"\\x\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), pattern)
        compiled = re.compile(pattern)
    except (re.error, ValueError, OverflowError, RecursionError) as e:
        raise ValueError(f"normaliser pattern '{step['pattern']}' is not a valid pattern ({e})") from None
    expand = _replacement(content, step["pattern"], compiled.groups)

    def replace(text: str, budget: int) -> str:
        # counted as it writes (NormalizedText): one match may expand to megabytes
        written = 0

        def counted(m: "re.Match[str]") -> str:
            nonlocal written
            out = expand(m)
            written += len(out)
            if written > budget:
                raise _TooLong(budget)
            return out
        try:
            with _time_limit(NORMALIZE_SECONDS):
                return compiled.sub(counted, text)
        except _TimedOut:
            raise TokenizerFailure(f"its tokenizer's normaliser pattern '{step['pattern']}' did not finish within "
                                   f"{NORMALIZE_SECONDS:g} s on this line of {len(text)} characters (it backtracks)") from None
    return replace


class _TooLong(Exception):
    pass


class TokenizerFailure(ValueError):
    """The model's normalisers expand a line past its budget, or a pattern runs past its time: the
    model file's doing, not the line's."""


# RE2 (the C++ side's) runs in time linear in the text; Python's re backtracks, so a pattern such as
# (a+)+$ takes exponential time on a line of a few dozen characters. Its matching checks for
# signals, so a timer ends it (in the main thread, where signals are delivered).
NORMALIZE_SECONDS = 3.0


class _TimedOut(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise _TimedOut()
    previous_handler = signal.signal(signal.SIGALRM, ring)
    previous_timer = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_timer[0] > 0:  # someone else's timer goes on
            signal.setitimer(signal.ITIMER_REAL, *previous_timer)


def _fallback_byte(piece: str) -> int:
    return int(piece[3:5], 16) if re.fullmatch(r"<0x[0-9A-F]{2}>", piece) else -1


class ModelTokenizer:
    """One side's tokenizer, from the JSON description a model file stores."""

    def __init__(self, description: Dict[str, Any]) -> None:
        self.description = description
        self.kind = description.get("kind", "word")
        if self.kind not in ("word", "whitespace", "char", "sentencepiece"):
            raise ValueError(f"unsupported tokenizer kind {self.kind!r} (word, whitespace, char or sentencepiece)")
        self.normalizers = [_normalizer(step) for step in description.get("normalizers", [])]
        default_decoder = {"word": "word", "whitespace": "spaces", "char": "concat", "sentencepiece": "sentencepiece"}
        self.decoder = description.get("detokenizer") or default_decoder[self.kind]
        self.processor = None
        if self.kind == "sentencepiece":
            from .subwords import _sentencepiece
            self.processor = _sentencepiece().SentencePieceProcessor(
                model_proto=base64.b64decode(description["model"]))

    def describe(self) -> str:
        """Tokenizer::describe(): the model card's line."""
        d = self.description
        if self.kind == "word":
            text = "word tokenizer, NFKC" if d.get("normalization", "NFKC") == "NFKC" else "word tokenizer"
            text += ", lower-cased" if d.get("lowercase", True) else ", case kept"
            text += ", punctuation split off" if d.get("split_punctuation", True) else ""
            return text + (", elisions split" if d.get("split_elision", False) else "")
        if self.kind == "sentencepiece":
            return f"SentencePiece ({self.processor.get_piece_size()} pieces)"
        kind = "whitespace tokenizer" if self.kind == "whitespace" else "character tokenizer"
        return kind + (", normalised" if d.get("normalizers") else "")

    def tokenize(self, text: str) -> List[Tuple[str, int]]:
        """(token, word) pairs: the word is the index of the text's whitespace word (-1: a space token).
        A line and its normalised text are bounded as Tokenizer::tokenize bounds them (model_checks.json's
        "text"): normalisers that expand it past the budget are refused, not run to gigabytes."""
        characters = len(text)
        if characters > MAX_LINE_CHARACTERS:
            raise ValueError(f"the line has {characters} characters; at most {MAX_LINE_CHARACTERS} are read")
        budget = min(MAX_NORMALIZED_CHARACTERS, MAX_GROWTH * max(characters, MAX_GROWTH))
        for normalize in self.normalizers:
            try:
                text = normalize(text, budget)
            except _TooLong:
                text = None  # type: ignore[assignment]
            if text is None or len(text) > budget:
                raise TokenizerFailure(f"its tokenizer expands this line of {characters} characters beyond {budget} "
                                    "characters while normalising it")
        if len(text) > MAX_LINE_CHARACTERS:
            raise TokenizerFailure(f"its tokenizer expands this line of {characters} characters to {len(text)}, more "
                                f"than the {MAX_LINE_CHARACTERS} a line may have")
        if self.kind == "word":
            return word_tokens(text, self.description)
        if self.kind == "whitespace":
            words = "".join(" " if _is_space(ch) else ch for ch in text if _is_space(ch) or not _is_control(ch)).split(" ")
            return [(w, k) for k, w in enumerate(w for w in words if w)]
        if self.kind == "char":
            out: List[Tuple[str, int]] = []
            word, in_word, keep_spaces = 0, False, self.description.get("keep_spaces", False)
            for ch in text:
                if _is_space(ch):
                    word += 1 if in_word else 0
                    in_word = False
                    if keep_spaces:
                        out.append((ch, -1))
                elif not _is_control(ch):
                    in_word = True
                    out.append((ch, word))
            return out
        pieces, word = [], -1
        for piece in self.processor.encode(text, out_type=str):
            if piece.startswith(WORD_START) or word < 0:
                word += 1
            pieces.append((piece, word))
        return pieces

    def detokenize(self, tokens: Sequence[str]) -> str:
        if self.decoder == "word":
            glued = _written_without_space(tokens)
            return "".join(("" if g else " ") + t for t, g in zip(tokens, glued))
        if self.decoder == "spaces":
            return " ".join(tokens)
        if self.decoder == "concat":
            return "".join(tokens)
        data = bytearray()
        for piece in tokens:
            byte = _fallback_byte(piece)
            data += bytes([byte]) if byte >= 0 else piece.replace(WORD_START, " ").encode("utf-8")
        text = data.decode("utf-8", errors="replace")
        return text[1:] if text.startswith(" ") else text

    def detokenized_words(self, tokens: Sequence[str]) -> List[int]:
        """For each written token, the word of detokenize()'s text it belongs to (-1: a space)."""
        if self.decoder == "word":
            word, words = -1, []
            for i, glued in enumerate(_written_without_space(tokens)):
                word += 1 if i == 0 or not glued else 0
                words.append(word)
            return words
        if self.decoder == "spaces":
            return list(range(len(tokens)))
        if self.decoder == "concat":
            word, words, open_word = -1, [], False
            for t in tokens:
                if len(t) == 1 and _is_space(t):
                    open_word = False
                    words.append(-1)
                    continue
                word += 0 if open_word else 1
                open_word = True
                words.append(word)
            return words
        word, words = -1, []
        for t in tokens:
            word += 1 if t.startswith(WORD_START) or word < 0 else 0
            words.append(word)
        return words


def _written_without_space(tokens: Sequence[str]) -> List[bool]:
    glued, glue_next = [], True
    for t in tokens:
        glued.append(glue_next or t in _NO_SPACE_BEFORE)
        glue_next = t in ("(", "[") or (len(t) > 1 and t.endswith("'"))
    return glued
