#!/usr/bin/env bash
# The desktop app under a real X server with a window manager, as a projector runs it: Xvfb at the
# given size with openbox, then the GUI tests' RealScreen.* (which skip offscreen).
# Usage: real_screen.sh GUI_TEST_BINARY WIDTHxHEIGHT
set -euo pipefail
binary=$1 size=$2
for tool in Xvfb openbox xdotool; do
  command -v "$tool" >/dev/null || { echo "real_screen.sh: $tool is not installed (scripts/setup.sh --with-test-tools)" >&2; exit 1; }
done
# A display number of this run's own: ctest runs tests in parallel.
display=""
for n in $(seq 90 140); do
  if [[ ! -e /tmp/.X$n-lock && ! -e /tmp/.X11-unix/X$n ]]; then display=:$n; break; fi
done
[[ -n $display ]] || { echo "real_screen.sh: no free X display number" >&2; exit 1; }
Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
wm=""
trap 'kill $wm $xvfb 2>/dev/null || true' EXIT
export DISPLAY=$display
for _ in $(seq 100); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
openbox >/dev/null 2>&1 &
wm=$!
# Until openbox manages the screen (it sets the desktops' count then): a window mapped before it
# starts is adopted as a normal one, whatever the app asked for.
for _ in $(seq 100); do xdotool get_num_desktops >/dev/null 2>&1 && break; sleep 0.1; done
xdotool get_num_desktops >/dev/null 2>&1 || { echo "real_screen.sh: openbox did not start on $display within 10 s" >&2; exit 1; }
ALIGNSCOPE_TEST_WM_PID=$wm QT_QPA_PLATFORM=xcb "$binary" --gtest_filter='RealScreen.*'
