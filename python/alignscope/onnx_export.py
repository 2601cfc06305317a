"""A model file's own `encode` and `step` as ONNX graphs, for a page that runs the model in the
browser with ONNX Runtime Web (issue 57; docs/live-page.md).

The graphs come from the file's TorchScript code, not from a re-implementation of one
architecture: the scripted methods are exported as they stand (torch.onnx's scripting mode keeps
their loops and branches), so every model the format allows, adapters' included, exports the same
way or is refused with the operator ONNX lacks. What the page also needs, the vocabularies, the
special ids, the tokenizer descriptions and the SentencePiece `.model` bytes the file carries, is
written beside the graphs.

    python3 -m alignscope.onnx_export MODEL.pt OUT_DIR
"""

import base64
import contextlib
import json
import os
import re
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import torch
from torch import Tensor

from .decoding import LoadedModel
from .files import check_output

OPSET = 17
# What step returns that the page reads, in this order; the first four every model has.
STEP_OUTPUTS = ("log_probs", "state", "alpha", "context", "alpha_padding", "energies", "query", "readout")
ENCODE_OUTPUTS = ("enc", "state", "mask", "keys")


class ExportError(ValueError):
    pass


# ATen operators with an exact ONNX equivalent that torch 1.13's exporter does not know. The model
# code uses addmv/mv for speed at batch 1 (docs/performance.md); the arithmetic is the same MatMul
# and Add. Any other unknown operator refuses the model.
def _addmv(g, bias, mat, vec, beta, alpha):
    from torch.onnx import symbolic_helper as sh
    if sh._maybe_get_const(beta, "f") != 1 or sh._maybe_get_const(alpha, "f") != 1:
        return sh._unimplemented("addmv", "beta or alpha other than 1")
    return g.op("Add", bias, g.op("MatMul", mat, vec))


def _mv(g, mat, vec):
    return g.op("MatMul", mat, vec)


def _logical_not(g, x):
    return g.op("Not", g.op("Cast", x, to_i=9))  # 9: BOOL


# masked_fill's value as the tensor's own type: torch 1.13's symbolic typed the -inf of a masked
# softmax as the input's scripted type, which scripting left unknown (double) where the energies come
# from bmm (general and dot attention), and ONNX Runtime refused the Where.
def _masked_fill(g, x, mask, value):
    return g.op("Where", g.op("Cast", mask, to_i=9), g.op("CastLike", value, x), x)


# torch.nn.GRUCell (OpenNMT-py's GRU decoder), written out as the cell's own formula: ONNX's GRU
# runs sequences, torch 1.13 has no symbolic for the single cell.
def _gru_cell(g, x, h, w_ih, w_hh, b_ih, b_hh):
    from torch.onnx import symbolic_helper as sh

    def affine(v, w, b):
        out = g.op("MatMul", v, g.op("Transpose", w, perm_i=[1, 0]))
        return out if sh._is_none(b) else g.op("Add", out, b)
    i_r, i_z, i_n = g.op("Split", affine(x, w_ih, b_ih), axis_i=1, outputs=3)
    h_r, h_z, h_n = g.op("Split", affine(h, w_hh, b_hh), axis_i=1, outputs=3)
    r = g.op("Sigmoid", g.op("Add", i_r, h_r))
    z = g.op("Sigmoid", g.op("Add", i_z, h_z))
    n = g.op("Tanh", g.op("Add", i_n, g.op("Mul", r, h_n)))
    return g.op("Add", n, g.op("Mul", z, g.op("Sub", h, n)))  # (1 - z) n + z h


