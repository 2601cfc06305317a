"""The two forms in which alignment gold sets and users give text, and how words of one map to
tokens of the other.

- *As written*: the sentence as typed; its words are its whitespace-separated words (Python
  `str.split()`, the unit of `alignscope-cli aer` and of the hand-aligned gold in docs/alignment-gold).
- *Lower-cased and tokenised*: the form most published gold sets take (`l' homme est là .`): the
  tokens of AlignScope's word tokenizer (text.py, the mirror of core/text/Tokenizer.cpp) with
  punctuation split off, French elisions split after the apostrophe (`l'`, `qu'`, `j'`), lower-cased,
  joined by single spaces; its words are those tokens.

Every token lies inside one written word (the tokenizer only splits), so links between tokens
project onto written words (`project_links`) and a written sentence's tokens know their word.
"""

from typing import Dict, Iterable, List, Sequence, Set, Tuple

from .links import Link, format_gold, parse_gold  # noqa: F401  (re-exported for the gold tools)
from .text import _is_punct, tokenize


# Languages whose elided articles and pronouns (l', j', qu', n', d') the tokenised form splits off.
ELIDING_LANGUAGES = ("fr", "it", "ca")


def _settings(language: str, lowercase: bool) -> Dict[str, object]:
    return {"kind": "word", "normalization": "NFKC", "lowercase": lowercase, "split_punctuation": True,
            "split_elision": language in ELIDING_LANGUAGES}


def tokens_by_word(text: str, language: str, lowercase: bool = False) -> List[List[str]]:
    """The tokens of each written word of `text` (a word of control characters only has none)."""
    settings = _settings(language, lowercase)
    return [tokenize(word, settings) for word in text.split()]


def tokenized(text: str, language: str) -> str:
    """`text` lower-cased and tokenised, as alignment gold sets give it."""
    return " ".join(t for word in tokens_by_word(text, language, lowercase=True) for t in word)


def is_punctuation(token: str) -> bool:
    return bool(token) and all(_is_punct(ch) for ch in token)


def project_links(links: Iterable[Link], src_word: Sequence[int], tgt_word: Sequence[int]) -> Set[Link]:
    """Token links -> links between the written words holding the tokens."""
    return {(src_word[i], tgt_word[j]) for i, j in links if i < len(src_word) and j < len(tgt_word)}


def project_gold(sure: Iterable[Link], possible: Iterable[Link], src_text: str, tgt_text: str,
                 src_language: str, tgt_language: str) -> Tuple[Set[Link], Set[Link]]:
    """Token-level gold (sure, possible-only) -> gold over the written words: a word pair takes the
    strongest link between their tokens, except for links between two punctuation tokens, which
    follow docs/alignment-gold/guidelines.md on attached marks: between two words that hold more
    than punctuation (`shirts.` - `coton.`) no link, between such a word and a mark standing alone
    (`cats?` - `?`) a possible one. Returns (sure, possible-only)."""
    src_words, tgt_words = tokens_by_word(src_text, src_language), tokens_by_word(tgt_text, tgt_language)
    src_tokens = [t for w in src_words for t in w]
    tgt_tokens = [t for w in tgt_words for t in w]
    src_word = [w for w, tokens in enumerate(src_words) for _ in tokens]
    tgt_word = [w for w, tokens in enumerate(tgt_words) for _ in tokens]

    def punctuation_word(tokens: List[str]) -> bool:
        return all(is_punctuation(t) for t in tokens)

    word_sure: Set[Link] = set()
    word_possible: Set[Link] = set()
    for kind, links in (("sure", sure), ("possible", possible)):
        for i, j in links:
            w = (src_word[i], tgt_word[j])
            strong = kind == "sure"
            if is_punctuation(src_tokens[i]) and is_punctuation(tgt_tokens[j]):
                alone = punctuation_word(src_words[w[0]]) + punctuation_word(tgt_words[w[1]])
                if alone == 0:
                    continue
                strong = strong and alone == 2
            (word_sure if strong else word_possible).add(w)
    return word_sure, word_possible - word_sure
