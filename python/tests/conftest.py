"""Shared set-up of the Python suite: the package importable from the source tree, PyTorch on one
thread (the machines running the suite are small and shared), where the C++ CLI is and how to run
it, and the tokenizer settings of a model file read in Python."""

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest
import torch

REPO_ROOT = Path(__file__).resolve().parents[2]
# ALIGNSCOPE_TEST_INSTALLED: test the pip-installed package (tests/install/python_package.sh), not this tree's.
if not os.environ.get("ALIGNSCOPE_TEST_INSTALLED"):
    sys.path.insert(0, str(REPO_ROOT / "python"))
torch.set_num_threads(1)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The alignscope-cli binary: $ALIGNSCOPE_CLI (ctest sets it), else <repo>/build/app/alignscope-cli;
    the test is skipped where it is not built."""
    path = Path(os.environ.get("ALIGNSCOPE_CLI") or REPO_ROOT / "build" / "app" / "alignscope-cli")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"alignscope-cli is not built ({path}): set ALIGNSCOPE_CLI or build the project")
    return path


@pytest.fixture(scope="session")
def run_cli(cli) -> Callable[..., subprocess.CompletedProcess]:
    """run_cli("translate", "--model", path, ...): alignscope-cli's result (text stdout and stderr),
    asserted to exit 0 unless check=False, the message showing the command and both outputs."""

    def run(*args: Any, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess:
        command = [str(cli), *map(str, args)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if check:
            assert result.returncode == 0, (f"alignscope-cli {' '.join(command[1:])} exited {result.returncode}\n"
                                            f"stdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}")
        return result

    return run


@pytest.fixture(scope="session")
def gradient_attributions_work(run_cli) -> Callable[[Path, List[Tuple[str, str]], Path], None]:
    """gradient_attributions_work(model, [(source, target)], folder): `align --method
    integrated-gradients` runs on the model file (it has embed_source and encode_embedded), every
    row adds up to f(x) - f(baseline) within 5 % or 1e-3 nats (completeness), and grad-x-input runs too."""

    def check(model: Path, pairs: List[Tuple[str, str]], folder: Path) -> None:
        source = folder / "attributed-pairs.txt"
        source.write_text("".join(f"{s} ||| {t}\n" for s, t in pairs), encoding="utf-8")
        for method in ("integrated-gradients", "grad-x-input"):
            out = folder / f"{method}.jsonl"
            run_cli("align", "--model", model, "--method", method, "--format", "json", "-i", source, "-o", out)
            records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
            assert len(records) == len(pairs)
            for rec in records:
                assert rec["method"] == method and rec["signed"]
                assert len(rec["scores"]) == len(rec["target_tokens"]) > 0
                if method != "integrated-gradients":
                    continue
                # The CLI's promise (docs/alignment.md): a row that misses by more than 5 %, or by
                # more than 1e-3 nats where the change itself is smaller, is integrated again.
                for row, f, f0 in zip(rec["scores"], rec["log_probs"], rec["baseline_log_probs"]):
                    assert abs(sum(row) - (f - f0)) <= max(0.05 * abs(f - f0), 1e-3), (row, f, f0)

    return check


def _tokenize_like_alignscope(spec: Dict[str, Any], text: str) -> List[str]:
    """The tokens of a "whitespace" tokenizer's settings (docs/model-format.md): each normaliser
    in order, then split on whitespace; `replace` is re.sub with $1 read as \\1."""
    for step in spec["normalizers"]:
        kind = step["type"]
        if kind == "lowercase":
            text = text.lower()  # as Python's str.lower(), the format says
        elif kind == "strip":
            text = text.strip()
        elif kind in ("nfd", "nfc", "nfkd", "nfkc"):
            text = unicodedata.normalize(kind.upper(), text)
        elif kind == "strip_accents":
            text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        elif kind == "replace":
            text = re.sub(step["pattern"], re.sub(r"\$(\d)", r"\\\1", step["content"]), text)
        else:
            raise AssertionError(f"unexpected normaliser {step}")
    assert spec["kind"] == "whitespace"
    return text.split()


@pytest.fixture(scope="session")
def tokenize_like_alignscope() -> Callable[[Dict[str, Any], str], List[str]]:
    """tokenize_like_alignscope(json.loads(m.src_tokenizer), text): a model file's tokens of
    `text`, computed in Python from the file's tokenizer settings."""
    return _tokenize_like_alignscope


@pytest.fixture(scope="session")
def toy_tsv(tmp_path_factory) -> Path:
    """A small made-up parallel corpus (source<TAB>target): words of a toy language rewritten and
    reversed, 2 to 8 words a sentence, so batches of different lengths and an alignment to learn."""
    import random

    rng = random.Random(0)
    words = ["the", "red", "car", "a", "house", "is", "big", "small", "dog", "runs", "fast", "."]
    rewrite = {w: (w[::-1] + "o" if w != "." else ".") for w in words}
    path = tmp_path_factory.mktemp("corpus") / "toy.tsv"
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(120):
            src = [rng.choice(words) for _ in range(rng.randint(2, 8))]
            f.write(" ".join(src) + "\t" + " ".join(rewrite[w] for w in reversed(src)) + "\n")
    return path


@pytest.fixture(scope="session")
def tokenizer_options_work() -> Callable[[Callable[..., Any]], None]:
    """tokenizer_options_work(convert): convert(src_tokenizer=..., tgt_tokenizer=...) (an adapter
    call) writes the descriptions it is given, as dicts or JSON text, and refuses a malformed one
    with a message naming the argument."""

    def check(convert: Callable[..., Any]) -> None:
        src = {"kind": "word", "normalizers": [{"type": "nfkc"}], "split_elision": True, "detokenizer": "word"}
        tgt = {"kind": "whitespace", "normalizers": [{"type": "lowercase"}], "detokenizer": "spaces"}
        adapted = convert(src_tokenizer=src, tgt_tokenizer=json.dumps(tgt))
        assert adapted.src_tokenizer == src and adapted.tgt_tokenizer == tgt
        with pytest.raises(ValueError, match=r"src_tokenizer: \"kind\" must be one of"):
            convert(src_tokenizer={"kind": "bpe"})
        with pytest.raises(ValueError, match=r"tgt_tokenizer: \"normalizers\" must be a list of objects"):
            convert(tgt_tokenizer={"kind": "char", "normalizers": "lowercase"})

    return check


@pytest.fixture(scope="session")
def live_page_export_works(repo_root) -> Callable[[Path], None]:
    """live_page_export_works(model): the model file's encode and step export to ONNX and, run by
    ONNX Runtime Web under Node with the live page's own runner, give its TorchScript's numbers
    (alignscope.live_page.check_graphs; issue 57, docs/live-page.md). Skips where python3-onnx, node
    or the fetched runtime (bash scripts/fetch_onnxruntime_web.sh) is missing."""
    import shutil
    import tempfile

    def check(model: Path) -> None:
        runtime = Path(os.environ.get("ALIGNSCOPE_ORT_WEB") or repo_root / "build" / "onnxruntime-web")
        try:
            import onnx  # noqa: F401
        except ImportError:
            pytest.skip("python3-onnx is not installed")
        if not (runtime / "ort-wasm-simd-threaded.wasm").is_file() or shutil.which("node") is None:
            pytest.skip(f"node or onnxruntime-web ({runtime}) is missing: bash scripts/fetch_onnxruntime_web.sh")
        from alignscope import live_page, onnx_export
        with tempfile.TemporaryDirectory() as tmp:
            onnx_export.export(str(model), tmp)
            assert live_page.check_graphs(str(model), tmp, str(runtime)) <= 1e-4

    return check