# one_hot of any rank: ONNX's OneHot takes indices of rank 1 or more, and the Keras adapter one-hots
# a scalar (its <pad> row); the indices are flattened, then the result given their shape plus one.
def _one_hot(g, x, num_classes):
    flat = g.op("Reshape", x, g.op("Constant", value_t=torch.tensor([-1], dtype=torch.int64)))
    depth = g.op("Cast", num_classes, to_i=7)  # 7: INT64
    values = g.op("Constant", value_t=torch.tensor([0, 1], dtype=torch.int64))
    hot = g.op("OneHot", flat, depth, values, axis_i=-1)
    shape = g.op("Concat", g.op("Shape", x),
                 g.op("Reshape", depth, g.op("Constant", value_t=torch.tensor([1], dtype=torch.int64))), axis_i=0)
    return g.op("Reshape", hot, shape)


_registered = False


def _register_symbolics() -> None:
    global _registered
    if not _registered:
        from torch.onnx import register_custom_op_symbolic
        register_custom_op_symbolic("aten::addmv", _addmv, OPSET)
        register_custom_op_symbolic("aten::mv", _mv, OPSET)
        register_custom_op_symbolic("aten::logical_not", _logical_not, OPSET)
        register_custom_op_symbolic("aten::masked_fill", _masked_fill, OPSET)
        register_custom_op_symbolic("aten::gru_cell", _gru_cell, OPSET)
        register_custom_op_symbolic("aten::one_hot", _one_hot, OPSET)
        _registered = True


def _constant(value: "torch._C.Value") -> Any:
    node = value.node()
    return node.s("value") if node.kind() == "prim::Constant" and node.hasAttribute("value") and \
        node.kindOf("value") == "s" else None


def _unfold_dicts(graph: "torch._C.Graph") -> None:
    """Replaces the Dict[str, Tensor] a step builds and reads back (DictConstruct, _set_item,
    __getitem__ with constant keys, all in the graph's top block) by the tensors themselves: ONNX
    has no dictionaries, and the format's `step` returns one."""
    for node in graph.findAllNodes("prim::DictConstruct"):
        if node.owningBlock() != graph.block():
            raise ExportError("builds a dictionary inside a branch or loop")
        items: Dict[str, Any] = {}
        inputs = list(node.inputs())
        for k, v in zip(inputs[0::2], inputs[1::2]):
            key = _constant(k)
            if key is None:
                raise ExportError("builds a dictionary with a key that is not a constant string")
            items[key] = v
        d = node.output()
        uses = sorted(d.uses(), key=lambda u: _position(graph, u.user))
        for use in uses:
            user = use.user
            key = _constant(list(user.inputs())[1]) if user.kind() in ("aten::_set_item", "aten::__getitem__") else None
            if key is None:
                raise ExportError(f"uses a dictionary through {user.kind()}")
            if user.kind() == "aten::_set_item":
                items[key] = list(user.inputs())[2]
            else:
                if key not in items:
                    raise ExportError(f"reads '{key}' from a dictionary before it is set")
                user.output().replaceAllUsesWith(items[key])
        for use in uses:
            use.user.destroy()
        node.destroy()


def _position(graph: "torch._C.Graph", node: "torch._C.Node") -> int:
    for i, n in enumerate(graph.nodes()):
        if n == node:
            return i
    raise ExportError(f"uses a dictionary inside a branch or loop ({node.kind()})")


def _reverse_as_flip(graph: "torch._C.Graph") -> None:
    """`outs.reverse()` before `torch.stack(outs, d)` (an encoder's backward direction, in
    model_code.py and the Keras adapter) becomes a flip of the stacked tensor along d: torch 1.13's
    exporter drops aten::reverse on a list without a word, and the backward states came out in
    reading order reversed. Any other use of a reversed list is refused."""
    for node in graph.findAllNodes("aten::reverse"):
        values = node.inputsAt(0)
        later = [u.user for u in values.uses() if u.user != node and u.user.isAfter(node)]
        if not later or any(u.kind() != "aten::stack" or u.owningBlock() != node.owningBlock() for u in later):
            raise ExportError("reverses a list that it does not only stack (ONNX has no reverse of a sequence)")
        for stack in later:
            dim = stack.inputsAt(1).node()
            if dim.kind() != "prim::Constant":
                raise ExportError("stacks a reversed list along a dimension that is not a constant")
            dims = graph.create("prim::Constant")
            dims.is_("value", [dim.i("value")])
            dims.output().setType(torch._C.ListType.ofInts())
            dims.insertAfter(stack)
            flip = graph.create("aten::flip", [stack.output(), dims.output()], 1)
            flip.output().setType(stack.output().type())
            flip.insertAfter(dims)
            stack.output().replaceAllUsesWith(flip.output())
            flip.replaceInput(0, stack.output())
        node.destroy()


