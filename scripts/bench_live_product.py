#!/usr/bin/python3
"""Benchmark of the live page as a student gets it (issue 57's speed, size and memory figures;
docs/live-page.md), in headless Chromium. Not a test: it prints one JSON object, with the host and
its load average, for docs/.

    python3 scripts/bench_live_product.py [--cli build/app/alignscope-cli] [--runs 3]

- lesson 2's live site (`export-lesson --live`): its size beside the model file and the runtime's
  wasm; the first page drawn and the model ready, from navigation; memory once ready (JS heap after
  a collection, the renderer's resident set and its private footprint, which Chromium's task
  manager shows as "Memory footprint": RssAnon + VmSwap);
- a 20-word sentence typed into the Source box, to the page redrawn with its whole greedy decoding;
  a beam of 5 on it;
- Step -> on a page of a 100-token source forced along a 100-token target (the issue's "redraw per
  step at 100 tokens"): each press timed from the key event to the layout done (a forced layout),
  to the next frame (which waits for the display's beat), and as the main thread's work alone: to
  the layout, plus the next frame's own style, layout and paint. --reference-page-js REV times the
  same page with an older page.js and page.css in the same run."""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "web"))
from browser import Browser  # noqa: E402

SENTENCE = ("The committee said on Tuesday that the new bridge across the river would open next spring, "
            "two years late.")  # 20 words
