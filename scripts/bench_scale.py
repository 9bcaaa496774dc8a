"""How the build scales: synthetic sites of 18 to 2,000 pages from the real content, against MkDocs and Hugo.

The synthetic project is the real one (content, templates, data) plus copies of its series pages (every deck,
the optics and method pages) under new slugs (``…-c1``, ``…-c2``, …), so each copy carries the real figures,
terms, charts, explorers and slides. :func:`synthetic_project` writes it; it is importable so that anyone can
rebuild the same sites (``python scripts/bench_scale.py --keep DIR`` leaves them on disk).

Every build is a separate process, timed as a whole (imports included), with its peak resident memory taken
from the kernel's accounting of that process (``os.wait4``). For each size and each run, our cold build, MkDocs
1.6 on the same Markdown files (default theme) and Hugo (Debian's, when installed, with a minimal layout) run in
turn, so that the machine's noise falls on all three alike. Then our warm rebuild (nothing changed) and a
one-page edit (one copied page changed) are timed on the cold build's cache. Medians of ``--runs`` (default 3);
``--edits`` edits of that page in turn (default: as many as runs), the first of which adds words the site's search
index did not hold (the later ones change one letter): all of them are printed with the median.
Our builds run with ``--no-pdf``: neither peer prints slides, and the copied decks' PDFs would measure
Chromium, not the build (``make bench`` times the cold build with and without them).

Printed per size: pages written by each tool, cold seconds and milliseconds a page, the ratio to MkDocs and
Hugo, peak RSS (MB, and kB a page), warm and one-edit seconds, and output bytes a page.

    .venv/bin/python scripts/bench_scale.py [--sizes 18,100,500,2000] [--runs 3] [--edits N] [--keep DIR]

``make bench-scale`` runs it (it installs MkDocs from requirements/bench.txt; Hugo is optional).
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
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from bench_build import ENV, PROJECT, build_cmd, mkdocs_project  # scripts/, this script's folder

HUGO = shutil.which("hugo")
#: The pages copied for each copy: every series page that is not a series home or the series glossary.
COPIED = ("*/decks/*.md", "*/optics.md", "*/method.md")
BASE_PAGES = 18  # the pages the real project builds (content pages and generated ones); the report counts them


def copied_pages(content: Path) -> list[Path]:
    return sorted(p for pattern in COPIED for p in content.glob(pattern))


def synthetic_project(root: Path, pages: int) -> Path:
    """The real project, with copies of its series pages added until about ``pages`` pages are built."""
    project = root / "project"
    for name in ("content", "templates", "data"):
        shutil.copytree(PROJECT / name, project / name)
    content = project / "content"
    originals = copied_pages(content)
    copies = max(0, -(-(pages - BASE_PAGES) // len(originals)))
    for k in range(1, copies + 1):
        for page in originals:
            shutil.copyfile(page, page.with_name(f"{page.stem}-c{k}.md"))
    return project


@dataclass
class Run:
    seconds: float
    rss_mb: float


def run(cmd: list[str], cwd: Path) -> Run:
    """One process, timed; its peak RSS from the kernel (``ru_maxrss`` of that child alone, in kB on Linux)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"bench_scale: {' '.join(cmd[:4])} … exited {proc.returncode}: {err.strip()[-400:]}")
    return Run(seconds, usage.ru_maxrss / 1024)


def mkdocs_cmd(project: Path, root: Path) -> list[str]:
    config = mkdocs_project(root, project / "content") / "mkdocs.yml"
    return [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)]


HUGO_PAGE = (
    "<!doctype html><html><head><meta charset=utf-8><title>{{ .Title }}</title></head>"
    '<body><nav>{{ range .Site.Menus.main }}<a href="{{ .URL }}">{{ .Name }}</a>{{ end }}</nav>'
    "<main><h1>{{ .Title }}</h1>{{ .Content }}</main></body></html>\n"
)


def hugo_project(project: Path, root: Path) -> list[str]:
    shutil.copytree(project / "content", root / "content")
    for home in (root / "content").rglob("index.md"):  # a Hugo index.md is a leaf bundle: its folder's pages hide
        home.rename(home.with_name("_index.md"))
    (root / "hugo.toml").write_text(
        'baseURL = "http://localhost/"\ntitle = "bench"\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
        "[markup.goldmark.renderer]\nunsafe = true\n",
        encoding="utf-8",
    )
    layouts = root / "layouts" / "_default"
    layouts.mkdir(parents=True)
    for name in ("single.html", "list.html"):
        (layouts / name).write_text(HUGO_PAGE, encoding="utf-8")
    (root / "layouts" / "index.html").write_text(HUGO_PAGE, encoding="utf-8")
    return [HUGO, "--quiet", "--source", str(root)]


def html_pages(site: Path) -> int:
    return sum(1 for _ in site.rglob("*.html"))


