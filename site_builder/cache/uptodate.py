"""Nothing changed since the last build? Then the site in ``--out`` is already the one a build would write.

After every successful build the cache folder gets a record for that output folder: a SHA-256 over every
input the build can read (the project's ``content/``, ``templates/``, ``data/`` and ``site_builder/``
source and static files, the vendor and reference folders, the options, the Python version and the
installed distributions) and a listing of the output folder as written (path, size, modification time of
every entry). A build whose inputs hash the same and whose output folder still lists the same returns at
once: no module beyond the standard library is imported and nothing is written.

Inputs are compared by content, not by time stamps (a checkout or a copy changes those, not the bytes);
the output by listing, so a page or PDF edited, added or removed by hand is rebuilt. The options include whether the
decks are printed, and the browser that prints them is named by its program files' sizes, times and inodes (an
upgraded Chromium is a change). ``--no-cache`` never takes this path. A file whose size, time stamps and inode are those recorded keeps its recorded digest unread (see
:func:`input_files`), so the check reads only what changed (about 10 MB of inputs when all did).

When something changed, the check still tells the build what it can keep: the digest of every input but the
content pages (:attr:`State.basis`, the key of :mod:`site_builder.cache.basis`), whether ``--out`` is still as the
last build left it (:attr:`State.intact`) and what that build wrote there (:attr:`State.output`: each page's
render key and digest), so that unchanged files are carried over instead of written again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Any

from site_builder.datatypes import dataclass
from site_builder.paths import Options, Paths

VERSION = 2  # 2: the decks' PDFs are part of the output
PROJECT_INPUTS = ("content", "templates", "data")
PACKAGE = Path(__file__).resolve().parent.parent  # the code that runs (and its static files), wherever the project is
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
RACY_NS = 2_000_000_000
"""A file written less than this before a check began is hashed again by the next check, whatever its stamp."""


@dataclass(frozen=True)
class LastBuild:
    """What the last successful build into an output folder was made from and wrote."""

    inputs: str
    tree: str
    pages: int
    figures: int
    files: dict[str, str]  # input label -> SHA-256 of its bytes
    output: dict[str, Any] = field(default_factory=dict)  # what the build wrote (pages' keys and digests)
    stamps: dict[str, list[int]] = field(default_factory=dict)  # input label -> its stamp() when hashed
    hashed_at: int = 0  # time.time_ns() when the hashing of the inputs began


def walk(root: str, prefix: str) -> Iterator[tuple[str, str]]:
    """(label, path) of every regular file and symbolic link under ``root``, sorted."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for e in entries:
        if e.is_symlink():  # by name: a link is never followed into a folder (the build refuses such links)
            yield f"{prefix}{e.name}", e.path
        elif e.is_dir():
            if e.name not in SKIP_DIRS:
                yield from walk(e.path, f"{prefix}{e.name}/")
        elif e.is_file() and not e.name.endswith((".pyc", ".pyo")):
            yield f"{prefix}{e.name}", e.path


def _distributions() -> list[str]:
    """The installed distributions with their versions (``name-1.2.dist-info``), from the import path."""
    found: set[str] = set()
    for entry in sys.path:
        with contextlib.suppress(OSError):
            found.update(n for n in os.listdir(entry or ".") if n.endswith((".dist-info", ".egg-info")))
    return sorted(found)


