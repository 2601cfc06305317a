"""A statistical word aligner: fast_align's model (Dyer, Chahuneau & Smith 2013, the diagonal
reparameterisation of IBM Model 2) trained by EM over whole corpora at once, as tensor operations,
so that it runs on a GPU (760k pairs in about a minute) or, in chunks, on the CPU.

It is what supervises attention in guided-alignment training (training.py, `--guided-alignment`):
the links of the training corpus, one direction each way, joined by grow-diag-final-and.
The model and its settings are those of `fast_align -d -o -v` (scripts/fast_align_baseline.py, a
line-by-line Python reimplementation of the released C++, is the check: tests compare the two):

- p(a_j = i) for target word j of m and source word i of n: p0 = 0.08 for NULL, else (1 - p0)
  exp(-lambda |i/n - j/m|) / Z_j (positions from 1), Z_j summed directly;
- t(f | e) by variational Bayes, Dirichlet alpha = 0.01: exp(psi(c(e,f) + alpha) - psi(sum_f (c + alpha)));
- lambda from 4, updated after every E-step but the first by 8 steps of lambda += 20 (empirical
  feature - model feature), clamped to [0.1, 14] (the baseline's `--tension-mode corrected`: the
  exact gradient, without the released code's swapped arguments), or kept (`tension_mode="fixed"`);
- 5 iterations as fast_align counts them: 4 updates, then the Viterbi links (NULL wins ties, an
  earlier source word wins a tie between two).
Words are compared lower-cased and stripped of leading and trailing punctuation (`lexical_form`),
as the baseline does; positions are those of the words given.
"""

import sys
import unicodedata
import warnings
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .links import Link, grow_diag_final_and, pharaoh  # noqa: F401  (pharaoh: re-exported)

import torch
from torch import Tensor

# scatter_reduce's "beta" notice in PyTorch 1.13 (Debian's): the call is stable in later versions.
warnings.filterwarnings("ignore", message="scatter_reduce", category=UserWarning)
P0, ALPHA, TENSION, UNINIT_PROB = 0.08, 0.01, 4.0, 1e-9


def lexical_form(word: str) -> str:
    """The word as the lexical table sees it: lower-cased, leading and trailing punctuation
    stripped (a word of punctuation only keeps its lower-cased form)."""
    w = word.lower()
    a, b = 0, len(w)
    while a < b and unicodedata.category(w[a]).startswith("P"):
        a += 1
    while b > a and unicodedata.category(w[b - 1]).startswith("P"):
        b -= 1
    return w[a:b] if b > a else w


class _Ids:
    def __init__(self, first: int) -> None:
        self.ids: Dict[str, int] = {}
        self.first = first

    def __call__(self, word: str) -> int:
        i = self.ids.get(word)
        if i is None:
            i = self.ids[word] = self.first + len(self.ids)
        return i

    def size(self) -> int:
        return self.first + len(self.ids)


