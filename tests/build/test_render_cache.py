"""The render cache: a page is written from the cache only when nothing it reads changed, and a site built
with reused pages is byte for byte the site a build without any cache writes from the same inputs."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from site_builder.cache.folder import MARKER
from site_builder.cli import main
from site_builder.explorers import EXPLORERS
from site_builder.phases.store import VENDORED
from site_builder.results.producers import PRODUCERS
from tests.build.test_bad_inputs import SHARED_CACHE, Sandbox, box

__all__ = ["box"]


def build(b: Sandbox, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main([*b.args(), *extra]) == 0
    return capsys.readouterr().out


def reused(log: str) -> int:
    m = re.search(r"^render .*\((\d+) unchanged, from the cache\)", log, re.M)
    return int(m.group(1)) if m else 0


def files_of(folder: Path) -> dict[str, bytes]:
    # the static files (copied from the package by every build, never cached); the search index is compared too
    skip = ("assets/",)
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.relative_to(folder).as_posix().startswith(skip)
    }


MODEL_ENTRIES = (*(p.name for p in PRODUCERS), VENDORED, *(f"cases-{name}" for name in EXPLORERS))
"""The cache entries of the models' results, the ones a cold build computes."""


def models_only(b: Sandbox) -> Path:
    """A cache folder holding only the shared cache's models' results (each results document, the vendored
    results' reading and the explorers' cases): entries keyed by the models' code and inputs, whose every figure
    the build checks against its cell. No page, parse, search record or link verdict is in it."""
    folder = b.root / "models-only-cache"
    folder.mkdir()
    for entry in SHARED_CACHE[0].iterdir():
        if entry.name == MARKER or entry.name.rsplit(".", 1)[0] in MODEL_ENTRIES:
            shutil.copy2(entry, folder / entry.name)
    return folder


