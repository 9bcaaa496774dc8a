"""The search index as one object, for the tests that read it (site_builder/search/: index.json and its term files)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def read_index(folder: Path) -> dict[str, Any]:
    """``folder`` (a site's search/) as {"format", "pages", "terms", "postings"}: every term file's terms, merged in
    order, and their postings. Each term file must hold only terms of its character, sorted, under the name its
    bytes give."""
    index = json.loads((folder / "index.json").read_bytes())
    terms: list[str] = []
    postings: list[list[int]] = []
    for character, name in index["terms"]:
        data = (folder / "terms" / f"{name}.json").read_bytes()
        assert hashlib.sha256(data).hexdigest()[:20] == name, name
        part = json.loads(data)
        assert part["terms"] == sorted(set(part["terms"])) and len(part["postings"]) == len(part["terms"]), name
        assert all(t[0] == character for t in part["terms"]), (character, name)
        terms += part["terms"]
        postings += part["postings"]
    assert [c for c, _ in index["terms"]] == sorted({c for c, _ in index["terms"]})
    assert sorted((folder / "terms").iterdir()) == sorted(folder / "terms" / f"{n}.json" for _, n in index["terms"])
    return {"format": index["format"], "pages": index["pages"], "terms": terms, "postings": postings}
