"""The results cache: a model's output stored under a key over everything it is computed from.

The key is a SHA-256 over the pinned input digests, the source of every project module the model's
entry module imports (found by reading the code, transitively, without importing it) and the
versions of the numerical libraries. An unchanged model is neither recomputed nor imported. Each
entry carries the SHA-256 of its own payload: a truncated or edited entry is detected, dropped and
recomputed, never trusted.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from importlib.util import find_spec
from pathlib import Path

PACKAGE = "site_builder"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
LIBRARIES = ("numpy",)  # the models compute with it (SimPy runs only in the tests, as the engine's reference)
FORMAT = "site-builder-cache 1"
KEEP = 4  # entries kept per model
_ENTRY_KEY = re.compile(r"[0-9a-f]{32}")  # the key part of an entry's file name


@functools.cache
def _modules_under(base: str) -> dict[str, str]:
    """The package's modules under the folder ``base``, found in one walk: dotted name -> source file (``a/b.py``
    before ``a/b/__init__.py``, as an import statement's name was always looked up)."""
    found: dict[str, str] = {}
    todo = [(os.path.join(base, PACKAGE), PACKAGE)]
    while todo:  # a folder's files are taken before its subfolders (pushed as they are met)
        folder, dotted = todo.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name.endswith(".py") and e.is_file():
                stem = e.name[:-3]
                if stem == "__init__":
                    found.setdefault(dotted, e.path)
                elif stem.isidentifier():
                    found[f"{dotted}.{stem}"] = e.path
            elif e.name.isidentifier() and e.is_dir():
                todo.append((e.path, f"{dotted}.{e.name}"))
    return found


@functools.cache
def _import_statement() -> re.Pattern[str]:
    """An import statement (compiled when a source file is first read for its imports: the import graph kept
    between builds usually spares it)."""
    return re.compile(
        r"^[ \t]*(?:from[ \t]+(?P<src>\.+[\w.]*|[\w.]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#]*)"
        r"|import[ \t]+(?P<mods>[^\n#]*))",
        re.MULTILINE,
    )


class _ImportMemo:
    """The import graph kept between builds (``imports.json`` in the cache folder), by file path, modification
    time and size: a build whose code did not change reads no source file to find what it imports."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.known: dict[str, list[str]] = {}
        self.used: dict[str, list[str]] = {}

    def load(self, folder: Path | None) -> None:
        self.path = folder / "imports.json" if folder is not None else None
        self.known, self.used = {}, {}
        if self.path is None:
            return
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(raw, dict) and raw.get("format") == FORMAT and isinstance(raw.get("files"), dict):
            self.known = {
                k: v for k, v in raw["files"].items() if isinstance(v, list) and all(isinstance(m, str) for m in v)
            }

    def save(self) -> None:
        """Write what this process used (best effort), if it differs from what was read."""
        if self.path is None or not self.used or self.used == self.known:
            return
        with contextlib.suppress(OSError):
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"format": FORMAT, "files": self.used}, sort_keys=True), "utf-8")
            tmp.replace(self.path)


IMPORT_MEMO = _ImportMemo()


@functools.cache  # per process, as source_files is
def _imports(path: str, module: str) -> frozenset[str]:
    st = os.stat(path)
    memo = f"{path}\0{module}\0{st.st_mtime_ns}\0{st.st_size}"
    known = IMPORT_MEMO.known.get(memo)
    found = frozenset(known) if known is not None else _imports_of(path, module, st.st_mtime_ns, st.st_size)
    IMPORT_MEMO.used[memo] = sorted(found)
    return found


@functools.cache
def _imports_of(path_str: str, module: str, _mtime: int, _size: int) -> frozenset[str]:
    """Project modules named by any import statement in a file (inside functions too).

    A regular expression over the source, not a parse: it runs on every build, and an import it
    could over-count (one inside a string) only makes the key depend on one more file.
    """
    here = module.split(".") if path_str.endswith("__init__.py") else module.split(".")[:-1]
    out: set[str] = set()
    for m in _import_statement().finditer(Path(path_str).read_text(encoding="utf-8")):
        if m.group("mods") is not None:
            out |= {part.split()[0] for part in m.group("mods").split(",") if part.strip()}
            continue
        src = m.group("src")
        if src.startswith("."):
            level = len(src) - len(src.lstrip("."))
            rest = src[level:]
            target = ".".join([*here[: len(here) - (level - 1)], *(rest.split(".") if rest else [])])
        else:
            target = src
        out.add(target)
        names = m.group("names").strip("()").replace("\\\n", " ")
        out |= {f"{target}.{n.split()[0]}" for n in names.split(",") if n.strip()}
    return frozenset(m for m in out if m == PACKAGE or m.startswith(PACKAGE + "."))


@functools.cache
def source_files(entry: str) -> tuple[Path, ...]:
    """Every project source file ``entry`` depends on through imports, its packages' __init__ included."""
    modules = _modules_under(str(PACKAGE_DIR.parent))
    seen: dict[str, str] = {}
    todo = [entry]
    met = {entry}  # names already taken (modules import the same names over and over)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__
            prefix = ".".join(parts[:i])
            if prefix in seen:
                continue
            path = modules.get(prefix)
            if path is None:
                continue
            seen[prefix] = path
            new = _imports(path, prefix) - met
            met |= new
            todo.extend(new)
    return tuple(Path(p) for p in sorted(set(seen.values())))


