"""The checks a model file passes before PyTorch reads a byte of it: the Python side of the C++ loader's
core/model/ModelArchive.cpp and PickleScanner.cpp, with the limits both read from model_checks.json.

PyTorch 1.13 trusts its archives: it skips checksums, inflates whatever size an entry claims,
unpickles without bounds and reads tensors wherever their sizes point (SIGSEGV on a zero-sized
storage, gigabytes for a damaged string length, a stack overflow on deeply nested code). This reads
the zip's own directory instead and checks, entry by entry:
  - the directory is whole: every entry lies inside the file, none overlaps another, no name appears
    twice, nothing is encrypted or compressed other than stored/deflated;
  - every entry's bytes match its CRC-32; inflated sizes are capped in total and by ratio (a zip bomb);
  - every pickle runs on a small stack machine that builds nothing but plain values: storages
    against their records, tensors inside their storages, no instruction on an empty stack;
  - code nests brackets at most max_code_nesting deep (TorchScript's parser recurses per level).
Messages are the C++ loader's: "'PATH' is damaged or not a model file: ..."."""

import json
import os
import struct
import zlib
from typing import Callable, Dict, List, Optional, Tuple

from .files import open_input

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "model_checks.json"), encoding="utf-8") as _f:
    CHECKS = json.load(_f)

_A, _P = CHECKS["archive"], CHECKS["pickle"]
MAX_INFLATED_BYTES: int = _A["max_inflated_bytes"]
MAX_RATIO: int = _A["max_ratio"]
RATIO_CHECKED_ABOVE: int = _A["ratio_checked_above_bytes"]
MAX_ENTRIES: int = _A["max_entries"]
MAX_CODE_NESTING: int = _A["max_code_nesting"]
METHODS = set(_A["compression_methods"].values())
MAX_NESTING: int = _P["max_nesting"]
MAX_MEMO: int = _P["max_memo_entries"]
REBUILDERS = tuple(_P["tensor_rebuilders"])
ELEMENT_BYTES: Dict[str, int] = _P["storage_element_bytes"]
CHUNK = 1 << 20


class Damaged(ValueError):
    pass


class Entry:
    __slots__ = ("name", "offset", "stored", "size", "crc", "deflated")

    def __init__(self, name: str, stored: int, size: int, crc: int, deflated: bool) -> None:
        self.name, self.stored, self.size, self.crc, self.deflated, self.offset = name, stored, size, crc, deflated, 0


def _le(b: bytes, at: int, n: int) -> int:
    return int.from_bytes(b[at:at + n], "little")


def _mib(n: int) -> str:
    return f"{(n + (1 << 20) - 1) >> 20} MiB"


def check_archive(path: str, saved: bool = False) -> List[Entry]:
    """ModelArchive::check: the entries of the model file at `path`, or ValueError naming the file,
    the entry and what is wrong. saved: a torch.save file (a checkpoint), whose pickle may fill an
    object as a dict or set (an OrderedDict, a defaultdict), which TorchScript's never does."""
    with open_input(path, "model file" if not saved else "checkpoint") as f:
        return _ArchiveCheck(f, path, saved).run()


