#!/usr/bin/env bash
# CTest entry python_package: python/ pip-installed offline (--no-build-isolation, no index) into a
# fresh venv over Debian's python3-torch (--system-site-packages), as a PyTorch user would; then, from
# another folder and with no PYTHONPATH, the installed package is imported (not the source tree's),
# its package data (the page's renderer: resources/web/'s files) and version checked, the
# alignscope-py entry point and `python -m alignscope`
# run, and an adapter run there: the word-level Keras tests of python/tests/test_keras.py against
# the installed package (ALIGNSCOPE_TEST_INSTALLED keeps conftest.py from adding the source tree).
#
#   python_package.sh SOURCE_DIR VERSION
set -euo pipefail
source=$(realpath "$1") version=$2
fail() { echo "python_package.sh: $*" >&2; exit 1; }
work=$(mktemp -d -t alignscope-pip.XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$SECONDS

# pip builds in the folder it is given (build/, *.egg-info): a copy keeps the checkout clean; -L
# copies the link alignscope/web as the renderer's files (resources/web/) it points to.
cp -rL "$source/python" "$work/python"
rm -rf "$work/python/tests"
/usr/bin/python3 -m venv --system-site-packages "$work/venv" || fail "python3 -m venv failed (Debian: python3-venv)"
env -u PYTHONPATH PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$work/venv/bin/pip" install -q --no-build-isolation "$work/python" >"$work/pip.log" 2>&1 \
  || { cat "$work/pip.log"; fail "pip install --no-build-isolation ./python failed"; }
echo "venv and pip install: $((SECONDS - start)) s"
rm -rf "$work/python"  # nothing of the copy may be needed from here on

mkdir "$work/elsewhere"
cd "$work/elsewhere"
run() { env -u PYTHONPATH -u ALIGNSCOPE_CLI PATH="$work/venv/bin:/usr/bin:/bin" HOME="$work" "$@"; }
run python - "$work/venv" "$version" "$source" <<'PY' || fail "the installed package is not the one imported, or lacks its data"
import importlib.metadata, os, sys
import alignscope
venv, version, source = sys.argv[1], sys.argv[2], sys.argv[3]
folder = os.path.dirname(alignscope.__file__)
assert folder.startswith(venv), f"alignscope imported from {folder}, not from the venv {venv}"
for data in ("model_code.py", "timeline_code.py", "sentencepiece_training.json", "training_options.json", "model_checks.json", "adapters/keras.py"):
    assert os.path.isfile(os.path.join(folder, data)), f"the installed package lacks {data}"
import filecmp
web = os.path.join(source, "resources", "web")
names = [os.path.relpath(os.path.join(top, n), web) for top, _, files in os.walk(web) for n in files]
for name in names:  # the page's renderer (and the live page's, in live/), shipped as package data: the same files
    assert filecmp.cmp(os.path.join(folder, "web", name), os.path.join(web, name), shallow=False), \
        f"the installed package's web/{name} is not resources/web/{name}"
installed = importlib.metadata.version("alignscope")
assert installed == version, f"python/pyproject.toml says {installed}, CMakeLists.txt {version}"
from alignscope.subwords import training_settings  # reads sentencepiece_training.json beside it
assert training_settings(), "no SentencePiece settings read"
print("imported", folder)
PY
usage=$(run alignscope-py --help) || fail "the alignscope-py entry point failed"
[[ $usage == "usage: alignscope-py "* ]] || fail "alignscope-py --help does not say 'usage: alignscope-py': ${usage%%$'\n'*}"
run python -m alignscope demo --out demo >/dev/null || fail "python -m alignscope demo failed"
[[ -s demo/model.pt ]] || fail "python -m alignscope demo wrote no model.pt"
run python -c "import alignscope; alignscope.show('demo/model.pt', 'the cat sat .').save('page.html')" ||
  fail "alignscope.show() failed in the installed package"
grep -q 'class="alignscope-page"' page.html || fail "the installed package's page has no alignscope-page element"
run env ALIGNSCOPE_TEST_INSTALLED=1 python -m pytest -q -p no:cacheprovider "$source/python/tests/test_keras.py" -k word \
  || fail "the Keras adapter's word-level tests failed against the installed package"
echo "python package: all checks passed in $((SECONDS - start)) s"
