"""The edit path: a build after an edit to content/ only reuses the basis (site_builder/cache/basis.py) and carries the
files it would write byte for byte over from the previous output (site_builder/cache/carry.py); the site is
still byte for byte the one a build without any cache writes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from site_builder.cache import basis
from tests.build.test_bad_inputs import SHARED_CACHE, Sandbox, box
from tests.build.test_render_cache import build, same_as_uncached

__all__ = ["box"]

BASIS_USED = "as an earlier build from the same inputs (all but content/) found them"
OPTICS = Path("cit/optics/index.html")
ASSET = Path("assets/css/site.css")
FIGURE_LIST = Path("figures.json")


def inode(path: Path) -> int:
    return path.stat().st_ino


def edit_home(b: Sandbox, n: int) -> None:
    b.content("content/index.md", lambda t: t + f"\nAn edited sentence, version {'ABCDEFGHIJKLMNOP'[n]}.\n")


def test_an_edit_to_content_reuses_the_basis_and_carries_what_did_not_change(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    build(box, capsys)
    edit_home(box, 1)
    log = build(box, capsys)  # the first build into this folder wrote the basis: this one reads it
    assert BASIS_USED in log and "pinned inputs as verified before" in log, log
    card = sorted((box.out / "figures" / "cards").iterdir())[0].relative_to(box.out)
    before = {rel: inode(box.out / rel) for rel in (OPTICS, ASSET, Path("index.html"), FIGURE_LIST, card)}
    edit_home(box, 2)
    log = build(box, capsys)
    assert BASIS_USED in log, log
    assert inode(box.out / OPTICS) == before[OPTICS]  # linked from the previous output, not written again
    assert inode(box.out / ASSET) == before[ASSET]
    # the figure list and the number cards: what the figure index read, which the edit did not change
    assert inode(box.out / FIGURE_LIST) == before[FIGURE_LIST]
    assert inode(box.out / card) == before[card]
    assert inode(box.out / "index.html") != before[Path("index.html")]
    assert "version C." in (box.out / "index.html").read_text("utf-8")
    same_as_uncached(box, capsys)


def test_a_carried_file_is_never_written_through(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    edit_home(box, 1)
    build(box, capsys)
    keep = box.root / "kept.html"
    os.link(box.out / OPTICS, keep)  # a second name for the carried page's bytes
    was = keep.read_bytes()
    box.content("content/cit/optics.md", lambda t: t + "\nA sentence added through no link.\n")
    build(box, capsys)
    assert keep.read_bytes() == was
    assert "A sentence added through no link." in (box.out / OPTICS).read_text("utf-8")
    same_as_uncached(box, capsys)


def test_an_output_edited_by_hand_is_written_again(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    page = box.out / OPTICS
    page.write_text(page.read_text("utf-8").replace("</body>", "<p>edited by hand</p></body>"), "utf-8")
    css = box.out / ASSET
    css.write_text(css.read_text("utf-8") + "\n/* edited by hand */\n", "utf-8")
    edit_home(box, 1)
    build(box, capsys)
    assert "edited by hand" not in page.read_text("utf-8")
    assert "edited by hand" not in css.read_text("utf-8")
    same_as_uncached(box, capsys)


def test_a_damaged_basis_is_made_again(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    edit_home(box, 1)
    assert BASIS_USED in build(box, capsys)
    for entry in SHARED_CACHE[0].glob(f"{basis.ENTRY}.*"):
        entry.write_bytes(entry.read_bytes()[:-10])
    edit_home(box, 2)
    log = build(box, capsys)
    assert BASIS_USED not in log and re.search(r"^load .* pinned inputs verified", log, re.M), log
    same_as_uncached(box, capsys)


@pytest.mark.parametrize("where", ["templates/base.html", "data/sources.yaml"])
def test_an_edit_outside_content_does_not_use_the_basis(
    box: Sandbox, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    build(box, capsys)
    edit_home(box, 1)
    assert BASIS_USED in build(box, capsys)
    if where.endswith(".html"):
        box.content(where, lambda t: t.replace("</body>", "<!-- changed --></body>", 1))
    else:
        box.content(where, lambda t: t + "\n# a comment\n")
    log = build(box, capsys)
    assert BASIS_USED not in log, log
    same_as_uncached(box, capsys)
