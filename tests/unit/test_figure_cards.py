"""The number cards' files (site_builder/render/figure_cards.py): each figure once, in its key's file, with its
first pages and their count."""

from __future__ import annotations

import json

from site_builder.render import figure_cards as fc


def test_shard_of_is_fnv1a_of_the_utf8_bytes() -> None:
    # FNV-1a 32-bit test vectors: "" -> 0x811c9dc5, "a" -> 0xe40c292c, "foobar" -> 0xbf9cf968
    assert fc.shard_of("") == 0x811C9DC5 % fc.SHARDS
    assert fc.shard_of("a") == 0xE40C292C % fc.SHARDS
    assert fc.shard_of("foobar") == 0xBF9CF968 % fc.SHARDS
    assert fc.file_of("a") == f"figures/cards/{0xE40C292C % fc.SHARDS:02d}.json"


def test_card_files_cap_the_pages_and_count_them_all() -> None:
    many = [f"p{i:04d}/" for i in range(40)]
    entries = [
        {"key": "a.b", "text": "1", "pages": many, "published": "2"},
        {"key": "c.d", "text": "3", "pages": [], "versions": {"v1": "3", "v2": "4"}},
    ]
    cards = fc.Cards()
    for e in entries:
        cards.add(e)
    files = cards.files()
    assert sorted(files) == [f"figures/cards/{i:02d}.json" for i in range(fc.SHARDS)]  # empty ones too
    held = {k: v for text in files.values() for k, v in json.loads(text)["figures"].items()}
    assert held == {
        "a.b": {"pages": many[: fc.PAGES], "count": 40, "published": "2"},
        "c.d": {"pages": [], "count": 0, "versions": {"v1": "3", "v2": "4"}},
    }
    assert "a.b" in json.loads(files[fc.file_of("a.b")])["figures"]
    assert all('"text"' not in text for text in files.values())  # no number of ours: the card shows its link's text
    # as the render phase keeps them in the cache, and read back: an entry that is not every file is not taken
    assert fc.files_of(json.dumps(files).encode()) == files
    assert fc.files_of(b"[]") is None and fc.files_of(b"{") is None
    assert fc.files_of(json.dumps({k: v for k, v in files.items() if k != fc.file_of("a.b")}).encode()) is None
    assert fc.files_of(json.dumps({**files, fc.file_of("a.b"): 1}).encode()) is None
