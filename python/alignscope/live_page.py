"""The live page prototype (issue 57; docs/live-page.md): a folder that runs a model file's own
encode and step in the browser with ONNX Runtime Web, from file:// or any static host.

    live.html, live.js          resources/web/live/ (and tokenizer.js, search.js: the search rules)
    runtime/ort.js              ONNX Runtime Web's bundle as a classic script (file:// cannot load modules)
    runtime/ort-wasm.js         its WebAssembly, gzipped, as bytes in a script
    model/*.js                  onnx_export's files (graphs, float16 weights, model.json) as bytes in scripts

Each file is a <script> that adds its bytes to window.ALIGNSCOPE_FILES: a page from file:// may
not fetch, while a script beside it loads, so a site keeps one copy of the runtime and of each model
for all its pages.

    python3 -m alignscope.live_page MODEL.pt ONNXRUNTIME_WEB_DIR OUT_DIR
"""

import base64
import contextlib
import fcntl
import gzip
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import onnx_export
from .files import MAX_CORPUS_BYTES, _current_umask, atomic_write, check_output, open_input, read_bounded, read_text, write_text

WEB = Path(__file__).resolve().parent / "web" / "live"
WASM = "ort-wasm-simd-threaded.wasm"
BUNDLE = "ort.wasm.bundle.min.mjs"


def classic_runtime(bundle: str) -> str:
    """ONNX Runtime Web's ES-module bundle as a classic script defining window.ort: a page from
    file:// cannot import a module file (Chromium's CORS), and an inline module could not be shared."""
    m = re.search(r"export\s*\{([^}]*)\};?\s*(//# sourceMappingURL=\S*\s*)?$", bundle)
    if not m:
        raise ValueError(f"{BUNDLE} does not end with the export list this version had (1.30.0)")
    names = []
    for item in m.group(1).split(","):
        local, _, exported = item.strip().partition(" as ")
        names.append(f"{(exported or local).strip()}:{local.strip()}")
    body = bundle[:m.start()]
    # import.meta only parses in a module; the bundle reads it to find its own files, which the
    # page hands over as bytes instead (ort.env.wasm.wasmBinary)
    body = body.replace("import.meta.url", "document.baseURI")
    # Its "loaded from a file: URL" branch (meant for Node) builds new URL(..., location.origin),
    # and Firefox's origin of a file:// page is "null", an invalid base: the branch is turned off
    # (its worker's copy too, unused: one thread, no proxy)
    node_file = 'document.baseURI>"file:"&&document.baseURI<"file;"'
    if body.count(node_file) < 1:
        raise ValueError(f"{BUNDLE} does not test for a file: URL as the version this was written for did (1.30.0)")
    body = body.replace(node_file, "false")
    return "(function(){\n" + body + "\nglobalThis.ort={" + ",".join(names) + "};\n})();\n"


SENTENCEPIECE = "index.js"
# Embind's invoker written as a closure instead of generated code (Emscripten's DYNAMIC_EXECUTION=0
# does the same): the page's CSP has no 'unsafe-eval', which `new Function` needs
_INVOKER = """function alignscopeInvoker(argTypes, isClassMethodFunc, returns, needsDestructorStack, invoker, fn) {
  return function (...args) {
    var destructors = needsDestructorStack ? [] : null;
    var wired = [fn];
    if (isClassMethodFunc) wired.push(argTypes[1].toWireType(destructors, this));
    for (var i = 0; i < argTypes.length - 2; ++i) wired.push(argTypes[i + 2].toWireType(destructors, args[i]));
    var rv = invoker(...wired);
    if (needsDestructorStack) {
      while (destructors.length) { var ptr = destructors.pop(); var del = destructors.pop(); del(ptr); }
    } else {
      for (var i = isClassMethodFunc ? 1 : 2; i < argTypes.length; ++i) {
        if (argTypes[i].destructorFunction !== null) argTypes[i].destructorFunction(wired[isClassMethodFunc ? i : i - 1]);
      }
    }
    if (returns) return argTypes[0].fromWireType(rv);
  };
}
"""


