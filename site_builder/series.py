"""The two series, defined once: their key (the content folder and URL prefix), title and home page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Series:
    key: str
    title: str
    home: str  # site path of the series' home page
    glossary: str  # site path of the page that holds its glossary


SERIES: dict[str, Series] = {
    s.key: s
    for s in (
        Series("cit", "Compute in Transit", "cit/", "cit/glossary/"),
        Series("fopttrn", "Fourier Optics for Training", "fopttrn/", "fopttrn/"),
    )
}
