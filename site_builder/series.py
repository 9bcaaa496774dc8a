"""The series, each declared once: its key (the content folder and URL prefix), title, home page, glossary page and
glossary groups. Every per-series table (the navigation, the glossary's groups) is derived from these declarations,
in the order given here: a third series is one more line (and, if it should, a word in the site's title)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Series:
    key: str
    title: str
    home: str  # site path of the series' home page
    glossary: str  # site path of the page that holds its glossary
    groups: tuple[str, ...]  # its glossary's groups, in the order the glossary lists them


SERIES: dict[str, Series] = {
    s.key: s
    for s in (
        Series("cit", "Compute in Transit", "cit/", "cit/glossary/", ("The experiment", "The link", "The simulation")),
        Series(
            "fopttrn",
            "Fourier Optics for Training",
            "fopttrn/",
            "fopttrn/",
            ("The backward pass", "Training the optics", "Precision", "The training cluster"),
        ),
    )
}
# The site's own title (the series named in the order the home page introduces them; the navigation lists them
# in SERIES' order).
SITE_TITLE = f"{SERIES['fopttrn'].title} · {SERIES['cit'].title}"
