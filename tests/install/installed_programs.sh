#!/usr/bin/env bash
# CTest entry install_prefix: `cmake --install --strip` into a temporary prefix, the layout checked
# (programs, private module with RUNPATH $ORIGIN/../lib/alignscope, data, desktop entry, icon,
# metainfo, validated where desktop-file-utils and appstream are installed), no path of the source
# tree in any installed binary, then the prefix moved elsewhere and its programs run there with the
# source tree out of reach (run_installed.sh).
#
#   installed_programs.sh BUILD_DIR SOURCE_DIR APP_ID
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2") app_id=$3
here=$(dirname "$(realpath "$0")")
fail() { echo "installed_programs.sh: $*" >&2; exit 1; }
work=$(mktemp -d -t alignscope-install.XXXXXX)
trap 'rm -rf "$work"' EXIT

start=$SECONDS
cmake --install "$build" --prefix "$work/prefix" --strip >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
echo "cmake --install --strip: $((SECONDS - start)) s, $(du -sh "$work/prefix" | cut -f1)"
cd "$work/prefix"
for f in bin/alignscope-cli bin/alignscope lib/alignscope/libalignscope_sentencepiece.so \
  share/alignscope/models/en-fr-subword.pt share/alignscope/models/lesson-dates.pt share/alignscope/models/dates-run \
  share/alignscope/lessons/01-fixed-context-bottleneck.json share/alignscope/lessons/figures/bleu-by-length-subword.png \
  share/alignscope/translations/alignscope_de.qm share/alignscope/translations/alignscope_fr.qm share/alignscope/translations/alignscope_ko.qm \
  "share/applications/$app_id.desktop" "share/icons/hicolor/scalable/apps/$app_id.svg" "share/metainfo/$app_id.metainfo.xml" \
  "share/mime/packages/$app_id.xml" share/alignscope/python/alignscope/live_page.py \
  share/alignscope/python/alignscope/web/page.js share/alignscope/python/alignscope/web/live/page-live.js; do
  [[ -e $f ]] || fail "the install lacks $f"
done
[[ ! -L share/alignscope/python/alignscope/web ]] || fail "the installed package's web folder is a link (into the source tree)"
# The npm runtime of the live page goes with the install where the build fetched it
if [[ -e $build/onnxruntime-web/ort-wasm-simd-threaded.wasm ]]; then
  [[ -e share/alignscope/onnxruntime-web/ort-wasm-simd-threaded.wasm && -e share/alignscope/sentencepiece-js/index.js ]] \
    || fail "the install lacks the live page's runtime (share/alignscope/onnxruntime-web, sentencepiece-js)"
fi
for f in bin/alignscope bin/alignscope-cli lib/alignscope/*.so; do
  if strings -a "$f" | grep -F "$source"; then fail "$f holds a path into the source tree $source (above)"; fi
done
for f in bin/alignscope bin/alignscope-cli; do
  # shellcheck disable=SC2016  # a literal $ORIGIN
  readelf -d "$f" | grep -qE 'RUNPATH.*\[\$ORIGIN/\.\./lib/alignscope\]' || fail "$f: RUNPATH is not \$ORIGIN/../lib/alignscope"
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "share/applications/$app_id.desktop" || fail "desktop-file-validate refuses the desktop entry"
else
  echo "desktop-file-validate is not installed (desktop-file-utils): the desktop entry is not validated"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --pedantic "share/metainfo/$app_id.metainfo.xml" || fail "appstreamcli refuses the metainfo"
else
  echo "appstreamcli is not installed (appstream): the metainfo is not validated"
fi

# The same binaries from another prefix: the install moved as a whole.
cd "$work"
mv prefix moved-prefix
mkdir out
bash "$here/run_installed.sh" "$work/moved-prefix" "$work/out" "$source" "$build"
# The installed programs translate as the build tree's do (same model, same numbers).
printf 'I would like a coffee.\nThe red car is very fast.\n' >sentences.txt
"$build/app/alignscope-cli" translate -i sentences.txt -o from-build.txt
cmp -s from-build.txt out/translation.txt || fail "the installed alignscope-cli translates otherwise: $(paste out/translation.txt from-build.txt)"
[[ -z ${ALIGNSCOPE_INSTALL_SHOTS:-} ]] || cp out/*.png "$ALIGNSCOPE_INSTALL_SHOTS"/
# export --live from the moved prefix: the installed Python package and runtime, not the source tree's
if [[ -e $build/onnxruntime-web/ort-wasm-simd-threaded.wasm ]] && /usr/bin/python3 -c 'import torch, onnx' 2>/dev/null \
  && command -v node >/dev/null; then
  head -1 sentences.txt >one.txt
  env -i PATH=/usr/bin:/bin HOME="$work" "$work/moved-prefix/bin/alignscope-cli" export --live --format html --no-progress -i one.txt \
    -o live >live.log 2>&1 || fail "export --live from the installed prefix failed: $(cat live.log)"
  # a model's folder is its name and a hash of its content (live_page.py: exports into one folder add up)
  weights=(live/alignscope-live/models/en-fr-subword-*/step-weights.js)
  [[ -e live/alignscope-live/runtime/ort-wasm.js && -e ${weights[0]} ]] \
    || fail "export --live wrote no live folder: $(cat live.log)"
else
  echo "export --live from the install not checked: it needs the fetched runtime, python3-torch, python3-onnx and node"
fi

# A program with no share/alignscope beside it: it names where it looked, and ALIGNSCOPE_DATA_DIR
# (with the module named too) points it at the data.
mkdir lonely
cp moved-prefix/bin/alignscope-cli lonely/
if env -i PATH=/usr/bin:/bin lonely/alignscope-cli inspect >lonely.out 2>&1; then fail "inspect found a model with no data beside it"; fi
grep -qF "$work/share/alignscope/models/en-fr-subword.pt" lonely.out || fail "the message does not name where the model was looked for: $(cat lonely.out)"
env -i PATH=/usr/bin:/bin ALIGNSCOPE_DATA_DIR="$work/moved-prefix/share/alignscope" \
  ALIGNSCOPE_SENTENCEPIECE_MODULE="$work/moved-prefix/lib/alignscope/libalignscope_sentencepiece.so" \
  lonely/alignscope-cli inspect >lonely.out 2>&1 || fail "inspect with ALIGNSCOPE_DATA_DIR: $(cat lonely.out)"
grep -qF "file:              $work/moved-prefix/share/alignscope/models/en-fr-subword.pt" lonely.out \
  || fail "ALIGNSCOPE_DATA_DIR was not used: $(head -3 lonely.out)"
echo "installed programs: all checks passed in $((SECONDS - start)) s"
