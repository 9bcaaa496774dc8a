"""Carrying files over from the previous output instead of writing them again.

When ``--out`` is still exactly as the last successful build left it (:attr:`site_builder.cache.uptodate.State.intact`:
every entry's size and modification time as recorded), a file that build wrote and this one would write byte for
byte is carried (site_builder/cache/overlay.py): a page whose render key is the one it was written under (with its CSV
tables), and the static assets or the results downloads when their sources did not change. A carried file is read
where it is and never written: only the files written anew reach ``--out`` when the build is published.

Where a file cannot be carried (the previous output does not hold it), the caller writes it as it would have anyway.
"""

from __future__ import annotations

import filecmp
from pathlib import Path
from typing import Any

from site_builder.cache.overlay import Overlay


class Carry:
    """The previous output (intact) and what its build wrote there, for the site ``site`` being made."""

    def __init__(self, site: Overlay, output: dict[str, Any]) -> None:
        self.site = site
        pages = output.get("pages")
        # url -> [key, sha256, tables, own key, names of the shared values its render read]
        self.pages: dict[str, Any] = pages if isinstance(pages, dict) else {}

    def same_file(self, rel: str, path: Path) -> bool:
        """The previous output's file ``rel`` holds exactly the bytes of ``path``: carried over, or compared a block
        at a time."""
        if self.site.is_carried(rel):
            return True
        if self.site.old is None:
            return False
        try:
            return filecmp.cmp(self.site.old / rel, path, shallow=False)
        except OSError:
            return False

    def _known(self, url: str) -> list[Any] | None:
        """The record of the page at ``url`` when it has the shape this code writes (its fields are checked where
        they are used)."""
        known = self.pages.get(url)
        return known if isinstance(known, list) and len(known) == 5 else None

    def has_page(self, url: str, key: str) -> bool:
        """The previous build wrote the page at ``url`` under ``key`` (for planning work only)."""
        known = self._known(url)
        return known is not None and known[0] == key

    def digests(self) -> dict[str, str]:
        """The SHA-256 of each page the previous build wrote, by URL."""
        return {u: known[1] for u in self.pages if (known := self._known(u)) is not None and isinstance(known[1], str)}

    def reads_of(self, url: str, own: str) -> list[str] | None:
        """The names of the shared values the page at ``url`` read when the previous build rendered it from the
        ``own`` key (render/pages.py ``Shared``), or None when it was rendered from another or is not known: the
        render cache's entry of them need not be read for a page the previous output holds."""
        known = self._known(url)
        if known is None or known[3] != own:
            return None
        names = known[4]
        return names if isinstance(names, list) and all(type(n) is str for n in names) else None

    def page(self, url: str, html: str, key: str) -> tuple[str, list[str]] | None:
        """Link the page at ``url`` (its file ``html``, relative to the site) and its tables, if the previous build
        wrote it under ``key``: returns the page's SHA-256 and its tables' file names, or None (nothing linked)."""
        if not self.has_page(url, key):
            return None
        _, digest, tables, _own, _names = self.pages[url]
        if not isinstance(digest, str) or not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
            return None
        if not self.files([html] + [f"{url}tables/{t}" for t in tables]):
            return None
        return digest, tables

    def folder(self, rel: str) -> bool:
        """Carry every file under the folder ``rel`` of the previous output; False (nothing carried) if it holds none."""
        found = self.site.files_under(rel)
        return bool(found) and self.site.carry(found)

    def files(self, rels: list[str]) -> bool:
        """Carry each of the files ``rels``; False (and none of them carried) if any is not in the previous output."""
        return self.site.carry(rels)
