"""What the adapters share: reading the user's objects (vocabularies, layers, arguments), copying
the layers into the converted module, and running the original model for the check.

Helpers that refuse an input raise `fail(message)`: ValueError unless the adapter prefixes its
messages (from_pytorch_tutorial passes its own).
"""

import contextlib
import copy
import json
import numbers
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar

import torch
from torch import Tensor, nn

Fail = Callable[[str], Exception]
M = TypeVar("M", bound=nn.Module)


# -------------------------------------------------------------------------------------------------
# Arguments and vocabularies


def is_int(value: Any) -> bool:
    """An int, a numpy int, ...; not a bool (True would pass for 1)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def positive_int(value: Any, name: str, hint: str = "", fail: Fail = ValueError) -> int:
    """`value` as an int when it is one >= 1, else fail("<name> must be a positive int, not <value>")."""
    if not is_int(value) or value < 1:
        raise fail(f"{name} must be a positive int, not {value!r}" + (f": {hint}" if hint else ""))
    return int(value)


def tokens_by_id(vocab: Any, arg: str, expected: str, fail: Fail = ValueError) -> List[str]:
    """The tokens of a vocabulary by id, from a list of tokens, a dict token -> id or a dict
    id -> token (ids 0..n-1, each once). `arg` names the argument in messages; `expected` says
    what the adapter's users pass ("a dict token -> id like the course's human_vocab")."""
    if isinstance(vocab, Mapping):
        items = list(vocab.items())
        if all(isinstance(k, str) and is_int(v) for k, v in items):
            pairs = [(int(v), k) for k, v in items]
        elif all(is_int(k) and isinstance(v, str) for k, v in items):
            pairs = [(int(k), v) for k, v in items]
        else:
            raise fail(f"{arg}: expected {expected}; this dict does not map tokens to ids")
        ids = sorted(i for i, _ in pairs)
        if ids != list(range(len(pairs))):
            missing = sorted(set(range(len(pairs))) - set(ids))
            twice = sorted({i for i in ids if ids.count(i) > 1})
            found = "; ".join(([f"missing {missing[:5]}"] if missing else [])
                              + ([f"used twice {twice[:5]}"] if twice else []))
            raise fail(f"{arg}: the ids must be 0..{len(pairs) - 1}, each once ({found})")
        tokens = [t for _, t in sorted(pairs)]
    elif isinstance(vocab, Sequence) and not isinstance(vocab, (str, bytes)):
        tokens = list(vocab)
        wrong = next((t for t in tokens if not isinstance(t, str)), None)
        if wrong is not None:
            raise fail(f"{arg}: every token must be a string, found {type(wrong).__name__} {wrong!r}")
    else:
        raise fail(f"{arg}: expected {expected}, got {type(vocab).__name__}")
    if not tokens:
        raise fail(f"{arg} is empty")
    return tokens


def special_ids(tokens: Sequence[str], names: Mapping[str, str]) -> Dict[str, Optional[int]]:
    """{key: the id of the token names[key], or None where the vocabulary lacks it}, e.g.
    special_ids(tokens, {"pad": "<pad>", "eos": "<eos>"}). (A token listed twice is refused
    later, by AdaptedModel.)"""
    index: Dict[str, int] = {}
    for i, t in enumerate(tokens):
        index.setdefault(t, i)
    return {key: index.get(token) for key, token in names.items()}


TOKENIZER_KINDS = ("word", "whitespace", "char", "sentencepiece")