def stamp(st: os.stat_result) -> list[int]:
    """What a file's metadata says of its bytes: size, modification and change times, inode."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def input_files(
    paths: Paths, before: LastBuild | None = None, stamps: dict[str, list[int]] | None = None
) -> dict[str, str]:
    """Label -> SHA-256 of every file the build may read; ``stamps`` (if given) receives each file's :func:`stamp`.

    With ``before``, the last build's record, a file whose stamp is the one recorded keeps its recorded digest
    without being read, as git's index does, unless it was written less than RACY_NS before that record's
    hashing began: a write in the same clock tick as the hashing could leave the time stamps as they were."""
    roots = [(d, paths.project / d) for d in PROJECT_INPUTS]
    roots += [("site_builder", PACKAGE), ("vendor", paths.vendor), ("reference", paths.reference)]
    files: dict[str, str] = {}
    settled = before.hashed_at - RACY_NS if before is not None else 0
    known = before.stamps if before is not None else {}
    for name, root in roots:
        for label, path in walk(str(root), f"{name}/"):
            try:
                st = os.stat(path)
                now = stamp(st)
                if stamps is not None:
                    stamps[label] = now
                if known.get(label) == now and max(st.st_mtime_ns, st.st_ctime_ns) < settled and before is not None:
                    digest = before.files.get(label)
                    if digest is not None:
                        files[label] = digest
                        continue
                if os.path.islink(path):
                    files[label] = _link_digest(path, paths.project)
                    continue
                with open(path, "rb") as f:
                    files[label] = hashlib.file_digest(f, "sha256").hexdigest()
            except OSError:
                files[label] = "unreadable"
    return files


def _link_digest(path: str, project: Path) -> str:
    """A symbolic link's digest: where it points, and the bytes of its target only when that is a file inside the
    project (a link that leaves it is refused by the build, and what it points at is never read)."""
    h = hashlib.sha256(b"link\0" + os.fsencode(os.readlink(path)))
    target = os.path.realpath(path)
    if Path(target).is_relative_to(os.path.realpath(project)) and os.path.isfile(target):
        with open(target, "rb") as f:
            h.update(hashlib.file_digest(f, "sha256").digest())
    return h.hexdigest()


def inputs_digests(opts: Options, paths: Paths, files: dict[str, str]) -> tuple[str, str]:
    """SHA-256s over the options, Python, the installed distributions and the input files: all of them (the
    record's key), and all but the content pages' (the basis's key, :attr:`State.basis`)."""
    settings = [
        VERSION,
        sys.version,
        sys.executable,
        [str(p) for p in (paths.project, paths.out, paths.vendor, paths.reference, paths.cache)],
        opts.template_seconds,
        opts.site_url,
        _distributions(),
        opts.print_decks,
    ]
    if opts.print_decks:
        from site_builder import chromium

        settings.append(chromium.stamps(chromium.CHROMIUM))
    every = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    basis = every.copy()
    for label, digest in files.items():
        line = f"\n{label}\0{digest}".encode("utf-8", "surrogateescape")  # a name need not be UTF-8
        every.update(line)
        if not label.startswith("content/"):
            basis.update(line)
    return every.hexdigest(), basis.hexdigest()


def tree_digest(out: Path) -> str | None:
    """SHA-256 over the output folder's listing (path and kind of every entry, size and mtime of every file); None if
    it is not a folder."""
    lines = tree_lines(out)
    return tree_hash(lines) if lines is not None else None


def tree_lines(out: Path) -> dict[str, str] | None:
    """The listing :func:`tree_digest` hashes: each entry's line by its path (a folder's ending in ``/``); None if
    ``out`` is not a folder."""
    if not out.is_dir() or out.is_symlink():
        return None
    lines: dict[str, str] = {}
    stack = [(str(out), "")]
    while stack:
        folder, prefix = stack.pop()
        for e in os.scandir(folder):
            st = e.stat(follow_symlinks=False)
            if e.is_dir(follow_symlinks=False):  # a folder by name: what it holds is listed in turn
                lines[f"{prefix}{e.name}/"] = _dir_line(f"{prefix}{e.name}/", st)
                stack.append((e.path, f"{prefix}{e.name}/"))
            else:
                lines[prefix + e.name] = _file_line(prefix + e.name, st)
    return lines


def _file_line(rel: str, st: os.stat_result) -> str:
    return f"{rel}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\n"


def _dir_line(rel: str, st: os.stat_result) -> str:
    """A folder's line (``rel`` ends in ``/``): what it holds is listed in lines of its own."""
    return f"{rel}\0{st.st_mode}\n"


def tree_hash(lines: dict[str, str]) -> str:
    """The digest of a listing: every folder's entries in name order, the folders in the order a walk meets them
    (a folder's subfolders last to first)."""
    children: dict[str, list[tuple[str, str]]] = {}
    for path in lines:
        parent, _, name = path.rstrip("/").rpartition("/")
        children.setdefault(f"{parent}/" if parent else "", []).append((name, path))
    h = hashlib.sha256()
    stack = [""]
    while stack:
        for _name, path in sorted(children.get(stack.pop(), ())):
            h.update(lines[path].encode())
            if path.endswith("/"):
                stack.append(path)
    return h.hexdigest()


def updated_tree(lines: dict[str, str], out: Path, written: list[str], removed: list[str]) -> str | None:
    """The digest of ``out`` listed as ``lines`` once the files ``written`` were put into it and the files and
    folders ``removed`` (a folder's path ending in ``/``) taken out: only those entries and the new files' folders
    are looked at again. None if one cannot be."""
    now = dict(lines)
    try:
        for rel in removed:
            now.pop(rel, None)
        for rel in written:
            now[rel] = _file_line(rel, os.lstat(out / rel))
            parent = rel.rpartition("/")[0]
            while parent and f"{parent}/" not in now:
                now[f"{parent}/"] = _dir_line(f"{parent}/", os.lstat(out / parent))
                parent = parent.rpartition("/")[0]
    except OSError:
        return None
    return tree_hash(now)


def record_path(paths: Paths) -> Path | None:
    if paths.cache is None:
        return None
    return paths.cache / f"uptodate-{hashlib.sha256(str(paths.out).encode()).hexdigest()[:16]}.json"


def previous(paths: Paths) -> LastBuild | None:
    """The record of the last build into ``paths.out``; None if there is none or it cannot be read."""
    where = record_path(paths)
    if where is None:
        return None
    try:
        raw = json.loads(where.read_text("utf-8"))
        if raw.get("version") != VERSION:
            return None
        output, stamps = raw.get("output", {}), raw.get("stamps", {})
        return LastBuild(
            raw["inputs"],
            raw["tree"],
            int(raw["pages"]),
            int(raw["figures"]),
            dict(raw["files"]),
            output if isinstance(output, dict) else {},
            stamps if isinstance(stamps, dict) else {},
            int(raw.get("hashed_at", 0)),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


@dataclass(frozen=True)
class State:
    """The inputs as hashed before a build, and the last build's record if the site is up to date with them."""

    record: LastBuild | None
    inputs: str = ""
    files: dict[str, str] = field(default_factory=dict)
    previous: dict[str, str] = field(default_factory=dict)  # the last successful build's input files
    basis: str = ""  # SHA-256 over every input but the content pages (the key of site_builder.cache.basis)
    intact: bool = False  # --out is as the last successful build left it (every entry's size and mtime)
    output: dict[str, Any] = field(default_factory=dict)  # what that build wrote there, if intact
    tree: dict[str, str] = field(default_factory=dict)  # --out listed as tree_lines gives it, if intact
    stamps: dict[str, list[int]] = field(default_factory=dict)  # input label -> its stamp() as hashed now
    hashed_at: int = 0  # time.time_ns() when this check began hashing

    @property
    def listing(self) -> frozenset[str]:
        """The files of --out (paths relative to it) as the check listed them, if intact."""
        return frozenset(p for p in self.tree if not p.endswith("/"))

    def unchanged(self, *prefixes: str) -> bool:
        """The input files under ``prefixes`` are what the last successful build into ``--out`` read."""
        if not self.previous or not self.files:
            return False

        def under(files: dict[str, str]) -> dict[str, str]:
            return {k: v for k, v in files.items() if k.startswith(prefixes)}

        return under(self.files) == under(self.previous)


def check(opts: Options) -> State:
    """Hash the inputs (before anything is read, so a change during the build is seen by the next one)."""
    paths = opts.paths()
    if paths.cache is None:  # --no-cache: always a full build
        return State(None)
    rec = previous(paths)
    hashed_at = time.time_ns()
    stamps: dict[str, list[int]] = {}
    files = input_files(paths, rec, stamps)
    digest, basis = inputs_digests(opts, paths, files)
    if rec is None:
        return State(None, digest, files, {}, basis, stamps=stamps, hashed_at=hashed_at)
    lines = tree_lines(paths.out)
    intact = lines is not None and rec.tree == tree_hash(lines)
    if intact and rec.inputs == digest:
        return State(rec, digest, files, rec.files, basis, True, rec.output, stamps=stamps, hashed_at=hashed_at)
    if not intact:
        return State(None, digest, files, rec.files, basis, stamps=stamps, hashed_at=hashed_at)
    return State(None, digest, files, rec.files, basis, True, rec.output, lines or {}, stamps, hashed_at)


def skip(opts: Options, rec: LastBuild, log: Callable[[str], None]) -> None:
    """The build of an up-to-date site: ``--out`` checked as for any build, then one line saying why nothing was done."""
    from site_builder import outdir

    paths = opts.paths()
    outdir.check_out(opts.out if opts.out is not None else paths.out, paths.protected(), project=paths.project)
    log(
        f"up to date: no input changed since the last build, and {paths.out} is as it left it "
        f"({rec.pages} pages, {rec.figures} figures)"
    )


def remember(
    opts: Options,
    state: State,
    pages: int,
    figures: int,
    output: dict[str, Any] | None = None,
    tree: str | None = None,
) -> None:
    """Record a successful build into ``--out`` (written atomically; a failure to write only loses the fast path).
    ``output`` is what the build wrote (pages' keys and digests), for the next build to carry over; ``tree`` the
    output folder's :func:`tree_digest` when the build knows it (else it is listed)."""
    paths = opts.paths()
    where = record_path(paths)
    if tree is None:
        tree = tree_digest(paths.out)
    if where is None or tree is None or not state.inputs:
        return
    body = {"version": VERSION, "inputs": state.inputs, "tree": tree, "pages": pages, "figures": figures}
    body["files"] = state.files
    body["output"] = output or {}
    body["stamps"], body["hashed_at"] = state.stamps, state.hashed_at
    with contextlib.suppress(OSError):
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = where.with_name(f".{where.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(body, sort_keys=True), "utf-8")
        tmp.replace(where)