@contextlib.contextmanager
def _rewritten() -> Iterator[None]:
    # torch.onnx inlines the scripted methods in _optimize_graph; the rewrites run right after
    # that, before its own passes (which refuse prim::DictConstruct and drop aten::reverse).
    from torch.onnx import utils
    original = utils._optimize_graph

    def optimize(graph, *args, **kwargs):
        torch._C._jit_pass_inline(graph)
        torch._C._jit_pass_constant_propagation(graph)  # resolves `if reverse:` and the like
        _unfold_dicts(graph)
        _reverse_as_flip(graph)
        torch._C._jit_pass_dce(graph)
        return original(graph, *args, **kwargs)

    utils._optimize_graph = optimize
    try:
        yield
    finally:
        utils._optimize_graph = original


def _probe(model: LoadedModel) -> Tuple[Tuple[Tensor, ...], Dict[str, Tensor], List[str]]:
    """encode and one step of a three-token source: the example inputs of the export, and which
    optional outputs this model's step has."""
    eos = model.src_specials.get("eos", 0)
    ids = [i for i in range(len(model.src_vocab)) if i not in model.src_specials.values()][:2]
    src = torch.tensor([ids + [eos if model.source_eos else ids[0]]])
    with torch.no_grad():
        enc = tuple(model.module.encode(src, torch.tensor([src.size(1)])))
        out = dict(model.module.step(torch.tensor([model.start_id]), enc[1], enc[0], enc[3], enc[2]))
    names = [k for k in STEP_OUTPUTS if k in out]
    return enc, out, names


def _refused(model_path: str, method: str, error: Exception) -> ExportError:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    if "Exporting the operator" in text:
        op = text.split("'")[1] if "'" in text else text
        return ExportError(f"the model '{model_path}' cannot run in a live page: its {method} uses the operator "
                           f"'{op}', which ONNX (opset {OPSET}) lacks")
    return ExportError(f"the model '{model_path}' cannot run in a live page: exporting its {method} failed: {text}")


def _check(path: Path, model_path: str, method: str) -> None:
    import onnx
    try:
        onnx.checker.check_model(str(path))
    except Exception as e:  # onnx's checker raises its own ValidationError
        raise ExportError(f"the model '{model_path}': the ONNX graph of its {method} does not pass onnx.checker: "
                          f"{str(e).splitlines()[0]}") from None


def _drop_shapes(graph: Any, top: bool) -> None:
    del graph.value_info[:]
    if not top:  # a Loop's or If's body: its outputs' ranks are guesses too
        for output in graph.output:
            if output.type.HasField("tensor_type"):  # not a sequence's (touching it would make it a tensor)
                output.type.tensor_type.ClearField("shape")
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.HasField("g"):
                _drop_shapes(attribute.g, False)


