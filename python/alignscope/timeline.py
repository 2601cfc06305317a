"""A training run's snapshots for AlignScope's training-run view (`train --snapshots K`).

The files the C++ trainer writes (core/training/TrainingTimeline): NAME.step-000123.pt beside the
output model NAME.pt, listed with the training loss in NAME.timeline.json, at the updates that
timeline_code.log_uniform_steps picks: the same TorchScript function the C++ side compiles, so a
recipe run by either trainer snapshots the same updates.
"""

import json
import os
from typing import Any, Dict, List, Optional

import torch

from .files import atomic_write, read_text
from .timeline_code import log_uniform_steps

FORMAT = "alignscope-timeline"
INDEX_SUFFIX = ".timeline.json"

_compiled: Optional[Any] = None


def snapshot_steps(count: int, total: int) -> List[int]:
    """`count` distinct updates in 1..total, log-uniformly spaced, the first and the last included."""
    global _compiled
    if _compiled is None:
        _compiled = torch.jit.script(log_uniform_steps)  # as the C++ side runs it: TorchScript's arithmetic
    return list(_compiled(count, total))


class TrainingTimeline:
    """The index of the run writing `out` (read if it exists: a resumed run goes on with it)."""

    def __init__(self, out: str) -> None:
        self.folder = os.path.dirname(os.path.abspath(out))
        self.name = os.path.splitext(os.path.basename(out))[0]
        self.snapshots: List[Dict[str, Any]] = []  # {"step", "file", "loss"}, ascending steps
        self.loss: List[float] = []  # [updates] training NLL/token
        if os.path.exists(self.index_path()):
            try:  # bounded as TrainingTimeline::kMaxIndexBytes bounds it
                index = json.loads(read_text(self.index_path(), "training timeline", 256 << 20))
            except (json.JSONDecodeError, RecursionError):
                raise ValueError(f"the training timeline '{self.index_path()}' is not valid JSON") from None
            if not isinstance(index, dict) or index.get("format") != FORMAT:
                raise ValueError(f"'{self.index_path()}' is not a training timeline (its \"format\" is not \"{FORMAT}\")")
            self.snapshots = sorted(index.get("snapshots", []), key=lambda s: s["step"])
            self.loss = list(index.get("loss", []))

    def index_path(self) -> str:
        return os.path.join(self.folder, self.name + INDEX_SUFFIX)

    def snapshot_path(self, step: int) -> str:
        return os.path.join(self.folder, f"{self.name}.step-{step:06d}.pt")

    def keep_up_to(self, step: int) -> None:
        """A resumed run forgets the snapshots after its checkpoint."""
        self.snapshots = [s for s in self.snapshots if s["step"] <= step]
        del self.loss[step:]

    def add(self, step: int, file: str, loss: float, loss_history: List[float]) -> None:
        """Records a snapshot and rewrites the index (whole) with the loss so far."""
        self.keep_up_to(step - 1)
        self.snapshots.append({"step": step, "file": file, "loss": loss})
        self.loss = list(loss_history)
        index = {"format": FORMAT, "version": 1, "model": self.name, "loss": self.loss, "snapshots": self.snapshots}
        with atomic_write(self.index_path()) as f:
            f.write((json.dumps(index) + "\n").encode("utf-8"))
