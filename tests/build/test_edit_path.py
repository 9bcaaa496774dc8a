"""The edit path: a build after an edit to content/ only reuses the basis (site_builder/cache/basis.py) and carries the
files it would write byte for byte over from the previous output (site_builder/cache/carry.py); the site is
still byte for byte the one a build without any cache writes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from site_builder.cache import basis, uptodate
from site_builder.cli import main
from site_builder.paths import Options
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


def leftovers(b: Sandbox) -> list[str]:
    """The build's temporary folders left beside the output folder."""
    return sorted(p.name for p in b.out.parent.iterdir() if p.name.startswith(f".{b.out.name}."))


def test_an_edit_is_published_in_place_and_a_change_to_every_page_replaces_the_folder(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    """A one-page edit renames its few new files into the output folder (site_builder/cache/overlay.py): the folder
    and every file it did not change stay as they were, and the files it no longer makes (the edited page's old
    search fragment) are gone. A change that rewrites most files replaces the folder whole, as a cold build does."""
    build(box, capsys)
    edit_home(box, 1)
    build(box, capsys)
    folder, page = inode(box.out), inode(box.out / OPTICS)
    fragments = {p.name for p in (box.out / "search" / "fragments").iterdir()}
    edit_home(box, 2)
    build(box, capsys)
    assert inode(box.out) == folder
    assert inode(box.out / OPTICS) == page
    now = {p.name for p in (box.out / "search" / "fragments").iterdir()}
    assert len(now - fragments) == 1 and len(fragments - now) == 1  # the home page's fragment replaced
    # the listing recorded for the next build (updated where the files changed, not walked) is the folder's
    cache = SHARED_CACHE[0] if SHARED_CACHE else None
    recorded = uptodate.previous(Options(project=box.project, out=box.out, cache=cache).paths())
    assert recorded is not None and recorded.tree == uptodate.tree_digest(box.out)
    assert leftovers(box) == []  # (the first test of this file holds an edit published in place to a cold build)
    box.content("templates/base.html", lambda t: t.replace("</body>", "<!-- changed --></body>", 1))
    build(box, capsys)
    assert inode(box.out) != folder
    assert leftovers(box) == []
    same_as_uncached(box, capsys)


def test_a_build_stopped_while_it_publishes_in_place_is_followed_by_a_whole_one(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Renaming the new files into the output folder fails half way (as a full disk or a kill would leave it): the
    error is one line, and the next build, finding the folder no longer as the last build recorded it, writes the
    whole site again, byte for byte the site a build without any cache writes."""
    from site_builder.cache import overlay

    build(box, capsys)
    edit_home(box, 1)
    build(box, capsys)
    edit_home(box, 2)
    real, done = os.replace, []

    def replace_once(src: str, dst: str) -> None:
        if done:
            raise OSError(28, "No space left on device", str(dst))
        done.append(dst)
        real(src, dst)

    monkeypatch.setattr(overlay.os, "replace", replace_once)
    capsys.readouterr()
    assert main(box.args()) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "expected to update its changed files in place, found no space left" in err, err
    monkeypatch.setattr(overlay.os, "replace", real)
    assert len(done) == 1  # one file of the new site was in place, the others not
    log = build(box, capsys)
    assert "(0 pages carried)" in log, log  # nothing carried from the folder left half-made
    assert leftovers(box) == []
    same_as_uncached(box, capsys)


def test_a_carried_page_whose_anchor_an_edit_removed_fails_the_build(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    """The link check stands on the last build's record for the pages it carries (render/links.py check_site), but
    only in a site of the same digest: an edit that takes away an anchor a carried page links to changes the site's
    digest, so that page's links are checked again and the build stops on the broken one."""
    box.content(
        "content/index.md", lambda t: t + "\nSee [what the optics does](cit/optics/#what-the-emulated-optics-does).\n"
    )
    build(box, capsys)
    edit_home(box, 1)
    assert "(17 pages carried)" in build(box, capsys)  # the record of the link check written
    box.content("content/cit/optics.md", lambda t: t.replace("## What the emulated optics does", "## What it does", 1))
    capsys.readouterr()
    assert main(box.args()) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "what-the-emulated-optics-does" in err and "content/index.md" in err, err
