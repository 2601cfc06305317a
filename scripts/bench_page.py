#!/usr/bin/env python3
"""Benchmarks of the web page (not tests): `alignscope-cli export --format html` of N sentences
(wall time, file sizes), and how long pages take to open and draw in headless Chromium (from the
start of navigation to the end of the first drawing, window.AlignScopePage.drawnAt), at 1024x768.

    /usr/bin/python3 scripts/bench_page.py [--lines 1000] [--open 30] [--corpus FILE]

FILE: 'source<TAB>target' lines (default /work/shared/data/fra-eng.txt's middle, else
docs/alignment-gold/pairs.tsv); only the sources are exported. Prints a markdown table."""

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
        draws, long_draws = [], []
        if available() is None:
            with Browser(1024, 768) as b:
                for f in files[:a.open]:
                    b.open(f)
                    draws.append(b.run("return window.AlignScopePage.drawnAt"))
                for _ in range(5):
                    b.open(long_page)
                    long_draws.append(b.run("return window.AlignScopePage.drawnAt"))
    print(f"Host: {cpu()}, {os.cpu_count()} cores; corpus {corpus.name}; model: the bundled default\n")
    print("| measure | value |\n| --- | --- |")
    print(f"| export --format html, {len(files)} sentences | {seconds:.1f} s ({len(files) / seconds:.0f} pages/s) |")
    print(f"| page size: median, largest | {statistics.median(sizes) / 1000:.0f} KB, {max(sizes) / 1000:.0f} KB |")
    print(f"| page of a 30-token sentence | {long_page.stat().st_size / 1000:.0f} KB |")
    if draws:
        print(f"| open and draw in Chromium, {len(draws)} pages: median, slowest | {statistics.median(draws):.0f} ms, {max(draws):.0f} ms |")
        print(f"| open and draw the 30-token page (5 times): median, slowest | {statistics.median(long_draws):.0f} ms, {max(long_draws):.0f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
