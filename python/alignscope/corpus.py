"""A parallel corpus as the trainer uses it: tokenized, vocabularies built, pairs as token ids."""

import dataclasses
from typing import Callable, List, Optional, Sequence, Tuple

from .text import UNK, build_vocab, read_tsv, tokenize

Pair = Tuple[List[int], List[int]]  # (source ids, target ids), no specials


@dataclasses.dataclass
class Corpus:
    src_vocab: List[str]
    tgt_vocab: List[str]
    pairs: List[Pair]

    @staticmethod
    def from_tsv(path: str, max_len: int = 50, min_count: int = 1, max_vocab: int = 0,
                 src_vocab: Optional[Sequence[str]] = None, tgt_vocab: Optional[Sequence[str]] = None,
                 src_tokenize: Optional[Callable[[str], List[str]]] = None,
                 tgt_tokenize: Optional[Callable[[str], List[str]]] = None) -> "Corpus":
        """Reads `source<TAB>target` lines, keeps `max_len` tokens a side, and builds the vocabularies
        (most frequent first, as AlignScope does) unless given. Pairs with an empty side are dropped.
        Tokenized with AlignScope's word tokenizer unless other tokenizers are given (sub-words)."""
        texts = read_tsv(path)
        if not texts:
            raise ValueError(f"no 'source<TAB>target' lines in '{path}'")
        src_tok = [(src_tokenize or tokenize)(s)[:max_len] for s, _ in texts]
        tgt_tok = [(tgt_tokenize or tokenize)(t)[:max_len] for _, t in texts]
        src_vocab = list(src_vocab) if src_vocab is not None else build_vocab(src_tok, min_count, max_vocab)
        tgt_vocab = list(tgt_vocab) if tgt_vocab is not None else build_vocab(tgt_tok, min_count, max_vocab)
        s_ids = {t: i for i, t in enumerate(src_vocab)}
        t_ids = {t: i for i, t in enumerate(tgt_vocab)}
        pairs = [([s_ids.get(t, UNK) for t in s], [t_ids.get(t, UNK) for t in t]) for s, t in zip(src_tok, tgt_tok)]
        pairs = [p for p in pairs if p[0] and p[1]]
        if not pairs:
            raise ValueError(f"no pair in '{path}' has tokens on both sides")
        return Corpus(src_vocab, tgt_vocab, pairs)

    def target_tokens(self) -> int:
        """Target tokens the loss counts (</s> included)."""
        return sum(len(t) + 1 for _, t in self.pairs)
