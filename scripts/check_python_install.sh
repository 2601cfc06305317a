#!/usr/bin/env bash
# The README's Python commands, exactly as written, on a fresh Debian 12 root: run before a change
# to the Python packaging is submitted (not in CI: it downloads a Debian base system and PyTorch
# from the mirror, and takes minutes).
#
#   sudo bash scripts/check_python_install.sh [--keep]
#
# debootstrap makes a minimal bookworm root from the mirror apt uses here (MIRROR=URL overrides
# it); the checkout's python/, resources/web/ (which python/alignscope/web links to) and two
# bundled models are copied in; then, as root inside the root (sudo dropped), the README's
# blocks marked python-install and notebook-install run line by line, and the results are checked:
# `import alignscope` without sentencepiece, `alignscope-py --help` says `usage: alignscope-py`,
# show() writes a page, and a notebook calling show() runs under `jupyter nbconvert --execute` in
# the kernel the README registers. --keep leaves the root in place (its path is printed).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
keep=0
[[ "${1:-}" == "--keep" ]] && keep=1
fail() { echo "check_python_install: $*" >&2; exit 1; }
source "$repo/scripts/fresh_root.sh"

block() {  # the ```sh block after README's <!-- NAME --> marker
  awk -v name="$1" 'index($0, "<!-- " name) == 1 {found = 1; next}
                    found && /^```sh/ {inside = 1; next}
                    inside && /^```/ {exit}
                    inside {print}' "$repo/README.md"
}
install_block=$(block python-install)
notebook_block=$(block notebook-install)
[[ -n $install_block ]] || fail "README.md has no sh block after <!-- python-install"
[[ -n $notebook_block ]] || fail "README.md has no sh block after <!-- notebook-install"

fresh_root_make fresh-root
mkdir -p "$root/root/alignscope/models" "$root/root/alignscope/resources"
cp -r "$repo/python" "$root/root/alignscope/python"  # alignscope/web stays the link it is in the checkout
cp -r "$repo/resources/web" "$root/root/alignscope/resources/web"
rm -rf "$root/root/alignscope/python/tests"
cp "$repo/models/en-fr.pt" "$repo/models/en-fr-subword.pt" "$root/root/alignscope/models/"

phase "apt-get update (a fresh system's package lists)"
in_root "apt-get update -qq"
run_block() {
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    line=${line#sudo }
    phase "README: $line"
    in_root "$line" >"$root/step.log" 2>&1 || { tail -30 "$root/step.log"; fail "the README's command failed: $line"; }
    tail -3 "$root/step.log"
  done <<<"$1"
}
run_block "$install_block"

phase "checks"
venv=/root/venvs/alignscope/bin
usage=$(in_root "$venv/alignscope-py --help" | head -1)
[[ $usage == "usage: alignscope-py "* ]] || fail "alignscope-py --help says: $usage"
in_root "cd /tmp && $venv/python -c \"import sys; sys.modules['sentencepiece'] = None; import alignscope\"" ||
  fail "import alignscope needs sentencepiece"
in_root "cd /tmp && $venv/python -c \"import alignscope; p = alignscope.show('/root/alignscope/models/en-fr-subword.pt', 'The cat sat on the mat.', beam=4); p.save('/tmp/page.html'); print(p.data['translation'])\"" ||
  fail "show() failed in the venv"
grep -q 'class="alignscope-page"' "$root/tmp/page.html" || fail "the saved page has no alignscope-page element"
echo "page: $(stat -c %s "$root/tmp/page.html") bytes"

run_block "$notebook_block"
cat >"$root/tmp/show.py" <<'EOF'
import nbformat
nb = nbformat.v4.new_notebook()
nb.cells = [nbformat.v4.new_code_cell("import alignscope\nalignscope.show('/root/alignscope/models/en-fr.pt', 'The cat sat on the mat.')")]
nbformat.write(nb, "/tmp/show.ipynb")
EOF
in_root "/usr/bin/python3 /tmp/show.py && jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=alignscope /tmp/show.ipynb --output /tmp/shown.ipynb" >"$root/step.log" 2>&1 ||
  { tail -30 "$root/step.log"; fail "the notebook did not run in the alignscope kernel"; }
grep -q 'alignscope-page' "$root/tmp/shown.ipynb" || fail "the notebook's output holds no page"
phase "all checks passed"
