"""What a number card fetches: for each figure, the pages showing it (the first few), how many there are, and the
published figure and data versions where the figure has them, in ``figures/cards/NN.json``.

A card opened on any page used to fetch ``figures.json``, the whole figure list with every page using every
figure: 0.85 MB on this site, 15.8 MB for a synthetic site of 2,006 pages, for one card. The cards' files split
that by key into :data:`SHARDS` files (a card fetches the one its key falls in, once), and list at most
:data:`PAGES` pages per figure with the count of all of them (the figure index, which reads ``figures.json``,
lists every one). A key's file is :func:`shard_of` its key, a function site.js computes the same way.

No figure's text is in them: a card shows the text of the link it opened from (which the parity check reads on
the page), so these files hold no number the site shows as ours.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

SHARDS = 32
PAGES = 9  # a card lists at most 8 pages besides the one it is opened on
FOLDER = "figures/cards"


def shard_of(key: str) -> int:
    """FNV-1a (32 bits) of the key's UTF-8 bytes, modulo :data:`SHARDS` (site.js ``cardFile`` is the same)."""
    h = 0x811C9DC5
    for b in key.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h % SHARDS


def file_of(key: str) -> str:
    """The site path of the cards' file holding ``key``."""
    return f"{FOLDER}/{shard_of(key):02d}.json"


class Cards:
    """The cards' files, made a figure list entry at a time (Registry.figure_entries: the figure list is written
    from the same pass)."""

    def __init__(self) -> None:
        self.shards: list[dict[str, dict[str, Any]]] = [{} for _ in range(SHARDS)]

    def add(self, e: Mapping[str, Any]) -> None:
        pages = e.get("pages") or []
        card: dict[str, Any] = {"pages": list(pages[:PAGES]), "count": len(pages)}
        for name in ("published", "versions"):
            if name in e:
                card[name] = e[name]
        self.shards[shard_of(str(e["key"]))][str(e["key"])] = card

    def files(self) -> dict[str, str]:
        """Each file (site path -> JSON text), every one written, an empty one included, so a card never asks for
        a file that is not there."""
        return {
            f"{FOLDER}/{i:02d}.json": json.dumps({"figures": s}, ensure_ascii=False, separators=(",", ":"))
            for i, s in enumerate(self.shards)
        }


def files_of(body: bytes) -> dict[str, str] | None:
    """The files kept as JSON (``{path: text}``, as the render phase caches them), or None when it is not every
    file this code writes."""
    try:
        files = json.loads(body)
    except ValueError:
        return None
    names = [f"{FOLDER}/{i:02d}.json" for i in range(SHARDS)]
    if not isinstance(files, dict) or sorted(files) != names or not all(isinstance(v, str) for v in files.values()):
        return None
    return files
