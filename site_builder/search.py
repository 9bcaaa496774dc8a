"""The search phase: a Pagefind full-text index of the built pages, in the output's ``pagefind/`` folder.

Pagefind (the ``pagefind[bin]`` package ships its binary) reads every HTML page of the temporary output
folder before it is swapped in, so a failure leaves the previous site untouched and is one line. The
header's search box (``static/js/search.js``) loads ``pagefind/pagefind.js`` from the site itself: no
request leaves it.

The index depends only on the pages' HTML, Pagefind's version and the options below, so it is kept in
the results cache under a SHA-256 of those: a build whose pages did not change copies the previous index
instead of running Pagefind again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from site_builder.errors import BuildError

FOLDER = "pagefind"
OPTIONS = (
    "--output-subdir",
    FOLDER,
    "--force-language",
    "en",
    "--glob",
    "**/index.html",  # every page; not 404.html
    # the header (brand, navigation, search box) is on every page: not content; nav and footer Pagefind skips
    "--exclude-selectors",
    ".site-header",
    "--silent",
)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css")
UNUSED += ("pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js")
"""Pagefind's own UI bundles: the site has its own (search.js) on Pagefind's JavaScript API."""
TIMEOUT = 300.0
KEEP = 2  # indexes kept in the cache
SUMS = "SHA256SUMS"


def executable() -> Path:
    try:
        import pagefind_bin
    except ImportError:
        raise BuildError(
            "search index: pagefind: expected the pagefind[bin] package (make site installs it), found none"
        ) from None
    try:
        return Path(pagefind_bin.get_executable())
    except (FileNotFoundError, OSError) as e:
        raise BuildError(f"search index: pagefind: expected its binary, found {e}") from None


def version() -> str:
    try:
        from importlib.metadata import version as dist_version

        return dist_version("pagefind-bin")
    except Exception:  # the binary's package not installed as a distribution: the key names the file instead
        return "unknown"


def pages_digest(out: Path) -> str:
    """A SHA-256 over every HTML file of the output (path and bytes), Pagefind's version and its options."""
    h = hashlib.sha256(f"pagefind {version()} {' '.join(OPTIONS)} {' '.join(UNUSED)}\n".encode())
    for folder, dirs, names in os.walk(out):
        dirs.sort()
        rel = Path(folder).relative_to(out).as_posix()
        if rel == FOLDER or rel.startswith(FOLDER + "/"):
            continue
        for name in sorted(names):
            if name.endswith(".html"):
                data = (Path(folder) / name).read_bytes()
                h.update(f"{rel}/{name} {len(data)}\n".encode())
                h.update(data)
    return h.hexdigest()


def _run(out: Path) -> None:
    exe = executable()
    try:
        proc = subprocess.run(
            [str(exe), "--site", str(out), *OPTIONS],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise BuildError(
            f"search index: pagefind: expected it to finish within {TIMEOUT:.0f} s, found it still running"
        ) from None
    except OSError as e:
        raise BuildError(f"search index: pagefind: expected to run {exe}, found {e.strerror or e}") from None
    if proc.returncode != 0 or not (out / FOLDER / "pagefind.js").is_file():
        lines = [ln.strip() for ln in (proc.stderr + "\n" + proc.stdout).splitlines() if ln.strip()]
        found = lines[-1][:160] if lines else "no message"
        raise BuildError(
            f"search index: pagefind: expected exit status 0 and pagefind/pagefind.js, found status {proc.returncode}: {found}"
        )
    for name in UNUSED:
        (out / FOLDER / name).unlink(missing_ok=True)


def build_index(out: Path, cache: Path | None) -> tuple[int, bool]:
    """Write ``out/pagefind/``; returns (its number of files, whether it came from the cache)."""
    target = out / FOLDER
    if target.exists():
        raise BuildError(f"search index: {FOLDER}/: expected the folder free for the index, found it written by a page")
    store = cache / "search" if cache is not None else None
    key = pages_digest(out) if store is not None else ""
    if store is not None and _restore(store / key, target):
        return _count(target), True
    _run(out)
    if store is not None:
        _store(store, key, target)
    return _count(target), False


def _count(folder: Path) -> int:
    return sum(len(names) for _, _, names in os.walk(folder))


def _sums(folder: Path) -> str:
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(folder).as_posix()}")
    return "\n".join(lines) + "\n"


def _restore(entry: Path, target: Path) -> bool:
    """Copy a cached index whose every file still has the digest it was stored with; False if none or changed."""
    try:
        want = (entry / SUMS).read_text(encoding="utf-8")
        if _sums(entry / FOLDER) != want:
            return False  # a partial or edited entry: index again
        shutil.copytree(entry / FOLDER, target)
        os.utime(entry)
        return True
    except (OSError, UnicodeError):
        shutil.rmtree(target, ignore_errors=True)
        return False


def _store(store: Path, key: str, target: Path) -> None:
    """Keep a copy of the index under its key, with the digest of every file (best effort: a cache that
    cannot be written only costs time next build)."""
    tmp = store / f".tmp-{os.getpid()}"
    try:
        store.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(target, tmp / FOLDER)
        (tmp / SUMS).write_text(_sums(tmp / FOLDER), encoding="utf-8")
        shutil.rmtree(store / key, ignore_errors=True)
        tmp.rename(store / key)
        entries = sorted(
            (e for e in store.iterdir() if e.is_dir() and not e.name.startswith(".")),
            key=lambda e: e.stat().st_mtime,
            reverse=True,
        )
        for old in entries[KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
