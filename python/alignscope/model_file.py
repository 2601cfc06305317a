"""Opening a model file the way the C++ loader does (core/model/TorchModelLoading.cpp), for every
place the package reads one (show(), `reference`, `import`, `train --init-from/--tokenizer-from`):

  1. a regular file of bounded size that starts like a zip archive (files.open_input);
  2. the archive and pickle checks of model_archive.py (sizes, entries, checksums, pickles, code);
  3. PyTorch's reader and the contract's test sentence in a child process with a time and memory
     limit (model_checks.json's "load"), so code that loops for ever, a crash in PyTorch's reader
     or a damaged size costs a message naming the file, not the notebook's kernel;
  4. only then the load that is kept.
A file whose exact bytes passed step 3 in this process is not probed again (a notebook that shows
many sentences of one model pays for the child once)."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, Optional

from .files import open_input
from .model_archive import CHECKS, check_archive

_LOAD = CHECKS["load"]
_ATTRIBUTES = CHECKS["attributes"]
MAX_JSON_DEPTH: int = _ATTRIBUTES["max_json_depth"]
MAX_JSON_BYTES: int = _ATTRIBUTES["max_json_bytes"]
MAX_TOKENIZER_BYTES: int = _ATTRIBUTES["max_tokenizer_bytes"]
MIN_DECLARED_LENGTH: int = CHECKS["metadata"]["min_declared_length"]
MAX_DECLARED_LENGTH: int = CHECKS["metadata"]["max_declared_length"]

_probed: Dict[str, bool] = {}  # sha-256 of files whose child passed, in this process


def load_time_limit(file_bytes: int) -> float:
    """loadTimeLimit in TorchModelLoading.cpp: enough to read a large model on a slow host, short
    enough that code which loops for ever is refused within seconds."""
    env = os.environ.get(_LOAD["time_limit_variable"], "")
    try:
        if float(env) > 0:
            return float(env)
    except ValueError:
        pass
    return _LOAD["base_seconds"] + _LOAD["seconds_per_mebibyte"] * file_bytes / (1 << 20)


def json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """AttributeJson::depth: the deepest nesting of objects and lists (strings skipped), stopping past
    `limit`, measured before json.loads builds anything (100,000 levels: RecursionError)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def attribute_json(text: Any, attribute: str, origin: str, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """AttributeJson::parse: a JSON attribute of a model, or ValueError naming `origin` and `attribute`."""
    if not isinstance(text, str):
        raise ValueError(f"{origin}: attribute '{attribute}' must be a string of JSON, not {type(text).__name__}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ValueError(f"{origin}: attribute '{attribute}' is {size >> 20} MiB; at most {max_bytes >> 20} MiB")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"{origin}: attribute '{attribute}' nests objects or lists deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{origin}: attribute '{attribute}' is not valid JSON (line {e.lineno}, column {e.colno}: "
                         f"{e.msg})") from None


def _digest(path: str) -> str:
    h = hashlib.sha256()
    with open_input(path, "model file") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_model_file(path: str) -> int:
    """Steps 1 and 2: ValueError naming the file; returns its size."""
    with open_input(path, "model file") as f:
        size = os.fstat(f.fileno()).st_size
        if f.read(2) != b"PK":
            raise ValueError(f"the model file '{path}' is not a TorchScript model file (it is not a zip archive)")
    check_archive(path)
    return size


def load_model_file(path: str, probe: bool = True) -> Any:
    """The TorchScript module of the model file at `path`, through steps 1-4 (probe=False: without
    step 3, for a caller that is the child itself)."""
    import torch
    size = check_model_file(path)
    if probe:
        digest = _digest(path)
        if digest not in _probed:
            _probe_in_child(path, size)
            _probed[digest] = True
    try:
        return torch.jit.load(path, map_location="cpu")
    except (RuntimeError, ValueError, UnicodeDecodeError, IndexError, KeyError) as e:
        why = str(e).strip().splitlines()[-1] if str(e).strip() else "its code or data is missing or damaged"
        raise ValueError(f"'{path}' is not a readable TorchScript model file: {why}") from None


def _probe_in_child(path: str, size: int) -> None:
    """Step 3: the file read and its test sentence run in a fresh interpreter with limits
    (IsolatedRun in the C++ loader). Raises ValueError naming the file."""
    seconds = load_time_limit(size)
    memory = _LOAD["extra_memory_bytes"] + _LOAD["memory_per_file_byte"] * size
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_parent, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               OMP_NUM_THREADS="1")
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen([sys.executable, "-c", "from alignscope.model_file import _child; _child()",
                                  path, str(memory)], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL,
                                 env=env, start_new_session=True)
        # The limit starts once the child has imported PyTorch (it prints "ready"): the file's time, not the import's.
        started: Optional[float] = None
        deadline_for_start = time.monotonic() + 120
        while child.poll() is None:
            now = time.monotonic()
            if started is None:
                # pread, not seek and read: the child writes through the same open file, and moving
                # its offset back to 0 let the verdict overwrite "ready" (no verdict, under load).
                if os.pread(out.fileno(), 5, 0) == b"ready":
                    started = now
                elif now > deadline_for_start:
                    break
            elif now - started > seconds:
                break
            time.sleep(0.02)
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            if started is None:
                raise ValueError(f"'{path}' could not be checked: the checking process did not start")
            raise ValueError(f"'{path}' did not load within {round(seconds, 1):g} s: its code may loop for ever; nothing "
                             f"was loaded ({_LOAD['time_limit_variable']} sets the limit)")
        lines = os.pread(out.fileno(), os.fstat(out.fileno()).st_size, 0).decode("utf-8", "replace").splitlines()
    report = lines[-1] if len(lines) >= 2 else ""
    if child.returncode < 0:
        raise ValueError(f"'{path}' is damaged or made to break model readers: it crashed PyTorch "
                         f"(signal {-child.returncode}); nothing was loaded")
    try:
        verdict = json.loads(report)
    except json.JSONDecodeError:
        verdict = {"error": f"'{path}' could not be checked (the checking process ended with status {child.returncode})"}
    if verdict.get("memory"):
        raise ValueError(f"'{path}' asked for more than {memory >> 20} MiB of memory (a damaged size?); nothing was loaded")
    if verdict.get("error"):
        raise ValueError(verdict["error"])


def _child() -> None:
    """The checking child: reads the file and runs its test sentence; the last line of stdout says how it went."""
    path, memory = sys.argv[1], int(sys.argv[2])
    import resource
    import torch
    from .decoding import LoadedModel
    torch.set_num_threads(1)
    # The address space the process has now (PyTorch mapped) plus what the file may take; where there
    # is no /proc (macOS), only the time limit holds.
    try:
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + memory, mapped + memory))
    except (OSError, ValueError):
        pass
    print("ready", flush=True)
    try:
        LoadedModel(path, _probe=False).probe()
        verdict: Dict[str, Any] = {"ok": True}
    except MemoryError:
        verdict = {"memory": True}
    except Exception as e:  # whatever the file made the reader or its code raise, said in one line
        message = str(e).strip()
        verdict = {"memory": True} if "can't allocate memory" in message or "std::bad_alloc" in message else {
            "error": message if message.startswith(("'", "the model file")) else
            f"'{path}' is not a readable TorchScript model file: {message.splitlines()[-1] if message else type(e).__name__}"}
    print(json.dumps(verdict), flush=True)
