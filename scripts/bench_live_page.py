#!/usr/bin/python3
"""Benchmark of the live page prototype (issue 57; docs/live-page.md) in headless Chromium: sizes,
time to a ready page, session creation, one step, a 20-word greedy decoding. Not a test.

    python3 scripts/bench_live_page.py [--model models/en-fr-subword.pt] [--runtime build/onnxruntime-web]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "tests" / "web"))
from browser import Browser  # noqa: E402
from alignscope import live_page, onnx_export  # noqa: E402
from alignscope.decoding import LoadedModel  # noqa: E402

SENTENCE = ("The committee said on Tuesday that the new bridge across the river would open next spring, "
            "two years late.")  # 20 words


def renderer_rss_mb() -> float:
    """Resident memory of Chromium's renderer processes (the page), in MB."""
    out = subprocess.run(["ps", "-eo", "rss,args"], capture_output=True, text=True).stdout
    return sum(int(line.split()[0]) for line in out.splitlines()[1:] if "--type=renderer" in line) / 1024


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=str(REPO / "models" / "en-fr-subword.pt"))
    ap.add_argument("--runtime", default=str(REPO / "build" / "onnxruntime-web"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    result = {"model": os.path.basename(a.model), "model_file_bytes": os.path.getsize(a.model),
              "host": subprocess.run("lscpu | grep 'Model name' | sed 's/.*: *//'", shell=True, capture_output=True,
                                     text=True).stdout.strip() + f", {os.cpu_count()} cores",
              "chromium": subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()}
    with tempfile.TemporaryDirectory() as tmp:
        t = time.time()
        onnx_export.export(a.model, tmp + "/onnx")
        result["export_s"] = round(time.time() - t, 2)
        result["onnx_bytes"] = {f.name: f.stat().st_size for f in sorted(Path(tmp, "onnx").iterdir())}
        t = time.time()
        result["site_bytes"] = live_page.write_site(a.model, a.runtime, tmp + "/site")
        result["site_with_check_s"] = round(time.time() - t, 2)
        result["wasm_bytes"] = os.path.getsize(Path(a.runtime) / live_page.WASM)
        model = LoadedModel(a.model)
        ids = model.tokenize_source(SENTENCE)[1]
        script = ("const done = arguments[arguments.length - 1];"
                  "window.liveModel.then((m) => m.greedy(arguments[0], 0)).then((r) => done({steps: r.steps.length,"
                  " encode_ms: r.encode_ms, step_ms: r.step_ms, total_ms: r.total_ms}), (e) => done({error: String(e)}))")
        opens = []
        with Browser(800, 600) as b:
            for run in range(a.runs):
                b.open(Path(tmp, "site", "live.html"))
                while b.run("return document.getElementById('status').textContent") not in ("ready",):
                    time.sleep(0.02)
                opens.append(b.run("return [window.readyMs, window.liveModel && 0]")[0])
                load = b._call("POST", b._s("/execute/async"), {"script": "const done = arguments[0];"
                                                                "window.liveModel.then((m) => done(m.loadMs))", "args": []})
                decodes = [b._call("POST", b._s("/execute/async"), {"script": script, "args": [ids]})
                            for _ in range(a.runs)]
                if run == 0:
                    result["first_load_ms"] = load
                    result["renderer_rss_mb_first_page"] = round(renderer_rss_mb(), 1)
                    result["js_heap_mb_first_page"] = round(b.run("return performance.memory.usedJSHeapSize") / 2**20, 1)
                    result["first_decode"] = {k: v for k, v in decodes[0].items() if k != "step_ms"}
            beam = ("const done = arguments[arguments.length - 1]; const t = performance.now();"
                    "window.liveModel.then((m) => m.beam(arguments[0], 5)).then(() => done(performance.now() - t),"
                    " (e) => done(String(e)))")
            beams = [b._call("POST", b._s("/execute/async"), {"script": beam, "args": [ids]}) for _ in range(a.runs)]
            result["beam5_ms_median"] = round(statistics.median(beams), 1)
            steps = [ms for d in decodes[1:] for ms in d["step_ms"][1:]]
            result["ready_ms_median"] = round(statistics.median(opens), 1)
            result["ready_ms_all"] = [round(x) for x in opens]
            result["load_ms_last"] = load
            result["source_tokens"] = len(ids)
            result["decode_steps"] = decodes[-1]["steps"]
            result["decode_total_ms_median"] = round(statistics.median(d["total_ms"] for d in decodes[1:]), 1)
            result["encode_ms_median"] = round(statistics.median(d["encode_ms"] for d in decodes[1:]), 1)
            result["step_ms_median"] = round(statistics.median(steps), 2)
            result["step_ms_p90"] = round(sorted(steps)[int(0.9 * len(steps))], 2)
            result["renderer_rss_mb_after_all_runs"] = round(renderer_rss_mb(), 1)
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]  # the host is shared: read numbers with it
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
