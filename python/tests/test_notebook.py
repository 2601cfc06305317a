"""A real notebook, run by Debian's Jupyter (`jupyter nbconvert --to notebook --execute`, the
python3-ipykernel kernel): notebooks/show_d2l.ipynb trains a small d2l.ai model, converts it with
alignscope.from_d2l and shows it; its last cell's HTML output must hold AlignScope's page (the
root element, the renderer, and the data of that sentence, meeting the schema)."""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = Path(__file__).parent / "notebooks" / "show_d2l.ipynb"


def test_the_notebook_shows_the_converted_model(tmp_path):
    if not shutil.which("jupyter-nbconvert"):
        pytest.skip("jupyter nbconvert is not installed (Debian's jupyter-nbconvert; scripts/setup.sh --with-test-tools)")
    pytest.importorskip("ipykernel", reason="the notebook's kernel (Debian's python3-ipykernel)")
    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    tests = Path(__file__).parent
    paths = [str(ROOT / "python"), str(tests)] if not os.environ.get("ALIGNSCOPE_TEST_INSTALLED") else [str(tests)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), OMP_NUM_THREADS="1")
    r = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600",
                        "--output", "executed.ipynb", NOTEBOOK.name], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    executed = json.loads((tmp_path / "executed.ipynb").read_text(encoding="utf-8"))
    last = [c for c in executed["cells"] if c["cell_type"] == "code"][-1]
    (result,) = [o for o in last["outputs"] if o["output_type"] == "execute_result"]
    shown = "".join(result["data"]["text/html"])
    assert shown.startswith('<iframe class="alignscope-notebook"')
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))
    assert '<main class="alignscope-page"' in page
    assert (ROOT / "resources" / "web" / "page.js").read_text(encoding="utf-8") in page
    data = json.loads(re.search(r'<script type="application/json" class="alignscope-data">(.*?)</script>', page,
                                re.S).group(1))
    schema = json.loads((ROOT / "resources" / "web" / "page.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    sys.path.insert(0, str(tests))
    from test_d2l import corpus
    assert data["source_text"] == corpus(640, seed=1)[0][0]
    # d2l's preprocessing (lower case, a space before , . ! ?) and its end token
    assert data["source_tokens"] == ["yes", ",", "anna", "takes", "the", "black", "table", "!", "<eos>"]
    assert data["target_tokens"] and len(data["steps"]) == len(data["target_tokens"]) == len(data["alpha"])
    assert all(abs(sum(row) - 1) < 1e-3 for row in data["alpha"])
    assert any(c["label"] == "name" for c in data["model_card"])