# 100 source tokens and 100 target tokens (the default model's SentencePiece pieces, counted below)
LONG_SOURCE = ("Mr President, the report before us today deals with the safety of the bridges, roads and railways "
               "that the Member States built in the years after the war, and the Commission has told us that it "
               "will present a proposal on their maintenance before the end of the year, which we welcome, "
               "although we regret that the Council has not yet said how it intends to pay for it, nor when the "
               "Parliament will see the figures.")


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def renderers():
    """Chromium's renderer processes: pid -> (RSS MB, private footprint MB)."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"--type=renderer" not in cmd or b"--extension-process" in cmd:
                continue
            status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        kb = lambda k: int(status.get(k, "0 kB").split()[0])  # noqa: E731
        out[int(pid)] = (kb("VmRSS") / 1024, (kb("RssAnon") + kb("VmSwap")) / 1024)
    return out


def cdp(b: Browser, cmd: str, params=None):
    return b._call("POST", f"/session/{b.session}/goog/cdp/execute", {"cmd": cmd, "params": params or {}})


def wait(b: Browser, script: str, timeout: float = 120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = b.run(script)
        if v:
            return v
        time.sleep(0.02)
    raise RuntimeError("timed out waiting for: " + script)


READY = "const s = document.querySelector('.as-live-status'); return s && s.textContent.startsWith('Live:') ? s.textContent : ''"
TIMES = """const root = document.querySelector('.alignscope-page');
return {drawn: window.AlignScopePage.drawnAt, ready: root.alignscopeLive.readyMs, load: root.alignscopeLive.loadMs || null};"""
# a decoding started as the user does (the box's value, Enter), timed to the page redrawn and laid out
DECODE = """const done = arguments[arguments.length - 1];
const root = document.querySelector('.alignscope-page'), live = root.alignscopeLive;
const [source, target] = document.querySelectorAll('.as-live input'), beam = document.querySelector('.as-live select');
source.value = arguments[0]; target.value = arguments[1] || ''; beam.value = String(arguments[2] || 1);
const t0 = performance.now();
source.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
Promise.resolve(live.busy).then(() => {
  document.body.offsetHeight;
  const laid = performance.now() - t0;
  requestAnimationFrame(() => done({ms: laid, frame: performance.now() - t0, steps: root.alignscope.d.steps.length,
    sources: root.alignscope.d.source_tokens.length, error: document.querySelector('.as-live-error').textContent}));
});"""
# Home, then Step -> to the end, each press timed to its layout and to the next frame
STEPS = """const done = arguments[arguments.length - 1];
const root = document.querySelector('.alignscope-page'), page = root.alignscope;
const press = (key) => document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true}));
press('Home');
document.body.offsetHeight;
const laid = [], frames = [], redraws = [];
const next = () => {
  if (page.state.t >= page.length()) { done({laid: laid, frames: frames, redraws: redraws}); return; }
  const t0 = performance.now();
  press('ArrowRight');
  document.body.offsetHeight;
  const t1 = performance.now();
  laid.push(t1 - t0);
  requestAnimationFrame(() => {
    const t2 = performance.now();
    frames.push(t2 - t0);
    // the frame's own work (style, layout, paint) ends before a task queued in it runs
    setTimeout(() => { redraws.push(t1 - t0 + performance.now() - t2); setTimeout(next, 30); }, 0);
  });
};
setTimeout(next, 100);"""


def summary(values):
    values = sorted(values)
    p90 = values[max(0, math.ceil(0.9 * len(values)) - 1)]  # nearest rank
    return {"n": len(values), "median": round(statistics.median(values), 2), "p90": round(p90, 2),
            "max": round(values[-1], 2)}


def memory(b: Browser):
    cdp(b, "HeapProfiler.collectGarbage")
    time.sleep(1.0)
    cdp(b, "HeapProfiler.collectGarbage")
    heap = b.run("return performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null")
    page = max(renderers().values(), key=lambda v: v[0])  # the page's renderer: the largest one
    return {"js_heap_mb": round(heap, 1), "renderer_rss_mb": round(page[0], 1), "renderer_private_footprint_mb": round(page[1], 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(REPO / "build" / "app" / "alignscope-cli"))
    ap.add_argument("--model", default=str(REPO / "models" / "en-fr-subword.pt"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--reference-page-js", metavar="GIT_REV",
                    help="also time Step -> with page.js and page.css as they were at GIT_REV (e.g. HEAD~1), swapped into the same page, in this run")
    a = ap.parse_args()
    host = subprocess.run("lscpu | grep 'Model name' | sed 's/.*: *//'", shell=True, capture_output=True, text=True).stdout.strip()
    result = {"host": f"{host}, {os.cpu_count()} cores", "load_before": load_average(),
              "chromium": subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip(),
              "model": os.path.basename(a.model), "model_file_mb": round(os.path.getsize(a.model) / 1e6, 2)}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "lesson2"
        t = time.time()
        done = subprocess.run([a.cli, "export-lesson", str(REPO / "resources" / "lessons" / "02-attention-by-hand.json"),
                               "--live", "--out", str(site)], capture_output=True, text=True)
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return 1
        result["export_lesson_live_s"] = round(time.time() - t, 1)
        live = site / "alignscope-live"
        sizes = {p.name: sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) for p in live.iterdir()}
        result["site_live_folder_mb"] = round(sum(sizes.values()) / 1e6, 2)
        result["site_pages_mb"] = round(sum(f.stat().st_size for f in site.glob("*.html")) / 1e6, 2)
        wasm = REPO / "build" / "onnxruntime-web" / "ort-wasm-simd-threaded.wasm"
        result["budget_mb"] = round((1.6 * os.path.getsize(a.model) + wasm.stat().st_size) / 1e6, 2)
        first = sorted(site.glob("page-*.html"))[0]
        opens, memories = [], []
        for run in range(a.runs):
            with Browser(1024, 768) as b:
                b.open(first)
                wait(b, READY)
                opens.append(b.run(TIMES))
                memories.append(memory(b))
                if run == a.runs - 1:
                    decodes = [b._call("POST", b._s("/execute/async"), {"script": DECODE, "args": [SENTENCE, "", 1]}) for _ in range(5)]
                    beams = [b._call("POST", b._s("/execute/async"), {"script": DECODE, "args": [SENTENCE, "", 5]}) for _ in range(3)]
                    result["memory_after_decodes"] = memory(b)
        result["first_page_drawn_ms"] = [round(o["drawn"]) for o in opens]
        result["model_ready_ms"] = [round(o["ready"]) for o in opens]
        result["memory_once_ready"] = memories
        result["typed_20_words_greedy"] = {"steps": decodes[0]["steps"], "first_ms": round(decodes[0]["ms"]),
                                           "later_ms": summary([d["ms"] for d in decodes[1:]])}
        result["typed_20_words_beam5"] = {"first_ms": round(beams[0]["ms"]), "later_ms": summary([d["ms"] for d in beams[1:]])}
        result["load_after_lesson"] = load_average()

        # the redraw per step: a 100-token source forced along a 100-token target; with
        # --reference-page-js, the same page with the older page.js swapped in, alternately
        pages = {"": first}
        if a.reference_page_js:
            text = first.read_text(encoding="utf-8")
            for name in ("page.js", "page.css"):
                current = (REPO / "resources" / "web" / name).read_text(encoding="utf-8")
                old = subprocess.run(["git", "-C", str(REPO), "show", f"{a.reference_page_js}:resources/web/{name}"], capture_output=True,
                                     text=True, check=True).stdout
                assert text.count(current) == 1, f"the page's {name} is not the checkout's (rebuild)"
                text = text.replace(current, old)
            pages["_reference"] = first.with_name("reference-" + first.name)
            pages["_reference"].write_text(text, encoding="utf-8")
        for suffix, path in pages.items():
            with Browser(1024, 768) as b:
                b.open(path)
                wait(b, READY)
                target = " ".join(["le"] * 100)  # forcing writes what it is given: 100 target tokens and </s>
                r = b._call("POST", b._s("/execute/async"), {"script": DECODE, "args": [LONG_SOURCE, target, 1]})
                assert not r["error"], r["error"]
                result["long_page"] = {"source_tokens": r["sources"], "target_steps": r["steps"], "forced_decoding_ms": round(r["ms"])}
                for size in ((1024, 768), (1920, 1080)):
                    cdp(b, "Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
                    time.sleep(0.5)
                    s = b._call("POST", b._s("/execute/async"), {"script": STEPS, "args": []})
                    result[f"step_redraw_{size[0]}x{size[1]}{suffix}"] = {"to_layout_ms": summary(s["laid"]),
                                                                          "to_next_frame_ms": summary(s["frames"]),
                                                                          "script_layout_paint_ms": summary(s["redraws"])}
        if a.reference_page_js:
            result["reference_page_js"] = a.reference_page_js
        result["load_after"] = load_average()
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