def classic_sentencepiece(bundle: str) -> str:
    """@sctg/sentencepiece-js's ES module as a classic script defining window.AlignScopeSentencePiece
    (file:// cannot import modules): without its Node imports and the demo models it carries (3 MB of
    base64), and with embind's invokers as closures (no eval under the page's CSP)."""
    body, n = re.subn(r"^import \* as fs from 'fs';\n|^import \{ Buffer as Buffer\$1 \} from 'buffer';\n", "", bundle,
                      flags=re.M)
    body, m = re.subn(r'(\nconst \w+_b64 = )"[^"]*";', r'\1"";', body)
    craft = ("let[args,invokerFnBody]=createJsInvoker(argTypes,isClassMethodFunc,returns,isAsync);args.push(invokerFnBody);"
             "var invokerFn=newFunc(Function,args)(...closureArgs);")
    body, k = body.replace(craft, "var invokerFn=alignscopeInvoker(argTypes,isClassMethodFunc,returns,"
                           "needsDestructorStack,cppInvokerFunc,cppTargetFunc);"), body.count(craft)
    body, g = re.subn(r"if \(typeof globalThis\.Buffer === 'undefined'\) \{\n\s*globalThis\.Buffer = Buffer\$1;\n\}\n", "", body)
    body, e = re.subn(r"\nexport \{[^}]*\};\s*$", "\n", body)
    # One module for every processor of the page (the source's and the target's): each instance is
    # a compiled copy of SentencePiece's wasm with its own 16 MB memory (docs/live-page.md)
    load = "this.sentencepiece = yield createSentencePieceModule();"
    body, s = body.replace(load, "this.sentencepiece = yield (alignscopeModule = alignscopeModule || createSentencePieceModule());"), \
        body.count(load)
    if (n, m, k, g, e, s) != (2, 3, 1, 1, 1, 1):
        raise ValueError(f"sentencepiece-js's {SENTENCEPIECE} is not laid out as 1.3.3's was ({(n, m, k, g, e, s)})")
    body = body.replace("import.meta.url", "document.baseURI")
    return ("(function(){\nvar alignscopeModule = null;\n" + _INVOKER + body
            + "\nglobalThis.AlignScopeSentencePiece={SentencePieceProcessor:SentencePieceProcessor};\n})();\n")


def bytes_script(name: str, data: bytes, compress: bool) -> str:
    key = name + ".gz" if compress else name
    payload = gzip.compress(data, 9, mtime=0) if compress else data
    return ("(window.ALIGNSCOPE_FILES=window.ALIGNSCOPE_FILES||{})[" + json.dumps(key) + "]=\""
            + base64.b64encode(payload).decode("ascii") + "\";\n")


