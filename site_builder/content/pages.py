"""Content pages: Markdown files with YAML front matter under ``content/``."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Mapping
from dataclasses import field, fields
from pathlib import Path
from typing import Any, Protocol

from site_builder.datatypes import dataclass
from site_builder.errors import InputError, describe
from site_builder.markdown.typed_numbers import check_front_matter
from site_builder.series import SERIES
from site_builder.sources.reading import (
    CONTENT_MAX_BYTES,
    links_stay_inside,
    load_yaml,
    read_text,
    read_text_and_sha256,
)
from site_builder.suggest import did_you_mean

URL_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
# The front matter every content page may hold; a kind may take more (its ``front_matter``).
PAGE_KEYS = ("title", "kind", "series", "nav", "nav_order", "description", "lead", "kicker")


class ContentRules(Protocol):
    """What a content file's kind says about the file (site_builder/content/plan.py Kind holds these)."""

    name: str
    folder: str | None  # content/<series>/<folder>/ holds the files of this kind, and only of this kind
    front_matter: tuple[str, ...]  # the front-matter keys it takes besides PAGE_KEYS
    meta_lines: bool  # its body has "Key: value" lines the typed-number rule passes over


@dataclass
class Page:
    """A content file: its front matter read and checked, its Markdown body not yet parsed."""

    source: Path  # the content file
    label: str  # the content file as named in errors, relative to the project
    url: str  # site path of the page, "" for the home page, else ending in "/"
    title: str
    kind: str
    body: str  # Markdown after the front matter
    body_line: int  # line number of the body's first line in the file
    meta: dict[str, Any] = field(default_factory=dict)
    meta_lines: bool = False  # its kind's "Key: value" lines are not prose (ContentRules.meta_lines)
    # SHA-256 of the content file's bytes as load_page read them (body, front matter and body line come from them)
    file_digest: str | None = field(default=None, repr=False, compare=False)

    def text_digest(self) -> str:
        """What identifies the page's text in a key: its file's digest as read, else the SHA-256 of its body. Taken
        once where the file is read: hashing every page's text again for each key (three of them) was a tenth of
        a one-page edit on a large site."""
        if self.file_digest is not None:
            return self.file_digest
        return hashlib.sha256(self.body.encode("utf-8", "surrogatepass")).hexdigest()

    def __key_parts__(self) -> tuple[Any, ...]:
        """What a key holds of a page (site_builder/cache/keys.py made_from): every field but the content file's
        absolute path (its label, relative to the project, is in: nothing a page renders names where the project
        lies, so a moved or copied project keeps its cache), the body as :meth:`text_digest` (marked, so that no
        text can stand for it)."""
        return tuple(
            ["<text>", self.text_digest()] if f.name == "body" else getattr(self, f.name)
            for f in fields(self)
            if f.name != "source"
        )

    def __getattr__(self, name: str) -> Any:
        """A stored page's body (:func:`stored_page`), read from its file the first time it is asked for."""
        load = self.__dict__.get("_load_body")
        if name != "body" or load is None:
            raise AttributeError(name)
        body = load()
        self.body = body
        del self.__dict__["_load_body"]
        return body

    @property
    def series(self) -> str | None:
        return self.meta.get("series")

    def line_of(self, body_line: int) -> str:
        """A body line (1-based) as a line of the content file, for messages (one string per line number: pages
        name a line for every figure they use, and many pages share line numbers)."""
        return sys.intern(f"line {self.body_line + body_line - 1}")


def stored_page(
    path: Path, label: str, url: str, rules: ContentRules, meta: dict[str, Any], body_line: int, digest: str
) -> Page:
    """A content file whose bytes are those an earlier build read and checked (its digest as the up-to-date check
    found it, unchanged): the page as that build made it, its body not read until asked for (a one-page edit of a
    large site reads one page's text, not every page's). Read then, its bytes must be the ones ``digest`` names."""
    page = Page.__new__(Page)
    page.__dict__.update(
        source=path,
        label=label,
        url=url,
        title=meta["title"].strip(),
        kind=rules.name,
        body_line=body_line,
        meta=meta,
        meta_lines=rules.meta_lines,
        file_digest=digest,
    )

    def load() -> str:
        text, got = read_text_and_sha256(path, label, CONTENT_MAX_BYTES)
        if got != digest:
            raise InputError(label, "file", "the bytes the build started from", "other bytes (edited during the build)")
        return split_text(text, label)[1]

    page.__dict__["_load_body"] = load
    return page


def url_of(rel: Path) -> str:
    return url_of_text(rel.as_posix())


def url_of_text(rel: str) -> str:
    """The site path of the content file at ``rel``, a clean relative POSIX path (``a/b.md`` -> ``a/b/``,
    ``a/index.md`` -> ``a/``), without making a Path of it."""
    head, _, name = rel.rpartition("/")
    dot = name.rfind(".")
    if 0 < dot < len(name) - 1:  # its suffix, as PurePath.suffix finds it
        name = name[:dot]
    parts = [*head.split("/"), name] if head else [name]
    if parts[-1] == "index":
        parts = parts[:-1]
    return "".join(p + "/" for p in parts)


