"""Text as AlignScope reads it: the word tokenizer of core/text/Tokenizer.cpp (NFKC, case folding,
punctuation split off), vocabularies as Vocabulary::fromCounts builds them, and TSV corpora.

The tokenizer must stay the mirror of the C++ one: a model trained on tokens from here is fed
tokens from there."""

import io
import unicodedata
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .files import open_input

# Special tokens of a version-1 model: these four, first, with these ids.
PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]

DEFAULT_TOKENIZER: Dict[str, Any] = {
    "kind": "word",
    "normalization": "NFKC",
    "lowercase": True,
    "split_punctuation": True,
    "split_elision": False,
}


def _is_space(ch: str) -> bool:
    return ch in "\t\n\r\v\f" or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf")


# Default_Ignorable_Code_Point's characters that are not of category Cc or Cf (those count anyway).
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2065, 0x2065), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))


def is_blank(text: str) -> bool:
    """Tokenizer::isBlank: nothing visible (spaces, line separators, controls, format and ignorable
    characters only), so a blank line, not a sentence to translate."""
    for ch in text:
        cp = ord(ch)
        if not (_is_space(ch) or _is_control(ch) or any(lo <= cp <= hi for lo, hi in _IGNORABLE)):
            return False
    return True


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in ("P", "S")


def _is_word_char(ch: str) -> bool:
    return not (_is_space(ch) or _is_punct(ch) or _is_control(ch))


def tokenize(text: str, settings: Optional[Dict[str, Any]] = None) -> List[str]:
    """Tokens of `text` under AlignScope tokenizer `settings` (default: DEFAULT_TOKENIZER)."""
    return [token for token, _ in word_tokens(text, settings)]


def word_tokens(text: str, settings: Optional[Dict[str, Any]] = None) -> List[Tuple[str, int]]:
    """tokenize()'s tokens, each with the index of the whitespace word of the text it came from
    (Tokenizer.cpp's wordTokens: the pieces ↔ words view groups tokens by it)."""
    s = settings or DEFAULT_TOKENIZER
    lowercase = s.get("lowercase", True)
    if s.get("normalization", "NFKC") == "NFKC":
        text = unicodedata.normalize("NFKC", text)
        if lowercase:
            text = unicodedata.normalize("NFKC", text.casefold())
    elif lowercase:  # "none": the normalisers did the rest; case folding stays the kind's
        text = unicodedata.normalize("NFC", text.casefold())
    split_punct, split_elision = s.get("split_punctuation", True), s.get("split_elision", False)
    tokens: List[Tuple[str, int]] = []
    current, word, in_word = "", 0, False

    def flush() -> None:
        nonlocal current
        if current:
            tokens.append((current, word))
        current = ""

    for i, ch in enumerate(text):
        if ch in "\u2019\u02bc":  # typographic apostrophes
            ch = "'"
        if _is_space(ch):
            flush()
            word += 1 if in_word else 0
            in_word = False
            continue
        if _is_control(ch):
            continue
        in_word = True
        if not split_punct or _is_word_char(ch):
            current += ch
            continue
        between = bool(current) and i + 1 < len(text) and _is_word_char(text[i + 1])
        if between and ch == "'":
            current += ch
            if split_elision:
                flush()
            continue
        if between and ch == "-":
            current += ch
            continue
        flush()
        current = ch
        flush()
    flush()
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
    return [(s, t) for _, s, t in read_tsv_lines(path)]


def read_tsv_lines(path: str) -> List[Tuple[int, str, str]]:
    """As read_tsv, each pair with its line's index in the file (0-based), for files kept line by
    line beside the corpus (guided alignment's links)."""
    return [(number, *pair) for number, pair in enumerate(read_tsv_by_line(path)) if pair is not None]


def read_tsv_by_line(path: str) -> List[Optional[Tuple[str, str]]]:
    """Every line of the file: its (source, target), or None for a line that is not a pair (a side
    empty or with nothing visible)."""
    out: List[Optional[Tuple[str, str]]] = []
    # A regular file of bounded size (files.open_input): /dev/zero or a FIFO is refused by name.
    with io.TextIOWrapper(open_input(path, "corpus"), encoding="utf-8", errors="replace") as f:
        for line in f:
            cols = line.rstrip("\r\n").split("\t")
            # a side with nothing visible is empty (is_blank, Corpus::parse's rule)
            out.append((cols[0], cols[1]) if len(cols) >= 2 and not is_blank(cols[0]) and not is_blank(cols[1]) else None)
    return out
