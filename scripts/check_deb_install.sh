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
[[ $(id -u) -eq 0 ]] || fail "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install debootstrap"
[[ -f $build/CPackConfig.cmake ]] || fail "no built tree at $build (bash scripts/build.sh first)"

mirror=${MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  awk '/^URIs:/ {print $2} /^deb / {print ($2 ~ /^\[/ ? $3 : $2)}' | grep -v -- '-security' | grep -m1 '/debian/\?$' || true)}
[[ -n $mirror ]] || fail "no Debian mirror found in /etc/apt/sources.list*: set MIRROR=URL"

# The README's install line of the two packages (sudo dropped; the files' folder is the root's /root).
install_line=$(grep -m1 '^sudo apt install ./build/alignscope_' "$repo/README.md" | sed 's/  *#.*//; s/^sudo //; s|\./build/|./|g') ||
  fail "README.md has no 'sudo apt install ./build/alignscope_…' line"

root=$(mktemp -d /var/tmp/alignscope-deb-root.XXXXXX)
debs=$(mktemp -d -t alignscope-debs.XXXXXX)
cleanup() {
  for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  rm -rf "$debs"
  if ((keep)); then echo "root kept: $root"; else rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
start=$SECONDS
phase() { echo "== $* ($((SECONDS - start)) s)"; }

phase "cpack from $build"
cpack --config "$build/CPackConfig.cmake" -B "$debs" >"$debs/cpack.log" 2>&1 || { tail -20 "$debs/cpack.log"; fail "cpack failed"; }
ls "$debs"/*.deb

phase "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log"; fail "debootstrap failed (log: $root.debootstrap.log)"; }
rm -f "$root.debootstrap.log"
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
echo 'APT::Get::Assume-Yes "true";' >"$root/etc/apt/apt.conf.d/90assume-yes"  # a person answers apt's question
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp "$debs"/*.deb "$root/root/"
in_root() { chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive QT_QPA_PLATFORM=offscreen bash -euo pipefail -c "cd /root && $1"; }

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
in_root "alignscope --screenshot /root/default.png --size 1024x768" >"$root/gui.log" 2>&1 || { cat "$root/gui.log"; fail "the app on the default model"; }
in_root "alignscope --model $models/en-de-subword.pt --source 'I know that he has read the book.' --run --words --links argmax-skip-eos --screenshot /root/en-de.png --size 1280x720" >"$root/gui.log" 2>&1 ||
  { cat "$root/gui.log"; fail "the app on en-de-subword"; }
lesson=/usr/share/alignscope/lessons/03-alignment-and-reordering.json
# Page 5: a verb-final clause on en-de-subword (alignscope-models).
in_root "alignscope --lesson $lesson --page 5 --screenshot /root/lesson3.png --size 1280x720" >"$root/gui.log" 2>&1 ||
  { cat "$root/gui.log"; fail "the app on lesson 3's page 5"; }
mkdir -p "$build/deb-install-check"
cp "$root"/root/*.png "$build/deb-install-check/"
in_root "apt-get remove -qq alignscope alignscope-models >/dev/null && ! command -v alignscope-cli" || fail "apt remove left alignscope-cli"
phase "all checks passed; screenshots in $build/deb-install-check/"
