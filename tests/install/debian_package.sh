#!/usr/bin/env bash
# CTest entry debian_package: cpack builds alignscope_<version>_amd64.deb and
# alignscope-models_<version>_all.deb (into a temporary folder, timed), their control files and
# contents are checked (dpkg-deb -I / -c): Debian runtime packages only, no -dev; the programs, the
# module, the lessons, the default model and the desktop entry under /usr in alignscope, every other
# bundled model in alignscope-models (architecture all), no file in both. As root (CI), both are
# installed with dpkg -i, the programs run from /usr with the source tree out of reach
# (run_installed.sh, which opens models of both packages), and they are purged again (no trace left
# in dpkg's database). A machine that already has an alignscope package installed keeps it: the
# install step is skipped with a note.
#
#   debian_package.sh BUILD_DIR SOURCE_DIR VERSION APP_ID
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2") version=$3 app_id=$4
here=$(dirname "$(realpath "$0")")
fail() { echo "debian_package.sh: $*" >&2; exit 1; }
command -v dpkg-shlibdeps >/dev/null || fail "dpkg-shlibdeps is missing (Debian: dpkg-dev), which cpack needs for the dependencies"
work=$(mktemp -d -t alignscope-deb.XXXXXX)
installed_here=0
cleanup() {
  if ((installed_here)); then dpkg --purge alignscope alignscope-models >/dev/null || echo "debian_package.sh: dpkg --purge failed" >&2; fi
  rm -rf "$work"
}
trap cleanup EXIT

start=$SECONDS
cpack --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$work/alignscope_${version}_amd64.deb models_deb=$work/alignscope-models_${version}_all.deb
for f in "$deb" "$models_deb"; do [[ -f $f ]] || fail "cpack did not write $(basename "$f"): $(ls "$work")"; done
echo "cpack: $((SECONDS - start)) s, $(basename "$deb") $(du -m "$deb" | cut -f1) MB, $(basename "$models_deb") $(du -m "$models_deb" | cut -f1) MB"

dpkg-deb -I "$deb" >"$work/info.txt"
field() { sed -n "s/^ $1: //p" "$work/info.txt"; }
[[ $(field Package) == alignscope ]] || fail "Package: $(field Package)"
[[ $(field Version) == "$version" ]] || fail "Version: $(field Version), not $version"
[[ $(field Architecture) == amd64 ]] || fail "Architecture: $(field Architecture)"
depends=$(field Depends)
for p in libtorch1.13 libqt6widgets6 libqcustomplot2.1-qt6 libsentencepiece0 libopenblas0-pthread fonts-dejavu-core fonts-symbola fonts-noto-cjk; do
  [[ ", $depends," == *", $p "* || ", $depends," == *", $p,"* ]] || fail "Depends lacks $p: $depends"
done
if grep -qE -- '-dev\b' <<<"$depends"; then fail "Depends names a -dev package: $depends"; fi

dpkg-deb -c "$deb" | awk '{print $6}' >"$work/contents.txt"
for f in ./usr/bin/alignscope ./usr/bin/alignscope-cli ./usr/lib/alignscope/libalignscope_sentencepiece.so \
  ./usr/share/alignscope/models/en-fr-subword.pt ./usr/share/alignscope/lessons/01-fixed-context-bottleneck.json \
  ./usr/share/alignscope/translations/alignscope_ko.qm \
  "./usr/share/applications/$app_id.desktop" "./usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
  "./usr/share/metainfo/$app_id.metainfo.xml" ./usr/share/doc/alignscope/copyright; do
  grep -qxF "$f" "$work/contents.txt" || fail "the package lacks $f"
done
if grep -vE '^\./usr/' "$work/contents.txt" | grep -v '^\./$'; then fail "the package puts files outside /usr (above)"; fi
# The copyright file carries the data's licences and Tatoeba's attribution line (CC BY 2.0 FR).
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/alignscope/copyright >"$work/copyright"
for line in "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" "License: CC-BY-2.0-FR" \
  "Attribution: www.manythings.org/anki and tatoeba.org" "License: Europarl"; do
  grep -qF "$line" "$work/copyright" || fail "/usr/share/doc/alignscope/copyright lacks '$line'"
done
[[ $(grep -c '^\./usr/share/alignscope/models/.*\.pt$' "$work/contents.txt") -eq 1 ]] \
  || fail "alignscope holds more models than the default: $(grep '\.pt$' "$work/contents.txt" | tr '\n' ' ')"
[[ ", $depends," != *"alignscope-models"* ]] || fail "alignscope depends on alignscope-models (it should only recommend it)"
dpkg-deb -I "$models_deb" >"$work/models-info.txt"
[[ $(sed -n 's/^ Package: //p' "$work/models-info.txt") == alignscope-models ]] || fail "models package: $(head -3 "$work/models-info.txt")"
[[ $(sed -n 's/^ Architecture: //p' "$work/models-info.txt") == all ]] || fail "alignscope-models is not Architecture: all"
dpkg-deb -c "$models_deb" | awk '{print $6}' | grep -v '/$' >"$work/models-contents.txt"
for m in "$source"/models/*.pt; do
  f=./usr/share/alignscope/models/$(basename "$m")
  [[ $(basename "$m") == en-fr-subword.pt ]] && continue
  grep -qxF "$f" "$work/models-contents.txt" || fail "alignscope-models lacks $f"
done
if grep -vE '^\./usr/share/(alignscope/models|doc)/' "$work/models-contents.txt"; then fail "alignscope-models holds more than models (above)"; fi
if grep -xFf "$work/models-contents.txt" "$work/contents.txt"; then fail "both packages hold the files above"; fi
echo "dpkg-deb -I / -c: control files and contents as expected"

if [[ $(id -u) -ne 0 ]]; then
  echo "not root: the package is not installed (CI, as root, installs it)"
  exit 0
fi
# One install at a time on a machine where several checkouts run this test.
exec 9>/tmp/alignscope-debian-package.lock
flock 9
if dpkg-query -W -f='${Status}' alignscope 2>/dev/null | grep -q "install ok installed"; then
  echo "an alignscope package is already installed here: it is left alone and this one is not installed"
  exit 0
fi
installed_here=1
dpkg -i "$deb" "$models_deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i failed (a dependency missing here? apt install ./$(basename "$deb") ./$(basename "$models_deb") fetches them)"; }
[[ -f /usr/share/applications/$app_id.desktop ]] || fail "the desktop entry is not in /usr/share/applications"
mkdir "$work/out"
bash "$here/run_installed.sh" /usr "$work/out" "$source" "$build"
dpkg --purge alignscope alignscope-models >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg --purge failed"; }
installed_here=0
[[ ! -e /usr/bin/alignscope && ! -e /usr/share/alignscope ]] || fail "dpkg --purge left /usr/bin/alignscope or /usr/share/alignscope behind"
echo "dpkg -i, the installed programs, dpkg --purge: all passed in $((SECONDS - start)) s"
