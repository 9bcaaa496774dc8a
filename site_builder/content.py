"""Content pages: Markdown files with YAML front matter under ``content/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from site_builder.errors import InputError, describe
from site_builder.render.markdown import fig_refs

TEMPLATES = ("home", "page")
SERIES = ("cit", "fopttrn")


@dataclass
class Page:
    source: Path  # the content file
    label: str  # the content file as named in errors, relative to the project
    url: str  # site path of the page, "" for the home page, else ending in "/"
    title: str
    template: str
    body: str  # Markdown after the front matter
    body_line: int  # line number of the body's first line in the file
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def out_path(self) -> str:
        return f"{self.url}index.html"


def url_of(rel: Path) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "index":
        parts = parts[:-1]
    return "".join(p + "/" for p in parts)


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
    title = meta.get("title")
    if not isinstance(title, str) or not title.strip():
        raise InputError(label, "front matter.title", "a non-empty string", describe(title))
    template = meta.get("template", "page")
    if template not in TEMPLATES:
        raise InputError(label, "front matter.template", f"one of {', '.join(TEMPLATES)}", describe(template))
    series = meta.get("series")
    if series is not None and series not in SERIES:
        raise InputError(label, "front matter.series", f"one of {', '.join(SERIES)}", describe(series))
    body = "\n".join(lines[close + 1 :]) + "\n"
    return Page(path, label, url_of(path.relative_to(root)), title.strip(), template, body, close + 2, meta)


def load_content(root: Path) -> list[Page]:
    if not root.is_dir():
        raise InputError(str(root), "folder", "the content folder", "no such folder")
    return [load_page(p, root) for p in sorted(root.rglob("*.md"))]


def check_fig_keys(page: Page, known: set[str] | dict[str, Any]) -> None:
    """An unknown figure key is an error naming the content file and line."""
    for n, key in fig_refs(page.body):
        if key not in known:
            raise InputError(page.label, f"line {page.body_line + n - 1}", "a registered figure key", f"{key!r}")
