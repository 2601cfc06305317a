"""A parallel corpus as the trainer uses it: tokenized, vocabularies built, pairs as token ids, and,
for guided alignment, each pair's token links (guided.py)."""

import dataclasses
from typing import Callable, List, Optional, Sequence, Tuple

from .guided import Guide, token_guide, word_of_tokens
from .text import UNK, build_vocab, read_tsv_lines, tokenize

Pair = Tuple[List[int], List[int]]  # (source ids, target ids), no specials


@dataclasses.dataclass
class Corpus:
    src_vocab: List[str]
    tgt_vocab: List[str]
    pairs: List[Pair]
    guides: Optional[List[Optional[Guide]]] = None  # per pair, with word links: (target, source) tokens
    unguided: int = 0  # pairs whose links could not be matched to their tokens (trained without guidance)

    @staticmethod
    def from_tsv(path: str, max_len: int = 50, min_count: int = 1, max_vocab: int = 0,
                 src_vocab: Optional[Sequence[str]] = None, tgt_vocab: Optional[Sequence[str]] = None,
                 src_tokenize: Optional[Callable[[str], List[str]]] = None,
                 tgt_tokenize: Optional[Callable[[str], List[str]]] = None,
                 word_links: Optional[Sequence[Sequence[Tuple[int, int]]]] = None,
                 links_name: str = "the links") -> "Corpus":
        """Reads `source<TAB>target` lines, keeps `max_len` tokens a side, and builds the vocabularies
        (most frequent first, as AlignScope does) unless given. Pairs with an empty side are dropped.
        Tokenized with AlignScope's word tokenizer unless other tokenizers are given (sub-words).
        word_links: line k's (source word, target word) links, for every line of the file."""
        lines = read_tsv_lines(path)
        if not lines:
            raise ValueError(f"no 'source<TAB>target' lines in '{path}'")
        if word_links is not None and lines[-1][0] >= len(word_links):
            raise ValueError(f"{links_name} has {len(word_links)} lines, fewer than the corpus '{path}' "
                             f"(line {lines[-1][0] + 1} has a pair): one line of links per line of the corpus")
        src_full = [(src_tokenize or tokenize)(s) for _, s, _ in lines]
        tgt_full = [(tgt_tokenize or tokenize)(t) for _, _, t in lines]
        src_tok = [s[:max_len] for s in src_full]
        tgt_tok = [t[:max_len] for t in tgt_full]
        src_vocab = list(src_vocab) if src_vocab is not None else build_vocab(src_tok, min_count, max_vocab)
        tgt_vocab = list(tgt_vocab) if tgt_vocab is not None else build_vocab(tgt_tok, min_count, max_vocab)
        s_ids = {t: i for i, t in enumerate(src_vocab)}
        t_ids = {t: i for i, t in enumerate(tgt_vocab)}
        pairs: List[Pair] = []
        guides: List[Optional[Guide]] = []
        unguided = 0
        for k, (number, s_text, t_text) in enumerate(lines):
            s, t = src_tok[k], tgt_tok[k]
            if not s or not t:
                continue
            pairs.append(([s_ids.get(x, UNK) for x in s], [t_ids.get(x, UNK) for x in t]))
            if word_links is None:
                continue
            src_word = word_of_tokens(s_text, src_full[k], tokenize, pieces=src_tokenize is not None)
            tgt_word = word_of_tokens(t_text, tgt_full[k], tokenize, pieces=tgt_tokenize is not None)
            src_words, tgt_words = len(s_text.split()), len(t_text.split())
            if src_word is None or tgt_word is None or any(
                    i >= src_words or j >= tgt_words for i, j in word_links[number]):
                guides.append(None)
                unguided += 1
                continue
            guides.append(token_guide(word_links[number], src_word, tgt_word, len(s), len(t)))
        if not pairs:
            raise ValueError(f"no pair in '{path}' has tokens on both sides")
        return Corpus(src_vocab, tgt_vocab, pairs, guides if word_links is not None else None, unguided)

    def target_tokens(self) -> int:
        """Target tokens the loss counts (</s> included)."""
        return sum(len(t) + 1 for _, t in self.pairs)
