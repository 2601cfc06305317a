"""Damaged and hostile copies of a model file, one maker per kind of file the fuzz campaign over
models/lesson-dates.pt found breaking AlignScope (../shared/fuzz/repro/README.md names them by
number: 0920-tensor-meta.pt and so on). The tests make their own copies from the bundled file, so
the regression suite needs nothing outside the repository."""

import io
import json
import pickletools
import random
import zipfile
import zlib
from pathlib import Path
from typing import Dict, List, Tuple

import torch

Entries = List[Tuple[str, bytes]]  # (name inside the archive, bytes), in archive order


def read_entries(path: Path) -> Entries:
    with zipfile.ZipFile(path) as z:
        return [(info.filename, z.read(info.filename)) for info in z.infolist()]


def write_entries(path: Path, entries: Entries) -> Path:
    """A well-formed archive (fresh checksums) of `entries`: the damage is inside, not in the zip."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_STORED)
    return path


def _find(entries: Entries, suffix: str) -> int:
    return next(i for i, (name, _) in enumerate(entries) if name.endswith(suffix))


def storage_numels(pickle: bytes) -> Dict[str, Tuple[int, int, int]]:
    """key -> (byte offset of the numel instruction, its length, numel) for every storage reference
    ("storage", type, key, location, numel) in a TorchScript pickle."""
    ops = list(pickletools.genops(pickle))
    found = {}
    for i, (op, arg, pos) in enumerate(ops):
        if op.name != "BINPERSID":
            continue
        # ... MARK 'storage' type key location numel TUPLE BINPERSID, with BINPUTs between
        j = i - 1
        assert ops[j][0].name == "TUPLE"
        values = []
        k = j - 1
        while ops[k][0].name != "MARK":
            if not ops[k][0].name.endswith("PUT"):
                values.append(ops[k])
            k -= 1
        values.reverse()
        numel_op = values[4]
        key = values[2][1]
        length = ops[j][2] - numel_op[2]
        found[key] = (numel_op[2], length, numel_op[1])
    return found


def parameter_keys(pickle: bytes) -> Dict[str, str]:
    """parameter name -> its storage key, in data.pkl."""
    ops = list(pickletools.genops(pickle))
    keys, name = {}, None
    for i, (op, arg, _) in enumerate(ops):
        if op.name in ("BINUNICODE", "SHORT_BINUNICODE") and i + 2 < len(ops) and ops[i + 2][0].name == "GLOBAL" \
                and "_rebuild_tensor" in ops[i + 2][1]:
            name = arg
        elif op.name in ("BINUNICODE", "SHORT_BINUNICODE") and i + 2 < len(ops) and ops[i + 2][0].name == "BINGET" and name is None:
            name = arg
        if op.name == "BINPERSID" and name is not None:
            keys[name] = storage_key_before(ops, i)
            name = None
    return keys


def storage_key_before(ops, i: int) -> str:
    values, k = [], i - 2
    while ops[k][0].name != "MARK":
        if not ops[k][0].name.endswith("PUT"):
            values.append(ops[k])
        k -= 1
    return list(reversed(values))[2][1]


def _set_numel(pickle: bytes, key: str, numel: int) -> bytes:
    pos, length, _ = storage_numels(pickle)[key]
    op = pickle[pos:pos + 1]
    width = {b"K": 1, b"M": 2, b"J": 4}[op]
    assert length == 1 + width
    return pickle[:pos + 1] + numel.to_bytes(width, "little") + pickle[pos + 1 + width:]


def _edit(src: Path, dst: Path, suffix: str, change) -> Path:
    entries = read_entries(src)
    i = _find(entries, suffix)
    entries[i] = (entries[i][0], change(entries[i][1]))
    return write_entries(dst, entries)


def _edit_code(src: Path, dst: Path, old: str, new: str) -> Path:
    """Rewrites the model's TorchScript code and drops its debug records (they map the old text)."""
    entries = [e for e in read_entries(src) if not e[0].endswith(".debug_pkl")]
    i = _find(entries, ".py")
    code = entries[i][1].decode()
    assert old in code, old
    entries[i] = (entries[i][0], code.replace(old, new, 1).encode())
    return write_entries(dst, entries)


STEP_START = "    y = torch.embedding(tgt_emb, y_prev)\n"
ENCODE_RETURN = "    return (self)._encode(src, src_len, 0., )\n"
FOREVER = "    _i = 0\n    while torch.lt(_i, 1000000000000):\n      _i = torch.add(_i, 1)\n"
LONG_SOURCE = "    if torch.gt(torch.size(enc, 1), 4):\n"  # the contract probe's sources have 2 and 3 tokens


