"""Results tables (site_builder/mdtables.py): the headings read without the tables are the sections' own."""

from __future__ import annotations

from site_builder import mdtables
from tests.conftest import PROJECT

SHARED = PROJECT.parent / "shared"


def test_headings_are_the_sections_titles_and_levels() -> None:
    files = sorted((PROJECT / "data").rglob("*.md")) + sorted((SHARED / "vendor").rglob("results.md"))
    assert len(files) >= 4
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert mdtables.headings(text) == [(s.title, s.level) for s in mdtables.parse(text, path.name)], path
    tricky = "# A\n\n```\n# not a heading\n```\n\n| x |\n|---|\n| # no |\n\n## B ##\n#nospace\n"
    assert mdtables.headings(tricky) == [("", 0), ("A", 1), ("B", 2)]
    assert mdtables.headings(tricky) == [(s.title, s.level) for s in mdtables.parse(tricky, "t.md")]