def _finish(path: Path, half: bool, ranks: Dict[str, int]) -> Optional[str]:
    """Drops the shapes torch's scripting export guessed for intermediate values and outputs (some
    have the wrong rank, and ONNX Runtime refused or warned at every run), keeping the element types.

    With `half` (a float16 model file, widened on load), every float32 weight that float16 holds
    exactly goes to a file of its own as float16 (PATH.weights, returned), which the graph names as
    float32 external data at twice the offsets: the page widens it back (live.js) and hands ONNX
    Runtime the same float32 numbers the C++ loader computes. Half the bytes, and unlike a Cast in
    the graph (tried: a step took 20 ms, not 6) the session sees plain float32 weights."""
    import onnx
    import onnx.numpy_helper
    model = onnx.load(str(path))
    graph = model.graph
    _drop_shapes(graph, top=True)
    for output in graph.output:  # each output's rank as the probe gave it, every size left open
        shape = output.type.tensor_type.shape
        del shape.dim[:]
        for i in range(ranks[output.name]):
            shape.dim.add().dim_param = f"{output.name}_{i}"
    weights = bytearray()
    name = path.stem + ".weights"
    for init in graph.initializer if half else []:
        if init.data_type != onnx.TensorProto.FLOAT or np.prod(init.dims) < 1024:
            continue
        value = onnx.numpy_helper.to_array(init)
        narrow = value.astype("<f2")
        if not np.array_equal(narrow.astype(np.float32), value):
            continue
        offset = len(weights)
        weights += narrow.tobytes()
        init.ClearField("raw_data")
        del init.float_data[:]
        init.data_location = onnx.TensorProto.EXTERNAL
        for key, v in (("location", name), ("offset", str(2 * offset)), ("length", str(2 * narrow.nbytes))):
            entry = init.external_data.add()
            entry.key, entry.value = key, v
    onnx.save(model, str(path))
    if not weights:
        return None
    (path.parent / name).write_bytes(bytes(weights))
    return name


_JS_SYNTAX = set("^$\\.*+?()[]{}|/-")


