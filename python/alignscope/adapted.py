"""What every adapter returns: an AlignScope model (format v2) built from someone else's model,
checked against that original before it is written."""

import io
import json
import random
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor, nn

from .files import FORMAT_VERSION, atomic_write

SPECIAL_NAMES = ("pad", "unk", "bos", "eos")

# reference(sources, targets) -> one (log_probs [T,V], alpha [T,S']) per pair, computed by the
# ORIGINAL model: sources are id lists as AlignScope gives them to `encode` (eos appended when the
# model's metadata says source_eos), targets the teacher-forced decoder inputs y_0..y_{T-1}
# (y_0 = the target bos, or 0 without one). alpha may be longer than the source (S' >= S) where the
# original attends over its own padding; the extra mass is compared with `alpha_padding`.
Reference = Callable[[List[List[int]], List[List[int]]], List[Tuple[Tensor, Tensor]]]


def check_specials(specials: Dict[str, Optional[int]], vocab: Sequence[str], which: str) -> Dict[str, int]:
    """The special ids that exist, checked in range and distinct (as the C++ loader checks them)."""
    out: Dict[str, int] = {}
    for name, value in specials.items():
        if name not in SPECIAL_NAMES:
            raise ValueError(f"{which} specials: unknown key '{name}' (pad, unk, bos, eos)")
        if value is None:
            continue
        if not isinstance(value, int) or not 0 <= value < len(vocab):
            raise ValueError(f"{which} specials: {name} = {value!r} is not an id of the {len(vocab)}-token vocabulary")
        out[name] = value
    ids = list(out.values())
    if len(set(ids)) != len(ids):
        raise ValueError(f"{which} specials: two special tokens share an id ({out})")
    if len(set(vocab)) != len(vocab):
        seen = set()
        dup = next(t for t in vocab if t in seen or seen.add(t))
        raise ValueError(f"the {which} vocabulary lists '{dup}' twice")
    return out


class AdaptedModel:
    """A scriptable module with `encode`/`step` (docs/model-format.md, v2) plus what the file declares.

    `save(path)` scripts the module, compares the scripted file with the original model on a
    padded batch (the `reference`), and writes it only when they agree within `tolerance`.
    """

    def __init__(self, module: nn.Module, *, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
                 src_specials: Dict[str, Optional[int]], tgt_specials: Dict[str, Optional[int]],
                 src_tokenizer: Dict[str, Any], tgt_tokenizer: Dict[str, Any], metadata: Dict[str, Any],
                 reference: Reference) -> None:
        self.module = module.eval()
        self.src_vocab = [str(t) for t in src_vocab]
        self.tgt_vocab = [str(t) for t in tgt_vocab]
        self.src_specials = check_specials(src_specials, self.src_vocab, "source")
        self.tgt_specials = check_specials(tgt_specials, self.tgt_vocab, "target")
        self.src_tokenizer = src_tokenizer
        self.tgt_tokenizer = tgt_tokenizer
        self.metadata = dict(metadata)
        self.metadata.setdefault("created_by", f"alignscope Python package (PyTorch {torch.__version__})")
        self.reference = reference

    @property
    def max_length(self) -> Optional[int]:
        return self.metadata.get("max_length")

    def script(self) -> torch.jit.ScriptModule:
        m = self.module
        m.format_version = FORMAT_VERSION
        m.src_vocab = self.src_vocab
        m.tgt_vocab = self.tgt_vocab
        m.src_specials = json.dumps(self.src_specials)
        m.tgt_specials = json.dumps(self.tgt_specials)
        m.src_tokenizer = json.dumps(self.src_tokenizer, ensure_ascii=False)
        m.tgt_tokenizer = json.dumps(self.tgt_tokenizer, ensure_ascii=False)
        m.metadata = json.dumps(self.metadata, ensure_ascii=False)
        return torch.jit.script(m)

    # ---------------------------------------------------------------------------------------------
    # The check against the original

    def sample_pairs(self, count: int = 3, seed: int = 0) -> Tuple[List[List[int]], List[List[int]]]:
        """Sources and teacher-forced decoder inputs of different lengths (a padded batch)."""
        rng = random.Random(seed)
        src_ordinary = [i for i in range(len(self.src_vocab)) if i not in self.src_specials.values()]
        tgt_ordinary = [i for i in range(len(self.tgt_vocab)) if i not in self.tgt_specials.values()]
        source_eos = self.metadata.get("source_eos", True) and "eos" in self.src_specials
        limit = self.metadata.get("max_source_length") or 12
        sources, targets = [], []
        for k in range(count):
            n = max(1, min(limit - (1 if source_eos else 0), 6 - 2 * k))
            src = [rng.choice(src_ordinary) for _ in range(n)]
            if source_eos:
                src.append(self.src_specials["eos"])
            steps = min(self.max_length or 5, 5)
            tgt = [self.tgt_specials.get("bos", 0)] + [rng.choice(tgt_ordinary) for _ in range(steps - 1)]
            sources.append(src)
            targets.append(tgt)
        return sources, targets

    def compare(self, scripted: torch.jit.ScriptModule) -> float:
        """Largest difference of log-probs and alpha between `scripted` and the original."""
        sources, targets = self.sample_pairs()
        expected = self.reference(sources, targets)
        pad = self.src_specials.get("pad", 0)
        B, S, T = len(sources), max(map(len, sources)), len(targets[0])
        src = torch.full((B, S), pad, dtype=torch.long)
        for b, s in enumerate(sources):
            src[b, : len(s)] = torch.tensor(s)
        src_len = torch.tensor([len(s) for s in sources])
        worst = 0.0
        with torch.no_grad():
            enc, state, mask, keys = scripted.encode(src, src_len)
            for t in range(T):
                y = torch.tensor([tg[t] for tg in targets])
                out = scripted.step(y, state, enc, keys, mask)
                state = out["state"]
                for b in range(B):
                    lp, alpha = expected[b]
                    n = len(sources[b])
                    worst = _worse(worst, _difference(out["log_probs"][b], lp[t]))
                    worst = _worse(worst, _difference(out["alpha"][b, :n], alpha[t, :n]))
                    worst = _worse(worst, out["alpha"][b, n:].abs().max().item() if n < S else 0.0)
                    padding = alpha[t, n:].sum().item()
                    got = out["alpha_padding"][b].item() if "alpha_padding" in out else 0.0
                    worst = _worse(worst, abs(got - padding))
        return worst

    def save(self, path: str, tolerance: float = 1e-4) -> None:
        """Writes the AlignScope model file, or raises ValueError if it disagrees with the original."""
        scripted = self.script()
        buffer = io.BytesIO()
        torch.jit.save(scripted, buffer)
        written = torch.jit.load(io.BytesIO(buffer.getvalue()))
        worst = self.compare(written)
        if not worst <= tolerance:
            raise ValueError(f"not written: the converted model differs from the original by {worst:g} "
                             f"(more than {tolerance:g}) on a padded batch")
        with atomic_write(path) as f:
            f.write(buffer.getvalue())


def _difference(got: Tensor, expected: Tensor) -> float:
    """Largest |got - expected|: NaN where either holds NaN, 0 where both hold the same infinity."""
    d = (got - expected.to(got.device)).abs()
    return torch.where(got == expected.to(got.device), torch.zeros_like(d), d).max().item()


def _worse(worst: float, difference: float) -> float:
    """The larger of two differences, NaN winning (max() would drop a NaN that comes second)."""
    return difference if difference != difference or difference > worst else worst

