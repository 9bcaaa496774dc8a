"""The author's commands: ``check`` (every check of a build, nothing published) and the listings an author
writes from: ``figures [PATTERN]``, ``terms [PATTERN]`` and ``charts``.

``check`` and ``figures`` run the whole build into a temporary folder outside the project (so every check a
build makes is made, and the figures' pages are known) and throw the folder away; ``--out`` is not touched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from site_builder.commands.provenance import cell_text, pages_text
from site_builder.commands.trial import built
from site_builder.paths import Options

Log = Callable[[str], None]


def check(opts: Options, log: Log = print) -> None:
    """Every check ``build`` makes (pins, drift, cells, content rules, links), publishing nothing."""
    with built(opts, log):
        pass
    log("every check passed; nothing was written to the output folder")


def matcher(pattern: str | None) -> Callable[[str], bool]:
    """A case-insensitive shell-style pattern (``exp.final.*``) when it holds ``*`` or ``?``, else a substring."""
    if not pattern:
        return lambda _text: True
    if any(c in pattern for c in "*?["):
        rx = re.compile(
            "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), re.IGNORECASE
        )
        return lambda text: rx.fullmatch(text) is not None
    low = pattern.lower()
    return lambda text: low in text.lower()


def figures(opts: Options, pattern: str | None, log: Log = print) -> int:
    """Every figure whose key or text matches: key, text, source cell, the pages showing it. Returns the count."""
    with built(opts, lambda _line: None, print_decks=False) as site:
        doc = json.loads((site / "figures.json").read_text("utf-8"))
    match = matcher(pattern)
    n = 0
    for f in doc["figures"]:
        if match(f["key"]) or match(f["text"]):
            n += 1
            log(f"{f['key']}\t{f['text']}\t{cell_text(f['source'])}\t{pages_text(f['pages'])}")
    log(f"{n} of {len(doc['figures'])} figures" + (f" match {pattern!r}" if pattern else ""))
    return n


def terms(opts: Options, pattern: str | None, log: Log = print) -> int:
    """Every glossary term whose key, title or definition matches: key, title, short definition, groups."""
    from site_builder.content.glossary import load_glossary

    found = load_glossary(opts.paths().content)
    match = matcher(pattern)
    n = 0
    for key in sorted(found):
        t = found[key]
        if match(key) or match(t.title) or match(t.short):
            n += 1
            groups = "; ".join(f"{s}: {g}" for s, g in sorted(t.groups.items()))
            log(f"{key}\t{t.title}\t{t.short}\t{groups}")
    log(f"{n} of {len(found)} terms" + (f" match {pattern!r}" if pattern else ""))
    return n


def charts(opts: Options, log: Log = print) -> int:
    """Every explorer a page may place with ``::chart[name]``: its name, what it shows, the pages placing it."""
    from site_builder.content.pages import load_content
    from site_builder.content.parse import parse_page
    from site_builder.explorers import EXPLORERS
    from site_builder.kinds import CONTENT_KINDS
    from site_builder.markdown.parser import make_markdown

    md = make_markdown()
    used: dict[str, list[str]] = {}
    for page in load_content(opts.paths().content, CONTENT_KINDS):
        for name, _line in parse_page(page, md).charts:
            used.setdefault(name, []).append("/" + page.url)
    for name in sorted(EXPLORERS):
        what = " ".join((EXPLORERS[name].module.__doc__ or "").strip().split("\n\n")[0].split())
        log(f"{name}\t{what}\t{', '.join(used.get(name, [])) or 'no page'}")
    log(f"{len(EXPLORERS)} charts")
    return len(EXPLORERS)