def size(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


@dataclass
class Size:
    """One synthetic size: per tool, the HTML pages and bytes it wrote; per measure, the runs."""

    written: dict[str, tuple[int, int]]  # "ours", "mkdocs", "hugo" -> (HTML pages, bytes)
    runs: dict[str, list[Run]]  # "cold", "mk", "hugo", "warm", "edit"

    def seconds(self, measure: str) -> float:
        return statistics.median(r.seconds for r in self.runs[measure]) if self.runs[measure] else 0.0

    def rss(self, measure: str) -> float:
        return statistics.median(r.rss_mb for r in self.runs[measure]) if self.runs[measure] else 0.0

    def per_page(self, measure: str, tool: str) -> float:
        pages = self.written[tool][0]
        return self.seconds(measure) / pages if pages else 0.0


def bench_size(tmp: Path, pages: int, runs: int, keep: bool, edits: int | None = None) -> Size:
    root = tmp / f"n{pages}"
    project = synthetic_project(root, pages)
    mk = mkdocs_cmd(project, root / "mkdocs")
    hugo = hugo_project(project, root / "hugo") if HUGO else None
    # Bytecode and the OS's file cache, untimed.
    run(build_cmd(project, root / "warmup", root / "warmup-cache", pdf=False), PROJECT)
    shutil.rmtree(root / "warmup-cache")
    r: dict[str, list[Run]] = {k: [] for k in ("cold", "mk", "hugo", "warm", "edit")}
    for i in range(runs):
        out, cache = root / f"cold-{i}", root / f"cache-{i}"
        r["cold"].append(run(build_cmd(project, out, cache, pdf=False), PROJECT))
        if i < runs - 1:
            shutil.rmtree(out)
            shutil.rmtree(cache)
        shutil.rmtree(root / "mkdocs" / "site", ignore_errors=True)
        r["mk"].append(run([*mk, "-d", str(root / "mkdocs" / "site")], root / "mkdocs"))
        if hugo:
            shutil.rmtree(root / "hugo" / "public", ignore_errors=True)
            r["hugo"].append(run(hugo, root / "hugo"))
    site, cache = root / f"cold-{runs - 1}", root / f"cache-{runs - 1}"
    written = {"ours": (html_pages(site), size(site))}
    for _ in range(runs):
        r["warm"].append(run(build_cmd(project, site, cache, pdf=False), PROJECT))
    edited = copied_pages(project / "content")[-1]
    original = edited.read_text(encoding="utf-8")
    for i in range(runs if edits is None else edits):
        edited.write_text(original + f"\nAn edited sentence, version {chr(65 + i)}.\n", encoding="utf-8")
        r["edit"].append(run(build_cmd(project, site, cache, pdf=False), PROJECT))
    mk_site, hugo_site = root / "mkdocs" / "site", root / "hugo" / "public"
    written["mkdocs"] = (html_pages(mk_site), size(mk_site))
    written["hugo"] = (html_pages(hugo_site), size(hugo_site)) if hugo else (0, 0)
    if not keep:
        shutil.rmtree(root)
    return Size(written, r)


def report(results: list[Size], runs: int) -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"medians of {runs}; Hugo: {'present' if HUGO else 'not installed'}"
    )
    head = (
        "| pages (ours/mkdocs/hugo) | ours cold | ms/page | vs MkDocs | vs Hugo | MkDocs cold | Hugo cold "
        "| ours RSS | kB RSS/page | MkDocs RSS | Hugo RSS | warm | one edit | kB out/page (ours/mkdocs/hugo) |"
    )
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    tools = ("ours", "mkdocs", "hugo")
    for x in results:
        pages = x.written["ours"][0]
        per, mk_per, hugo_per = x.per_page("cold", "ours"), x.per_page("mk", "mkdocs"), x.per_page("hugo", "hugo")
        vs_mk = f"{per / mk_per:.2f}x" if mk_per else "-"
        vs_hugo = f"{per / hugo_per:.1f}x" if hugo_per else "-"
        out = "/".join(f"{b / max(p, 1) / 1000:.0f}" for p, b in (x.written[t] for t in tools))
        print(
            f"| {'/'.join(str(x.written[t][0]) for t in tools)} | {x.seconds('cold'):.2f} s | {per * 1000:.1f} "
            f"| {vs_mk} | {vs_hugo} | {x.seconds('mk'):.2f} s | {x.seconds('hugo'):.2f} s | {x.rss('cold'):.0f} MB "
            f"| {x.rss('cold') * 1024 / pages:.0f} | {x.rss('mk'):.0f} MB | {x.rss('hugo'):.0f} MB "
            f"| {x.seconds('warm'):.2f} s | {x.seconds('edit'):.2f} s | {out} |"
        )
    for x in results:
        runs_text = "; ".join(f"{k} {[round(v.seconds, 2) for v in vs]}" for k, vs in x.runs.items() if vs)
        print(f"runs at {x.written['ours'][0]} pages: {runs_text}")
    if len(results) > 1:
        a, b = results[0], results[-1]
        pa, pb = a.written["ours"][0], b.written["ours"][0]
        growth = (b.rss("cold") - a.rss("cold")) / (pb - pa)
        print(f"peak RSS growth: {growth * 1024:.0f} kB a page ({pa} -> {pb} pages)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="18,100,500,2000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--edits", type=int, help="one-page edits timed at each size (default: --runs)")
    ap.add_argument("--keep", type=Path, help="build the synthetic sites in DIR and leave them there")
    args = ap.parse_args()
    if find_spec("mkdocs") is None:
        sys.exit("bench_scale: mkdocs is not installed: run `make bench-scale` (it installs requirements/bench.txt)")
    sizes = [int(s) for s in args.sizes.split(",")]
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as t:
        tmp = args.keep or Path(t)
        tmp.mkdir(parents=True, exist_ok=True)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(t) / "pycache")
        results = []
        for n in sizes:
            results.append(bench_size(tmp, n, args.runs, keep=args.keep is not None, edits=args.edits))
            print(f"[{n} pages done]", file=sys.stderr)
    report(results, args.runs)


if __name__ == "__main__":
    main()
