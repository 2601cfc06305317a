"""When a training run writes its snapshots (`train --snapshots K`), in TorchScript.

One source for both trainers: the C++ core embeds this file at build time and compiles what is
below the marker with LibTorch (core/training/TrainingTimeline.cpp), as it does the model's code
(model_code.py); the Python trainer (alignscope.timeline) compiles the same function with
torch.jit.script, so the two runs of one recipe write their snapshots at the same updates.
"""

from typing import List

MARKER = "# --- TorchScript functions: everything below is compiled as it stands ---"
# --- TorchScript functions: everything below is compiled as it stands ---


def log_uniform_steps(count: int, total: int) -> List[int]:
    # `count` distinct updates in 1..total, log-uniformly spaced (most of the change comes early),
    # the first and the last included; fewer when total < count.
    steps: List[int] = []
    if count <= 0 or total <= 0:
        return steps
    if count == 1:
        return [total]
    for k in range(count):
        x = float(total) ** (float(k) / float(count - 1))
        s = min(max(int(x + 0.5), 1), total)
        if len(steps) > 0 and s <= steps[-1]:
            s = steps[-1] + 1  # distinct, while room is left
        if s > total:
            break
        steps.append(s)
    steps[-1] = total
    return steps
