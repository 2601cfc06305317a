"""Shared set-up of the Python suite: the package importable from the source tree, PyTorch on one
thread (the machines running the suite are small and shared), and where the C++ CLI is."""

import os
import sys
from pathlib import Path

import pytest
import torch

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "python"))
torch.set_num_threads(1)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The alignscope-cli binary: $ALIGNSCOPE_CLI (ctest sets it), else <repo>/build/app/alignscope-cli;
    the test is skipped where it is not built."""
    path = Path(os.environ.get("ALIGNSCOPE_CLI") or REPO_ROOT / "build" / "app" / "alignscope-cli")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"alignscope-cli is not built ({path}): set ALIGNSCOPE_CLI or build the project")
    return path


@pytest.fixture(scope="session")
def toy_tsv(tmp_path_factory) -> Path:
    """A small made-up parallel corpus (source<TAB>target): words of a toy language rewritten and
    reversed, 2 to 8 words a sentence, so batches of different lengths and an alignment to learn."""
    import random

    rng = random.Random(0)
    words = ["the", "red", "car", "a", "house", "is", "big", "small", "dog", "runs", "fast", "."]
    rewrite = {w: (w[::-1] + "o" if w != "." else ".") for w in words}
    path = tmp_path_factory.mktemp("corpus") / "toy.tsv"
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(120):
            src = [rng.choice(words) for _ in range(rng.randint(2, 8))]
            f.write(" ".join(src) + "\t" + " ".join(rewrite[w] for w in reversed(src)) + "\n")
    return path
