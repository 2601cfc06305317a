"""Checkpoints: a PyTorch-side file of the eager model (weights, architecture, vocabularies,
tokenizers), what `train --save`, `import` and save_checkpoint() write and `export --checkpoint`
reads. A training checkpoint (`train --checkpoint-dir`) is the same dict plus the optimizer, the
random generators and the position in the data, so `export --checkpoint` reads it too."""

import dataclasses
import os
import pickle
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from . import unpickling
from .architecture import architecture_of
from .files import atomic_write, open_input
from .model_archive import check_archive
from .reference import Seq2SeqAttention
from .text import DEFAULT_TOKENIZER

TRAINING_CHECKPOINT = re.compile(r"^step-(\d+)\.pt$")


def checkpoint_dict(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
                    name: str = "pytorch-model", src_tokenizer: Optional[Dict[str, Any]] = None,
                    tgt_tokenizer: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """What save_checkpoint writes (weights on the CPU, so any machine can read them)."""
    return {"architecture": dataclasses.asdict(model.arch),
            "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
            "src_vocab": list(src_vocab), "tgt_vocab": list(tgt_vocab), "name": name,
            "src_tokenizer": src_tokenizer or DEFAULT_TOKENIZER,
            "tgt_tokenizer": tgt_tokenizer or DEFAULT_TOKENIZER}


def save_atomically(value: Any, path: str) -> None:
    """torch.save, written whole (files.atomic_write): a run killed mid-write leaves the old file."""
    with atomic_write(path) as f:
        torch.save(value, f)


def save_checkpoint(path: str, model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
                    name: str = "pytorch-model", src_tokenizer: Optional[Dict[str, Any]] = None,
                    tgt_tokenizer: Optional[Dict[str, Any]] = None) -> None:
    save_atomically(checkpoint_dict(model, src_vocab, tgt_vocab, name, src_tokenizer, tgt_tokenizer), path)


def read_checkpoint(path: str) -> Dict[str, Any]:
    """The checkpoint dict at `path`, or ValueError naming the file.

    A checkpoint is untrusted input like a model file (docs/model-format.md): it holds tensors, dicts,
    lists, strings and numbers only, so nothing else is built (unpickling.py); full unpickling would run
    any callable pickled into the file with the user's rights. Its archive passes the model files'
    checks first (model_archive.py: storages against their records, no zip bomb)."""
    with open_input(path, "checkpoint") as f:  # a regular file: a FIFO would block torch.load for ever
        if f.read(2) != b"PK":
            raise ValueError(f"'{path}' is not an alignscope checkpoint (not a zip archive as torch.save writes)")
        f.seek(0)
        check_archive(path, saved=True)
        try:
            ckpt = unpickling.load(f)
        except unpickling.TorchScriptFile:
            raise ValueError(f"'{path}' is a model file, not a checkpoint: `import --model` makes a checkpoint of it") from None
        except pickle.UnpicklingError as e:
            raise ValueError(f"the checkpoint '{path}' is not read: {e} (unpickling it could run code)") from None
        except (OSError, RuntimeError, EOFError, ValueError, TypeError, AttributeError, KeyError, IndexError,
                UnicodeDecodeError, MemoryError) as e:
            raise ValueError(f"cannot read the checkpoint '{path}': {str(e).strip() or type(e).__name__}") from None
    if not isinstance(ckpt, dict) or "state_dict" not in ckpt or "architecture" not in ckpt:
        raise ValueError(f"'{path}' is not an alignscope checkpoint (a dict with 'architecture' and 'state_dict')")
    return ckpt


def load_checkpoint(path: str) -> Tuple[Seq2SeqAttention, Dict[str, Any]]:
    """(eager model with the checkpoint's weights, the checkpoint dict)."""
    ckpt = read_checkpoint(path)
    arch = architecture_of(ckpt["architecture"], f"the checkpoint '{path}'")
    sd = ckpt["state_dict"]
    if not isinstance(sd, dict):
        raise ValueError(f"the checkpoint '{path}': 'state_dict' must be a dict of tensors")
    for key in ("src_emb.weight", "tgt_emb.weight"):
        if not isinstance(sd.get(key), torch.Tensor) or sd[key].dim() != 2:
            raise ValueError(f"the checkpoint '{path}' has no weight '{key}' (a [vocabulary, size] tensor)")
    model = Seq2SeqAttention(sd["src_emb.weight"].size(0), sd["tgt_emb.weight"].size(0), arch)
    try:
        model.load_state_dict(sd)
    except RuntimeError as e:
        raise ValueError(f"the checkpoint '{path}' does not fit its architecture: {str(e).strip()}") from None
    return model, ckpt


# --------------------------------------------------------------------------------------------------
# Training checkpoints: DIR/step-NNNNNNNN.pt, the newest `keep` kept.


def training_checkpoints(folder: str) -> List[Tuple[int, str]]:
    """(step, path) of the training checkpoints in `folder`, oldest first."""
    if not os.path.isdir(folder):
        return []
    found = []
    for entry in os.listdir(folder):
        m = TRAINING_CHECKPOINT.match(entry)
        if m:
            found.append((int(m.group(1)), os.path.join(folder, entry)))
    return sorted(found)


def latest_training_checkpoint(folder: str) -> Optional[str]:
    found = training_checkpoints(folder)
    return found[-1][1] if found else None


def write_training_checkpoint(folder: str, step: int, value: Dict[str, Any], keep: int = 3) -> str:
    """Writes DIR/step-<step>.pt and removes all but the newest `keep` (0: keep all)."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"step-{step:08d}.pt")
    save_atomically(value, path)
    if keep > 0:
        for _, old in training_checkpoints(folder)[:-keep]:
            os.remove(old)
    return path