def _meta_str(label: str, meta: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = meta.get(key)
    if value is None and not required:
        return None
    if key not in meta:
        raise InputError(label, f"front matter.{key}", "a non-empty string", "no such key")
    if not isinstance(value, str) or not value.strip():
        raise InputError(label, f"front matter.{key}", "a non-empty string", describe(value))
    return value.strip()


def check_keys(label: str, meta: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    """Front matter holds only the keys the site reads: a misspelt one (``nav_ordr``) is an error, not ignored."""
    for key in meta:
        if key not in known:
            hint = did_you_mean(str(key), known)
            raise InputError(
                label, f"front matter.{key}", f"one of the keys of {what}: {', '.join(known)}{hint}", repr(key)
            )


class FrontMatter:
    """Front matter parsed before, by the SHA-256 of its text: a build whose pages' front matter did not change
    parses (and imports) no YAML. ``known`` comes from the basis (site_builder/cache/basis.py), whose key covers the
    YAML reading code and PyYAML's version; ``used`` is what this build parsed or took, for the next one."""

    def __init__(self, known: dict[str, Any] | None = None) -> None:
        self.known = known or {}
        self.used: dict[str, Any] = {}
        self.of_label: dict[str, str] = {}  # content file label -> the SHA-256 of its front matter's text
        self._checked: set[int] = set()  # ids of the values taken from ``known``

    def parse(self, text: str, label: str) -> object:
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if key in self.known:
            return self.take(key, label)
        value = load_yaml(text, label, first_line=2)
        self.used[key] = value
        self.of_label[label] = key
        return value

    def take(self, key: str, label: str) -> Any:
        """The front matter parsed before under ``key`` (in ``known``) for the page ``label``, kept as used."""
        value = self.known[key]
        self.used[key] = value
        self.of_label[label] = key
        self._checked.add(id(value))
        return value

    def passed_before(self, value: object) -> bool:
        """Whether ``value`` is front matter taken from ``known``: the basis keeps only what a build that passed every
        check read, by the same code, so what the typed-number rule found of it (nothing) holds."""
        return id(value) in self._checked


def read_front_matter(path: Path, label: str, front: FrontMatter | None = None) -> tuple[dict[str, Any], str, int]:
    """(front matter, body, file line of the body's first line) of a Markdown file with YAML front matter.

    The one way content files are read: at most CONTENT_MAX_BYTES of UTF-8 (reading.read_text), the front
    matter between two ``---`` lines parsed safely (reading.load_yaml: no anchors or aliases, bounded,
    no repeated keys). Every failure is a one-line InputError naming ``label`` and the line.
    """
    return split_front_matter(read_text(path, label, CONTENT_MAX_BYTES), label, front)


ASCII_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
OTHER_BREAKS = (*ASCII_BREAKS, "\x85", "\u2028", "\u2029")
"""The line breaks str.splitlines knows besides \\n (the text as read has its \\r\\n and \\r made \\n already)."""


def _only_newlines(text: str) -> bool:
    """Whether \\n is the text's only line break: a search for each other one (a search for one character runs at
    memory speed, where a regular expression's class took a tenth of a second over a large site's pages)."""
    return not any(c in text for c in (ASCII_BREAKS if text.isascii() else OTHER_BREAKS))


def split_front_matter(text: str, label: str, front: FrontMatter | None = None) -> tuple[dict[str, Any], str, int]:
    """:func:`read_front_matter` of a file's text, as read: its lines split as str.splitlines splits them, the body
    taken as they are joined again with \\n, ending in one."""
    head, body, close = split_text(text, label)
    meta = front.parse(head, label) if front is not None else load_yaml(head, label, first_line=2)
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise InputError(label, "front matter", "a mapping", describe(meta))
    return meta, body, close + 2


def split_text(text: str, label: str) -> tuple[str, str, int]:
    """(front matter text, body, index of the closing --- line) of a content file's text."""
    split = _split_at_lines(text) if _only_newlines(text) else None
    if split is not None:
        return split
    lines = text.splitlines()  # any other line break, or no front matter (the error names it)
    if not lines or lines[0].strip() != "---":
        raise InputError(label, "line 1", "front matter opening with ---", describe(lines[0] if lines else ""))
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise InputError(label, "front matter", "a closing --- line", "none") from None
    return "\n".join(lines[1:close]), "\n".join(lines[close + 1 :]) + "\n", close


def _split_at_lines(text: str) -> tuple[str, str, int] | None:
    """(front matter, body, index of the closing line) of a text whose only line break is \\n, found without
    splitting the body into lines (a page's body is most of its text): what the lines would give, or None when
    the text has no front matter."""
    end = text.find("\n")
    if end < 0 or text[:end].strip() != "---":
        return None
    first = start = end + 1  # where the front matter's first line starts
    index = 1
    while start < len(text):
        end = text.find("\n", start)
        line_end = len(text) if end < 0 else end
        if text[start:line_end].strip() == "---":
            rest = "" if end < 0 else text[end + 1 :]
            head = text[first : max(start - 1, first)]
            return head, rest if rest.endswith("\n") else rest + "\n", index
        if end < 0:
            return None
        start, index = end + 1, index + 1
    return None


def load_page(path: Path, root: Path, kinds: Mapping[str, ContentRules], front: FrontMatter | None = None) -> Page:
    """A content file of one of ``kinds`` (site_builder/kinds/ kinds): at most CONTENT_MAX_BYTES of UTF-8, YAML front matter (safe, no aliases) between --- lines."""
    label = path.relative_to(root.parent).as_posix() if path.is_relative_to(root.parent) else str(path)
    rel = path.relative_to(root)
    bad = next((part for part in rel.with_suffix("").parts if not URL_PART.fullmatch(part)), None)
    if bad is not None:
        raise InputError(
            label, "file name", "names of letters, digits, '.', '_' and '-' (they become its URL)", repr(bad)
        )
    text, digest = read_text_and_sha256(path, label, CONTENT_MAX_BYTES)
    meta, body, body_line = split_front_matter(text, label, front)
    kind = meta.get("kind", "page")
    if not isinstance(kind, str) or kind not in kinds:
        hint = did_you_mean(kind, kinds) if isinstance(kind, str) else ""
        raise InputError(label, "front matter.kind", f"one of {', '.join(kinds)}{hint}", describe(kind))
    rules = kinds[kind]
    home = next((k for k in kinds.values() if k.folder and len(rel.parts) == 3 and rel.parts[1] == k.folder), None)
    if home is not None and home.name != kind:
        where = f"a file under content/<series>/{home.folder}/"
        found = f"kind {kind}" if "kind" in meta else "no kind (a plain page)"
        raise InputError(label, "front matter.kind", f"{home.name} ({where} is a {home.name})", found)
    if rules.folder is not None and home is None:
        where = f"a file under content/<series>/{rules.folder}/"
        raise InputError(
            label,
            "front matter.kind",
            f"a {kind} only in {where} (content/<series>/{rules.folder}/NN-slug.md)",
            f"kind {kind}",
        )
    check_keys(label, meta, (*PAGE_KEYS, *rules.front_matter), f"a {kind}")
    if front is None or not front.passed_before(meta):
        check_front_matter(label, meta)  # no typed number in what the page shows of it
    title = _meta_str(label, meta, "title", required=True)
    assert title is not None
    series = meta.get("series")
    if series is not None and (not isinstance(series, str) or series not in SERIES):
        raise InputError(label, "front matter.series", f"one of {', '.join(SERIES)}", describe(series))
    _meta_str(label, meta, "nav")
    order = meta.get("nav_order", 0)
    if not isinstance(order, int) or isinstance(order, bool):
        raise InputError(label, "front matter.nav_order", "an integer", describe(order))
    url = url_of(path.relative_to(root))
    return Page(path, label, url, title, kind, body, body_line, meta, rules.meta_lines, file_digest=digest)


Stored = dict[str, tuple[str, int, str]]
"""Content file label -> (SHA-256 of its bytes, its body's first line, the SHA-256 of its front matter's text), for
every page a build that passed every check read (kept in the basis, site_builder/cache/basis.py)."""


def load_content(
    root: Path,
    kinds: Mapping[str, ContentRules],
    front: FrontMatter | None = None,
    stored: Stored | None = None,
    digests: Mapping[str, str] | None = None,
) -> list[Page]:
    """Every content page. With ``stored`` (what an earlier build from the same code read) and ``digests`` (each
    file's SHA-256 as the up-to-date check found it now), a file whose digest is the stored one is taken as that
    build made it (:func:`stored_page`), its checks passed then, and is not read."""
    if not root.is_dir():
        raise InputError(str(root), "folder", "the content folder", "no such folder")
    files = links_stay_inside(root, "content", root.parent)
    pages = []
    for rel in files:
        # term files (glossary/) are not pages (site_builder/content/glossary.py reads them); a folder named *.md is
        # one line from load_page
        if not rel.endswith(".md") or rel.startswith("glossary/"):
            continue
        path = root / rel
        page = None
        if stored and digests and front:
            page = _stored(path, f"{root.name}/{rel}", rel, kinds, front, stored, digests)
        pages.append(page if page is not None else load_page(path, root, kinds, front))
    return pages


def _stored(
    path: Path,
    label: str,
    rel: str,
    kinds: Mapping[str, ContentRules],
    front: FrontMatter,
    stored: Stored,
    digests: Mapping[str, str],
) -> Page | None:
    known = stored.get(label)
    if known is None or digests.get(label) != known[0] or known[2] not in front.known:
        return None
    digest, body_line, front_key = known
    meta = front.known[front_key]
    kind = meta.get("kind", "page") if isinstance(meta, dict) else None
    if kind not in kinds:
        return None
    url = url_of_text(rel)
    return stored_page(path, label, url, kinds[kind], front.take(front_key, label), body_line, digest)
