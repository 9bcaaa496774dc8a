"""The link check: every internal href/src of the written site resolves to a file, every #anchor to an id."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.errors import BuildError

HREF = re.compile(r'\s(href|src)="([^"]*)"')
IDS = re.compile(r'\sid="([^"]+)"')


def check_links(out: Path, made_from: dict[str, str]) -> int:
    """Returns the number of internal links checked. ``made_from`` maps a page URL to the file it came from."""
    root = out.resolve()
    ids: dict[Path, set[str]] = {}
    texts: dict[Path, str] = {}

    def text_of(path: Path) -> str:
        if path not in texts:
            texts[path] = path.read_text(encoding="utf-8")
        return texts[path]

    def ids_of(path: Path) -> set[str]:
        if path not in ids:
            ids[path] = set(IDS.findall(text_of(path))) if path.suffix == ".html" else set()
        return ids[path]

    resolved: dict[tuple[Path, str], Path | None] = {}

    def resolve(html: Path, path: str) -> Path | None:
        """The file a link's path names, or None when it is outside the site or missing (memoized)."""
        memo = (html.parent if path else html, path)
        if memo not in resolved:
            target = html if not path else (html.parent / unquote(path))
            if path.endswith("/") or target.is_dir():
                target = target / "index.html"
            target = target.resolve()
            resolved[memo] = target if target.is_relative_to(root) and target.is_file() else None
        return resolved[memo]

    n = 0
    for html in sorted(root.rglob("*.html")):
        rel = html.relative_to(root).as_posix()
        url = rel.removesuffix("index.html")
        page = f"{made_from[url]} (page /{url})" if url in made_from else rel
        for attr, link in HREF.findall(text_of(html)):
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                if attr == "src" or parts.scheme not in ("http", "https", "mailto"):
                    raise BuildError(f"{page}: {attr}={link!r}: expected a local resource, found an external one")
                continue
            target = resolve(html, parts.path)
            if target is None:
                raise BuildError(f"{page}: link {link!r}: expected a page or file of the site, found none")
            if parts.fragment and unquote(parts.fragment) not in ids_of(target):
                raise BuildError(f"{page}: link {link!r}: expected an element with id {parts.fragment!r}, found none")
            n += 1
    return n