def tokenizer_option(value: Any, arg: str, default: Mapping[str, Any], fail: Fail = ValueError) -> Dict[str, Any]:
    """The tokenizer a converter writes for one side: `default` (the toolkit's own preprocessing, as
    the adapter knows it) unless the user passed `value` (src_tokenizer= / tgt_tokenizer=): a
    description as the model format's JSON (docs/model-format.md, "Tokenizers"), a dict or its JSON
    text. Its shape is checked here; AlignScope checks the rest, naming the problem, when it loads
    the file."""
    if value is None:
        return copy.deepcopy(dict(default))
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as e:
            raise fail(f"{arg}: not a JSON tokenizer description ({e})") from None
    if not isinstance(value, Mapping):
        raise fail(f"{arg}: expected a tokenizer description, a dict like {{\"kind\": \"whitespace\", "
                   f"\"normalizers\": [...]}}, not {type(value).__name__}")
    kind = value.get("kind")
    if kind not in TOKENIZER_KINDS:
        raise fail(f"{arg}: \"kind\" must be one of {', '.join(TOKENIZER_KINDS)}, not {kind!r}")
    normalizers = value.get("normalizers", [])
    if not isinstance(normalizers, list) or not all(isinstance(n, Mapping) and isinstance(n.get("type"), str)
                                                    for n in normalizers):
        raise fail(f"{arg}: \"normalizers\" must be a list of objects, each with a \"type\"")
    try:
        return json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError) as e:
        raise fail(f"{arg}: cannot be written as JSON ({e})") from None


# -------------------------------------------------------------------------------------------------
# The user's modules


def submodule(owner: nn.Module, name: str, kind: type, where: str, hint: str, fail: Fail = ValueError) -> Any:
    """owner.<name>, checked to be a `kind` (nn.GRU, nn.Linear, ...): the layer the converted
    module copies. `where` names the owner in the message, `hint` says what to pass instead."""
    value = getattr(owner, name, None)
    if not isinstance(value, kind):
        found = "nothing" if value is None else type(value).__name__
        raise fail(f"{where} has no {kind.__name__} `{name}` (found {found}); {hint}")
    return value


def frozen_copy(module: M) -> M:
    """A float32 CPU copy of an nn.Embedding, nn.Linear, nn.GRU or nn.LSTM with its parameters
    frozen: the converted module owns its weights (the user's model can train on, move or go away)
    and runs where AlignScope runs it. Only what the forward pass depends on is kept (not
    padding_idx, which only stops gradients, nor dropout, which evaluation does not apply)."""
    copy: nn.Module
    if isinstance(module, nn.Embedding):
        copy = nn.Embedding(module.num_embeddings, module.embedding_dim)
    elif isinstance(module, nn.Linear):
        copy = nn.Linear(module.in_features, module.out_features, bias=module.bias is not None)
    elif isinstance(module, (nn.GRU, nn.LSTM)):
        kind = nn.GRU if isinstance(module, nn.GRU) else nn.LSTM
        extra = {"proj_size": module.proj_size} if kind is nn.LSTM and module.proj_size else {}
        copy = kind(module.input_size, module.hidden_size, module.num_layers, bias=module.bias,
                    batch_first=module.batch_first, bidirectional=module.bidirectional, **extra)
    else:
        raise TypeError(f"frozen_copy: {type(module).__name__} is not an Embedding, Linear, GRU or LSTM")
    copy.load_state_dict({k: v.detach().to("cpu", torch.float32) for k, v in module.state_dict().items()})
    return copy.requires_grad_(False)  # type: ignore[return-value]


class SplitEncoder(nn.Module):
    """A converted model whose encoder is split at its input: embed_source(src) [B,S,E], then
    encode_embedded(x, src_len) (the format's optional methods, so gradient attributions can
    differentiate with respect to what the encoder reads). Each adapter's module defines the two;
    encode, the format's required method, is the one after the other, here once for all of them."""

    @torch.jit.export
    def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        return self.encode_embedded(self.embed_source(src), src_len)  # type: ignore[attr-defined]


@contextlib.contextmanager
def eval_mode(*modules: nn.Module) -> Iterator[None]:
    """The user's modules in evaluation mode (no dropout), as their own translate/predict runs them,
    each submodule given back the mode it had, even when the block raises."""
    given = [(module, module.training) for module in modules]
    inside = [(m, m.training) for module in modules for m in module.modules()]
    try:
        for module in modules:
            module.eval()
        yield
    finally:
        for module, training in given:
            module.train(training)  # through train(), which a module may override
        for m, training in inside:
            m.training = training  # a submodule that was in the other mode goes back to it
