"""The glossary: one Markdown file per term under ``content/glossary/``, shown in each series' glossary.

A term is written once; its front matter names, for each series that lists it, the group it goes
under. "Explained in" is generated from the slides that declare the term and the results sections
those slides cite, plus the sections holding the figures of the entry itself: nothing is typed.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path

from site_builder.content.pages import FrontMatter, check_keys, read_front_matter
from site_builder.datatypes import dataclass
from site_builder.errors import InputError, describe
from site_builder.markdown.typed_numbers import check_front_matter
from site_builder.series import SERIES

FOLDER = "glossary"
KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Each series' glossary groups, in order (declared with the series).
GROUPS: dict[str, tuple[str, ...]] = {k: s.groups for k, s in SERIES.items()}


@dataclass
class Term:
    """A glossary entry (content/<series>/glossary/<key>.md), as read and checked."""

    key: str
    label: str  # the file, as named in messages
    title: str
    short: str
    groups: dict[str, str]  # series -> group
    body: str
    body_line: int
    explained_in: list[tuple[str, str]] = field(default_factory=list)  # (title, url) of slides
    sections: list[tuple[str, str]] = field(default_factory=list)  # (title, url) of results sections

    @property
    def anchor(self) -> str:
        return f"term-{self.key}"


TERM_KEYS = ("title", "short", "groups")


def load_term(path: Path, label: str, front: FrontMatter | None = None) -> Term:
    key = path.stem
    if not KEY.match(key):
        raise InputError(label, "file name", "a key of lowercase letters, digits and hyphens", repr(key))
    meta, body, body_line = read_front_matter(path, label, front)  # bounded UTF-8, safe YAML, one-line errors
    check_keys(label, meta, TERM_KEYS, "a glossary entry")
    check_front_matter(label, meta)
    for name in ("title", "short"):
        if name not in meta:
            raise InputError(label, f"front matter.{name}", "a non-empty string", "no such key")
        if not isinstance(meta.get(name), str) or not meta[name].strip():
            raise InputError(label, f"front matter.{name}", "a non-empty string", describe(meta.get(name)))
    groups = meta.get("groups")
    if not isinstance(groups, dict) or not groups:
        raise InputError(label, "front matter.groups", "a mapping of series to group", describe(groups))
    for series, group in groups.items():
        if series not in SERIES:
            raise InputError(label, f"front matter.groups.{series}", f"one of {', '.join(SERIES)}", repr(series))
        if group not in GROUPS[series]:
            raise InputError(label, f"front matter.groups.{series}", f"one of {', '.join(GROUPS[series])}", repr(group))
    return Term(key, label, meta["title"].strip(), meta["short"].strip(), dict(groups), body.strip() + "\n", body_line)


def load_glossary(content: Path, front: FrontMatter | None = None) -> dict[str, Term]:
    folder = content / FOLDER
    if not folder.is_dir():
        return {}
    terms = {}
    for path in sorted(folder.glob("*.md")):
        label = path.relative_to(content.parent).as_posix()
        terms[path.stem] = load_term(path, label, front)
    return terms
