"""SHA-256 pins of every file the build reads from outside the project (``data/sources.yaml``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from site_builder.errors import InputError, describe

ROOTS = ("vendor", "reference")


@dataclass(frozen=True)
class Roots:
    """Where the external inputs live: the vendored data and the reference facts."""

    vendor: Path
    reference: Path

    def of(self, root: str) -> Path:
        return self.vendor if root == "vendor" else self.reference


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_pins(pins_file: Path) -> dict[str, dict[str, str]]:
    """Read ``sources.yaml``: ``{root: {relative path: sha256}}``, validated."""
    label = str(pins_file)
    try:
        data = yaml.safe_load(pins_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(label, "file", "a pins file", "no such file") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "file"
        raise InputError(label, where, "valid YAML", str(getattr(e, "problem", e))) from None
    if not isinstance(data, dict):
        raise InputError(label, "top level", "a mapping of roots", describe(data))
    out: dict[str, dict[str, str]] = {}
    for root, files in data.items():
        if root not in ROOTS:
            raise InputError(label, str(root), f"one of {', '.join(ROOTS)}", f"root {root!r}")
        if not isinstance(files, dict) or not files:
            raise InputError(label, root, "a non-empty mapping of path to sha256", describe(files))
        for rel, digest in files.items():
            if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
                raise InputError(label, f"{root}.{rel}", "a 64-digit lowercase hex SHA-256", describe(digest))
        out[root] = {str(k): v for k, v in files.items()}
    return out


def verify(pins: dict[str, dict[str, str]], roots: Roots, pins_label: str) -> None:
    """Check every pinned file exists and has its pinned digest."""
    for root, files in pins.items():
        base = roots.of(root)
        if not base.is_dir():
            raise InputError(str(base), root, f"the {root} folder (set it with --{root})", "no such folder")
        for rel, digest in files.items():
            path = base / rel
            if not path.is_file():
                raise InputError(str(path), f"{pins_label} {root}.{rel}", "a pinned file", "no such file")
            got = sha256(path)
            if got != digest:
                raise InputError(
                    str(path), f"sha256 pinned in {pins_label}", f"{digest[:16]}…", f"{got[:16]}… (file changed)"
                )


def write_pins(pins_file: Path, roots: Roots, patterns: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """Pin every file under each root matching the glob patterns (the author's `pin` command)."""
    out: dict[str, dict[str, str]] = {}
    for root, globs in patterns.items():
        base = roots.of(root)
        files = sorted({p for g in globs for p in base.glob(g) if p.is_file()})
        out[root] = {p.relative_to(base).as_posix(): sha256(p) for p in files}
    header = "# SHA-256 pins of every input read from outside the project; `python -m site_builder pin` rewrites it.\n"
    pins_file.write_text(header + yaml.safe_dump(out, sort_keys=True), encoding="utf-8")
    return out