def same_as_uncached(b: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    """The site in ``b.out`` is byte for byte the site a build writes with nothing of the render cache: every
    page parsed, rendered, scanned and indexed afresh. Only the models' results are reused (models_only): computing
    them again (the simulation alone takes about 0.6 s) is what the cache tests elsewhere cover."""
    fresh = b.root / "fresh"
    args = b.args(out=fresh)
    i = args.index("--cache")
    args[i + 1] = str(models_only(b))
    capsys.readouterr()
    assert main(args) == 0
    log = capsys.readouterr().out
    assert re.search(r"^render .* \d+ pages$", log, re.M), log  # no page from a cache
    assert re.search(r"^search .*extracted, 0 from the cache\)$", log, re.M), log
    assert re.search(r"^models .*\(0 computed, ", log, re.M), log  # what models_only is for
    want, have = files_of(fresh), files_of(b.out)
    assert sorted(have) == sorted(want)
    for name in want:
        assert have[name] == want[name], f"{name} differs from a build without cache"


def test_an_edit_to_one_page_renders_that_page_only(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    box.content("content/cit/optics.md", lambda t: t + "\nA sentence added at the end.\n")
    log = build(box, capsys)
    pages = int(re.search(r"^render .* (\d+) pages", log, re.M).group(1))  # type: ignore[union-attr]
    assert reused(log) == pages - 1, log
    assert "A sentence added at the end." in (box.out / "cit" / "optics" / "index.html").read_text("utf-8")
    same_as_uncached(box, capsys)


@pytest.mark.parametrize(
    "what",
    [
        "a page title (every page's navigation)",
        "a glossary entry's short definition (every page linking the term)",
        "a figure used on a page",
        "a template",
    ],
)
def test_a_change_other_pages_see_renders_them_again(
    box: Sandbox, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    build(box, capsys)
    if what.startswith("a page title"):
        box.content(
            "content/cit/optics.md", lambda t: re.sub(r"^nav: .*$", "nav: Optics, investigated", t, count=1, flags=re.M)
        )
    elif what.startswith("a glossary entry"):
        box.content("content/glossary/enob.md", lambda t: t.replace("short: The bit depth", "short: The depth", 1))
    elif what == "a figure used on a page":
        box.content(
            "content/cit/optics.md", lambda t: t + "\nThe analysis puts the demo share at :fig[ana.demo.share].\n"
        )
    else:
        # a change no other test makes: the sandboxes share one cache, whose keys are made from what a page is
        # made of, so a page another test rendered from the same changed template would be found there
        edited = "<!-- changed for the render cache's own test --></body>"
        box.content("templates/base.html", lambda t: t.replace("</body>", edited, 1))
    log = build(box, capsys)
    assert reused(log) < 12, log
    same_as_uncached(box, capsys)


@pytest.mark.parametrize(
    ("what", "path", "seen_on"),
    [
        # a term's entry text is shown on the glossary that lists it; other pages show its title and short definition
        ("a glossary entry's text", "content/glossary/enob.md", ["cit/glossary/index.html"]),
        # a slide's text is shown on its deck; the hub lists the deck's title, summary and slide count
        (
            "a deck's last slide",
            "content/fopttrn/decks/01-transforms-in-training.md",
            ["fopttrn/decks/01-transforms-in-training/index.html"],
        ),
    ],
)
def test_a_change_no_other_page_shows_renders_only_the_pages_showing_it(
    box: Sandbox, capsys: pytest.CaptureFixture[str], what: str, path: str, seen_on: list[str]
) -> None:
    build(box, capsys)
    box.content(path, lambda t: t + "\nOne more line, of letters only.\n")
    log = build(box, capsys)
    pages = int(re.search(r"^render .* (\d+) pages", log, re.M).group(1))  # type: ignore[union-attr]
    assert reused(log) == pages - len(seen_on), log
    for page in seen_on:
        assert "One more line, of letters only." in (box.out / page).read_text("utf-8")
    same_as_uncached(box, capsys)


def test_a_decks_key_is_made_from_its_page_and_follows_a_source_line(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck's slides and section links are keyed by the page they are split from (DeckInfo.__key_parts__), not
    taken whole: a changed Source: line (a new section link, made with the results file) renders the deck again,
    and only the deck, as a build without the cache writes it."""
    deck = "fopttrn/decks/01-transforms-in-training/index.html"
    build(box, capsys)
    before = (box.out / deck).read_text("utf-8")
    box.content(
        "content/fopttrn/decks/01-transforms-in-training.md",
        lambda t: t.replace("Source: analysis §2, §7", "Source: analysis §2, §4", 1),
    )
    log = build(box, capsys)
    pages = int(re.search(r"^render .* (\d+) pages", log, re.M).group(1))  # type: ignore[union-attr]
    assert reused(log) == pages - 1, log
    assert (box.out / deck).read_text("utf-8") != before
    same_as_uncached(box, capsys)


def test_a_damaged_page_entry_is_rendered_again(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    from tests.build.test_bad_inputs import SHARED_CACHE

    for entry in SHARED_CACHE[0].glob("page-cit-optics.*"):
        entry.write_bytes(entry.read_bytes()[:100])
    box.content("content/cit/glossary.md", lambda t: t + "\n")  # not up to date: a build runs
    (box.out / "cit" / "optics" / "index.html").unlink()
    build(box, capsys)
    same_as_uncached(box, capsys)


@pytest.mark.parametrize(
    ("term", "shown_on"),
    [("enob", "cit/glossary"), ("analogue-noise", "fopttrn")],  # a glossary page, and the FOptTrn hub
)
def test_a_new_field_of_a_glossary_entry_shown_on_a_page_is_in_its_key(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, term: str, shown_on: str
) -> None:
    """A field added to ``Term`` (here read from a comment line of the entry's front matter, which no other field
    sees) and shown by a template: editing it renders the page that shows it again. No list of fields names it."""
    from site_builder.content import glossary

    @dataclass
    class ReviewedTerm(glossary.Term):
        reviewed: str = ""

    load_term = glossary.load_term

    def with_review(path: Path, label: str, front: object = None) -> glossary.Term:
        t = load_term(path, label, front)  # type: ignore[arg-type]
        found = re.search(r"^# reviewed: (.*)$", path.read_text("utf-8"), re.M)
        return ReviewedTerm(**vars(t), reviewed=found.group(1) if found else "")

    monkeypatch.setattr(glossary, "load_term", with_review)
    box.content(
        "templates/partials/glossary.html",
        lambda t: t.replace("<dt>{{ t.title }}</dt>", "<dt>{{ t.title }} <i>{{ t.reviewed }}</i></dt>", 1),
    )
    box.content(f"content/glossary/{term}.md", lambda t: t.replace("---\n", "---\n# reviewed: version A\n", 1))
    build(box, capsys)
    page = box.out / shown_on / "index.html"
    assert "<i>version A</i>" in page.read_text("utf-8")
    box.content(f"content/glossary/{term}.md", lambda t: t.replace("version A", "version B"))
    build(box, capsys)
    assert "<i>version B</i>" in page.read_text("utf-8")
    same_as_uncached(box, capsys)


def test_a_value_only_some_pages_read_renders_only_those_again(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    """A page's key holds the site-wide values its render read, as it read them: a page title (not its navigation
    entry) is read by the page itself, the figure index (which names every page) and the vendored results page (which
    links the method page by its title's list), so the others are written from the cache."""
    build(box, capsys)
    box.content(
        "content/cit/optics.md", lambda t: re.sub(r"^title: (.*)$", r"title: \1, revisited", t, count=1, flags=re.M)
    )
    log = build(box, capsys)
    pages = int(re.search(r"^render .* (\d+) pages", log, re.M).group(1))  # type: ignore[union-attr]
    assert pages - 4 <= reused(log) < pages, log
    assert ", revisited" in (box.out / "figures" / "index.html").read_text("utf-8")
    same_as_uncached(box, capsys)


def test_a_damaged_list_of_what_a_page_read_renders_it_again(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    build(box, capsys)
    from tests.build.test_bad_inputs import SHARED_CACHE

    entries = sorted(SHARED_CACHE[0].glob("reads-cit-optics.*"))
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes().replace(b'"registry", ', b""))  # edited without its digest line
    box.content("content/cit/glossary.md", lambda t: t + "\n")  # not up to date: a build runs
    (box.out / "cit" / "optics" / "index.html").unlink()
    build(box, capsys)
    same_as_uncached(box, capsys)


def test_pages_the_last_output_holds_are_keyed_from_its_record(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a page's render read is kept in the output's record too: after an edit to one page, the other pages are
    keyed and carried over without reading their entries of it from the cache (thousands of files on a large
    site); the edited page, whose own key changed, looks for its entry; the site is the one an uncached build
    writes."""
    from site_builder.cache.store import ResultsCache

    build(box, capsys)
    box.content("content/cit/optics.md", lambda t: t + "\nOne more sentence.\n")
    names: list[str] = []
    read = ResultsCache.read
    monkeypatch.setattr(ResultsCache, "read", lambda self, name, key: (names.append(name), read(self, name, key))[1])
    log = build(box, capsys)
    pages = int(re.search(r"^render .* (\d+) pages", log, re.M).group(1))  # type: ignore[union-attr]
    assert reused(log) == pages - 1, log
    assert [n for n in names if n.startswith("reads-")] == ["reads-cit-optics"]
    monkeypatch.undo()
    same_as_uncached(box, capsys)
