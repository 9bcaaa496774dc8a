"""Benchmark the build: a cold build (fresh output folder, fresh process) and a warm rebuild with nothing changed.

Each run is a separate `python -m site_builder build` process, so imports are counted, as a user sees
them. Reports the median of N runs of each (default 5), and the machine it ran on.

    .venv/bin/python scripts/bench_build.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def run_build(out: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--out", str(out)],
        cwd=PROJECT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            out = Path(tmp) / f"cold-{i}"
            cold.append(run_build(out))
            shutil.rmtree(out)
        out = Path(tmp) / "warm"
        run_build(out)
        for _ in range(args.runs):
            warm.append(run_build(out))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"cold build   median {statistics.median(cold):.3f} s  (runs: {', '.join(f'{t:.3f}' for t in cold)})")
    print(f"warm rebuild median {statistics.median(warm):.3f} s  (runs: {', '.join(f'{t:.3f}' for t in warm)})")


if __name__ == "__main__":
    main()
