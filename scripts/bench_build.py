"""Benchmark the build against MkDocs on the same Markdown pages.

Every timing is a whole process (`python -m site_builder build …`, imports included), as a user sees it:

* cold: an empty results cache and a fresh output folder (every model recomputed);
* warm: nothing changed since the last build (models from the cache);
* one edit: one content page changed since the last build;
* MkDocs 1.6 (`mkdocs build`) on the same content pages, fresh and with its output already there.

Reports medians of N runs (default 5) and the ratios to MkDocs' build, with the machine it ran on. The runs are
interleaved: each of ours is followed by the MkDocs build it is compared with (MkDocs' medians are over 2N runs).

Both tools run as on a default Python install, which keeps the compiled bytecode of the modules it imports:
``PYTHONDONTWRITEBYTECODE`` (which a sandbox may set) is dropped for the timed processes and their bytecode
goes to a temporary folder (``PYTHONPYCACHEPREFIX``), filled by one untimed build of each before timing.
MkDocs comes from the bench-only lock file (`make bench` installs requirements/bench.txt).

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
from importlib.util import find_spec
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"


ENV = dict(os.environ)


def timed(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - t0


def build_cmd(project: Path, out: Path, cache: Path, pdf: bool = True) -> list[str]:
    """The build as `make site` runs it; ``pdf`` False adds --no-pdf (the decks' PDFs are not printed)."""
    return [
        sys.executable, "-m", "site_builder", "build", "--project", str(project), "--out", str(out),
        "--cache", str(cache), "--vendor", str(SHARED / "vendor"), "--reference", str(SHARED / "reference"),
        *([] if pdf else ["--no-pdf"]),
    ]  # fmt: skip


def mkdocs_project(root: Path, content: Path = PROJECT / "content") -> Path:
    """The content pages as a plain MkDocs site (same Markdown files, default theme)."""
    docs = root / "docs"
    for page in sorted(content.rglob("*.md")):
        dest = docs / page.relative_to(content)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, dest)
    (root / "mkdocs.yml").write_text(
        "site_name: bench\nuse_directory_urls: true\nmarkdown_extensions:\n  - tables\n  - toc\n", encoding="utf-8"
    )
    return root


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    n = ap.parse_args().runs
    if find_spec("mkdocs") is None:
        sys.exit("mkdocs is not installed: run `make bench` (it installs requirements/bench.txt)")
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        project = tmp / "project"
        for name in ("content", "templates", "data"):
            shutil.copytree(PROJECT / name, project / name)
        mk = mkdocs_project(tmp / "mkdocs")
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(mk / "mkdocs.yml")]
        timed(build_cmd(project, tmp / "warmup", tmp / "warmup-cache"), PROJECT)  # bytecode, untimed
        timed([*mkdocs, "-d", str(mk / "warmup")], mk)
        r: dict[str, list[float]] = {k: [] for k in ("cold", "cold_nopdf", "warm", "edit", "mk_cold", "mk_warm")}

        def mk_build(key: str, fresh: bool) -> None:
            if fresh:
                shutil.rmtree(mk / "site", ignore_errors=True)
            r[key].append(timed([*mkdocs, "-d", str(mk / "site")], mk))

        # each of our runs is followed by the MkDocs run it is compared with, so that both see the machine in the
        # same state (a small shared machine drifts by tens of percent over a minute)
        cache = tmp / "cache"
        for i in range(n):
            r["cold"].append(timed(build_cmd(project, tmp / f"cold-{i}", tmp / f"empty-cache-{i}"), PROJECT))
            shutil.rmtree(tmp / f"cold-{i}")
            shutil.rmtree(tmp / f"empty-cache-{i}", ignore_errors=True)
            mk_build("mk_cold", fresh=True)
            r["cold_nopdf"].append(
                timed(build_cmd(project, tmp / f"np-{i}", tmp / f"np-cache-{i}", pdf=False), PROJECT)
            )
            shutil.rmtree(tmp / f"np-{i}")
            shutil.rmtree(tmp / f"np-cache-{i}", ignore_errors=True)
            mk_build("mk_cold", fresh=True)
        timed(build_cmd(project, tmp / "site", cache), PROJECT)
        page = project / "content" / "index.md"
        original = page.read_text(encoding="utf-8")
        for i in range(n):
            r["warm"].append(timed(build_cmd(project, tmp / "site", cache), PROJECT))
            mk_build("mk_warm", fresh=False)
            page.write_text(original + f"\nAn edited sentence, version {chr(65 + i)}.\n", encoding="utf-8")
            r["edit"].append(timed(build_cmd(project, tmp / "site", cache), PROJECT))
            mk_build("mk_warm", fresh=False)
    med = {k: statistics.median(v) for k, v in r.items()}
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(f"machine: {machine}; medians of {n} (MkDocs: {2 * n}, each run after one of ours)")
    rows = [
        ("cold build (empty cache)", "cold", "mk_cold"),
        ("cold build, no PDFs (--no-pdf)", "cold_nopdf", "mk_cold"),
        ("warm rebuild, nothing changed", "warm", "mk_warm"),
        ("one content page edited", "edit", "mk_warm"),
        ("mkdocs build (fresh output)", "mk_cold", None),
        ("mkdocs build (output present)", "mk_warm", None),
    ]
    for label, key, ref in rows:
        runs = ", ".join(f"{x:.3f}" for x in r[key])
        ratio = f"  = {med[key] / med[ref]:.2f}x mkdocs" if ref else ""
        print(f"{label:<32} {med[key]:6.3f} s{ratio}   (runs: {runs})")


if __name__ == "__main__":
    main()
