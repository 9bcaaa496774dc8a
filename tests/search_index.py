"""The search index as one object, for the tests that read it (site_builder/search/: index.json and its term files)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def read_index(folder: Path) -> dict[str, Any]:
    """``folder`` (a site's search/) as {"format", "pages", "terms", "postings"}: every term file's terms, merged in
    order, and their postings. Each term file must hold only terms of its beginning (one character, or two when the
    character's terms are split: then every term of that character longer than one is in a file of two), sorted,
    under the name its bytes give, with the number of postings index.json gives it."""
    index = json.loads((folder / "index.json").read_bytes())
    terms: list[str] = []
    postings: list[list[int]] = []
    keys = [key for key, _, _ in index["terms"]]
    split = {key[0] for key in keys if len(key) == 2}
    for key, name, count in index["terms"]:
        data = (folder / "terms" / f"{name}.json").read_bytes()
        assert hashlib.sha256(data).hexdigest()[:20] == name, name
        part = json.loads(data)
        assert part["terms"] == sorted(set(part["terms"])) and len(part["postings"]) == len(part["terms"]), name
        assert all(t.startswith(key) for t in part["terms"]), (key, name)
        if len(key) == 1 and key in split:
            assert part["terms"] == [key], (key, name)
        assert sum(len(p) for p in part["postings"]) == 2 * count, (key, name)
        terms += part["terms"]
        postings += part["postings"]
    assert keys == sorted(set(keys))
    assert sorted((folder / "terms").iterdir()) == sorted(folder / "terms" / f"{n}.json" for _, n, _ in index["terms"])
    return {"format": index["format"], "pages": index["pages"], "terms": terms, "postings": postings}