class _ArchiveCheck:
    def __init__(self, f, name: str, saved: bool = False) -> None:
        self.f, self.name, self.saved = f, name, saved
        self.size = os.fstat(f.fileno()).st_size
        self.entries: List[Entry] = []

    def damaged(self, why: str) -> "Damaged":
        return Damaged(f"'{self.name}' is damaged or not a model file: {why}")

    def read(self, at: int, n: int) -> bytes:
        self.f.seek(at)
        data = self.f.read(n)
        if len(data) != n:
            raise self.damaged("it could not be read to the end (an I/O error, or it changed while read)")
        return data

    def run(self) -> List[Entry]:
        self.directory()
        by_name = {e.name: e for e in self.entries}
        inflated = 0
        for e in self.entries:
            inflated += e.size
            if inflated > MAX_INFLATED_BYTES:
                raise self.damaged(f"its entries inflate to more than {_mib(MAX_INFLATED_BYTES)} in all")
        for e in self.entries:
            pickle = e.name.endswith(".pkl") or e.name.endswith(".debug_pkl")
            code = e.name.startswith("code/") and e.name.endswith(".py")
            content = self.entry(e, pickle or code)
            if pickle:
                # data.pkl's storages are records under data/; constants.pkl's under constants/.
                folder = "data/" if e.name == "data.pkl" else "constants/"

                def record_size(key: str, folder: str = folder) -> int:
                    r = by_name.get(folder + key)
                    return -1 if r is None else r.size
                try:
                    scan_pickle(content, record_size, self.saved)
                except Damaged as err:
                    raise self.damaged(f"its pickle '{e.name}' is damaged at {err}") from None
            if code:
                self.nesting(e.name, content)
        return self.entries

    def directory(self) -> None:
        size = self.size
        if size < 22:
            raise self.damaged("it is too short to be a zip archive")
        # The end-of-directory record sits in the last 22 + 65535 (comment) bytes.
        tail_size = min(size, 22 + 65535)
        tail = self.read(size - tail_size, tail_size)
        eocd = tail.rfind(b"PK\x05\x06", 0, len(tail) - 22 + 4)
        if eocd < 0:
            raise self.damaged("it has no zip directory (cut short?)")
        eocd_at = size - tail_size + eocd
        count, dir_size, dir_at = _le(tail, eocd + 10, 2), _le(tail, eocd + 12, 4), _le(tail, eocd + 16, 4)
        if count == 0xFFFF or dir_size == 0xFFFFFFFF or dir_at == 0xFFFFFFFF:  # zip64
            if eocd_at < 20:
                raise self.damaged("its zip64 directory locator is missing")
            locator = self.read(eocd_at - 20, 20)
            if _le(locator, 0, 4) != 0x07064B50:
                raise self.damaged("its zip64 directory locator is missing")
            at = _le(locator, 8, 8)
            if at > eocd_at or eocd_at - at < 56:
                raise self.damaged("its zip64 directory record lies outside the file")
            record = self.read(at, 56)
            if _le(record, 0, 4) != 0x06064B50:
                raise self.damaged("its zip64 directory record is damaged")
            count, dir_size, dir_at = _le(record, 32, 8), _le(record, 40, 8), _le(record, 48, 8)
        if count > MAX_ENTRIES:
            raise self.damaged(f"it declares {count} entries")
        if dir_at > eocd_at or dir_size > eocd_at - dir_at:
            raise self.damaged("its zip directory lies outside the file")
        d = self.read(dir_at, dir_size)
        p = 0
        seen = set()
        ranges: List[Tuple[int, int]] = []
        for i in range(count):
            if len(d) - p < 46 or _le(d, p, 4) != 0x02014B50:
                raise self.damaged(f"its zip directory is damaged (entry {i + 1})")
            flags, method = _le(d, p + 8, 2), _le(d, p + 10, 2)
            crc, stored, inflated = _le(d, p + 16, 4), _le(d, p + 20, 4), _le(d, p + 24, 4)
            name_len, extra_len, comment_len = _le(d, p + 28, 2), _le(d, p + 30, 2), _le(d, p + 32, 2)
            local = _le(d, p + 42, 4)
            if len(d) - p - 46 < name_len + extra_len + comment_len:
                raise self.damaged(f"its zip directory is damaged (entry {i + 1})")
            full = d[p + 46:p + 46 + name_len].decode("utf-8", "replace")
            # zip64 sizes and offset, in the order of the fields that overflowed.
            x, end = p + 46 + name_len, p + 46 + name_len + extra_len
            while x + 4 <= end:
                ident, length = _le(d, x, 2), _le(d, x + 2, 2)
                if x + 4 + length > end:
                    raise self.damaged(f"entry '{full}' has a damaged extra field")
                if ident == 0x0001:
                    fields, at = [inflated, stored, local], x + 4
                    for k in range(3):
                        if fields[k] != 0xFFFFFFFF:
                            continue
                        if at + 8 > x + 4 + length:
                            raise self.damaged(f"entry '{full}' has a damaged zip64 field")
                        fields[k] = _le(d, at, 8)
                        at += 8
                    inflated, stored, local = fields
                x += 4 + length
            p += 46 + name_len + extra_len + comment_len
            name = full.split("/", 1)[1] if "/" in full else full
            if name in seen:
                raise self.damaged(f"entry '{name}' appears twice")
            seen.add(name)
            if flags & 1:
                raise self.damaged(f"entry '{name}' is encrypted")
            if method not in METHODS:
                raise self.damaged(f"entry '{name}' uses compression method {method} (stored or deflated only)")
            e = Entry(name, stored, inflated, crc, method == 8)
            if not e.deflated and stored != inflated:
                raise self.damaged(f"entry '{name}' is stored with two different sizes")
            if e.deflated and inflated > RATIO_CHECKED_ABOVE and inflated // max(stored, 1) > MAX_RATIO:
                raise self.damaged(f"entry '{name}' would inflate from {stored} bytes to {_mib(inflated)} (a zip bomb?)")
            if local > dir_at or dir_at - local < 30:
                raise self.damaged(f"entry '{name}' lies outside the file")
            header = self.read(local, 30)
            if _le(header, 0, 4) != 0x04034B50:
                raise self.damaged(f"entry '{name}' has no local header where the directory says")
            data_at = local + 30 + _le(header, 26, 2) + _le(header, 28, 2)
            if data_at > dir_at or stored > dir_at - data_at:
                raise self.damaged(f"entry '{name}' runs past the end of the file's data (cut short?)")
            e.offset = data_at
            ranges.append((local, data_at + stored))
            self.entries.append(e)
        ranges.sort()
        for (_, end), (start, _) in zip(ranges, ranges[1:]):
            if start < end:
                raise self.damaged("two of its entries overlap (a zip bomb or a spliced file)")

    def entry(self, e: Entry, keep: bool) -> bytes:
        """Checks the CRC-32 (and, deflated, the size) of an entry; its bytes when `keep`."""
        crc, parts = 0, []
        if not e.deflated:
            done = 0
            while done < e.stored:
                chunk = self.read(e.offset + done, min(CHUNK, e.stored - done))
                crc = zlib.crc32(chunk, crc)
                if keep:
                    parts.append(chunk)
                done += len(chunk)
        else:
            z = zlib.decompressobj(-15)
            consumed = produced = 0
            pending = b""
            while not z.eof:
                if not pending:
                    if consumed == e.stored:
                        raise self.damaged(f"entry '{e.name}' ends inside its compressed data")
                    pending = self.read(e.offset + consumed, min(CHUNK, e.stored - consumed))
                    consumed += len(pending)
                try:
                    out = z.decompress(pending, CHUNK)
                except zlib.error:
                    raise self.damaged(f"entry '{e.name}' has damaged compressed data") from None
                pending = z.unconsumed_tail
                produced += len(out)
                if produced > e.size:
                    raise self.damaged(f"entry '{e.name}' inflates to more than the {e.size} bytes it declares")
                crc = zlib.crc32(out, crc)
                if keep:
                    parts.append(out)
            if produced != e.size:
                raise self.damaged(f"entry '{e.name}' inflates to {produced} bytes, not the {e.size} it declares")
        if crc != e.crc:
            raise self.damaged(f"entry '{e.name}' fails its checksum (bytes changed since it was written)")
        return b"".join(parts)

    def nesting(self, entry: str, code: bytes) -> None:
        depth, line, quote, i, n = 0, 1, 0, 0, len(code)
        while i < n:
            c = code[i]
            if c == 10:
                line += 1
            if quote:
                if c == 92:  # backslash
                    i += 1
                elif c == quote:
                    quote = 0
            elif c in (39, 34):
                quote = c
            elif c in (40, 91, 123):
                depth += 1
                if depth > MAX_CODE_NESTING:
                    raise self.damaged(f"its code '{entry}' nests brackets more than {MAX_CODE_NESTING} deep at line {line}")
            elif c in (41, 93, 125) and depth > 0:
                depth -= 1
            i += 1