def zero_storage(src: Path, dst: Path, parameter: str) -> Path:
    """0920/1104/1012-tensor-meta: a weight's storage declares 0 elements (LibTorch: a null read)."""
    def change(pickle):
        return _set_numel(pickle, parameter_keys(pickle)[parameter], 0)
    return _edit(src, dst, "data.pkl", change)


def swap_record_lengths(src: Path, dst: Path) -> Path:
    """1194-storage-length: one weight record shorter, another as much longer; same total size."""
    entries = read_entries(src)
    a, b = _find(entries, "data/10"), _find(entries, "data/16")
    cut = len(entries[a][1]) // 2
    entries[a] = (entries[a][0], entries[a][1][:-cut])
    entries[b] = (entries[b][0], entries[b][1] + b"\0" * cut)
    return write_entries(dst, entries)


def deep_code(src: Path, dst: Path, depth: int = 50000) -> Path:
    """1361-code-edit: an expression nested 50,000 brackets deep (LibTorch's parser: stack overflow)."""
    return _edit_code(src, dst, ENCODE_RETURN, "    _deep = " + "(" * depth + "0" + ")" * depth + "\n" + ENCODE_RETURN)


def reduce_on_empty_stack(src: Path, dst: Path) -> Path:
    """0695-pkl-bytes: data.pkl calls REDUCE before anything is on the stack."""
    return _edit(src, dst, "data.pkl", lambda p: p[:2] + b"R" + p[2:])


def nan_weight(src: Path, dst: Path, parameter: str = "dec_wih") -> Path:
    """1237-weights-nonfinite: one NaN in a decoder weight (float16 or float32 storage)."""
    entries = read_entries(src)
    key = parameter_keys(entries[_find(entries, "data.pkl")][1])[parameter]
    i = _find(entries, "data/" + key)
    data = bytearray(entries[i][1])
    half = "HalfStorage" in str(list(pickletools.genops(entries[_find(entries, "data.pkl")][1])))
    nan = b"\x00\x7e" if half else b"\x00\x00\xc0\x7f"
    data[0:len(nan)] = nan
    entries[i] = (entries[i][0], bytes(data))
    return write_entries(dst, entries)


def nan_log_probs(src: Path, dst: Path) -> Path:
    """1287-code-edit: step returns NaN log-probabilities (0/0)."""
    return _edit_code(src, dst, "    return out\n",
                      '    torch._set_item(out, "log_probs", torch.div(torch.mul(out["log_probs"], 0.), 0.))\n    return out\n')


def step_loops_forever(src: Path, dst: Path, only_long_sources: bool = False) -> Path:
    """1303-code-edit: step loops 10^12 times (only for sources longer than the probe's, if asked)."""
    loop = FOREVER if not only_long_sources else LONG_SOURCE + FOREVER.replace("\n    ", "\n      ").replace("    _i", "      _i", 1)
    return _edit_code(src, dst, STEP_START, STEP_START + loop)


def encode_loops_forever(src: Path, dst: Path) -> Path:
    """1407-code-debugpkl: encode loops 10^12 times, debug records removed."""
    return _edit_code(src, dst, ENCODE_RETURN, FOREVER + ENCODE_RETURN)


def step_fails_on_long_sources(src: Path, dst: Path) -> Path:
    """1305-code-edit: step raises only for sources longer than the probe's."""
    return _edit_code(src, dst, STEP_START, STEP_START + LONG_SOURCE + '      ops.prim.RaiseException("fails on long sources")\n')


def step_state_shape_on_long_sources(src: Path, dst: Path) -> Path:
    """1312-code-edit: step returns a [B,1] state for sources longer than the probe's."""
    return _edit_code(src, dst, "    return out\n",
                      LONG_SOURCE + '      torch._set_item(out, "state", torch.slice(new_state, 1, 0, 1))\n    return out\n')