def js_pattern(pattern: str) -> str:
    """An RE2 pattern of a `replace` normaliser as a JavaScript pattern (flags "gu") that matches
    the same text, or ValueError saying which part JavaScript would run otherwise. Conservative: what
    is not known to agree is refused (the page must not approximate the model's tokenizer)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 >= len(pattern):
                raise ValueError("ends in a lone backslash")
            e = pattern[i + 1]
            m = re.match(r"x\{([0-9A-Fa-f]{1,6})\}", pattern[i + 1:])
            if m:
                out.append("\\u{" + m.group(1) + "}")
                i += 1 + m.end()
                continue
            if e in "dDwWbBntrfv" and not (in_class and e in "bB"):  # ASCII-only in both
                out.append(c + e)
            elif not e.isalnum():
                out.append("\\" + e if e in _JS_SYNTAX else "\\u{%x}" % ord(e))
            else:
                raise ValueError(f"uses \\{e}, which RE2 and JavaScript read differently (or JavaScript lacks)")
            i += 2
            continue
        if in_class:
            if pattern.startswith("[:", i):
                raise ValueError("uses a POSIX class ([:name:]), which JavaScript lacks")
            if c == "]":
                in_class = False
            out.append(c if c not in "[/" else "\\" + c)
        elif c == "[":
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):  # RE2: a leading ] is literal
                out.append("\\]")
                i += 1
        elif c == ".":
            raise ValueError("uses '.', which in RE2 matches \\r, U+2028 and U+2029 and in JavaScript does not")
        elif c == "(" and pattern.startswith("(?", i) and not pattern.startswith("(?:", i):
            raise ValueError("uses a group flag or a named group ((?...)), which JavaScript reads otherwise")
        elif c == "{" and not re.match(r"\{\d+(,\d*)?\}", pattern[i:]):
            out.append("\\{")  # RE2 reads it literally; JavaScript's u flag would refuse it
        elif c == "}" and not re.search(r"\{\d+(,\d*)?$", pattern[:i]):
            out.append("\\}")
        elif c == "/":
            out.append("\\/")
        else:
            out.append(c)
        i += 1
    if in_class:
        raise ValueError("has an unclosed [")
    return "".join(out)


def _casefolds() -> Dict[str, str]:
    """Full case folding (CaseFolding.txt C+F, as utf8proc's UTF8PROC_CASEFOLD): JavaScript has none."""
    import sys as _sys
    table = {}
    for cp in range(_sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        folded = ch.casefold()
        if folded != ch:
            table[ch] = folded
    return table


def _tokenizer(description: str, out: Path, side: str) -> Dict[str, Any]:
    """The tokenizer description for the page (resources/web/live/tokenizer.js): a SentencePiece
    model written as its own `.model` file (the bytes the model file carries, for sentencepiece-js),
    the case folding table where the rules fold case, each `replace` pattern translated to
    JavaScript's (ValueError where it cannot be: export refuses the model)."""
    spec = json.loads(description)
    kind = spec.get("kind", "word")
    if kind not in ("word", "whitespace", "char", "sentencepiece"):
        raise ValueError(f"has kind '{kind}', which the page does not know")
    if kind == "sentencepiece" and isinstance(spec.get("model"), str):
        name, data = f"{side}.model", base64.b64decode(spec["model"])
        if side == "tgt" and (out / "src.model").is_file() and (out / "src.model").read_bytes() == data:
            name = "src.model"  # a shared vocabulary: the page carries it once and loads one processor
        else:
            (out / name).write_bytes(data)
        spec = dict(spec, model=None, model_file=name)
    steps = []
    for step in spec.get("normalizers", []):
        if step.get("type") == "replace":
            try:
                step = dict(step, js_pattern=js_pattern(step["pattern"]))
            except ValueError as e:
                raise ValueError(f"has the pattern {step['pattern']!r}, which {e}") from None
        steps.append(step)
    if steps:
        spec = dict(spec, normalizers=steps)
    if (kind == "word" and spec.get("lowercase", True)) or any(s.get("type") == "casefold" for s in steps):
        spec = dict(spec, casefold=_casefolds())
    return spec


def export(model_path: str, out_dir: str, half: bool = True) -> Dict[str, Any]:
    """Writes encode.onnx, step.onnx, model.json (vocabularies, specials, tokenizers, the graphs'
    inputs and outputs) and the tokenizers' .model files into `out_dir`; returns model.json's
    content. Raises ExportError naming the model file (and the operator) when it cannot be exported,
    and then writes nothing."""
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp, warnings.catch_warnings():
        # torch.onnx warns that a ScriptMethod has no Python signature: true, and nothing to act on
        warnings.filterwarnings("ignore", message="no signature found")
        info = _export(model_path, Path(tmp), half)
        made = list(Path(tmp).iterdir())
        for f in made:  # files.py's rule: a link, pipe or device under a name made here is refused, not replaced
            check_output(Path(out_dir) / f.name)
        for f in made:
            os.replace(f, Path(out_dir) / f.name)
    return info


def _export(model_path: str, out: Path, half: bool) -> Dict[str, Any]:
    model = LoadedModel(model_path)
    module = model.module
    tokenizers = {}
    for side in ("src", "tgt"):  # first: a tokenizer the page cannot run refuses the model at once
        try:
            tokenizers[side] = (_tokenizer(getattr(module, side + "_tokenizer"), out, side)
                                if hasattr(module, side + "_tokenizer") else {"kind": "word", "casefold": _casefolds()})
        except ValueError as e:
            raise ExportError(f"the model '{model_path}' cannot run in a live page: its {'source' if side == 'src' else 'target'} "
                              f"tokenizer {e}") from None
    _register_symbolics()
    enc, step_out, step_names = _probe(model)
    # The source length is the only axis that changes between sentences (and the batch, for beam):
    # found by encoding two lengths, not assumed, so keys of any shape (e.g. [B,1,E]) are right.
    with torch.no_grad():
        longer = module.encode(torch.cat([enc[2].long() * 0 + 5] * 2, 1), torch.tensor([2 * enc[0].size(1)]))
    s_axes = [[d for d in range(1, t.dim()) if t.size(d) != u.size(d)] for t, u in zip(enc, longer)]
    enc_axes = {name: {0: "B", **{d: "S" for d in axes}} for name, axes in zip(ENCODE_OUTPUTS, s_axes)}

    module.define("def forward(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:\n"
                  "    return self.encode(src, src_len)\n")
    src = torch.tensor([[5] * enc[0].size(1)])
    encode_path = out / "encode.onnx"
    try:
        with _rewritten():
            torch.onnx.export(module, (src, torch.tensor([src.size(1)])), str(encode_path), opset_version=OPSET,
                              input_names=["src", "src_len"], output_names=list(ENCODE_OUTPUTS),
                              dynamic_axes={"src": {0: "B", 1: "S"}, "src_len": {0: "B"}, **enc_axes})
    except ExportError as e:
        raise ExportError(f"the model '{model_path}' cannot run in a live page: its encode {e}") from None
    except Exception as e:
        raise _refused(model_path, "encode", e) from None

    returns = ", ".join(f"out['{k}']" for k in step_names)
    module = LoadedModel(model_path).module  # a fresh copy: each export defines its own forward
    module.define("def forward(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> "
                  f"Tuple[{', '.join(['Tensor'] * len(step_names))}]:\n"
                  f"    out = self.step(y_prev, state, enc, keys, mask)\n    return ({returns},)\n")
    step_axes = {"y_prev": {0: "B"}, "state": {0: "B"}, "enc": enc_axes["enc"], "keys": enc_axes["keys"],
                 "mask": enc_axes["mask"]}
    for name in step_names:
        t = step_out[name]
        step_axes["out_" + name] = {0: "B", **({1: "S"} if name in ("alpha", "energies") else {})}
    step_path = out / "step.onnx"
    try:
        with _rewritten():
            torch.onnx.export(module, (torch.tensor([model.start_id]), enc[1], enc[0], enc[3], enc[2]),
                              str(step_path), opset_version=OPSET,
                              input_names=["y_prev", "state", "enc", "keys", "mask"],
                              output_names=["out_" + k for k in step_names], dynamic_axes=step_axes)
    except ExportError as e:
        raise ExportError(f"the model '{model_path}' cannot run in a live page: its step {e}") from None
    except Exception as e:
        raise _refused(model_path, "step", e) from None
    half = half and model.metadata.get("stored_dtype") == "float16"
    ranks = {**{n: t.dim() for n, t in zip(ENCODE_OUTPUTS, enc)}, **{"out_" + k: step_out[k].dim() for k in step_names}}
    weights = {"encode": _finish(encode_path, half, ranks), "step": _finish(step_path, half, ranks)}
    _check(encode_path, model_path, "encode")
    _check(step_path, model_path, "step")

    meta = model.metadata
    info = {
        "model": os.path.basename(model_path),
        "name": model.name,
        "opset": OPSET,
        "encode": {"file": "encode.onnx", "inputs": ["src", "src_len"], "outputs": list(ENCODE_OUTPUTS),
                   "weights_float16": weights["encode"]},
        "step": {"file": "step.onnx", "inputs": ["y_prev", "state", "enc", "keys", "mask"],
                 "outputs": step_names, "output_names": ["out_" + k for k in step_names],
                 "weights_float16": weights["step"]},
        "src_vocab": model.src_vocab, "tgt_vocab": model.tgt_vocab,
        "src_specials": model.src_specials, "tgt_specials": model.tgt_specials,
        "src_tokenizer": tokenizers["src"], "tgt_tokenizer": tokenizers["tgt"],
        "metadata": {k: meta[k] for k in ("max_length", "max_source_length", "source_eos", "attends_padding",
                                          "alpha_is_uniform", "attention", "decoder", "architecture", "licence",
                                          "license") if k in meta},
    }
    (out / "model.json").write_text(json.dumps(info, ensure_ascii=False), encoding="utf-8")
    return info


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python3 -m alignscope.onnx_export MODEL.pt OUT_DIR", file=sys.stderr)
        return 2
    try:
        info = export(args[0], args[1])
    except (ExportError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sizes = {f: os.path.getsize(os.path.join(args[1], f)) for f in sorted(os.listdir(args[1]))}
    print(json.dumps({"model": info["model"], "files": sizes, "step_outputs": info["step"]["outputs"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
