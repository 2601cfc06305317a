"""Batches: padded tensors from id pairs, and length-bucketed batch orders for an epoch."""

import random
from typing import List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from .corpus import Pair
from .text import BOS, EOS, PAD


def _pad(rows: List[List[int]]) -> Tensor:
    out = torch.full((len(rows), max(len(r) for r in rows)), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return out


def make_batch(pairs: Sequence[Pair], device: Optional[torch.device] = None) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """(source ids, target ids) without specials -> src [B,S], src_len [B], tgt_in [B,T], tgt_out [B,T].

    Sources end in </s>; tgt_in is <s> y_1..y_n and tgt_out y_1..y_n </s>, padded with 0."""
    src = [list(s) + [EOS] for s, _ in pairs]
    batch = (_pad(src), torch.tensor([len(s) for s in src]), _pad([[BOS] + list(t) for _, t in pairs]),
             _pad([list(t) + [EOS] for _, t in pairs]))
    if device is not None and device.type != "cpu":
        batch = tuple(x.to(device, non_blocking=True) for x in batch)  # type: ignore[assignment]
    return batch


class LengthBuckets:
    """The batches of each epoch: the pairs shuffled, cut into pools of `pool_size`, each pool
    sorted by length (little padding) and cut into batches of at most `batch_size` pairs and at
    most `batch_tokens` padded tokens, then the batches shuffled. An epoch's order depends only on
    (seed, epoch), so a resumed run or another rank computes the same list."""

    def __init__(self, pairs: Sequence[Pair], batch_size: Optional[int] = 32, batch_tokens: Optional[int] = None,
                 pool_size: int = 10000, seed: int = 1) -> None:
        if not batch_size and not batch_tokens:
            raise ValueError("give a batch size (pairs) or a token budget per batch")
        if (batch_size is not None and batch_size < 1) or (batch_tokens is not None and batch_tokens < 1):
            raise ValueError("batch size and batch tokens must be positive")
        # Padded lengths: the source with </s>, the target with <s> or </s>.
        self.lengths = [(len(s) + 1, len(t) + 1) for s, t in pairs]
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.pool_size = max(1, pool_size)
        self.seed = seed

    def _fits(self, count: int, longest: int) -> bool:
        if self.batch_size and count > self.batch_size:
            return False
        return not self.batch_tokens or count * longest <= self.batch_tokens

    def epoch(self, epoch: int) -> List[List[int]]:
        """Indices of the pairs in each batch of `epoch`, in training order."""
        rng = random.Random(f"alignscope:{self.seed}:{epoch}")
        order = list(range(len(self.lengths)))
        rng.shuffle(order)
        batches: List[List[int]] = []
        for start in range(0, len(order), self.pool_size):
            pool = sorted(order[start: start + self.pool_size], key=lambda i: self.lengths[i])
            batch: List[int] = []
            longest = 0
            for i in pool:
                need = max(longest, *self.lengths[i])
                if batch and not self._fits(len(batch) + 1, need):
                    batches.append(batch)
                    batch, need = [], max(self.lengths[i])
                batch.append(i)
                longest = need
            if batch:
                batches.append(batch)
        rng.shuffle(batches)
        return batches
