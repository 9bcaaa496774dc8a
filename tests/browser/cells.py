"""The test's own reader of results.md tables, independent of the builder's formatter and parser."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import PROJECT, VENDOR


def source_path(file: str) -> Path:
    """Where a figure's data-file lives: ``vendor/...`` in the vendored data, ``data/...`` in the project."""
    if file.startswith("vendor/"):
        return VENDOR / file.removeprefix("vendor/")
    return PROJECT / file


def cells(path: Path) -> dict[tuple[str, tuple[str, ...], str], list[str]]:
    """Map (section heading, row cells, column) -> texts, for every row prefix, from the raw Markdown."""
    out: dict[tuple[str, tuple[str, ...], str], list[str]] = {}
    section = ""
    header: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            header = None
            continue
        if not line.startswith("|"):
            header = None
            continue
        parts = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = parts
            continue
        if all(set(p) <= set("-:") for p in parts):
            continue
        for width in range(1, len(parts) + 1):
            for col, text in zip(header, parts, strict=False):
                out.setdefault((section, tuple(parts[:width]), col), []).append(text)
    return out
