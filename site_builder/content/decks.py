"""Decks: one Markdown file split into slides on ``---`` lines, each with an id, title, terms and sources.

A slide starts with ``## Title {#id}``. ``Terms:`` lines declare the glossary terms the slide
explains; ``Source:`` lines name the results sections its numbers come from
(``Source: analysis §2, §4; vendor §1``). Both lines are taken out of the slide's body. A line
``Notes:`` starts the slide's speaker notes and a line ``Article:`` its article-only detail: each block
runs to the end of the slide or to the other block's line (text after the colon is the block's first
line). Every problem is an :class:`InputError` naming the deck file and line.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import NamedTuple

from site_builder.content.pages import Page
from site_builder.datatypes import dataclass
from site_builder.errors import InputError
from site_builder.results.producers import PRODUCERS, VENDORED_RESULTS

SEPARATOR = re.compile(r"^---\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^##\s+(?P<title>.+?)(?:\s+\{#(?P<id>[^}]*)\})?\s*$")
SLIDE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
META = re.compile(r"^(?P<name>Terms|Source):\s*(?P<value>.*?)\s*$")
BLOCK = re.compile(r"^(?P<name>Notes|Article):(?:\s+(?P<rest>.*?))?\s*$")
SECTION_REF = re.compile(r"^§\s*(?P<n>\d+[a-z]?)$")
TOPICS_ID = "topics"

# Source names and the results file each stands for (its label in the figure registry): every results document the
# project writes (producers.PRODUCERS, by name) and the experiment's own, vendored results ("vendor").
SOURCE_DOCS = {
    **{p.name: p.results_label for p in PRODUCERS},
    "vendor": VENDORED_RESULTS.label,
}


class SourceRef(NamedTuple):
    """A slide's ``Source:`` reference (a tuple: a large site's decks hold tens of thousands, each made when its
    deck's slides are read back from the cache, where a frozen dataclass cost several times as much to make)."""

    doc: str  # a key of SOURCE_DOCS
    section: str  # the section number as written, "2" or "7a"
    line: str  # "line N" of the deck file, for messages


@dataclass(frozen=True)
class SourceLink:
    """A slide's source link, relative to the deck's page."""

    text: str  # "analysis §2"
    href: str  # relative to the page


@dataclass
class Slide:
    """One slide of a deck: its heading, Markdown, terms, sources and speaker notes."""

    id: str
    title: str
    body: str  # Markdown, without the heading and the Terms/Source lines
    line: int  # file line of the heading
    terms: list[tuple[str, str]] = field(default_factory=list)  # (key, "line N")
    sources: list[SourceRef] = field(default_factory=list)
    notes: str = ""  # Markdown of the speaker notes (the Notes: block), "" without one
    article: str = ""  # Markdown shown in the article only (the Article: block), "" without one

    def head(self) -> SlideHead:
        return SlideHead(self.id, self.title, self.line, tuple(self.terms), tuple(self.sources))


class SlideHead(NamedTuple):
    """What the rest of the site reads of a slide (the collect phase: the glossary's "Explained in", the deck's
    source links, the hub's slide count): not its text, which only the deck's own render reads (it splits the
    deck again then). A large site's decks are read as their heads, not their slides (a tuple, as SourceRef)."""

    id: str
    title: str
    line: int
    terms: tuple[tuple[str, str], ...]
    sources: tuple[SourceRef, ...]


def slide_heads(page: Page) -> list[SlideHead]:
    return [s.head() for s in split_slides(page)]


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "slide"


def _chunks(page: Page) -> list[tuple[int, list[str]]]:
    """(first body line, lines) of each slide, split on --- outside fenced code."""
    chunks: list[tuple[int, list[str]]] = [(1, [])]
    fenced = False
    for n, line in enumerate(page.body.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
        if not fenced and SEPARATOR.match(line):
            chunks.append((n + 1, []))
            continue
        chunks[-1][1].append(line)
    return [(start, lines) for start, lines in chunks if any(x.strip() for x in lines)]


def _sources(page: Page, value: str, where: str) -> list[SourceRef]:
    out = []
    for part in value.split(";"):
        words = part.strip().split(None, 1)
        if len(words) != 2 or words[0] not in SOURCE_DOCS:
            raise InputError(
                page.label,
                where,
                f"'Source: <{' | '.join(SOURCE_DOCS)}> §N[, §M]' (parts separated by ;)",
                repr(part.strip()),
            )
        for ref in words[1].split(","):
            m = SECTION_REF.match(ref.strip())
            if m is None:
                raise InputError(page.label, where, "a section reference like §2 or §7a", repr(ref.strip()))
            out.append(SourceRef(words[0], m.group("n"), where))
    return out


def split_slides(page: Page) -> list[Slide]:
    slides: list[Slide] = []
    seen: dict[str, str] = {TOPICS_ID: "the generated topics slide"}
    for start, lines in _chunks(page):
        first = next(i for i, x in enumerate(lines) if x.strip())
        where = page.line_of(start + first)
        m = HEADING.match(lines[first])
        if m is None:
            raise InputError(page.label, where, "a slide starting with '## Title {#id}'", repr(lines[first][:60]))
        title = m.group("title").strip()
        sid = m.group("id") if m.group("id") is not None else _slug(title)
        if not SLIDE_ID.match(sid):
            raise InputError(page.label, where, "a slide id of lowercase letters, digits and hyphens", repr(sid))
        if sid in seen:
            raise InputError(page.label, where, f"a slide id used once in the deck (also {seen[sid]})", repr(sid))
        seen[sid] = where
        slide = Slide(sid, title, "", int(where.split()[1]))
        body: list[str] = []
        blocks: dict[str, list[str]] = {"Notes": [], "Article": []}
        into = body
        fenced = False
        for i, line in enumerate(lines[first + 1 :], start=first + 1):
            if FENCE.match(line):
                fenced = not fenced
            block = None if fenced else BLOCK.match(line)
            if block is not None:
                name = block.group("name")
                if blocks[name]:
                    raise InputError(
                        page.label, page.line_of(start + i), f"one '{name}:' block per slide", f"a second '{name}:'"
                    )
                into = blocks[name]
                into.append(block.group("rest") or "")
                continue
            meta = None if fenced else META.match(line)
            if meta is None:
                into.append(line)
                continue
            lw = page.line_of(start + i)
            if meta.group("name") == "Terms":
                keys = [k.strip() for k in meta.group("value").split(",") if k.strip()]
                if not keys:
                    raise InputError(page.label, lw, "glossary keys after 'Terms:'", "none")
                slide.terms += [(k, lw) for k in keys]
            else:
                slide.sources += _sources(page, meta.group("value"), lw)
        slide.body = "\n".join(body).strip() + "\n"
        for name, got in blocks.items():
            text = "\n".join(got).strip()
            if got and not text:
                raise InputError(page.label, where, f"text after the slide's '{name}:' line", "an empty block")
            setattr(slide, name.lower(), text + "\n" if text else "")
        slides.append(slide)
    if not slides:
        raise InputError(page.label, "body", "at least one slide", "none")
    return slides
