"""The build tests share one good build and one results cache (its keys cover whatever a case breaks).

These tests are about the build, not the decks' PDFs: the builds they run through the command line skip the print
phase, by request (``Options(print_decks=False)``; the log says so and the link check reports the links to the PDFs
as not checked), as ``build --no-pdf`` does. tests/build/test_pdf_store.py builds with printing, as
``make site`` does, and tests/browser checks the printed PDFs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from site_builder import cli
from site_builder.paths import Options
from tests.build.test_bad_inputs import built_site


@dataclass
class NotPrinting(Options):
    print_decks: bool = False


@pytest.fixture(scope="session", autouse=True)
def builds_not_about_pdfs() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cli, "Options", NotPrinting)
        yield


__all__ = ["builds_not_about_pdfs", "built_site"]
