"""The exported form: what an AlignScope model file (format version 2) holds and runs.

Flat parameters named as core/model/ModelBuilder.cpp names them, and the methods of model_code.py,
the one source of the model's math that the C++ core embeds too: AlignScope can therefore also
fine-tune an exported model, and `update-code` can rewrite it.
"""

import json
import re
from pathlib import Path
from typing import Any, Dict, Final, List, Optional, Sequence

import torch
from torch import Tensor, nn

from . import model_code
from .architecture import Architecture
from .files import FORMAT_VERSION
from .reference import Seq2SeqAttention
from .text import BOS, DEFAULT_TOKENIZER, EOS, PAD, SPECIALS, UNK

SPECIAL_IDS = json.dumps({"pad": PAD, "unk": UNK, "bos": BOS, "eos": EOS})


def model_code_source(constants: Dict[str, bool]) -> str:
    """The TorchScript methods of model_code.py (everything below its marker line) with each
    `self.<constant>` written as a literal, as core/model/ModelCode.cpp compiles them."""
    text = Path(model_code.__file__).read_text(encoding="utf-8")
    code = text[text.rindex(model_code.MARKER) + len(model_code.MARKER):]
    for name in model_code.CONSTANTS:
        code = re.sub(r"self\." + name + r"\b", str(bool(constants[name])), code)
    return code


class AlignScopeModule(nn.Module):
    """The weights, the attributes the loader reads and the architecture constants; the methods
    come from model_code.py (to_script defines them on the scripted module)."""

    # Architecture switches (model_code.py's docstring), written into the code as literals; kept as
    # Final attributes too, so that modules of different architectures get different TorchScript classes.
    lstm: Final[bool]
    bidirectional: Final[bool]
    attention_additive: Final[bool]
    attention_general: Final[bool]
    attention_dot: Final[bool]
    attention_none: Final[bool]
    tied: Final[bool]
    # Attributes the loader reads (TorchModel::checkContract); pad_id is read by `loss`.
    format_version: int
    pad_id: int
    src_specials: str
    tgt_specials: str
    src_vocab: List[str]
    tgt_vocab: List[str]
    src_tokenizer: str
    tgt_tokenizer: str
    metadata: str

    def __init__(self, params: Dict[str, Tensor], arch: Architecture, src_vocab: List[str], tgt_vocab: List[str],
                 src_tokenizer: str, tgt_tokenizer: str, metadata: str) -> None:
        super().__init__()
        self.lstm = arch.cell == "lstm"
        self.bidirectional = arch.bidirectional
        self.attention_additive = arch.attention == "additive"
        self.attention_general = arch.attention == "general"
        self.attention_dot = arch.attention == "dot"
        self.attention_none = arch.attention == "none"
        self.tied = arch.tie_output
        self.conditional = arch.decoder == "conditional"
        self.format_version = FORMAT_VERSION
        self.pad_id = PAD
        self.src_specials = SPECIAL_IDS
        self.tgt_specials = SPECIAL_IDS
        self.src_vocab = list(src_vocab)
        self.tgt_vocab = list(tgt_vocab)
        self.src_tokenizer = src_tokenizer
        self.tgt_tokenizer = tgt_tokenizer
        self.metadata = metadata
        for name, value in params.items():
            self.register_parameter(name, nn.Parameter(value.detach().clone().float().contiguous()))


def _rnn_names(prefix: str, suffix: str) -> Dict[str, str]:
    return {f"{prefix}_wih": f"weight_ih{suffix}", f"{prefix}_whh": f"weight_hh{suffix}",
            f"{prefix}_bih": f"bias_ih{suffix}", f"{prefix}_bhh": f"bias_hh{suffix}"}


def format_parameter_names(arch: Architecture) -> Dict[str, str]:
    """AlignScope parameter name -> name in Seq2SeqAttention.state_dict()."""
    names = {"src_emb": "src_emb.weight", "tgt_emb": "tgt_emb.weight"}
    names.update({k: "encoder." + v for k, v in _rnn_names("enc_f", "_l0").items()})
    if arch.bidirectional:
        names.update({k: "encoder." + v for k, v in _rnn_names("enc_b", "_l0_reverse").items()})
    names.update({"init_w": "init.weight", "init_b": "init.bias"})
    if arch.attention == "additive":
        names.update({"att_W": "att_W.weight", "att_U": "att_U.weight", "att_v": "att_v"})
    elif arch.attention == "general":
        names["att_Wa"] = "att_Wa.weight"
    names.update({k: "decoder." + v for k, v in _rnn_names("dec", "").items()})
    if arch.decoder == "conditional":
        names.update({k: "decoder2." + v for k, v in _rnn_names("dec2", "").items()})
    names.update({"out_w": "readout.weight", "out_b": "readout.bias"})
    if not arch.tie_output:
        names["proj_w"] = "proj_w"
    names["proj_b"] = "proj_b"
    return names


def _check_vocab(vocab: Sequence[str], size: int, which: str) -> None:
    if list(vocab[:4]) != SPECIALS:
        raise ValueError(f"the {which} vocabulary must start with {SPECIALS}")
    if len(set(vocab)) != len(vocab):
        raise ValueError(f"the {which} vocabulary repeats a token")
    if len(vocab) != size:
        raise ValueError(f"the {which} vocabulary has {len(vocab)} tokens but the model's embeddings have {size} rows")


def to_script(model: Seq2SeqAttention, src_vocab: Sequence[str], tgt_vocab: Sequence[str],
              name: str = "pytorch-model", metadata: Optional[Dict[str, Any]] = None,
              src_tokenizer: Optional[Dict[str, Any]] = None,
              tgt_tokenizer: Optional[Dict[str, Any]] = None) -> torch.jit.ScriptModule:
    """The scripted AlignScope module for `model` (what export() saves); it holds its own copies of
    the weights."""
    _check_vocab(src_vocab, model.src_emb.num_embeddings, "source")
    _check_vocab(tgt_vocab, model.tgt_emb.num_embeddings, "target")
    state = model.state_dict()
    params = {k: state[v].detach().cpu() for k, v in format_parameter_names(model.arch).items()}
    meta: Dict[str, Any] = {
        "name": name,
        "architecture": model.arch.to_json(),
        "family": "rnn-encoder-decoder",
        "alpha_is_uniform": model.arch.attention == "none",
        "created_by": f"alignscope Python package (PyTorch {torch.__version__})",
        "stored_dtype": "float32",
    }
    meta.update(metadata or {})
    module = AlignScopeModule(params, model.arch, list(src_vocab), list(tgt_vocab),
                              json.dumps(src_tokenizer or DEFAULT_TOKENIZER), json.dumps(tgt_tokenizer or DEFAULT_TOKENIZER),
                              json.dumps(meta, ensure_ascii=False))
    scripted = torch.jit.script(module.eval())
    # TorchScript shares one class among modules of the same constants: define its methods once.
    if not scripted._c._has_method("encode"):
        scripted.define(model_code_source({name: getattr(module, name) for name in model_code.CONSTANTS}))
    return scripted