def check_graphs(model_path: str, files_dir: str, runtime_dir: str, tolerance: float = 1e-4) -> float:
    """Greedy decoding of three sentences through the exported graphs under Node (live.js with ONNX
    Runtime Web's WebAssembly: the page's own runner) against the model file's TorchScript; raises
    ExportError naming the model where a step's log-probabilities or attention differ by more than
    `tolerance` or the tokens differ. torch 1.13's exporter once dropped an operation without a word
    (onnx_export._reverse_as_flip): an export is trusted only after this. Returns the largest difference."""
    import torch
    from .decoding import LoadedModel
    if shutil.which("node") is None:
        raise onnx_export.ExportError("node is not installed: the exported graphs of "
                                      f"'{model_path}' cannot be checked (Debian: apt-get install nodejs)")
    model = LoadedModel(model_path)
    ordinary = [i for i in range(len(model.src_vocab)) if i not in model.src_specials.values()]
    eos = [model.src_specials["eos"]] if model.source_eos and "eos" in model.src_specials else []
    sources = [ordinary[k::97][:n] + eos for k, n in ((0, 1), (5, 4), (11, 9))]
    steps = 6
    request = json.dumps({"sources": sources, "max_length": steps})
    done = subprocess.run(["node", str(WEB / "check.mjs"), runtime_dir, files_dir], input=request,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        said = [line[len("live check: "):] for line in done.stderr.splitlines() if line.startswith("live check: ")]
        raise onnx_export.ExportError(f"the exported graphs of '{model_path}' do not run in ONNX Runtime Web: "
                                      + (said or [done.stderr.strip()[-300:] or "(no message)"])[-1][:500])
    worst = 0.0
    for ids, answer in zip(sources, json.loads(done.stdout)["answers"]):
        with torch.no_grad():
            enc = tuple(model.module.encode(torch.tensor([ids]), torch.tensor([len(ids)])))
            state = enc[1]
            for t, got in enumerate(answer["steps"]):
                out = model.step(torch.tensor([got["y_prev"]]), state, enc)
                state = out["state"]
                for key, mine in (("log_probs", out["log_probs"][0]), ("alpha", out["alpha"][0])):
                    theirs = torch.tensor(got[key], dtype=torch.float32)
                    finite = torch.isfinite(mine)
                    if mine.shape != theirs.shape or not torch.equal(finite, torch.isfinite(theirs)):
                        raise onnx_export.ExportError(f"the exported graphs of '{model_path}' give {key} of another "
                                                      f"shape or with other infinities at step {t + 1}")
                    worst = max(worst, float((mine[finite] - theirs[finite]).abs().max()) if finite.any() else 0.0)
                if int(out["log_probs"][0].argmax()) != got["chosen"] or not worst <= tolerance:
                    raise onnx_export.ExportError(f"the exported graphs of '{model_path}' differ from its TorchScript "
                                                  f"at step {t + 1} (by {worst:g}; at most {tolerance:g} is allowed)")
    return worst


LIVE_FOLDER = "alignscope-live"  # beside the pages: one copy of the runtime and of each model for a site
RUNTIME_SCRIPTS = ("ort.js", "ort-wasm.js", "sentencepiece.js", "live.js", "tokenizer.js", "search.js", "page-live.js")
# The live page's CSP is the static page's (resources/web/page.html's, its one source) with 'self'
# for the scripts beside it and 'wasm-unsafe-eval' to compile ONNX Runtime's and SentencePiece's
# WebAssembly; nothing may be fetched either way.
_CSP_LINE = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
STATIC_SCRIPTS = "script-src 'unsafe-inline'"
LIVE_SCRIPTS = "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'"


def static_csp() -> str:
    """The policy every static page carries: page.html's."""
    from .page import web_file
    m = _CSP_LINE.search(web_file("page.html"))
    if not m or m.group(1).count(STATIC_SCRIPTS) != 1:
        raise ValueError(f"page.html's Content-Security-Policy no longer has \"{STATIC_SCRIPTS}\" (the live page adds to it)")
    return m.group(1)


def live_csp() -> str:
    return static_csp().replace(STATIC_SCRIPTS, LIVE_SCRIPTS)


def default_runtime_dir() -> Optional[str]:
    """Where the fetched onnxruntime-web is: $ALIGNSCOPE_ORT_WEB, else beside an installed package
    (PREFIX/share/alignscope/onnxruntime-web, the package being PREFIX/share/alignscope/python/alignscope),
    else the source tree's build/ (scripts/fetch_onnxruntime_web.sh)."""
    if os.environ.get("ALIGNSCOPE_ORT_WEB"):  # named: used as it is (missing() says what it lacks)
        return os.environ["ALIGNSCOPE_ORT_WEB"]
    here = Path(__file__).resolve().parent
    for candidate in (here.parent.parent / "onnxruntime-web", here.parent.parent / "build" / "onnxruntime-web"):
        if (candidate / WASM).is_file():
            return str(candidate)
    return None


def missing(runtime_dir: Optional[str]) -> List[str]:
    """What a live page's export needs and this machine lacks, each as a line naming how to get it."""
    lines = []
    for module, package in (("torch", "python3-torch"), ("onnx", "python3-onnx")):
        try:
            __import__(module)
        except ImportError:
            lines.append(f"the Python module '{module}' (Debian: apt-get install {package})")
    if shutil.which("node") is None:
        lines.append("node, which checks the exported graphs (Debian: apt-get install nodejs)")
    runtime = Path(runtime_dir) if runtime_dir else None
    if runtime is None or not (runtime / WASM).is_file() or not (runtime / BUNDLE).is_file():
        lines.append("ONNX Runtime Web (npm onnxruntime-web 1.30.0) " + (f"in {runtime}" if runtime else
                     "in build/onnxruntime-web or $ALIGNSCOPE_ORT_WEB") + ": bash scripts/fetch_onnxruntime_web.sh fetches it")
    elif not (runtime.parent / "sentencepiece-js" / SENTENCEPIECE).is_file():
        lines.append(f"@sctg/sentencepiece-js in {runtime.parent / 'sentencepiece-js'}: bash scripts/fetch_onnxruntime_web.sh fetches it")
    return lines


def _write_runtime(runtime_dir: str, out: Path, sentencepiece_dir: Optional[str] = None) -> None:
    """ONNX Runtime Web, SentencePiece and the page's live scripts as classic scripts in `out`."""
    runtime = Path(runtime_dir)
    spm = Path(sentencepiece_dir) if sentencepiece_dir else runtime.parent / "sentencepiece-js"
    if not (spm / SENTENCEPIECE).is_file():
        raise FileNotFoundError(f"{spm / SENTENCEPIECE} is missing: bash scripts/fetch_onnxruntime_web.sh fetches it")
    for name in (BUNDLE, WASM):
        if not (runtime / name).is_file():
            raise FileNotFoundError(f"{runtime / name} is missing: bash scripts/fetch_onnxruntime_web.sh fetches it")
    out.mkdir(parents=True, exist_ok=True)
    # Every file through files.py's one rule: names made in OUT are never written through a link
    # or onto a pipe or device (issue 59).
    write_text(out / "ort.js", classic_runtime((runtime / BUNDLE).read_text(encoding="utf-8")))
    write_text(out / "ort-wasm.js", bytes_script(WASM, (runtime / WASM).read_bytes(), True))
    write_text(out / "sentencepiece.js", classic_sentencepiece((spm / SENTENCEPIECE).read_text(encoding="utf-8")))
    for name in ("live.js", "tokenizer.js", "search.js", "page-live.js"):
        write_text(out / name, (WEB / name).read_text(encoding="utf-8"))


def _licence(metadata: Any) -> Optional[str]:
    """The first licence the model's metadata names (its training corpus's, possibly nested)."""
    if isinstance(metadata, dict):
        for key in ("licence", "license", "corpus_licence", "corpus_license"):
            if isinstance(metadata.get(key), str) and metadata[key].strip():
                return metadata[key].strip()
        for value in metadata.values():
            found = _licence(value)
            if found:
                return found
    return None


def _write_model(model_path: str, runtime_dir: str, out: Path, card_href: str = "") -> List[str]:
    """The model's exported graphs, weights, model.json and SentencePiece models as scripts in
    `out` (checked first: check_graphs); returns the scripts' names. `card_href`: where a page finds
    the model card copied beside them (MODEL.md beside the model file), if any."""
    from .decoding import LoadedModel
    out.mkdir(parents=True, exist_ok=True)
    names = []
    with tempfile.TemporaryDirectory() as tmp:
        info = onnx_export.export(model_path, tmp)
        check_graphs(model_path, tmp, runtime_dir)
        card = Path(model_path).with_suffix(".md")
        info["carried"] = {"name": info.get("name"), "file": os.path.basename(model_path),
                           "licence": _licence(LoadedModel(model_path).metadata)}
        if card.is_file() and card_href:
            write_text(out / card.name, card.read_text(encoding="utf-8"))
            info["carried"]["card"] = card_href + card.name
        (Path(tmp) / "model.json").write_text(json.dumps(info, ensure_ascii=False), encoding="utf-8")
        # the graphs, their float16 weights, model.json and the SentencePiece models (for the page's
        # tokenizer), each as one <script>; model.json (vocabularies) is gzipped: 60% smaller
        for f in sorted(Path(tmp).iterdir()):
            name = f.name.replace(".", "-") + ".js"
            write_text(out / name, bytes_script(f.name, f.read_bytes(), f.suffix == ".json"))
            names.append(name)
    return names


def write_site(model_path: str, runtime_dir: str, out_dir: str, sentencepiece_dir: Optional[str] = None) -> Dict[str, int]:
    """Writes the prototype folder for `model_path` (live.html, its scripts beside it); returns each
    written file's size in bytes. `sentencepiece_dir`: the fetched @sctg/sentencepiece-js (default:
    beside the runtime's folder)."""
    out = Path(out_dir)
    _write_runtime(runtime_dir, out / "runtime", sentencepiece_dir)
    for name in ("live.js", "tokenizer.js", "search.js"):  # the prototype loads them from its folder
        (out / "runtime" / name).replace(out / name)
    (out / "runtime" / "page-live.js").unlink()
    scripts = _write_model(model_path, runtime_dir, out / "model")
    page = (WEB / "live.html").read_text(encoding="utf-8")
    marker = "<!-- the model's files (alignscope.live_page writes one <script> a file here) -->\n"
    write_text(out / "live.html", page.replace(marker, "".join(f'<script src="model/{n}"></script>\n' for n in scripts)))
    return {str(p.relative_to(out)): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}


def _model_folder_name(model_path: str) -> str:
    """The model's folder under models/: its file's stem (as a URL-safe name) and a hash of what its
    export is made of (the file's bytes, its name, its card, the exporter's code), so that pages
    exported at different times into one folder each keep their own model, and a model already there
    is recognised without exporting it again."""
    h = hashlib.sha256()
    with open_input(model_path, "model file") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    for part in (os.path.basename(model_path).encode("utf-8"), Path(onnx_export.__file__).read_bytes(),
                 Path(__file__).read_bytes()):
        h.update(len(part).to_bytes(8, "little") + part)
    card = Path(model_path).with_suffix(".md")
    h.update(card.read_bytes() if card.is_file() else b"")
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", Path(model_path).stem).lstrip(".") or "model"
    return f"{stem}-{h.hexdigest()[:16]}"


def _folder(path: Path, what: str) -> bool:
    """Whether `path` is a folder (False: nothing there); ValueError naming it when it is a link or
    anything else (files.py's rule: nothing is written through a link or onto a pipe or device)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        raise ValueError(f"'{path}' ({what}) exists and is not a folder (a link, pipe or file is never written into)")
    return True


def _scripts_of(model_dir: Path) -> List[str]:
    """The scripts of a model folder an earlier export moved into place (whole, after check_graphs)."""
    names = sorted(p.name for p in model_dir.iterdir() if p.name.endswith(".js"))
    if not any(n.startswith("step-") for n in names) or "model-json.js" not in names:
        raise ValueError(f"'{model_dir}' is not a model folder alignscope wrote (its step graph or model.json is missing)")
    for n in names:
        if not stat.S_ISREG(os.lstat(model_dir / n).st_mode):
            raise ValueError(f"'{model_dir / n}' is not a regular file: a page does not load it")
    return names


def _merge(stage: Path, live: Path) -> None:
    """Adds the staged runtime and models to an existing live folder: each new model folder renamed
    into models/ under its own name (pages already there keep theirs), each runtime file replaced by
    files.py's rule only where it differs. The destinations are checked before anything moves."""
    _folder(live, "the live folder")
    for sub in ("models", "runtime"):
        if not _folder(live / sub, "in the live folder"):
            (live / sub).mkdir(mode=0o777 & ~_current_umask())
    for f in (stage / "runtime").iterdir():
        check_output(live / "runtime" / f.name, "live page's runtime file")
    staged = sorted((stage / "models").iterdir()) if (stage / "models").is_dir() else []
    for d in staged:
        _folder(live / "models" / d.name, "a live model's folder")
    for f in sorted((stage / "runtime").iterdir()):
        target = live / "runtime" / f.name
        data = f.read_bytes()
        if not (target.is_file() and read_bounded(target, "live page's runtime file", MAX_CORPUS_BYTES) == data):
            with atomic_write(target, what="live page's runtime file") as out:
                out.write(data)
    src_fd = os.open(stage / "models", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC) if staged else -1
    dst_fd = os.open(live / "models", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        for d in staged:
            os.chmod(d, 0o777 & ~_current_umask())
            try:  # a new name: renaming a folder never replaces a non-empty folder, a link or a file
                os.rename(d.name, d.name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
            except OSError:
                if not _folder(live / "models" / d.name, "a live model's folder"):
                    raise  # else another export moved the same model in meanwhile: its content is the same
    finally:
        if src_fd >= 0:
            os.close(src_fd)
        os.close(dst_fd)


def _prune(folder: Path, live: Path, keep: Sequence[str]) -> None:
    """Removes the model folders no page in `folder` references any more (a page overwritten with
    another model's), except those of this export."""
    models = live / "models"
    referenced = set(keep)
    for page in folder.glob("*.htm*"):
        try:
            text = read_text(page, "page")
        except (ValueError, OSError):
            return  # not a regular, readable page: what it references cannot be known, nothing is removed
        referenced.update(re.findall(re.escape(LIVE_FOLDER) + r"/models/([^/\"']+)/", text))
    for d in sorted(models.iterdir()):
        if d.name not in referenced and not d.is_symlink() and d.is_dir():
            with contextlib.suppress(OSError):  # left behind is only unused space: the pages are written
                shutil.rmtree(d)


def make_live(pages: Sequence[Tuple[str, str]], runtime_dir: Optional[str] = None,
              sentencepiece_dir: Optional[str] = None) -> Dict[str, int]:
    """Turns written pages (page.html, the static one every producer writes) into live pages:
    `pages` holds (page, model file) pairs, all pages in one folder. Writes LIVE_FOLDER beside them
    (the runtime, each model once, however many pages carry it) and gives each page the live CSP and
    the <script>s of the runtime and its model. An existing LIVE_FOLDER is added to: the models
    earlier pages reference stay, a model already there (same content: _model_folder_name) is not
    exported again, and model folders no page references any more are removed. Nothing is changed
    before every new model has exported and passed check_graphs. Returns each file's size in bytes."""
    runtime_dir = runtime_dir or default_runtime_dir()
    lacking = missing(runtime_dir)
    if lacking:
        raise onnx_export.ExportError("a live page needs " + "; ".join(lacking))
    assert runtime_dir is not None
    if not pages:
        return {}
    folders = {os.path.dirname(os.path.abspath(page)) for page, _ in pages}
    if len(folders) != 1:
        raise ValueError("the pages of one live site must be in one folder: " + ", ".join(sorted(folders)))
    folder = Path(folders.pop())
    texts = {}
    csp, live_policy = static_csp(), live_csp()
    for page, _ in pages:
        text = Path(page).read_text(encoding="utf-8")
        line = f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        if text.count(line) != 1 or text.count("</body>") != 1:
            raise ValueError(f"'{page}' is not a page alignscope wrote (its CSP line or </body> is not as expected)")
        texts[page] = text.replace(line, f'<meta http-equiv="Content-Security-Policy" content="{live_policy}">')
    with _exclusive(folder):
        return _make_live(pages, texts, folder, runtime_dir, sentencepiece_dir)


@contextlib.contextmanager
def _exclusive(folder: Path):
    """One live export at a time into `folder` (an advisory lock on the folder itself, released
    when the process ends however it ends): a second export waits, so that neither prunes the model
    the other has just moved in, nor merges into a runtime half-replaced."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _make_live(pages: Sequence[Tuple[str, str]], texts: Dict[str, str], folder: Path, runtime_dir: str,
               sentencepiece_dir: Optional[str]) -> Dict[str, int]:
    live = folder / LIVE_FOLDER
    existed = _folder(live, "the live folder")
    names: Dict[str, str] = {}  # model path -> its folder under models/
    scripts: Dict[str, List[str]] = {}
    with tempfile.TemporaryDirectory(dir=folder) as staging:  # moved into place once everything exported
        stage = Path(staging)
        for _, model in pages:
            key = os.path.abspath(model)
            if key in names:
                continue
            name = names[key] = _model_folder_name(model)
            href = f"{LIVE_FOLDER}/models/{name}/"
            if existed and _folder(live / "models", "in the live folder") and _folder(live / "models" / name, "a live model's folder"):
                scripts[key] = [href + n for n in _scripts_of(live / "models" / name)]  # exported before: kept as it is
            elif (stage / "models" / name).is_dir():  # the same content under another path
                scripts[key] = [href + n for n in _scripts_of(stage / "models" / name)]
            else:
                scripts[key] = [href + n for n in _write_model(model, runtime_dir, stage / "models" / name, href)]
        _write_runtime(runtime_dir, stage / "runtime", sentencepiece_dir)
        try:
            if existed:
                raise FileExistsError
            stage.rename(live)  # a new folder: moved into place whole
            stage.mkdir()  # for TemporaryDirectory's clean-up
            os.chmod(live, 0o777 & ~_current_umask())  # mkdtemp made it 0700: a static host must read it
        except OSError:  # one was there (or another export made it meanwhile): added to
            _merge(stage, live)
    for page, model in pages:
        # page-live.js last: it wakes the page once the model's files are in (deferred scripts run in order)
        tags = ([f"{LIVE_FOLDER}/runtime/{n}" for n in RUNTIME_SCRIPTS if n != "page-live.js"] + scripts[os.path.abspath(model)]
                + [f"{LIVE_FOLDER}/runtime/page-live.js"])
        block = "".join(f'<script defer src="{t}"></script>\n' for t in tags)
        write_text(page, texts[page].replace("</body>", block + "</body>"), what="page")
    _prune(folder, live, list(names.values()))
    return {str(p.relative_to(folder)): p.stat().st_size for p in sorted(live.rglob("*")) if p.is_file()}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = ("usage: python3 -m alignscope.live_page MODEL.pt ONNXRUNTIME_WEB_DIR OUT_DIR      (the prototype folder)\n"
             "       python3 -m alignscope.live_page pages ONNXRUNTIME_WEB_DIR|- PAGE MODEL [PAGE MODEL...]\n"
             "                                       (pages written by alignscope made live; -: the default runtime)")
    try:
        if args[:1] == ["pages"] and len(args) >= 4 and len(args) % 2 == 0:
            runtime = None if args[1] == "-" else args[1]
            sizes = make_live(list(zip(args[2::2], args[3::2])), runtime)
        elif len(args) == 3 and args[0] != "pages":
            sizes = write_site(*args)
        else:
            print(usage, file=sys.stderr)
            return 2
    except (onnx_export.ExportError, FileNotFoundError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(sizes, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
