"""How the build scales: synthetic sites of 18 to 2,000 pages from the real content, against MkDocs and Hugo.

The synthetic project is the real one (content, templates, data) plus copies of its series pages (every deck,
the optics and method pages) under new slugs (``…-c1``, ``…-c2``, …), so each copy carries the real figures,
terms, charts, explorers and slides. :func:`synthetic_project` writes it; it is importable so that anyone can
rebuild the same sites (``python scripts/bench_scale.py --keep DIR`` leaves them on disk).

Every build is a separate process, timed as a whole (imports included), with its peak resident memory taken
from the kernel's accounting of that process (``os.wait4``). For each size and each run, our cold build, MkDocs
1.6 on the same Markdown files (default theme) and Hugo (Debian's, when installed, with a minimal layout) run in
turn, so that the machine's noise falls on all three alike. Then our warm rebuild (nothing changed) and a
one-page edit (one copied page changed) are timed on the cold build's cache. Medians of ``--runs`` (default 3).

Printed per size: pages written by each tool, cold seconds and milliseconds a page, the ratio to MkDocs and
Hugo, peak RSS (MB, and kB a page), warm and one-edit seconds, and output bytes a page.

    .venv/bin/python scripts/bench_scale.py [--sizes 18,100,500,2000] [--runs 3] [--keep DIR]

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

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"
ENV = dict(os.environ)
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


def ours(project: Path, out: Path, cache: Path) -> list[str]:
    return [
        sys.executable, "-m", "site_builder", "build", "--project", str(project), "--out", str(out),
        "--cache", str(cache), "--vendor", str(SHARED / "vendor"), "--reference", str(SHARED / "reference"),
    ]  # fmt: skip


def mkdocs_project(project: Path, root: Path) -> list[str]:
    docs = root / "docs"
    for page in sorted((project / "content").rglob("*.md")):
        dest = docs / page.relative_to(project / "content")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, dest)
    config = root / "mkdocs.yml"
    config.write_text(
        "site_name: bench\nuse_directory_urls: true\nmarkdown_extensions:\n  - tables\n  - toc\n", encoding="utf-8"
    )
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


def bench_size(tmp: Path, pages: int, runs: int) -> dict[str, object]:
    root = tmp / f"n{pages}"
    project = synthetic_project(root, pages)
    mk = mkdocs_project(project, root / "mkdocs")
    hugo = hugo_project(project, root / "hugo") if HUGO else None
    # Bytecode and the OS's file cache, untimed.
    run(ours(project, root / "warmup", root / "warmup-cache"), PROJECT)
    shutil.rmtree(root / "warmup-cache")
    r: dict[str, list[Run]] = {k: [] for k in ("cold", "mk", "hugo", "warm", "edit")}
    for i in range(runs):
        out, cache = root / f"cold-{i}", root / f"cache-{i}"
        r["cold"].append(run(ours(project, out, cache), PROJECT))
        if i < runs - 1:
            shutil.rmtree(out)
            shutil.rmtree(cache)
        shutil.rmtree(root / "mkdocs" / "site", ignore_errors=True)
        r["mk"].append(run([*mk, "-d", str(root / "mkdocs" / "site")], root / "mkdocs"))
        if hugo:
            shutil.rmtree(root / "hugo" / "public", ignore_errors=True)
            r["hugo"].append(run(hugo, root / "hugo"))
    site, cache = root / f"cold-{runs - 1}", root / f"cache-{runs - 1}"
    ours_pages, ours_bytes = html_pages(site), size(site)
    for _ in range(runs):
        r["warm"].append(run(ours(project, site, cache), PROJECT))
    edited = copied_pages(project / "content")[-1]
    original = edited.read_text(encoding="utf-8")
    for i in range(runs):
        edited.write_text(original + f"\nAn edited sentence, version {chr(65 + i)}.\n", encoding="utf-8")
        r["edit"].append(run(ours(project, site, cache), PROJECT))
    mk_site = root / "mkdocs" / "site"
    hugo_site = root / "hugo" / "public"
    result: dict[str, object] = {
        "pages": ours_pages,
        "bytes": ours_bytes,
        "mk_pages": html_pages(mk_site),
        "mk_bytes": size(mk_site),
        "hugo_pages": html_pages(hugo_site) if hugo else 0,
        "hugo_bytes": size(hugo_site) if hugo else 0,
    }
    for key, values in r.items():
        if values:
            result[key] = statistics.median(v.seconds for v in values)
            result[key + "_rss"] = statistics.median(v.rss_mb for v in values)
            result[key + "_runs"] = [round(v.seconds, 2) for v in values]
    if not os.environ.get("BENCH_SCALE_KEEP"):
        shutil.rmtree(root)
    return result


def report(results: list[dict[str, object]], runs: int) -> None:
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
    for x in results:
        pages, mk_pages, hugo_pages = int(x["pages"]), int(x["mk_pages"]), int(x["hugo_pages"])  # type: ignore[call-overload]
        cold, mk = float(x["cold"]), float(x["mk"])  # type: ignore[arg-type]
        per, mk_per = cold / pages, mk / max(mk_pages, 1)
        hugo = float(x.get("hugo", 0.0))  # type: ignore[arg-type]
        hugo_per = hugo / hugo_pages if hugo_pages else 0.0
        vs_hugo = f"{per / hugo_per:.1f}x" if hugo_per else "-"
        rss = float(x["cold_rss"])  # type: ignore[arg-type]
        out = "/".join(
            f"{int(x[b]) / max(int(x[p]), 1) / 1000:.0f}"  # type: ignore[call-overload]
            for b, p in (("bytes", "pages"), ("mk_bytes", "mk_pages"), ("hugo_bytes", "hugo_pages"))
        )
        print(
            f"| {pages}/{mk_pages}/{hugo_pages} | {cold:.2f} s | {per * 1000:.1f} | {per / mk_per:.2f}x | {vs_hugo} "
            f"| {mk:.2f} s | {hugo:.2f} s | {rss:.0f} MB | {rss * 1024 / pages:.0f} "
            f"| {float(x['mk_rss']):.0f} MB | {float(x.get('hugo_rss', 0.0)):.0f} MB "  # type: ignore[arg-type]
            f"| {float(x['warm']):.2f} s | {float(x['edit']):.2f} s | {out} |"  # type: ignore[arg-type]
        )
    for x in results:
        print(f"runs at {x['pages']} pages: " + "; ".join(f"{k[:-5]} {x[k]}" for k in x if str(k).endswith("_runs")))
    if len(results) > 1:
        a, b = results[0], results[-1]
        growth = (float(b["cold_rss"]) - float(a["cold_rss"])) / (int(b["pages"]) - int(a["pages"]))  # type: ignore[arg-type, call-overload]
        print(f"peak RSS growth: {growth * 1024:.0f} kB a page ({a['pages']} -> {b['pages']} pages)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="18,100,500,2000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="build the synthetic sites in DIR and leave them there")
    args = ap.parse_args()
    if find_spec("mkdocs") is None:
        sys.exit("bench_scale: mkdocs is not installed: run `make bench-scale` (it installs requirements/bench.txt)")
    sizes = [int(s) for s in args.sizes.split(",")]
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as t:
        tmp = args.keep or Path(t)
        if args.keep:
            os.environ["BENCH_SCALE_KEEP"] = "1"
            tmp.mkdir(parents=True, exist_ok=True)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(t) / "pycache")
        results = []
        for n in sizes:
            results.append(bench_size(tmp, n, args.runs))
            print(f"[{n} pages done]", file=sys.stderr)
    report(results, args.runs)


if __name__ == "__main__":
    main()
