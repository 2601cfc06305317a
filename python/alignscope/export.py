"""Writing and reading AlignScope model files: export() (eager model -> file, checked), load()."""

import copy
import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from .architecture import architecture_of
from .decoding import LoadedModel
from .files import atomic_write
from .reference import Seq2SeqAttention
from .scripted import format_parameter_names, to_script
from .text import BOS, EOS, PAD


def check_export(model: Seq2SeqAttention, scripted: torch.jit.ScriptModule, tolerance: float = 1e-4) -> None:
    """Raises when the scripted module disagrees with the eager model on a random padded batch."""
    gen = torch.Generator().manual_seed(0)
    lengths = torch.tensor([5, 3])
    src = torch.randint(4, model.src_emb.num_embeddings, (2, 5), generator=gen)
    src[1, 3:] = PAD
    src[torch.arange(2), lengths - 1] = EOS
    y = torch.tensor([BOS, BOS])
    was_training = model.training
    model.eval()
    try:  # the caller's model goes back to the mode it was in, whether the check passes or not
        with torch.no_grad():
            e_enc, e_state, e_mask, e_keys = model.encode(src, lengths)
            s_enc, s_state, s_mask, s_keys = scripted.encode(src, lengths)
            for t in range(3):
                e = model.decode_step(y, e_state, e_enc, e_keys, e_mask)
                s = scripted.step(y, s_state, s_enc, s_keys, s_mask)
                e_lp = torch.log_softmax(model.logits(e["readout"]), 1)  # [2,V]
                diff = max((e_lp - s["log_probs"]).abs().max().item(), (e["alpha"] - s["alpha"]).abs().max().item())
                if not diff <= tolerance:
                    raise RuntimeError(f"exported model differs from the eager one by {diff:g} at step {t}")
                e_state, s_state = e["state"], s["state"]
                y = e_lp.argmax(1)
    finally:
        model.train(was_training)


def export(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str], path: str,
           name: str = "pytorch-model", metadata: Optional[Dict[str, Any]] = None,
           src_tokenizer: Optional[Dict[str, Any]] = None, tgt_tokenizer: Optional[Dict[str, Any]] = None,
           check: bool = True, half: bool = False) -> torch.jit.ScriptModule:
    """Writes `model` as an AlignScope model file (TorchScript) at `path`.

    Vocabularies are token lists starting with "<pad>", "<unk>", "<s>", "</s>"; tokenizers are
    AlignScope tokenizer settings (default: DEFAULT_TOKENIZER); `metadata` is merged into the
    file's metadata. With `check`, the file's code is first compared with the eager model. With
    `half` the weights are stored as float16: half the file (a model that must fit a size limit),
    widened to float32 by AlignScope and by load().
    """
    if any(p.device.type != "cpu" for p in model.parameters()):
        model = copy.deepcopy(model).cpu()  # the file's code runs on the CPU, and so does the check
    scripted = to_script(model, src_vocab, tgt_vocab, name, metadata, src_tokenizer, tgt_tokenizer)
    if check:
        check_export(model, scripted)
    if half:  # after the check, which runs in float32 (the CPU has no float16 GRU); the caller's model is untouched
        scripted.half()
        meta = json.loads(scripted.metadata)
        meta["stored_dtype"] = "float16"
        scripted.metadata = json.dumps(meta, ensure_ascii=False)
    with atomic_write(path) as f:  # a reader never sees half a model
        torch.jit.save(scripted, f)
    return scripted


def load(path: str) -> Tuple[Seq2SeqAttention, List[str], List[str], Dict[str, Any]]:
    """Reads an AlignScope model file (made here or by AlignScope) into the eager model.

    Returns (model, src_vocab, tgt_vocab, info) with info holding "metadata", "src_tokenizer"
    and "tgt_tokenizer" as dicts.
    """
    # The C++ loader's checks (model_file.py): a damaged or hostile file is refused by name before its code runs.
    loaded = LoadedModel(path)
    module, meta, where = loaded.module, loaded.metadata, loaded.origin
    if "architecture" not in meta:
        raise ValueError(f"'{path}' has no architecture in its metadata: not an RNN encoder-decoder AlignScope model")
    arch = architecture_of(meta["architecture"], where)
    src_vocab, tgt_vocab = loaded.src_vocab, loaded.tgt_vocab
    model = Seq2SeqAttention(len(src_vocab), len(tgt_vocab), arch)
    params = dict(module.named_parameters())
    try:
        state = {v: params[k].detach().float() for k, v in format_parameter_names(arch).items()}
        model.load_state_dict(state)
    except (KeyError, RuntimeError) as e:
        raise ValueError(f"{where}: its weights do not fit its architecture ({str(e).strip()})") from None
    info = {"metadata": meta, "src_tokenizer": loaded.src_tokenizer.description,
            "tgt_tokenizer": loaded.tgt_tokenizer.description}
    return model, src_vocab, tgt_vocab, info