# --------------------------------------------------------------------------------------------------
# PickleScanner: a pickle run on a machine that builds only what the checks need.

class _Node:
    __slots__ = ("kind", "number", "text", "items", "depth")

    def __init__(self, kind: str, number: int = 0, text: str = "", items: Tuple = (), depth: int = 1) -> None:
        self.kind, self.number, self.text, self.items, self.depth = kind, number, text, items, depth


_KIND_NAMES = {"None": "None", "Bool": "a bool", "Int": "an int", "BigInt": "an int", "Float": "a float",
               "String": "a string", "Bytes": "bytes", "Tuple": "a tuple", "List": "a list", "Dict": "a dict",
               "Set": "a set", "Global": "a class or function", "Object": "an object", "Storage": "a storage",
               "Tensor": "a tensor"}


def scan_pickle(data: bytes, record_size: Optional[Callable[[str], int]], saved: bool = False) -> None:
    """PickleScanner::scan: Damaged("byte N: why") when the pickle is malformed, uses an instruction
    PyTorch does not read, refers to a missing storage or one whose record holds another number of
    bytes than it declares, or rebuilds a tensor reaching past the end of its storage."""
    if not data:
        raise Damaged("byte 0: the pickle is empty")
    _Machine(data, record_size, saved).run()


class _Machine:
    def __init__(self, data: bytes, record_size: Optional[Callable[[str], int]], saved: bool = False) -> None:
        self.data, self.record_size, self.saved = data, record_size, saved
        self.pos = self.at = 0
        self.stack: List[_Node] = []
        self.marks: List[int] = []
        self.memo: Dict[int, _Node] = {}

    def fail(self, why: str) -> Damaged:
        return Damaged(f"byte {self.at}: {why}")

    def take(self, n: int) -> bytes:
        if n > len(self.data) - self.pos:
            raise self.fail("the pickle ends inside an instruction (cut short or damaged)")
        s = self.data[self.pos:self.pos + n]
        self.pos += n
        return s

    def little(self, n: int) -> int:
        return int.from_bytes(self.take(n), "little")

    def line(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise self.fail("the pickle ends inside a text instruction")
        s = self.data[self.pos:end]
        self.pos = end + 1
        return s

    def counted(self, n: int) -> bytes:
        if n > len(self.data) - self.pos:
            raise self.fail(f"a string declares {n} bytes but only {len(self.data) - self.pos} remain (a damaged length)")
        return self.take(n)

    def floor(self) -> int:
        return self.marks[-1] if self.marks else 0

    def pop(self) -> _Node:
        if len(self.stack) <= self.floor():
            raise self.fail("an instruction takes a value from an empty stack")
        return self.stack.pop()

    def top(self) -> _Node:
        if len(self.stack) <= self.floor():
            raise self.fail("an instruction needs a value on an empty stack")
        return self.stack[-1]

    def pop_mark(self) -> List[_Node]:
        if not self.marks:
            raise self.fail("an instruction needs a MARK that was never set")
        at = self.marks.pop()
        items = self.stack[at:]
        del self.stack[at:]
        return items

    def push(self, v: _Node) -> None:
        for item in v.items:
            v.depth = max(v.depth, item.depth + 1)
        if v.depth > MAX_NESTING:
            raise self.fail(f"values nest more than {MAX_NESTING} deep")
        self.stack.append(v)

    def container(self, kind: str, items: List[_Node]) -> _Node:
        n = _Node(kind)
        for item in items:
            n.depth = max(n.depth, item.depth + 1)
        if kind == "Tuple":  # only tuples' items are read; mutable containers keep their depth only (no cycles)
            n.items = tuple(items)
        return n

    def add_to(self, target: _Node, kind: str, items: List[_Node], what: str) -> None:
        if target.kind != kind and not ((kind == "List" or self.saved) and target.kind == "Object"):
            raise self.fail(f"{what} into {_KIND_NAMES[target.kind]}")
        if kind == "Dict" and len(items) % 2:
            raise self.fail("a dict update with a key and no value")
        for item in items:
            target.depth = max(target.depth, item.depth + 1)
        if target.depth > MAX_NESTING:
            raise self.fail(f"values nest more than {MAX_NESTING} deep")

    def put(self, index: int) -> None:
        if len(self.memo) > MAX_MEMO:
            raise self.fail("too many memo entries")
        self.memo[index] = self.top()

    def get(self, index: int) -> None:
        if index not in self.memo:
            raise self.fail(f"it reads memo entry {index}, which was never stored")
        self.push(self.memo[index])

    def decimal(self, s: bytes) -> int:
        if s.endswith(b"L"):
            s = s[:-1]
        if s == b"00":
            return 0  # protocol 0's False
        if s == b"01":
            return 1
        try:
            v = int(s.decode("ascii"), 10)
        except (ValueError, UnicodeDecodeError):
            raise self.fail("a malformed number") from None
        if not -(1 << 63) <= v < (1 << 63):
            raise self.fail("a malformed or too large number")
        return v

    def text(self, kind: str, s: bytes) -> None:
        self.push(_Node(kind, text=s.decode("utf-8", "replace") if kind == "String" else ""))

    def persistent(self, pid: _Node) -> None:
        # TorchScript writes ("storage", torch.<Type>Storage, key, location, numel).
        it = pid.items
        if (pid.kind != "Tuple" or len(it) != 5 or it[0].kind != "String" or it[0].text != "storage"
                or it[1].kind != "Global" or it[2].kind != "String" or it[4].kind != "Int"):
            raise self.fail('a reference to data that is not a storage ("storage", type, key, location, size)')
        if self.record_size is None:
            raise self.fail("a storage reference where none may be")
        kind = it[1].text.rpartition(".")[2]
        size = ELEMENT_BYTES.get(kind, 0)
        if size == 0:
            raise self.fail(f"a storage of unknown type '{it[1].text}'")
        elements, key = it[4].number, it[2].text
        if elements < 0:
            raise self.fail(f"storage '{key}' declares {elements} elements")
        recorded = self.record_size(key)
        if recorded < 0:
            raise self.fail(f"storage '{key}' has no record in the archive")
        if elements * size != recorded:
            raise self.fail(f"storage '{key}' declares {elements} elements of {size} bytes, and its record holds "
                            f"{recorded} bytes")
        self.push(_Node("Storage", number=elements, text=key))

    def check_tensor(self, args: Tuple[_Node, ...]) -> None:
        # _rebuild_tensor_v2(storage, offset, size, stride, ...): every element it reaches lies in the storage.
        if len(args) < 4 or args[0].kind != "Storage" or args[1].kind != "Int" or args[2].kind != "Tuple" \
                or args[3].kind != "Tuple":
            raise self.fail("a tensor rebuilt from something other than (storage, offset, size, stride)")
        sizes, strides = args[2].items, args[3].items
        if len(sizes) != len(strides) or len(sizes) > 64:
            raise self.fail("a tensor whose size and stride disagree")
        key, offset = args[0].text, args[1].number
        if offset < 0:
            raise self.fail(f"tensor on storage '{key}' starts at a negative offset")
        last, empty = offset, False
        for n, s in zip(sizes, strides):
            if n.kind != "Int" or s.kind != "Int":
                raise self.fail("a tensor with a size or stride that is not an int")
            if n.number < 0 or s.number < 0:
                raise self.fail(f"tensor on storage '{key}' has a negative size or stride")
            if n.number == 0:
                empty = True
            else:
                last += (n.number - 1) * s.number
        if not empty and last >= args[0].number:
            raise self.fail(f"a tensor reaches element {min(last, (1 << 63) - 1)} of storage '{key}', which has "
                            f"{args[0].number}")

    def run(self) -> None:
        while True:
            self.at = self.pos
            op = self.take(1)[0]
            if op == 0x2E:  # STOP
                break
            self.execute(op)
        if len(self.stack) != 1:
            raise self.fail(f"it ends with {len(self.stack)} values on the stack instead of 1")
        # Torch writes nothing after STOP; bytes there mean the pickle was spliced or damaged.
        if self.pos != len(self.data):
            raise self.fail(f"it has {len(self.data) - self.pos} bytes after its end")

    def execute(self, op: int) -> None:
        c = chr(op)
        if op == 0x80:
            self.take(1)  # PROTO
        elif op == 0x95:
            self.take(8)  # FRAME: a hint only
        elif c == "(":
            self.marks.append(len(self.stack))
        elif c == "0":
            self.pop()
        elif c == "1":
            self.pop_mark()
        elif c == "2":
            self.push(self.top())
        elif c == "N":
            self.push(_Node("None"))
        elif op in (0x88, 0x89):
            self.push(_Node("Bool", number=int(op == 0x88)))
        elif c == "J":
            self.push(_Node("Int", number=struct.unpack("<i", self.take(4))[0]))
        elif c == "K":
            self.push(_Node("Int", number=self.little(1)))
        elif c == "M":
            self.push(_Node("Int", number=self.little(2)))
        elif c in "IL":
            self.push(_Node("Int", number=self.decimal(self.line())))
        elif op in (0x8A, 0x8B):  # LONG1, LONG4: little-endian two's complement
            n = self.little(1 if op == 0x8A else 4)
            raw = self.counted(n)
            if n > 8:
                self.push(_Node("BigInt"))
            else:
                self.push(_Node("Int", number=int.from_bytes(raw, "little", signed=True)))
        elif c == "G":
            self.take(8)
            self.push(_Node("Float"))
        elif c == "F":
            self.line()
            self.push(_Node("Float"))
        elif c in "XT":
            self.text("String", self.counted(self.little(4)))
        elif op == 0x8C or c == "U":
            self.text("String", self.counted(self.little(1)))
        elif op == 0x8D:
            self.text("String", self.counted(self.little(8)))
        elif c == "B":
            self.text("Bytes", self.counted(self.little(4)))
        elif c == "C":
            self.text("Bytes", self.counted(self.little(1)))
        elif op == 0x8E:
            self.text("Bytes", self.counted(self.little(8)))
        elif c in "SV":
            self.text("String", self.line())
        elif c == ")":
            self.push(_Node("Tuple"))
        elif c == "t":
            self.push(self.container("Tuple", self.pop_mark()))
        elif op in (0x85, 0x86, 0x87):
            items = [self.pop() for _ in range(op - 0x84)][::-1]
            self.push(self.container("Tuple", items))
        elif c == "]":
            self.push(_Node("List"))
        elif c == "l":
            self.push(self.container("List", self.pop_mark()))
        elif c == "a":
            v = self.pop()
            self.add_to(self.top(), "List", [v], "an append")
        elif c == "e":
            items = self.pop_mark()
            self.add_to(self.top(), "List", items, "an append")
        elif c == "}":
            self.push(_Node("Dict"))
        elif c == "d":
            items = self.pop_mark()
            if len(items) % 2:
                raise self.fail("a dict with a key and no value")
            self.push(self.container("Dict", items))
        elif c == "s":
            v = self.pop()
            k = self.pop()
            self.add_to(self.top(), "Dict", [k, v], "a dict update")
        elif c == "u":
            items = self.pop_mark()
            self.add_to(self.top(), "Dict", items, "a dict update")
        elif op == 0x8F:
            self.push(_Node("Set"))
        elif op == 0x90:
            items = self.pop_mark()
            self.add_to(self.top(), "Set", items, "a set update")
        elif op == 0x91:
            self.push(self.container("Set", self.pop_mark()))
        elif c == "c":
            module = self.line().decode("utf-8", "replace")
            name = self.line().decode("utf-8", "replace")
            self.push(_Node("Global", text=f"{module}.{name}"))
        elif op == 0x93:  # STACK_GLOBAL
            name, module = self.pop(), self.pop()
            if module.kind != "String" or name.kind != "String":
                raise self.fail("a class named by something other than strings")
            self.push(_Node("Global", text=f"{module.text}.{name.text}"))
        elif c == "R":
            args, fn = self.pop(), self.pop()
            if fn.kind != "Global":
                raise self.fail(f"a call of {_KIND_NAMES[fn.kind]}, not of a class or function")
            if args.kind != "Tuple":
                raise self.fail(f"a call whose arguments are {_KIND_NAMES[args.kind]}, not a tuple")
            if fn.text in REBUILDERS:
                self.check_tensor(args.items)
            self.push(_Node("Tensor" if fn.text.startswith("torch._utils._rebuild_tensor") else "Object"))
        elif c == "b":
            self.pop()  # the state, set on the object below it
            self.top()
        elif op == 0x81:  # NEWOBJ
            args, cls = self.pop(), self.pop()
            if cls.kind != "Global" or args.kind != "Tuple":
                raise self.fail("a NEWOBJ of something other than a class and a tuple")
            self.push(_Node("Object"))
        elif op == 0x92:  # NEWOBJ_EX
            kwargs, args, cls = self.pop(), self.pop(), self.pop()
            if cls.kind != "Global" or args.kind != "Tuple" or kwargs.kind != "Dict":
                raise self.fail("a NEWOBJ_EX of something other than a class, a tuple and a dict")
            self.push(_Node("Object"))
        elif c == "q":
            self.put(self.little(1))
        elif c == "r":
            self.put(self.little(4))
        elif c == "p":
            self.put(self.decimal(self.line()))
        elif op == 0x94:
            self.put(len(self.memo))
        elif c == "h":
            self.get(self.little(1))
        elif c == "j":
            self.get(self.little(4))
        elif c == "g":
            self.get(self.decimal(self.line()))
        elif c == "Q":
            self.persistent(self.pop())
        elif c == "P":
            raise self.fail("a text persistent reference (TorchScript writes BINPERSID)")
        else:
            raise self.fail(f"an instruction (0x{op:02x}) that is not a pickle instruction LibTorch reads")
