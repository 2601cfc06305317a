#!/usr/bin/env bash
# Runs installed AlignScope programs as a user who has only the install would: a clean environment
# (no ALIGNSCOPE_* variables), another working folder, and, where the kernel lets this user make a
# mount namespace (root, as in CI), the source and build trees hidden under empty folders, so a path
# into them that the programs still used would fail here.
#
#   run_installed.sh PREFIX OUT_DIR SOURCE_DIR [BUILD_DIR]
#
# Checks alignscope-cli translate (it needs the SentencePiece module), inspect (the bundled default
# model found in PREFIX/share/alignscope), and alignscope --screenshot on the default model and on
# a shipped lesson's page with its picture, and on the lesson over a training run. Writes
# OUT_DIR/translation.txt and the screenshots default.png, lesson.png, timeline.png.
set -euo pipefail
prefix=$(realpath "$1") out=$(realpath "$2") source=$(realpath "$3") build=${4:+$(realpath "$4")}
fail() { echo "run_installed.sh: $*" >&2; exit 1; }

checks=$(cat <<'CHECKS'
set -euo pipefail
fail() { echo "run_installed.sh: $*" >&2; exit 1; }
cd "$OUT"
printf 'I would like a coffee.\nThe red car is very fast.\n' >sentences.txt
"$PREFIX/bin/alignscope-cli" translate -i sentences.txt -o translation.txt || fail "installed alignscope-cli translate failed"
[[ $(wc -l <translation.txt) -eq 2 && -s translation.txt ]] || fail "translate wrote $(wc -l <translation.txt) lines"
"$PREFIX/bin/alignscope-cli" inspect >inspect.txt || fail "installed alignscope-cli inspect failed"
grep -qF "file:              $PREFIX/share/alignscope/models/en-fr-subword.pt" inspect.txt \
  || fail "inspect did not open the bundled model in $PREFIX/share/alignscope: $(head -2 inspect.txt)"
grep -q "meets AlignScope model format" inspect.txt || fail "inspect: $(cat inspect.txt)"
"$PREFIX/bin/alignscope" --screenshot default.png --size 1000x700 2>gui.log || fail "alignscope on the default model: $(cat gui.log)"
lesson=$PREFIX/share/alignscope/lessons/01-fixed-context-bottleneck.json
"$PREFIX/bin/alignscope" --lesson "$lesson" --page 5 --screenshot lesson.png --size 1400x900 2>>gui.log \
  || fail "alignscope on lesson 1 page 5: $(cat gui.log)"
# A lesson over a training run (models/dates-run: its snapshots and timeline installed with the models).
"$PREFIX/bin/alignscope" --lesson "$PREFIX/share/alignscope/lessons/07-how-attention-learns-to-align.json" --page 2 \
  --screenshot timeline.png --size 1300x850 2>>gui.log || fail "alignscope on lesson 7 page 2: $(cat gui.log)"
# The app in Korean from the installed catalogue (docs/languages.md): the view report names the language in use.
LANG=ko_KR.UTF-8 "$PREFIX/bin/alignscope" --screenshot korean.png --size 1024x768 --view-report korean.json 2>>gui.log \
  || fail "alignscope in Korean: $(cat gui.log)"
grep -q '"language": "ko"' korean.json || fail "LANG=ko_KR.UTF-8: the app did not speak Korean (no catalogue installed?): $(cat gui.log)"
[[ -s default.png && -s lesson.png && -s timeline.png ]] || fail "no screenshots"
CHECKS
)
environment=(env -i PATH=/usr/bin:/bin HOME="$out" QT_QPA_PLATFORM=offscreen PREFIX="$prefix" OUT="$out")
if [[ $(id -u) -eq 0 ]] && unshare --mount true 2>/dev/null; then
  hide="mount -t tmpfs none '$source'" hidden=$source
  if [[ -n $build && $build != "$source"/* ]]; then hide+=" && mount -t tmpfs none '$build'" hidden+=" and $build"; fi
  # The prefix and OUT_DIR must stay visible: they are not inside the trees (the caller's temporary folder).
  [[ $prefix == "$source"/* || $out == "$source"/* ]] && fail "PREFIX and OUT_DIR must lie outside $source"
  "${environment[@]}" unshare --mount bash -c "$hide && [[ -z \$(ls -A '$source') ]] && $checks"
  echo "ran the installed programs with $hidden hidden"
else
  "${environment[@]}" bash -c "$checks"
  echo "ran the installed programs in a clean environment (not root: the source tree could not be hidden)"
fi