def flip_bytes(src: Path, dst: Path, count: int = 4, seed: int = 16) -> Path:
    """0016-raw-flip-any: bytes flipped anywhere in the weights, checksums left as they were."""
    data = bytearray(src.read_bytes())
    start = data.find(b"data/0") + 64
    rng = random.Random(seed)
    for _ in range(count):
        data[rng.randrange(start, len(data) // 2)] ^= 0xFF
    dst.write_bytes(bytes(data))
    return dst


def tokenizer_setting(src: Path, dst: Path, key: str, value) -> Path:
    """0841/0845-attr-tokenizer: a tokenizer setting of the wrong type ("kind": 7, "lowercase": "yes")."""
    module = torch.jit.load(str(src))
    settings = json.loads(module.src_tokenizer or "{}")
    settings[key] = value
    module._c.setattr("src_tokenizer", json.dumps(settings))
    module.save(str(dst))
    return dst


def delete_pickle_byte(src: Path, dst: Path, at: int = 2000) -> Path:
    """0551-pkl-bytes: one byte of data.pkl deleted (LibTorch: ~2 GB allocated before refusing)."""
    return _edit(src, dst, "data.pkl", lambda p: p[:at] + p[at + 1:])


def huge_string_length(src: Path, dst: Path) -> Path:
    """0669-pkl-bytes: a string in data.pkl declares 2 GB (LibTorch: std::bad_alloc)."""
    def change(p):
        i = p.index(b"X")  # the first BINUNICODE
        return p[:i + 1] + (0x7FFFFFF0).to_bytes(4, "little") + p[i + 5:]
    return _edit(src, dst, "data.pkl", change)


def zip_bomb(src: Path, dst: Path, inflated: int = 512 << 20) -> Path:
    """0501-zip-bomb: the code entry inflates to 512 MiB."""
    entries = read_entries(src)
    i = _find(entries, ".py")
    # Deflated as it is written, a mebibyte at a time: the file stays small.
    with zipfile.ZipFile(dst, "w") as z:
        for n, (name, data) in enumerate(entries):
            if n != i:
                z.writestr(zipfile.ZipInfo(name), data)
                continue
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=True) as out:
                chunk = data + b" " * ((1 << 20) - len(data))
                out.write(chunk)
                blank = b" " * (1 << 20)
                for _ in range((inflated >> 20) - 1):
                    out.write(blank)
    return dst


STEP_LOGITS = '    torch._set_item(out, "logits", (self)._logits(out["readout"], ))\n'  # in code written by update-code


def step_logits_doubled(src: Path, dst: Path) -> Path:
    """step_logits scores otherwise than step (twice the logits: another distribution). src: current code."""
    return _edit_code(src, dst, STEP_LOGITS,
                      '    torch._set_item(out, "logits", torch.mul((self)._logits(out["readout"], ), 2.))\n')


def step_logits_nan_on_long_sources(src: Path, dst: Path) -> Path:
    """step_logits returns NaN for sources longer than the probe's. src: current code."""
    return _edit_code(src, dst, STEP_LOGITS, STEP_LOGITS + LONG_SOURCE +
                      '      torch._set_item(out, "logits", torch.div(torch.mul(out["logits"], 0.), 0.))\n')


# Campaign 2 (../shared/fuzz/repro/README.md): the JSON attributes a file carries, and weights that
# leave the load probe's numbers finite.

def string_attribute(src: Path, dst: Path, name: str, value: str) -> Path:
    """One string attribute of the model (a tokenizer description, specials, metadata) replaced."""
    module = torch.jit.load(str(src))
    module._c.setattr(name, value)
    module.save(str(dst))
    return dst


def tokenizer_normalizers(src: Path, dst: Path, normalizers: List[Dict[str, str]]) -> Path:
    """regex-*.pt, spm-replace-*.pt: the source tokenizer gets these normalisers."""
    settings = json.loads(torch.jit.load(str(src)).src_tokenizer)
    settings["normalizers"] = normalizers
    return string_attribute(src, dst, "src_tokenizer", json.dumps(settings))


def metadata_changed(src: Path, dst: Path, **changes) -> Path:
    """max_length 100000, max_source_length 1 and the like."""
    meta = json.loads(torch.jit.load(str(src)).metadata)
    meta.update(changes)
    return string_attribute(src, dst, "metadata", json.dumps(meta))


def nested_metadata(src: Path, dst: Path, depth: int = 100000) -> Path:
    """metadata-nested-100000.pt: {"a": {"a": ... 1 ...}} 100,000 deep."""
    return string_attribute(src, dst, "metadata", '{"a":' * depth + "1" + "}" * depth)


def without_target_eos(src: Path, dst: Path) -> Path:
    """no-eos-*.pt: tgt_specials without "eos" (the vocabulary keeps its "</s>" as an ordinary token)."""
    specials = json.loads(torch.jit.load(str(src)).tgt_specials)
    specials.pop("eos")
    return string_attribute(src, dst, "tgt_specials", json.dumps(specials))


def weight_filled(src: Path, dst: Path, parameter: str, value: float) -> Path:
    """init_b-minus-inf.pt, init_b-plus-inf.pt: every value of one weight set to `value`."""
    module = torch.jit.load(str(src))
    with torch.no_grad():
        getattr(module, parameter).fill_(value)
    module.save(str(dst))
    return dst
