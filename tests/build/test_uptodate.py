"""A build with nothing changed does nothing; any change to an input, an option or the output folder
makes it a full build again (site_builder.cache.uptodate)."""

from __future__ import annotations

import pytest

from site_builder.cache.uptodate import input_files
from site_builder.cli import main
from tests.build.test_bad_inputs import Sandbox, box, tree_digest

__all__ = ["box"]

SKIPPED = "up to date: no input changed since the last build"


def build(b: Sandbox, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main([*b.args(), *extra]) == 0
    return capsys.readouterr().out


def test_a_second_build_with_nothing_changed_writes_nothing(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    first = build(box, capsys)
    assert SKIPPED not in first and "render" in first
    before = tree_digest(box.out)
    second = build(box, capsys)
    assert second.startswith(SKIPPED) and "render" not in second, second
    assert tree_digest(box.out) == before


@pytest.mark.parametrize(
    "change",
    [
        "a content page",
        "a template",
        "a page of the output removed",
        "a page of the output edited",
        "an option",
    ],
)
def test_any_change_rebuilds(box: Sandbox, capsys: pytest.CaptureFixture[str], change: str) -> None:
    build(box, capsys)
    extra: tuple[str, ...] = ()
    if change == "a content page":
        box.content("content/cit/optics.md", lambda t: t + "\nOne more sentence at the end.\n")
    elif change == "a template":
        box.content("templates/404.html", lambda t: t.replace("</article>", "<p>Try the home page.</p></article>", 1))
    elif change == "a page of the output removed":
        (box.out / "figures.json").unlink()
    elif change == "a page of the output edited":
        page = box.out / "cit" / "optics" / "index.html"
        page.write_text(page.read_text("utf-8").replace("<main", "<main data-edited", 1), "utf-8")
    else:
        extra = ("--site-url", "https://example.org/results/")
    again = build(box, capsys, *extra)
    assert SKIPPED not in again and "render" in again, again
    assert (box.out / "figures.json").is_file()
    assert "data-edited" not in (box.out / "cit" / "optics" / "index.html").read_text("utf-8")
    if change == "a content page":
        assert "One more sentence at the end." in (box.out / "cit" / "optics" / "index.html").read_text("utf-8")
    assert build(box, capsys, *extra).startswith(SKIPPED)


def test_no_cache_always_builds(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    args = [a for a in box.args() if a != "--cache"]
    if "--cache" in box.args():
        i = box.args().index("--cache")
        args = box.args()[:i] + box.args()[i + 2 :]
    capsys.readouterr()
    assert main([*args, "--no-cache"]) == 0
    assert SKIPPED not in capsys.readouterr().out


def test_the_inputs_cover_the_code_the_templates_and_the_vendored_data(box: Sandbox) -> None:
    from site_builder.paths import Options

    paths = Options(project=box.project, out=box.out, vendor=box.vendor, reference=box.reference).paths()
    labels = input_files(paths)
    for want in ("site_builder/build.py", "site_builder/static/js/site.js", "templates/base.html", "data/sources.yaml"):
        assert want in labels
    assert any(k.startswith("content/cit/") for k in labels)
    assert any(k.startswith("vendor/") for k in labels) and any(k.startswith("reference/") for k in labels)
    assert not any("__pycache__" in k for k in labels)


def test_a_deck_pdf_written_by_hand_is_a_change_to_the_site(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    deck = next((box.out / "cit" / "decks").iterdir())
    pdf = deck.with_name(deck.name + ".pdf")
    pdf.write_bytes(b"%PDF-1.7\n")  # the PDFs are the build's output now: one changed by hand is rebuilt
    assert not build(box, capsys).startswith(SKIPPED)
    assert not pdf.exists()  # these builds do not print (tests/build/conftest.py): the stray file is gone


def test_an_unchanged_stamp_keeps_the_recorded_digest_unless_the_file_was_written_near_the_check(
    box: Sandbox,
) -> None:
    import os
    import time

    from site_builder.cache.uptodate import RACY_NS, LastBuild, input_files
    from site_builder.paths import Options

    paths = Options(project=box.project, out=box.out, vendor=box.vendor, reference=box.reference).paths()
    stamps: dict[str, list[int]] = {}
    files = input_files(paths, None, stamps)
    label = "content/cit/optics.md"
    page = box.project / label
    wrong = {**files, label: "0" * 64}  # a record that says something else of the page

    def record(hashed_at: int) -> LastBuild:
        return LastBuild("", "", 0, 0, wrong, {}, stamps, hashed_at)

    st = page.stat()
    settled = max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS + 1
    assert input_files(paths, record(settled))[label] == "0" * 64  # the stamp matches: not read again
    assert input_files(paths, record(settled - 2))[label] == files[label]  # written near that check: read
    page.write_bytes(page.read_bytes().replace(b"a", b"b", 1))  # same size
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the same modification time
    assert page.stat().st_size == st.st_size and page.stat().st_mtime_ns == st.st_mtime_ns
    later = time.time_ns() + RACY_NS + 1
    assert input_files(paths, record(later))[label] not in ("0" * 64, files[label])  # the change time tells