class FastAlign:
    """One direction of fast_align over a whole corpus. Source ids 1.. (0 = NULL), target ids 0..

    The corpus lives as flat tensors: one row per (target word, source word or NULL) pair of every
    sentence pair, E = sum m (n + 1) rows, each knowing its target word (`entry_tok`), its source
    position (`entry_i`, 0 = NULL) and its lexical entry (`entry_key`, an index into t)."""

    def __init__(self, sentences: Sequence[Tuple[Sequence[int], Sequence[int]]], n_src: int, n_tgt: int,
                 device: str = "cpu", iterations: int = 5, tension_mode: str = "corrected",
                 chunk_entries: int = 1 << 26, log=None) -> None:
        if tension_mode not in ("corrected", "fixed"):
            raise ValueError(f"tension_mode is 'corrected' or 'fixed', not '{tension_mode}'")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.device = torch.device(device)
        self.iterations, self.tension_mode, self.tension = iterations, tension_mode, TENSION
        self.chunk = chunk_entries
        self.log = log
        dev = self.device
        # Built on the device: a GPU sorts the E keys in a second where a CPU takes a minute.
        n = torch.tensor([len(s) for s, _ in sentences], dtype=torch.long, device=dev)  # [P]
        m = torch.tensor([len(t) for _, t in sentences], dtype=torch.long, device=dev)  # [P]
        if bool((n == 0).any()) or bool((m == 0).any()):
            raise ValueError("every sentence pair needs words on both sides")
        src = torch.tensor([w for s, _ in sentences for w in s], dtype=torch.long, device=dev)  # [Ns]
        tgt = torch.tensor([w for _, t in sentences for w in t], dtype=torch.long, device=dev)  # [Nt]
        src_start = torch.cumsum(n, 0) - n  # [P]
        pair_of_tok = torch.repeat_interleave(torch.arange(len(sentences), device=dev), m)  # [Nt]
        tok_first = torch.cumsum(m, 0) - m  # [P] first target word of each pair
        self.tok_n, self.tok_m = n[pair_of_tok], m[pair_of_tok]  # [Nt]
        self.tok_j = torch.arange(len(tgt), device=dev) - tok_first[pair_of_tok] + 1  # [Nt], 1-based as in the model
        self.tok_pair, self.tok_first = pair_of_tok.cpu(), tok_first.cpu()  # for the links
        per_tok = self.tok_n + 1  # [Nt] rows a target word has: NULL and each source word
        self.tok_row_start = torch.cumsum(per_tok, 0) - per_tok  # [Nt]
        self.entry_tok = torch.repeat_interleave(torch.arange(len(tgt), device=dev), per_tok)  # [E]
        self.entry_i = torch.arange(len(self.entry_tok), device=dev) - self.tok_row_start[self.entry_tok]  # [E]
        src_index = (src_start[pair_of_tok][self.entry_tok] + self.entry_i - 1).clamp(min=0)
        entry_src = torch.where(self.entry_i == 0, torch.zeros_like(self.entry_i), src[src_index])  # [E], 0 = NULL
        del src_index
        unique, self.entry_key = torch.unique(entry_src * n_tgt + tgt[self.entry_tok], return_inverse=True)
        del entry_src
        self.key_src = unique // n_tgt  # [K] the e of each t(f|e)
        self.n_src = n_src
        self.t: Optional[Tensor] = None  # [K]; None: every probability 1e-9, as before the first update
        self.tokens = len(tgt)

    def _msg(self, text: str) -> None:
        if self.log is not None:
            print(text, file=self.log, flush=True)

    def _chunks(self) -> Iterable[Tuple[int, int, int, int]]:
        """Ranges of whole target words: (first entry, end entry, first word, end word)."""
        starts = self.tok_row_start
        total = len(self.entry_tok)
        first_tok = 0
        while first_tok < self.tokens:
            begin = int(starts[first_tok])
            end_tok = int(torch.searchsorted(starts, torch.tensor(begin + self.chunk, device=starts.device)))
            end_tok = max(end_tok, first_tok + 1)
            end = int(starts[end_tok]) if end_tok < self.tokens else total
            yield begin, end, first_tok, end_tok
            first_tok = end_tok

    def _feature(self, b: int, e: int) -> Tuple[Tensor, Tensor, Tensor]:
        """Rows b:e: (feature -|i/n - j/m| [R], is a source word [R] bool, target word index [R])."""
        tok = self.entry_tok[b:e]
        i = self.entry_i[b:e]
        h = -(i.double() / self.tok_n[tok] - self.tok_j[tok].double() / self.tok_m[tok]).abs()
        return h, i > 0, tok

    def _prior(self, h: Tensor, real: Tensor, tok: Tensor, t0: int, t1: int) -> Tensor:
        """p(a_j = i) of rows whose features are h: p0 for NULL, else the normalised diagonal."""
        u = torch.where(real, torch.exp(self.tension * h), torch.zeros_like(h))
        z = torch.zeros(t1 - t0, dtype=h.dtype, device=h.device).index_add_(0, tok - t0, u)
        return torch.where(real, (1.0 - P0) * u / z[tok - t0], torch.full_like(h, P0))

    def _scores(self, b: int, e: int, t0: int, t1: int) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        h, real, tok = self._feature(b, e)
        lex = torch.full_like(h, UNINIT_PROB) if self.t is None else self.t[self.entry_key[b:e]]
        return lex * self._prior(h, real, tok, t0, t1), h, real, tok

    def _estep(self, want_feature: bool) -> Tuple[Tensor, float, float]:
        counts = torch.zeros(len(self.key_src), dtype=torch.float64, device=self.device)
        loglik, empirical = 0.0, 0.0
        for b, e, t0, t1 in self._chunks():
            p, h, real, tok = self._scores(b, e, t0, t1)
            s = torch.zeros(t1 - t0, dtype=p.dtype, device=p.device).index_add_(0, tok - t0, p)
            post = p / s[tok - t0]
            counts.index_add_(0, self.entry_key[b:e], post)
            loglik += float(torch.log(s).sum())
            if want_feature:
                empirical += float((post * torch.where(real, h, torch.zeros_like(h))).sum())
        return counts, loglik, empirical / self.tokens

    def _model_feature(self) -> float:
        total = 0.0
        for b, e, t0, t1 in self._chunks():
            h, real, tok = self._feature(b, e)
            prior = self._prior(h, real, tok, t0, t1) / (1.0 - P0)
            total += float((torch.where(real, prior * h, torch.zeros_like(h))).sum())
        return total / self.tokens

    def train(self) -> "FastAlign":
        """The iterations before the last (EM/VB updates); align() is the last."""
        for it in range(self.iterations - 1):
            want = self.tension_mode == "corrected" and it > 0
            counts, loglik, empirical = self._estep(want)
            self._msg(f"  iteration {it + 1}: log-likelihood {loglik:.1f}, tension {self.tension:.4f}")
            if want:
                for _ in range(8):
                    self.tension += 20.0 * (empirical - self._model_feature())
                    self.tension = min(max(self.tension, 0.1), 14.0)
            c = counts + ALPHA
            totals = torch.zeros(self.n_src, dtype=c.dtype, device=c.device).index_add_(0, self.key_src, c)
            self.t = torch.exp(torch.digamma(c) - torch.digamma(totals[self.key_src]))
        return self

    def links(self) -> List[List[Link]]:
        """The Viterbi links of every sentence pair, (source, target) 0-based, NULL links dropped."""
        best_i = torch.empty(self.tokens, dtype=torch.long, device=self.device)
        for b, e, t0, t1 in self._chunks():
            p, _, _, tok = self._scores(b, e, t0, t1)
            top = torch.full((t1 - t0,), -1.0, dtype=p.dtype, device=p.device).scatter_reduce(
                0, tok - t0, p, reduce="amax")
            i = self.entry_i[b:e]
            candidate = torch.where(p == top[tok - t0], i, torch.full_like(i, 1 << 30))
            best_i[t0:t1] = torch.full((t1 - t0,), 1 << 30, dtype=torch.long, device=p.device).scatter_reduce(
                0, tok - t0, candidate, reduce="amin")
        best = best_i.cpu()
        out: List[List[Link]] = [[] for _ in range(int(self.tok_pair[-1]) + 1 if self.tokens else 0)]
        j = torch.arange(self.tokens) - self.tok_first[self.tok_pair]
        for pair, i, jj in zip(self.tok_pair.tolist(), best.tolist(), j.tolist()):
            if i > 0:
                out[pair].append((i - 1, jj))
        return out


