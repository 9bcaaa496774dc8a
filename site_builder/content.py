"""Content pages: Markdown files with YAML front matter under ``content/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from site_builder.errors import InputError, describe
from site_builder.page_kinds import CONTENT_KINDS
from site_builder.series import SERIES


@dataclass
class Page:
    source: Path  # the content file
    label: str  # the content file as named in errors, relative to the project
    url: str  # site path of the page, "" for the home page, else ending in "/"
    title: str
    kind: str
    body: str  # Markdown after the front matter
    body_line: int  # line number of the body's first line in the file
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def series(self) -> str | None:
        return self.meta.get("series")

    def line_of(self, body_line: int) -> str:
        """A body line (1-based) as a line of the content file, for messages."""
        return f"line {self.body_line + body_line - 1}"


def url_of(rel: Path) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "index":
        parts = parts[:-1]
    return "".join(p + "/" for p in parts)


def _meta_str(label: str, meta: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = meta.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(label, f"front matter.{key}", "a non-empty string", describe(value))
    return value.strip()


def load_page(path: Path, root: Path) -> Page:
    label = path.relative_to(root.parent).as_posix() if path.is_relative_to(root.parent) else str(path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise InputError(label, "line 1", "front matter opening with ---", describe(lines[0] if lines else ""))
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise InputError(label, "front matter", "a closing --- line", "none") from None
    try:
        meta = yaml.safe_load("\n".join(lines[1:close])) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        raise InputError(label, f"line {line}", "valid YAML front matter", str(getattr(e, "problem", e))) from None
    if not isinstance(meta, dict):
        raise InputError(label, "front matter", "a mapping", describe(meta))
    title = _meta_str(label, meta, "title", required=True)
    assert title is not None
    kind = meta.get("kind", "page")
    if kind not in CONTENT_KINDS:
        raise InputError(label, "front matter.kind", f"one of {', '.join(CONTENT_KINDS)}", describe(kind))
    series = meta.get("series")
    if series is not None and series not in SERIES:
        raise InputError(label, "front matter.series", f"one of {', '.join(SERIES)}", describe(series))
    _meta_str(label, meta, "nav")
    order = meta.get("nav_order", 0)
    if not isinstance(order, int) or isinstance(order, bool):
        raise InputError(label, "front matter.nav_order", "an integer", describe(order))
    body = "\n".join(lines[close + 1 :]) + "\n"
    return Page(path, label, url_of(path.relative_to(root)), title, kind, body, close + 2, meta)


def load_content(root: Path) -> list[Page]:
    if not root.is_dir():
        raise InputError(str(root), "folder", "the content folder", "no such folder")
    return [load_page(p, root) for p in sorted(root.rglob("*.md"))]
