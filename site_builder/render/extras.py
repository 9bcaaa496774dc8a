"""What a published site has besides its pages: descriptions, the sitemap, the figure index's groups.

* every page gets a ``<meta name="description">``: its front matter ``description:``, else ``lead:`` or
  ``summary:``, else its first paragraph, else a sentence made from its kind and title;
* ``sitemap.xml`` lists every page (absolute addresses under ``--site-url`` when given, as the sitemap
  protocol wants; paths from the site root otherwise);
* the figure index lists every figure's key, linked to its cell, grouped by results file and section (the
  page stays small: its script renders the full rows from ``figures.json``).
"""

from __future__ import annotations

import re
from html import escape, unescape
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt

from site_builder.content.plan import PlannedPage
from site_builder.errors import BuildError
from site_builder.results.figures import Registry, ResultsFile, slug

TAG = re.compile(r"<[^>]*>")
SPACE = re.compile(r"\s+")
DESCRIPTION_CHARS = 200
FRONT_MATTER = ("description", "lead", "summary")


def plain(html_text: str) -> str:
    """Rendered HTML as one line of text."""
    return SPACE.sub(" ", unescape(TAG.sub("", html_text))).strip()


def shorten(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """At most ``limit`` characters: whole sentences if they fit, else whole words and an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit + 1]
    end = max(cut.rfind(". "), cut.rfind("? "), cut.rfind("! "))
    if end >= limit // 3:
        return cut[: end + 1]
    return cut[: cut.rfind(" ")].rstrip(",;: ") + "…"


def _first_paragraph(tokens: list[Any], md: MarkdownIt, env: dict[str, Any]) -> str:
    for i, t in enumerate(tokens):
        if t.type == "paragraph_open" and i + 1 < len(tokens) and tokens[i + 1].type == "inline":
            text = plain(md.renderer.render([tokens[i + 1]], md.options, env))
            if len(text) >= 40:
                return text
    return ""


def description(p: PlannedPage, md: MarkdownIt, env: dict[str, Any], series_title: str | None) -> str:
    """The page's one-line description (its Markdown rendered as plain text: figures show their text)."""
    meta = p.parsed.page.meta if p.parsed is not None else {}
    for name in FRONT_MATTER:
        value = meta.get(name)
        if isinstance(value, str) and value.strip():
            return shorten(plain(md.renderInline(value, env)))
    if p.parsed is not None:
        first = _first_paragraph(p.parsed.tokens, md, env)
        if first:
            return shorten(first)
    where = f" ({series_title})" if series_title else ""
    own = p.kind.describe(p, where)
    if own is not None:
        return own
    return shorten(f"{p.title}{where}.")


def site_url(value: str | None) -> str:
    """The published site's address for sitemap.xml ('' when not given), checked, ending in '/'."""
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise BuildError(f"--site-url: expected an http or https address such as https://example.org/, found {value!r}")
    return value if value.endswith("/") else value + "/"


def sitemap(urls: list[str], base: str) -> str:
    """sitemap.xml for the pages at ``urls`` (site paths, "" for the home page)."""
    prefix = base or "/"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <url><loc>{escape(prefix + u, quote=False)}</loc></url>" for u in urls]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def _unique(base: str, ids: set[str]) -> str:
    sid, n = base, 1
    while sid in ids:
        n += 1
        sid = f"{base}-{n}"
    ids.add(sid)
    return sid


def figure_groups(registry: Registry, files: dict[str, ResultsFile], root: str) -> list[dict[str, Any]]:
    """The figure index's groups: one per results file (in the build's order), its figures by section and row:
    (link to the row's cells, [keys of the figures in it]). The no-script list, and the frame figures.js fills in."""
    by_file: dict[str, dict[str, dict[str, list[str]]]] = {label: {} for label in files}
    for f in sorted(registry.figures.values(), key=lambda f: f.key):
        s = f.source
        rows = by_file.setdefault(s.file, {}).setdefault(s.section, {})
        rows.setdefault(root + s.href(), []).append(f.key)
    groups = []
    for label, sections in by_file.items():
        if not sections:
            continue
        rf = files.get(label)
        order = {sec.title: n for n, sec in enumerate(rf.sections)} if rf is not None else {}
        gid = "file-" + slug(label)
        ids: set[str] = set()
        groups.append(
            {
                "id": gid,
                "file": label,
                "title": rf.title if rf is not None else label,
                "page": root + rf.page if rf is not None else "",
                "count": sum(len(keys) for rows in sections.values() for keys in rows.values()),
                "sections": [
                    {"title": title, "id": _unique(f"{gid}--{slug(title)}", ids), "rows": list(rows.items())}
                    for title, rows in sorted(sections.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
                ],
            }
        )
    return groups
