"""SHA-256 pins of every file the build reads from outside the project (``data/sources.yaml``).

The build reads a vendored or reference file only through :class:`Pinned`: a file it would read but
``sources.yaml`` does not list is an error naming the file, and the digest is checked on the very
bytes that are read. A pinned path must stay inside its root (no ``..``, no absolute path, no
symbolic link leading out).
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path, PurePosixPath

from site_builder.datatypes import dataclass
from site_builder.errors import InputError, describe
from site_builder.sources import reading

ROOTS = ("vendor", "reference")
PINS_LABEL = "data/sources.yaml"
HEX = frozenset("0123456789abcdef")

Reads = dict[str, tuple[str, ...]]
"""Every file the build reads from each root (glob patterns: every match is read). It is derived from the
declarations of what reads them (``site_builder.results.producers.reads``) and passed in; ``pin`` pins exactly these."""

_PIN_HINT = f"a file pinned in {PINS_LABEL} (check it, then run `python -m site_builder pin`)"


@dataclass(frozen=True)
class Roots:
    """Where the external inputs live: the vendored data and the reference facts."""

    vendor: Path
    reference: Path

    def of(self, root: str) -> Path:
        return self.vendor if root == "vendor" else self.reference


def sha256(path: Path) -> str:
    return reading.sha256_file(path, str(path))


def _check_rel(label: str, root: str, rel: object) -> str:
    """A pinned path: relative, normalised, inside its root by its spelling (links are checked on disk)."""
    if not isinstance(rel, str) or not rel:
        raise InputError(label, root, "file paths relative to the folder", describe(rel))
    p = PurePosixPath(rel)
    if p.is_absolute() or "\\" in rel or ".." in p.parts or p.as_posix() != rel or rel.startswith("./"):
        raise InputError(label, f"{root}.{rel}", f"a normalised path inside the {root} folder", repr(rel))
    return rel


def load_pins(pins_file: Path, label: str = PINS_LABEL) -> dict[str, dict[str, str]]:
    """Read ``sources.yaml``: ``{root: {relative path: sha256}}``, validated; both roots are required."""
    data = reading.load_yaml(reading.read_text(pins_file, label, reading.YAML_MAX_BYTES), label)
    if not isinstance(data, dict):
        raise InputError(label, "top level", "a mapping of roots", describe(data))
    out: dict[str, dict[str, str]] = {}
    for root, files in data.items():
        if root not in ROOTS:
            raise InputError(label, str(root), f"one of {', '.join(ROOTS)}", f"root {root!r}")
        if not isinstance(files, dict) or not files:
            raise InputError(label, root, "a non-empty mapping of path to sha256", describe(files))
        for rel, digest in files.items():
            _check_rel(label, root, rel)
            if not isinstance(digest, str) or len(digest) != 64 or not HEX.issuperset(digest):
                raise InputError(label, f"{root}.{rel}", "a 64-digit lowercase hex SHA-256", describe(digest))
        out[root] = dict(files)
    for root in ROOTS:
        if root not in out:
            raise InputError(label, root, f"a {root} section pinning every file the build reads there", "none")
    return out


def _inside(path: Path, base: Path, root: str, pins_label: str, rel: str) -> None:
    """``path`` (under ``base``) must stay inside ``base`` once symbolic links are followed."""
    real = Path(os.path.realpath(path))
    base_real = Path(os.path.realpath(base))
    if real != base_real and base_real not in real.parents:
        raise InputError(
            str(path), f"{pins_label} {root}.{rel}", f"a file inside the {root} folder", f"a link to {real}"
        )


def verify(pins: dict[str, dict[str, str]], roots: Roots, pins_label: str = PINS_LABEL) -> None:
    """Check every pinned file is inside its root, exists and has its pinned digest."""
    for root, files in pins.items():
        base = roots.of(root)
        if not base.is_dir():
            raise InputError(str(base), root, f"the {root} folder (set it with --{root})", "no such folder")
        for rel, digest in files.items():
            _check_rel(pins_label, root, rel)
            path = base / rel
            if not os.path.lexists(path):
                raise InputError(str(path), f"{pins_label} {root}.{rel}", "a pinned file", "no such file")
            _inside(path, base, root, pins_label, rel)
            got = reading.sha256_file(path, str(path))
            if got != digest:
                raise InputError(
                    str(path), f"sha256 pinned in {pins_label}", f"{digest[:16]}…", f"{got[:16]}… (file changed)"
                )


def _matches(base: Path, pattern: str) -> list[str]:
    """Relative paths of the entries under ``base`` a pattern names (a literal path names itself)."""
    if not any(c in pattern for c in "*?["):
        return [pattern]
    folder, _, name = pattern.rpartition("/")
    try:
        entries = sorted(os.listdir(base / folder))
    except OSError:
        return []
    return [f"{folder}/{e}" if folder else e for e in entries if fnmatch.fnmatchcase(e, name)]


class Folder:
    """The files of one root the build may read: each must be pinned, and is checked against its pin as read."""

    def __init__(self, root: str, base: Path, pins: dict[str, str] | None, pins_label: str = PINS_LABEL) -> None:
        self.root = root
        self.base = base
        self.pins = pins  # None: an unpinned folder (unit tests of the loaders)
        self.pins_label = pins_label

    def label(self, rel: str) -> str:
        return str(self.base / rel)

    def require(self, rel: str) -> str:
        """The pinned digest of ``rel``; an error naming the file when it is not pinned."""
        if self.pins is None:
            return ""
        digest = self.pins.get(rel)
        if digest is None:
            raise InputError(self.label(rel), f"{self.pins_label} {self.root}", _PIN_HINT, "no pin")
        return digest

    def glob(self, pattern: str) -> list[str]:
        """Every file under the root matching ``folder/pattern``, each required to be pinned."""
        rels = _matches(self.base, pattern)
        for rel in rels:
            self.require(rel)
        return rels

    def read_text(self, rel: str, max_bytes: int = reading.DATA_MAX_BYTES) -> str:
        digest = self.require(rel)
        path = self.base / rel
        label = self.label(rel)
        if self.pins is None:
            return reading.read_text(path, label, max_bytes)
        _inside(path, self.base, self.root, self.pins_label, rel)
        text, got = reading.read_text_and_sha256(path, label, max_bytes)
        if got != digest:
            raise InputError(
                label, f"sha256 pinned in {self.pins_label}", f"{digest[:16]}…", f"{got[:16]}… (file changed)"
            )
        return text


@dataclass
class Pinned:
    """The verified pins: the only way the build reads a file of the vendor or reference folder."""

    pins: dict[str, dict[str, str]]
    roots: Roots
    label: str = PINS_LABEL

    def folder(self, root: str) -> Folder:
        return Folder(root, self.roots.of(root), self.pins.get(root, {}), self.label)

    def check_reads(self, reads: Reads) -> None:
        """Every file the build would read (each literal path, each file a pattern matches) is pinned."""
        for root, patterns in reads.items():
            folder = self.folder(root)
            for pattern in patterns:
                folder.glob(pattern)

    def digests(self) -> list[str]:
        return [f"{root} {rel} {d}" for root, files in sorted(self.pins.items()) for rel, d in sorted(files.items())]


def load_pinned(pins_file: Path, roots: Roots, reads: Reads, label: str = PINS_LABEL) -> Pinned:
    """Load and verify the pins, and check every file the build reads (``reads``) is among them."""
    pinned = Pinned(load_pins(pins_file, label), roots, label)
    verify(pinned.pins, roots, label)
    pinned.check_reads(reads)
    return pinned


def write_pins(pins_file: Path, roots: Roots, patterns: Reads) -> dict[str, dict[str, str]]:
    """Pin every file under each root matching the patterns (the author's `pin` command)."""
    out: dict[str, dict[str, str]] = {}
    for root, globs in patterns.items():
        base = roots.of(root)
        rels = sorted({rel for g in globs for rel in _matches(base, g) if (base / rel).is_file()})
        out[root] = {rel: reading.sha256_file(base / rel, str(base / rel)) for rel in rels}
    header = "# SHA-256 pins of every input read from outside the project; `python -m site_builder pin` rewrites it.\n"
    tmp = pins_file.with_name(f".{pins_file.name}.tmp")
    import yaml  # only here: the build itself reads YAML through reading.load_yaml

    tmp.write_text(header + yaml.safe_dump(out, sort_keys=True), encoding="utf-8")
    tmp.replace(pins_file)
    return out
