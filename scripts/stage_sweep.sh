#!/usr/bin/env bash
# Every page of every shipped lesson on presenter mode's stage at the projectors' sizes (and the
# window's), as screenshots with their --view-report, and one line a page saying whether the whole
# matrix (up to 40 x 40 tokens) and the page's rows are in view with cells of at least 12 px.
# Too long for CI (about 10 s a page); run it before a change to the stage or the lessons lands.
# Usage: scripts/stage_sweep.sh [OUT_DIR] [SIZES...]   (default: build/stage-sweep 1024x768 1280x720)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/stage-sweep}
shift || true
sizes=("$@")
((${#sizes[@]})) || sizes=(1024x768 1280x720)
app=build/app/alignscope
[[ -x $app ]] || { echo "stage_sweep.sh: build the app first (scripts/build.sh)" >&2; exit 1; }
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
failures=0
for lesson in resources/lessons/*.json; do
  name=$(basename "$lesson" .json)
  pages=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["pages"]))' "$lesson")
  for size in "${sizes[@]}"; do
    for page in $(seq 1 "$pages"); do
      shot="$out/$name-p$page-$size"
      if ! "$app" --lesson "$lesson" --page "$page" --presenter --size "$size" --screenshot "$shot.png" --view-report "$shot.json" 2>"$shot.log"; then
        echo "FAIL $name page $page $size: the app failed ($shot.log)"; failures=$((failures + 1)); continue
      fi
      python3 - "$shot.json" "$name page $page $size" <<'PY' || failures=$((failures + 1))
import json, sys
report, where = json.load(open(sys.argv[1])), sys.argv[2]
problems = []
for h in report["heatmaps"]:
    if h["name"] == "encoder states":
        continue
    whole = h["rows"] <= 40 and h["columns"] <= 40
    if whole and (h["rows_in_view"] < h["rows"] or h["columns_in_view"] < h["columns"]):
        problems.append(f'{h["rows_in_view"]}/{h["rows"]} rows, {h["columns_in_view"]}/{h["columns"]} columns in view')
    if min(h["cell_px"]) < 12 and not h["name"].startswith("compare"):
        problems.append(f'cells {h["cell_px"]} px')
    if h.get("marked_rows_in_view", 0) < len(h.get("marked_rows", [])):
        problems.append(f'{h["marked_rows_in_view"]} of the page\'s rows {h["marked_rows"]} in view')
for p in report["panels"]:
    if p.get("empty"):
        problems.append(f'an empty {p["name"]} panel')
    if p.get("text_fits") is False:
        problems.append("the page's text needs scrolling in its band")
    if p["name"] in ("menu bar", "source", "tokens"):
        problems.append(f'{p["name"]} on the stage')
sizes = ", ".join(f'{h["name"]} {h["rows_in_view"]}/{h["rows"]} x {h["columns_in_view"]}/{h["columns"]} at {h["cell_px"]}' for h in report["heatmaps"])
print(("FAIL " if problems else "ok   ") + where + ": " + (sizes or "no heatmap") + ("; " + "; ".join(problems) if problems else ""))
sys.exit(1 if problems else 0)
PY
    done
  done
done
echo "$failures page(s) failed; screenshots and reports in $out"
((failures == 0))
