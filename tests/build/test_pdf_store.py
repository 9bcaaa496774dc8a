"""The print phase (site_builder/printing/store.py) as ``make site`` runs it: every deck's PDF published by the build,
printed once and then taken from the PDF store while the deck is unchanged (``--no-cache`` too), a changed store
entry printed again, the same bytes from two cold builds in separate cache folders, one line when there is no
Chromium, and a print that reads a file its key does not cover stopped."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from site_builder import chromium
from site_builder.build import Options, Summary, build
from site_builder.errors import BuildError
from site_builder.printing import store as pdf_store
from tests.build.test_bad_inputs import Sandbox
from tests.conftest import PrintedBuild

DECKS = 5


def _build(box: Sandbox, cache: Path, **extra: object) -> tuple[Summary, list[str]]:
    lines: list[str] = []
    opts = Options(project=box.project, out=box.out, vendor=box.vendor, reference=box.reference, cache=cache, **extra)  # type: ignore[arg-type]
    return build(opts, log=lines.append), lines


def _pdfs(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.glob("*/decks/*.pdf"))}


@pytest.fixture(scope="module")
def cold(printed_build: PrintedBuild) -> tuple[Path, dict[str, bytes], list[str]]:
    """One cold build with printing: its PDF store (the cache folder), its PDFs, and its log. It is the run's printed
    build of the project (tests/conftest.py), into a cache folder of its own that started empty, whose site the
    browser tests read: the decks are printed once for both. The cases below build copies of the project (Sandbox)
    with a copy of its store."""
    assert len(printed_build.printed) == DECKS
    return printed_build.cache, _pdfs(printed_build.site), printed_build.log


def _box_with_store(tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]) -> tuple[Sandbox, Path]:
    box = Sandbox(tmp_path)
    cache = tmp_path / "cache"
    shutil.copytree(cold[0], cache)
    return box, cache


def test_a_cold_build_publishes_every_deck_pdf(cold: tuple[Path, dict[str, bytes], list[str]]) -> None:
    _, pdfs, log = cold
    assert len(pdfs) == DECKS
    assert all(data.startswith(b"%PDF-") and b"/CreationDate" not in data for data in pdfs.values())
    line = next(x for x in log if x.startswith("print "))
    assert f"{DECKS} deck PDFs ({DECKS} printed in Chromium, 0 from the PDF store)" in line


def test_a_build_where_no_deck_changed_prints_nothing(
    tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    method = box.project / "content" / "cit" / "method.md"  # a page no deck shows anything of
    method.write_text(method.read_text("utf-8") + "\nA closing line, version C.\n", "utf-8")
    summary, log = _build(box, cache)
    assert summary.printed == []
    assert any(f"0 printed in Chromium, {DECKS} from the PDF store" in x for x in log)
    assert _pdfs(box.out) == cold[1]
    # --no-cache recomputes the models and pages, and still takes the PDFs whose key matches from the store
    summary, _ = _build(box, cache, use_cache=False)
    assert summary.printed == [] and _pdfs(box.out) == cold[1]


def test_a_changed_deck_alone_is_printed_again(tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    deck = sorted((box.project / "content").rglob("decks/*.md"))[0]
    text = deck.read_text("utf-8")
    at = text.rindex("\nSource:")
    deck.write_text(text[:at] + "\nA closing line, version C.\n" + text[at:], "utf-8")
    summary, _ = _build(box, cache, use_cache=False)
    assert len(summary.printed) == 1, summary.printed


def test_a_tampered_store_entry_is_printed_again(
    tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    entry = sorted(cache.glob(f"{pdf_store.ENTRY}-*"))[0]
    raw = bytearray(entry.read_bytes())
    at = raw.index(b"/MediaBox")
    raw[at + 1 : at + 2] = b"m"  # one byte of the PDF changed: its SHA-256 in the entry's first line no longer holds
    entry.write_bytes(bytes(raw))
    summary, _ = _build(box, cache)
    assert len(summary.printed) == 1
    assert _pdfs(box.out) == cold[1]  # printed again, to the same bytes


def test_two_cold_builds_in_separate_cache_folders_give_the_same_bytes(
    tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box = Sandbox(tmp_path)
    summary, _ = _build(box, tmp_path / "other-cache")
    assert len(summary.printed) == DECKS
    assert _pdfs(box.out) == cold[1]


def test_no_chromium_stops_the_build_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    monkeypatch.setattr(chromium, "CHROMIUM", str(tmp_path / "no-chromium"))
    with pytest.raises(BuildError) as e:
        _build(box, cache)
    assert "\n" not in str(e.value) and "expected Debian's chromium" in str(e.value)
    assert not box.out.exists()


def test_a_print_reading_a_file_its_key_does_not_cover_stops_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    monkeypatch.setattr(pdf_store, "_reads_kept", lambda *a: [])  # a key that forgot the page's assets
    with pytest.raises(BuildError, match=r"expected the print to read only files its cache key covers, found /assets/"):
        _build(box, cache)


def test_not_printing_by_request_says_so_and_excuses_only_the_pdfs(
    tmp_path: Path, cold: tuple[Path, dict[str, bytes], list[str]]
) -> None:
    box, cache = _box_with_store(tmp_path, cold)
    summary, log = _build(box, cache, print_decks=False)
    assert summary.printed == [] and _pdfs(box.out) == {}
    line = next(x for x in log if x.startswith("print "))
    assert re.search(rf"{DECKS} deck PDFs not printed, by request \(Options.print_decks=False\)", line)
