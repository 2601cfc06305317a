#!/usr/bin/env bash
# The README's package install, as written, on a fresh Debian 12 root: run before a change to the
# packaging is submitted (not in CI: it downloads a Debian base system and the packages' runtime
# dependencies, LibTorch and Qt among them, from the mirror, and takes minutes).
#
#   sudo bash scripts/check_deb_install.sh [BUILD_DIR] [--keep]
#
# cpack writes alignscope_<version>_amd64.deb and alignscope-models_<version>_all.deb from the
# built tree (default build/); debootstrap makes a minimal bookworm root from the mirror apt uses
# here (MIRROR=URL overrides it); inside it, as root (sudo dropped), the README's `apt install`
# line of the two files runs; then the installed programs are run as a user would, with nothing of
# the checkout in the root: translate with the default model (alignscope) and with English→German
# (alignscope-models), align by agreement with the reverse model the German model declares, and
# the app's screenshots on the default model, on the German model with its links and on lesson 3's
# German page. The screenshots are copied to BUILD_DIR/deb-install-check/ to be looked at.
# --keep leaves the root in place (its path is printed).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build keep=0
for arg in "$@"; do
  case $arg in
    --keep) keep=1 ;;
    *) build=$(realpath "$arg") ;;
  esac
done
fail() { echo "check_deb_install: $*" >&2; exit 1; }
source "$repo/scripts/fresh_root.sh"
[[ -f $build/CPackConfig.cmake ]] || fail "no built tree at $build (bash scripts/build.sh first)"

# The README's install line of the two packages (sudo dropped; the files' folder is the root's /root/alignscope).
install_line=$(grep -m1 '^sudo apt install ./build/alignscope_' "$repo/README.md" | sed 's/  *#.*//; s/^sudo //; s|\./build/|./|g') ||
  fail "README.md has no 'sudo apt install ./build/alignscope_…' line"

debs=$(mktemp -d -t alignscope-debs.XXXXXX)
fresh_root_make deb-root
trap 'fresh_root_cleanup; rm -rf "$debs"' EXIT
phase "cpack from $build"
cpack --config "$build/CPackConfig.cmake" -B "$debs" >"$debs/cpack.log" 2>&1 || { tail -20 "$debs/cpack.log"; fail "cpack failed"; }
ls "$debs"/*.deb

cp "$debs"/*.deb "$root/root/alignscope/"
phase "apt-get update"
in_root "apt-get update -qq"
phase "README: $install_line"
in_root "$install_line" >"$root/step.log" 2>&1 || { tail -30 "$root/step.log"; fail "the README's install failed: $install_line"; }
tail -2 "$root/step.log"

phase "checks"
in_root "alignscope-cli --version"
models=/usr/share/alignscope/models
in_root "echo 'I would like a coffee.' | alignscope-cli translate" || fail "translate with the default model failed"
in_root "echo 'I know that he has read the book.' | alignscope-cli translate -m $models/en-de-subword.pt" ||
  fail "translate with en-de-subword (alignscope-models) failed"
in_root "echo 'I know that he has read the book. ||| Ich weiß, dass er das Buch gelesen hat.' | alignscope-cli align -m $models/en-de-subword.pt --links agreement-intersection" ||
  fail "align by agreement with the reverse model en-de-subword declares failed"
in_root "alignscope --screenshot /root/alignscope/default.png --size 1024x768" >"$root/gui.log" 2>&1 || { cat "$root/gui.log"; fail "the app on the default model"; }
in_root "alignscope --model $models/en-de-subword.pt --source 'I know that he has read the book.' --run --words --links argmax-skip-eos --screenshot /root/alignscope/en-de.png --size 1280x720" >"$root/gui.log" 2>&1 ||
  { cat "$root/gui.log"; fail "the app on en-de-subword"; }
lesson=/usr/share/alignscope/lessons/03-alignment-and-reordering.json
# Page 5: a verb-final clause on en-de-subword (alignscope-models).
in_root "alignscope --lesson $lesson --page 5 --screenshot /root/alignscope/lesson3.png --size 1280x720" >"$root/gui.log" 2>&1 ||
  { cat "$root/gui.log"; fail "the app on lesson 3's page 5"; }
mkdir -p "$build/deb-install-check"
cp "$root"/root/alignscope/*.png "$build/deb-install-check/"
in_root "apt-get remove -qq alignscope alignscope-models >/dev/null && ! command -v alignscope-cli" || fail "apt remove left alignscope-cli"
phase "all checks passed; screenshots in $build/deb-install-check/"
