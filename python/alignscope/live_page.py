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
import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, Optional, Sequence

from . import onnx_export
from .files import write_text

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
    if (n, m, k, g, e) != (2, 3, 1, 1, 1):
        raise ValueError(f"sentencepiece-js's {SENTENCEPIECE} is not laid out as 1.3.3's was ({(n, m, k, g, e)})")
    body = body.replace("import.meta.url", "document.baseURI")
    return ("(function(){\n" + _INVOKER + body
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


def write_site(model_path: str, runtime_dir: str, out_dir: str, compress_model: bool = False,
               sentencepiece_dir: Optional[str] = None) -> Dict[str, int]:
    """Writes the prototype folder for `model_path`; returns each written file's size in bytes.
    `sentencepiece_dir`: the fetched @sctg/sentencepiece-js (default: beside the runtime's folder)."""
    out = Path(out_dir)
    runtime = Path(runtime_dir)
    spm = Path(sentencepiece_dir) if sentencepiece_dir else runtime.parent / "sentencepiece-js"
    if not (spm / SENTENCEPIECE).is_file():
        raise FileNotFoundError(f"{spm / SENTENCEPIECE} is missing: bash scripts/fetch_onnxruntime_web.sh fetches it")
    for name in (BUNDLE, WASM):
        if not (runtime / name).is_file():
            raise FileNotFoundError(f"{runtime / name} is missing: bash scripts/fetch_onnxruntime_web.sh fetches it")
    (out / "runtime").mkdir(parents=True, exist_ok=True)
    (out / "model").mkdir(parents=True, exist_ok=True)
    scripts = []
    with tempfile.TemporaryDirectory() as tmp:
        onnx_export.export(model_path, tmp)
        check_graphs(model_path, tmp, str(runtime))
        # the graphs, their float16 weights, model.json and the SentencePiece models (for the page's
        # tokenizer), each as one <script>; model.json (vocabularies) is gzipped: 60% smaller
        for f in sorted(Path(tmp).iterdir()):
            script = "model/" + f.name.replace(".", "-") + ".js"
            write_text(out / script, bytes_script(f.name, f.read_bytes(), compress_model or f.suffix == ".json"))
            scripts.append(f'<script src="{script}"></script>\n')
    # Every file through files.py's one rule: names made in OUT are never written through a link
    # or onto a pipe or device (issue 59).
    write_text(out / "runtime" / "ort.js", classic_runtime((runtime / BUNDLE).read_text(encoding="utf-8")))
    write_text(out / "runtime" / "ort-wasm.js", bytes_script(WASM, (runtime / WASM).read_bytes(), True))
    write_text(out / "runtime" / "sentencepiece.js", classic_sentencepiece((spm / SENTENCEPIECE).read_text(encoding="utf-8")))
    for name in ("live.js", "tokenizer.js", "search.js"):
        write_text(out / name, (WEB / name).read_text(encoding="utf-8"))
    page = (WEB / "live.html").read_text(encoding="utf-8")
    marker = "<!-- the model's files (alignscope.live_page writes one <script> a file here) -->\n"
    write_text(out / "live.html", page.replace(marker, "".join(scripts)))
    return {str(p.relative_to(out)): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3:
        print("usage: python3 -m alignscope.live_page MODEL.pt ONNXRUNTIME_WEB_DIR OUT_DIR", file=sys.stderr)
        return 2
    try:
        sizes = write_site(*args)
    except (onnx_export.ExportError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(sizes, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
