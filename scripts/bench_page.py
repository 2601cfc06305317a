#!/usr/bin/env python3
"""Benchmarks of the web page (not tests): `alignscope-cli export --format html` of N sentences
(wall time, file sizes), and how long pages take to open and draw in headless Chromium (from the
start of navigation to the end of the first drawing, window.AlignScopePage.drawnAt), at 1024x768.

    /usr/bin/python3 scripts/bench_page.py [--lines 1000] [--open 30] [--corpus FILE] [--out docs/performance-page.md]

FILE: 'source<TAB>target' lines (default /work/shared/data/fra-eng.txt's middle, else
docs/alignment-gold/pairs.tsv); only the sources are exported. Prints a markdown table and
writes it to --out (docs/performance.md is bench.sh's own, rewritten whole by each run)."""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "web"))
from browser import Browser, available  # noqa: E402

LONG = ("The committee said on Tuesday that the new bridge across the river would open to traffic "
        "next spring, two years later than planned by the city.")


# Each step of a page from step 0 to the end, in milliseconds: the step drawn and the layout done.
STEPS = """const p = document.querySelector('.alignscope-page').alignscope, T = p.d.target_tokens.length, out = [];
p.go(0); document.body.offsetHeight;
for (let t = 1; t <= T; ++t) { const a = performance.now(); p.go(t); document.body.offsetHeight; out.push(performance.now() - a); }
return out"""


def sources(corpus: Path, n: int):
    lines = corpus.read_text(encoding="utf-8").splitlines()
    middle = lines[len(lines) // 2:] + lines[:len(lines) // 2]
    out = [line.split("\t")[0] for line in middle if line.strip()]
    while len(out) < n:
        out += out
    return out[:n]


def cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lines", type=int, default=1000)
    p.add_argument("--open", type=int, default=30, help="pages opened in Chromium")
    p.add_argument("--corpus", type=Path)
    p.add_argument("--cli", type=Path, default=REPO / "build" / "app" / "alignscope-cli")
    p.add_argument("--out", type=Path, default=REPO / "docs" / "performance-page.md")
    a = p.parse_args()
    corpus = a.corpus or next((c for c in (Path("/work/shared/data/fra-eng.txt"), REPO / "docs/alignment-gold/pairs.tsv") if c.is_file()))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "in.txt").write_text("\n".join(sources(corpus, a.lines)) + "\n", encoding="utf-8")
        start = time.monotonic()
        subprocess.run([str(a.cli), "export", "--format", "html", "--input", str(tmp / "in.txt"), "--out", str(tmp / "out"),
                        "--no-progress"], check=True)
        seconds = time.monotonic() - start
        files = sorted((tmp / "out").glob("*.html"))
        sizes = [f.stat().st_size for f in files]
        (tmp / "long.txt").write_text(LONG + "\n", encoding="utf-8")
        subprocess.run([str(a.cli), "export", "--format", "html", "--input", str(tmp / "long.txt"), "--out", str(tmp / "long"),
                        "--no-progress"], check=True)
        long_page = next((tmp / "long").glob("*.html"))
        long_size = long_page.stat().st_size
        # Three times the 30-token sentence (about 90 source tokens): the time of each step.
        (tmp / "longer.txt").write_text(" ".join([LONG] * 3) + "\n", encoding="utf-8")
        subprocess.run([str(a.cli), "export", "--format", "html", "--input", str(tmp / "longer.txt"), "--out", str(tmp / "longer"),
                        "--no-progress"], check=True)
        longer_page = next((tmp / "longer").glob("*.html"))
        draws, long_draws, steps, shape = [], [], [], (0, 0)
        if available() is None:
            with Browser(1024, 768) as b:
                for f in files[:a.open]:
                    b.open(f)
                    draws.append(b.run("return window.AlignScopePage.drawnAt"))
                for _ in range(5):
                    b.open(long_page)
                    long_draws.append(b.run("return window.AlignScopePage.drawnAt"))
                b.open(longer_page)
                shape = tuple(b.run("const d = document.querySelector('.alignscope-page').alignscope.d; "
                                    "return [d.target_tokens.length, d.source_tokens.length]"))
                for _ in range(3):
                    steps += b.run(STEPS)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    rows = [f"Host: {cpu()}, {os.cpu_count()} cores, load average {load} (1, 5, 15 min) at the end; corpus {corpus.name}; "
            "model: the bundled default.\n",
            "| measure | value |", "| --- | --- |",
            f"| export --format html, {len(files)} sentences | {seconds:.1f} s ({len(files) / seconds:.0f} pages/s) |",
            f"| page size: median, largest | {statistics.median(sizes) / 1000:.0f} KB, {max(sizes) / 1000:.0f} KB |",
            f"| page of a 30-token sentence | {long_size / 1000:.0f} KB |"]
    if draws:
        rows += [f"| open and draw in headless Chromium, {len(draws)} pages: median, slowest | {statistics.median(draws):.0f} ms, {max(draws):.0f} ms |",
                 f"| open and draw the 30-token page (5 times): median, slowest | {statistics.median(long_draws):.0f} ms, {max(long_draws):.0f} ms |",
                 f"| one step (→) of a {shape[0]} x {shape[1]}-token page, layout included, every step 3 times: median, slowest "
                 f"| {statistics.median(steps):.1f} ms, {max(steps):.1f} ms |"]
    table = "\n".join(rows) + "\n"
    print(table)
    a.out.write_text("# The web page: export and drawing speed\n\nGenerated by `/usr/bin/python3 scripts/bench_page.py` "
                     "(do not edit by hand; rerun it). Open and draw: from the start of navigation to the end of the "
                     "first drawing (`window.AlignScopePage.drawnAt`), at 1024x768. Targets (issue 48): a page opens "
                     "and draws in under 1 s; 1,000 sentences export in under a minute on 2 cores; a 30-token "
                     "sentence's page is at most 300 KB.\n\n" + table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
