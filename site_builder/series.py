"""The series, each declared once: its key (the content folder and URL prefix), title, home page, glossary page and
glossary groups, and its place in the site's title. Every per-series table (the navigation, the glossary's groups,
the site's title) is derived from these declarations, the navigation in the order given here: a third series is
one more line."""

from __future__ import annotations

import itertools

from site_builder.datatypes import dataclass
from site_builder.errors import BuildError


@dataclass(frozen=True)
class Series:
    """A series of the site, declared once: its key, title, home page, glossary page and glossary groups."""

    key: str
    title: str
    home: str  # site path of the series' home page
    glossary: str  # site path of the page that holds its glossary
    groups: tuple[str, ...]  # its glossary's groups, in the order the glossary lists them
    title_place: int | None = None  # where the site's title names it (the order the home page introduces them)


SERIES: dict[str, Series] = {
    s.key: s
    for s in (
        Series(
            "cit",
            "Compute in Transit",
            "cit/",
            "cit/glossary/",
            ("The experiment", "The link", "The simulation"),
            title_place=2,
        ),
        Series(
            "fopttrn",
            "Fourier Optics for Training",
            "fopttrn/",
            "fopttrn/",
            ("The backward pass", "Training the optics", "Precision", "The training cluster"),
            title_place=1,
        ),
    )
}


def site_title(series: dict[str, Series]) -> str:
    """The site's own title: the series it names, in their declared places (the navigation lists them in SERIES'
    order); two series in one place is an error naming them."""
    named = sorted((s for s in series.values() if s.title_place is not None), key=lambda s: s.title_place or 0)
    for a, b in itertools.pairwise(named):
        if a.title_place == b.title_place:
            raise BuildError(
                f"site_builder/series.py: {b.key}.title_place: expected a place of its own, found {a.key}'s"
            )
    return " · ".join(s.title for s in named)


SITE_TITLE = site_title(SERIES)
