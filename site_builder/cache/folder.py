"""The ``--cache`` folder: which folder the build may keep entries in, and what happens when it cannot write.

The cache is held to the rules ``--out`` is held to (site_builder/outdir.py): it is used only when it is
absent, empty, or marked with :data:`MARKER` as this tool's cache (or, from before the marker, holds nothing
but this tool's entries, and is then marked). It must not be, be inside or hold an input folder, the output
folder or the project itself; a symbolic link or a file is refused. The cache deletes only entries it wrote
(site_builder/cache/store.py). A cache folder that cannot be written is not an error: the build goes on without a
cache and says so in one warning line.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import BuildError, printable
from site_builder.paths import Options

MARKER = ".site-builder-cache"
MARKER_TEXT = "site-builder: the results cache of `python -m site_builder build`; it deletes only its own entries\n"
EXPECTED = f"expected an empty or absent folder, or this tool's cache (it holds {MARKER})"
# What a cache written before the marker holds: entries, their temporary files, the up-to-date records, the
# import graph, the template and search sub-caches.
OWN_NAMES = re.compile(
    r"[a-z0-9][a-z0-9_-]*\.[0-9a-f]{32}|\.[a-z0-9][a-z0-9_.-]*\.\d+\.tmp|uptodate-[0-9a-f]{16}\.json|imports\.json"
)
OWN_FOLDERS = frozenset({"search", "jinja"})


def _show(path: object) -> str:
    return printable(str(path))  # escapes, so one error is one line


def _fail(cache: Path, found: str) -> BuildError:
    return BuildError(f"--cache {_show(cache)}: {EXPECTED}, found {found}")


def _real(path: Path) -> Path:
    return Path(os.path.realpath(os.path.abspath(path)))


def _own(folder: Path, names: list[str]) -> bool:
    """Every entry of ``folder`` is one this tool's cache writes."""
    for name in names:
        p = folder / name
        if os.path.islink(p):
            return False
        if name in OWN_FOLDERS and p.is_dir():
            continue
        if not OWN_NAMES.fullmatch(name) or not p.is_file():
            return False
    return True


def check_cache(cache: Path, protected: list[tuple[Path, str]], project: Path) -> bool:
    """Raise a one-line BuildError if the build may not keep entries in ``cache``; marks a legacy cache. Returns
    whether the folder exists already."""
    if os.path.islink(cache):
        raise _fail(cache, "a symbolic link")
    real = _real(cache)
    if real == Path(real.anchor):
        raise _fail(cache, "the root folder")
    home = _real(Path.home()) if "HOME" in os.environ else None
    if home is not None and (real == home or home.is_relative_to(real)):
        raise _fail(cache, "the home folder or a folder holding it")
    proj = _real(project)
    if real == proj or proj.is_relative_to(real):
        raise _fail(cache, f"the project root or a folder holding it ({_show(proj)})")
    for path, name in protected:
        p = _real(path)
        if real == p or real.is_relative_to(p) or p.is_relative_to(real):
            raise _fail(cache, f"the {name}, a folder inside it or holding it ({_show(p)})")
    try:
        st = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as e:
        raise _fail(cache, f"a path it cannot inspect ({(e.strerror or type(e).__name__).lower()})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _fail(cache, "a file" if stat.S_ISREG(st.st_mode) else "something other than a folder")
    if os.path.isfile(real / MARKER) and not os.path.islink(real / MARKER):
        return True  # this tool's cache: not listed (a large site's cache holds tens of thousands of entries)
    try:
        names = sorted(os.listdir(real))
    except OSError as e:
        raise _fail(cache, f"a folder it cannot read ({(e.strerror or type(e).__name__).lower()})") from None
    if not names or (MARKER in names and (real / MARKER).is_file() and not os.path.islink(real / MARKER)):
        return True
    if ".git" in names:
        raise _fail(cache, "a folder holding .git")
    if not _own(real, names):
        odd = next(n for n in names if not _own(real, [n]))
        raise _fail(cache, f"a folder without {MARKER} holding {len(names)} entries ({_show(odd)!r}…)")
    return True


def _writable(cache: Path) -> str | None:
    """Create the folder and its marker; None when that worked, else the reason, in a few words."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        marker = cache / MARKER
        if not marker.is_file():
            marker.write_text(MARKER_TEXT, encoding="utf-8")
        probe = cache / f".probe.{os.getpid()}.tmp"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        return (e.strerror or type(e).__name__).lower()
    return None


def usable(opts: Options, warn: Callable[[str], None]) -> Options:
    """``opts`` if its cache may be used and written; ``opts`` without a cache (and one warning line) if the
    folder cannot be written; a BuildError if the folder is not one the build may keep entries in."""
    paths = opts.paths()
    if paths.cache is None:
        return opts
    # the output folder is not among them: --out's own check (site_builder/outdir.py) refuses one that is, holds
    # or sits in the cache, and says so in terms of --out
    protected = [(p, n) for p, n in paths.protected() if p != paths.cache]
    check_cache(paths.cache, protected, paths.project)
    reason = _writable(paths.cache)
    if reason is None:
        return opts
    warn(f"warning: --cache {_show(paths.cache)}: cannot be written ({reason}); building without a cache")
    return dataclasses.replace(opts, use_cache=False)
