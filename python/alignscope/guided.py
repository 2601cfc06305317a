"""Guided alignment: the attention of each target token trained toward given word links (Chen et
al. 2016, "Guided alignment training for topic-aware neural machine translation"; Liu et al. 2016,
"Neural machine translation with supervised attention"; Garg et al. 2019).

The links come as a Pharaoh file, line k for line k of the corpus, over the whitespace-separated
words of each side (the unit of `alignscope-cli aer` and of gold sets): `python3 -m alignscope
guide` computes them with the statistical aligner (statistical_alignment.py). Here they become
token-level targets: a target token of word w attends, in the target distribution, uniformly to the
tokens of the source words linked to w; the target `</s>` to the source `</s>`; tokens of words
with no link are not guided. The loss adds weight x the cross-entropy between that distribution
and alpha_t, summed over guided tokens, to the translation loss.
"""

import io
from typing import Callable, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from .files import open_input
from .links import parse_pharaoh

Guide = List[Tuple[int, int]]  # (target position, source position) over tokens; len(tokens) is </s>
TOKEN_MARK = "\u2581"  # SentencePiece's word-start mark


def word_of_tokens(text: str, tokens: Sequence[str], tokenize_word: Optional[Callable[[str], List[str]]],
                   pieces: bool) -> Optional[List[int]]:
    """The whitespace word of `text` each token lies in, or None where they cannot be matched.

    Sub-word pieces: a piece that starts with the word-start mark begins the next word.
    Word tokens: each whitespace word's own tokens, in order (tokenize_word is the tokenizer)."""
    words = text.split()
    if pieces:
        out, w = [], -1
        for piece in tokens:
            if piece.startswith(TOKEN_MARK) or w < 0:
                w += 1
            out.append(w)
        return out if w + 1 == len(words) else None
    out = []
    for w, word in enumerate(words):
        out.extend([w] * len(tokenize_word(word)))
    return out if len(out) == len(tokens) else None


def token_guide(word_links: Sequence[Tuple[int, int]], src_word: Sequence[int], tgt_word: Sequence[int],
                src_kept: int, tgt_kept: int) -> Guide:
    """Word links (source word, target word) -> token links (target token, source token) over the
    first src_kept / tgt_kept tokens (the rest were cut by --max-len), plus </s> to </s>."""
    src_tokens_of: dict = {}
    for i, w in enumerate(src_word[:src_kept]):
        src_tokens_of.setdefault(w, []).append(i)
    linked: dict = {}
    for s, t in word_links:
        linked.setdefault(t, set()).update(src_tokens_of.get(s, ()))
    guide = [(j, i) for j, w in enumerate(tgt_word[:tgt_kept]) for i in sorted(linked.get(w, ()))]
    guide.append((tgt_kept, src_kept))
    return guide


def read_links(path: str) -> List[List[Tuple[int, int]]]:
    """A Pharaoh file: per line, (source word, target word) links (`i-j`; `ipj` taken as a link)."""
    out = []
    with io.TextIOWrapper(open_input(path, "links file"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                out.append(parse_pharaoh(line))
            except ValueError as e:
                raise ValueError(f"{path}:{number}: {e}") from None
    return out


def guidance_tensor(guides: Sequence[Guide], T: int, S: int, device: Optional[torch.device] = None) -> Tensor:
    """[B, T, S] target distributions: each guided row uniform over its linked source tokens, other
    rows 0. T and S are the batch's padded target and source lengths (</s> included)."""
    b_idx, t_idx, s_idx = [], [], []
    for b, guide in enumerate(guides):
        for t, s in guide:
            b_idx.append(b)
            t_idx.append(t)
            s_idx.append(s)
    g = torch.zeros(len(guides), T, S)
    if b_idx:
        g[torch.tensor(b_idx), torch.tensor(t_idx), torch.tensor(s_idx)] = 1.0
    g = g / g.sum(2, keepdim=True).clamp(min=1.0)
    return g.to(device) if device is not None and device.type != "cpu" else g