def align_corpus(pairs: Sequence[Tuple[Sequence[str], Sequence[str]]], device: str = "cpu",
                 iterations: int = 5, tension_mode: str = "corrected",
                 log=sys.stderr) -> Dict[str, List[Set[Link]]]:
    """Word links of every pair of words (source words, target words), both directions and joined:
    {"forward", "reverse", "intersection", "grow-diag-final-and"}, each a set of (source, target)
    per pair. A pair with an empty side gets no links."""
    src_ids, tgt_ids = _Ids(1), _Ids(0)  # forward: source words (0 = NULL) -> target words
    rsrc_ids, rtgt_ids = _Ids(1), _Ids(0)  # reverse
    kept, forward_sents, reverse_sents = [], [], []
    for k, (s, t) in enumerate(pairs):
        if not s or not t:
            continue
        ls, lt = [lexical_form(w) for w in s], [lexical_form(w) for w in t]
        kept.append(k)
        forward_sents.append(([src_ids(w) for w in ls], [tgt_ids(w) for w in lt]))
        reverse_sents.append(([rsrc_ids(w) for w in lt], [rtgt_ids(w) for w in ls]))
    result: Dict[str, List[Set[Link]]] = {name: [set() for _ in pairs] for name in
                                          ("forward", "reverse", "intersection", "grow-diag-final-and")}
    if not kept:
        return result
    for name, sents, ns, nt in (("forward", forward_sents, src_ids.size(), tgt_ids.size()),
                                ("reverse", reverse_sents, rsrc_ids.size(), rtgt_ids.size())):
        if log is not None:
            print(f"fast_align {name}: {len(sents)} pairs on {device}", file=log, flush=True)
        model = FastAlign(sents, ns, nt, device=device, iterations=iterations, tension_mode=tension_mode, log=log)
        links = model.train().links()
        for k, row in zip(kept, links):
            result[name][k] = set(row) if name == "forward" else {(i, j) for j, i in row}
        if log is not None:
            print(f"fast_align {name}: final tension {model.tension:.4f}", file=log, flush=True)
        del model
    for k in range(len(pairs)):
        f, r = result["forward"][k], result["reverse"][k]
        result["intersection"][k] = f & r
        result["grow-diag-final-and"][k] = grow_diag_final_and(f, r)
    return result