def installed_version(lib: str) -> str:
    """A library's installed version, read from its dist-info folder name (without importing it)."""
    spec = find_spec(lib)
    if spec is None or spec.origin is None:
        return "absent"
    site = Path(spec.origin).parent.parent
    found = sorted(p.name for p in site.glob(f"{lib}-*.dist-info"))
    return found[-1].removeprefix(f"{lib}-").removesuffix(".dist-info") if found else "unknown"


@functools.cache
def library_versions() -> tuple[str, ...]:
    return tuple(
        [f"python {sys.version_info.major}.{sys.version_info.minor}"]
        + [f"{lib} {installed_version(lib)}" for lib in LIBRARIES]
    )


@functools.cache
def _file_digest(path: str, _mtime: int, _size: int) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


@functools.cache
def _sources(entries: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
    """The source files of ``entries`` (sorted), each with its label line as the key prints it."""
    paths = sorted({p for e in entries for p in source_files(e)}, key=str)
    return tuple((str(p), p.relative_to(PACKAGE_DIR.parent).as_posix().encode() + b"\n") for p in paths)


HASHED: dict[str, bytes] = {}
"""Source file path -> SHA-256 of its bytes, as this build's up-to-date check hashed them (see :func:`hashed`)."""
_BLOBS: dict[tuple[str, ...], bytes] = {}
"""Entries -> what :func:`key_of` hashes for their source files, each label and digest, from HASHED (made once per
entries while it holds, not file by file for every key: a large site makes thousands of keys)."""


@contextlib.contextmanager
def hashed(files: dict[str, str]) -> Iterator[None]:
    """Within the block, :func:`key_of` takes the digests of the package's source files from ``files`` (label ->
    SHA-256, as site_builder/cache/uptodate.py hashed every input) instead of reading them again."""
    base = PACKAGE_DIR.parent
    HASHED.clear()
    _BLOBS.clear()
    HASHED.update(
        (str(base / label), bytes.fromhex(d)) for label, d in files.items() if label.startswith(f"{PACKAGE}/")
    )
    try:
        yield
    finally:
        HASHED.clear()
        _BLOBS.clear()


def _hashed_sources(entries: tuple[str, ...]) -> bytes | None:
    """The labels and digests of ``entries``' source files joined, when HASHED holds every one of them."""
    blob = _BLOBS.get(entries)
    if blob is None and HASHED:
        parts: list[bytes] = []
        for path, label in _sources(entries):
            known = HASHED.get(path)
            if known is None:
                return None
            parts += (label, known)
        blob = _BLOBS[entries] = b"".join(parts)
    return blob


def key_of(entries: Iterable[str], input_digests: Iterable[str], extra: Iterable[str] = ()) -> str:
    entries = tuple(entries)
    h = hashlib.sha256()
    for line in (FORMAT, *entries, *input_digests, *library_versions(), *extra):
        h.update(line.encode() + b"\n")
    blob = _hashed_sources(entries)
    if blob is not None:
        h.update(blob)
        return h.hexdigest()
    for path, label in _sources(entries):
        h.update(label)
        known = HASHED.get(path)
        if known is not None:
            h.update(known)
            continue
        st = os.stat(path)  # the file's bytes are read again only if it changed (a long-running `make serve`)
        h.update(_file_digest(path, st.st_mtime_ns, st.st_size))
    return h.hexdigest()


def entry_name(kind: str, label: str) -> str:
    """A cache entry's name for one file or page: ``kind-`` and the label in lowercase letters, digits and hyphens."""
    return f"{kind}-" + (re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "root")


class _Listing:
    """A cache folder's file names as listed once per build (and this build's own writes and removals since): a set
    to answer "is it there", and the same names sorted, where an entry's versions are one run (``<name>.<key>``).
    Grouping the names by entry as they were listed took a Python step per file: a tenth of a one-page edit of a
    large site, whose cache holds tens of thousands of entries, when the edit writes a handful."""

    def __init__(self, folder: Path) -> None:
        names = os.listdir(folder)
        self.names = set(names)
        self.ordered = sorted(names)

    def versions(self, name: str) -> list[str]:
        """The files of the folder named as entries of ``name`` (``<name>.<32 hex digits>``)."""
        lo, hi = bisect.bisect_left(self.ordered, f"{name}."), bisect.bisect_left(self.ordered, f"{name}/")
        return [
            f for f in self.ordered[lo:hi] if (parts := f.rpartition("."))[0] == name and _ENTRY_KEY.fullmatch(parts[2])
        ]

    def add(self, file: str) -> None:
        if file not in self.names:
            self.names.add(file)
            bisect.insort(self.ordered, file)

    def discard(self, file: str) -> None:
        if file in self.names:
            self.names.discard(file)
            del self.ordered[bisect.bisect_left(self.ordered, file)]


_LISTINGS: dict[str, _Listing] = {}
"""Cache folder -> its files, listed once per build (:meth:`ResultsCache._listing`)."""


def forget_listings() -> None:
    """Start a build with no listing of any cache folder (files may have come and gone since the last one)."""
    _LISTINGS.clear()


def _file_name(name: str, key: str) -> str:
    """An entry's file name in the cache folder: ``<name>.<first 32 hex digits of its key>``."""
    return f"{name}.{key[:32]}"


class ResultsCache:
    """Entries in ``folder``: ``<name>.<key>`` holding a digest line, then the payload."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits: list[str] = []
        self.misses: list[str] = []

    def _path(self, name: str, key: str) -> Path:
        assert self.folder is not None
        return self.folder / _file_name(name, key)

    def has(self, name: str, key: str) -> bool:
        """An entry is there (not checked: :meth:`read` checks it), as the build's one listing of the folder and its
        own writes since have it (:meth:`_listing`): a file per entry asked about cost a stat each, thousands on a
        large site. For planning work only: an entry another process wrote since is taken as absent (the work is
        done again), one removed since as there (its read finds nothing)."""
        if self.folder is None:
            return False
        try:
            return _file_name(name, key) in self._listing().names
        except OSError:
            return False

    def read(self, name: str, key: str) -> str | None:
        body = self.read_bytes(name, key)
        if body is None:
            return None
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def read_bytes(self, name: str, key: str) -> bytes | None:
        if self.folder is None:
            return None
        try:  # a path as text and one read (not a Path and read_bytes): thousands of entries on a large site
            with open(os.path.join(self.folder, _file_name(name, key)), "rb", buffering=0) as f:
                raw = f.readall()
        except OSError:
            return None
        head, sep, body = raw.partition(b"\n")
        if not sep or head != f"{FORMAT} {key} {hashlib.sha256(body).hexdigest()}".encode():
            return None  # partial, corrupt, or another key's entry: recompute
        return body

    def write(self, name: str, key: str, text: str) -> None:
        self.write_bytes(name, key, text.encode("utf-8"))

    def write_bytes(self, name: str, key: str, body: bytes) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self._path(name, key)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as f:  # the digest line, then the body (not joined: a body may be tens of MB)
                f.write(f"{FORMAT} {key} {hashlib.sha256(body).hexdigest()}\n".encode())
                f.write(body)
            tmp.replace(path)
            listing = self._listing()
            listing.add(path.name)
            others = []
            for other in listing.versions(name):
                with contextlib.suppress(FileNotFoundError):
                    st = os.lstat(self.folder / other)
                    if other != path.name and stat.S_ISREG(st.st_mode):  # only entries this cache writes
                        others.append((st.st_mtime_ns, other))
            others.sort(reverse=True)
            for _, old in others[KEEP - 1 :]:  # a few entries per model (switching branches back and forth)
                (self.folder / old).unlink(missing_ok=True)
                listing.discard(old)
        except OSError:
            pass  # a cache that cannot be written only costs time next build

    def _listing(self) -> _Listing:
        """The folder's files, from one listing per build, shared by every cache object of the folder (each phase has
        its own): looking for an entry's versions afresh (a glob per write) made writing N entries cost N listings
        of a folder of N entries."""
        assert self.folder is not None
        listing = _LISTINGS.get(str(self.folder))
        if listing is None:
            listing = _LISTINGS[str(self.folder)] = _Listing(self.folder)
        return listing

    def get_or_compute(self, name: str, key: str, compute: Callable[[], str]) -> str:
        return self.get_or_compute_bytes(name, key, lambda: compute().encode("utf-8")).decode("utf-8")

    def get_or_compute_bytes(self, name: str, key: str, compute: Callable[[], bytes]) -> bytes:
        """The entry's body when it checks out and is UTF-8 (as :meth:`read` requires), else ``compute()``, stored."""
        body = self.read_bytes(name, key)
        if body is not None:
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                body = None
        if body is not None:
            self.hits.append(name)
            return body
        self.misses.append(name)
        made = compute()
        self.write_bytes(name, key, made)
        return made
