"""Deck files split into slides; glossary terms load; bad input names the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.content.decks import split_slides
from site_builder.content.glossary import load_term
from site_builder.content.pages import Page
from site_builder.errors import InputError


def deck(body: str) -> Page:
    return Page(Path("d.md"), "content/fopttrn/decks/01-x.md", "fopttrn/decks/01-x/", "X", "deck", body, 8)


def test_slides_split_on_separator_lines_outside_code():
    body = (
        "## Opening {#opening}\n\nHello.\n\n---\n\n## The 6N rule, reproduced\n\nText :fig[a.b].\n\n"
        "```\n---\n```\n\nTerms: six-n-rule, static-share\nSource: analysis §1, §2; vendor §3\n"
    )
    slides = split_slides(deck(body))
    assert [s.id for s in slides] == ["opening", "the-6n-rule-reproduced"]
    assert slides[1].title == "The 6N rule, reproduced"
    assert "```\n---\n```" in slides[1].body and "Terms:" not in slides[1].body
    assert [k for k, _ in slides[1].terms] == ["six-n-rule", "static-share"]
    assert [(r.doc, r.section) for r in slides[1].sources] == [("analysis", "1"), ("analysis", "2"), ("vendor", "3")]
    assert slides[1].terms[0][1] == "line 22"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "No heading here\n",
            r"content/fopttrn/decks/01-x\.md: line 8: expected a slide starting with '## Title \{#id\}'",
        ),
        (
            "## A {#a}\n\n---\n\n## B {#a}\n",
            r"line 12: expected a slide id used once in the deck \(also line 8\), found 'a'",
        ),
        ("## A {#Bad_Id}\n", r"line 8: expected a slide id of lowercase letters, digits and hyphens, found 'Bad_Id'"),
        (
            "## A\n\nSource: nowhere §1\n",
            r"line 10: expected 'Source: <experiment \| analysis \| simulation \| trainers \| vendor>",
        ),
        ("## A\n\nSource: analysis 2\n", r"line 10: expected a section reference like §2 or §7a, found '2'"),
        ("## A\n\nTerms:\n", r"line 10: expected glossary keys after 'Terms:', found none"),
        ("## Topics {#topics}\n", r"expected a slide id used once in the deck \(also the generated topics slide\)"),
    ],
)
def test_bad_decks_name_file_and_line(body, message):
    with pytest.raises(InputError, match=message):
        split_slides(deck(body))


def test_glossary_term_loads_and_rejects_unknown_groups(tmp_path):
    good = tmp_path / "six-n-rule.md"
    good.write_text("---\ntitle: The 6N rule\nshort: Six FLOPs.\ngroups:\n  fopttrn: The backward pass\n---\n\nBody.\n")
    t = load_term(good, "content/glossary/six-n-rule.md")
    assert (t.key, t.title, t.short, t.groups, t.body) == (
        "six-n-rule",
        "The 6N rule",
        "Six FLOPs.",
        {"fopttrn": "The backward pass"},
        "Body.\n",
    )
    assert t.anchor == "term-six-n-rule"
    bad = tmp_path / "x.md"
    bad.write_text("---\ntitle: X\nshort: Y\ngroups:\n  fopttrn: Optics\n---\n")
    with pytest.raises(
        InputError, match=r"content/glossary/x\.md: front matter\.groups\.fopttrn: expected one of The backward pass"
    ):
        load_term(bad, "content/glossary/x.md")


def test_a_decks_slide_heads_read_back_from_the_cache_equal_the_split_and_a_damaged_entry_is_split_again(
    tmp_path: Path,
) -> None:
    from site_builder.cache.store import ResultsCache, entry_name
    from site_builder.content.decks import slide_heads
    from site_builder.phases.store import Models, _heads_of

    body = (
        "## Opening {#opening}\n\nHello.\n\nNotes: say hello\n\n---\n\n## Second\n\nText.\n\n"
        "Terms: six-n-rule\nSource: analysis §1; vendor §3\n\nArticle: more detail\n"
    )
    page = deck(body)
    models = Models.__new__(Models)  # only its cache and the slides' code key are used
    models.cache = ResultsCache(tmp_path)
    models._slides_code = None
    made = models.slide_heads(page)  # split, and kept
    assert made == slide_heads(page) == [s.head() for s in split_slides(page)]
    assert [len(s.sources) for s in made] == [0, 2] and [k for k, _ in made[1].terms] == ["six-n-rule"]
    [entry] = tmp_path.glob(entry_name("slides", page.label) + ".*")
    assert models.slide_heads(page) == made  # read back
    again = _heads_of(entry.read_bytes().partition(b"\n")[2])
    assert again == made and [type(h).__name__ for h in again] == ["SlideHead"] * 2
    assert [type(r).__name__ for r in again[1].sources] == ["SourceRef"] * 2 and again[1].sources[0].doc == "analysis"
    for damaged in (
        b"[]",
        b"{}",
        b"not json",
        b'[["a", "b"]]',
        b'[["a", "b", "8", [], []]]',
        b'[["a", "b", 8, ["k"], []]]',
        b'[["a", "b", 8, [], ["analysis", "1"]]]',
        b'[["a", "b", 8, [], [1, 2, 3]]]',
        b'[["a", "b", 8, {}, []]]',
        b'[["a", "b", 8, [], {}]]',
        b'[["a", "b", 8, "kk", []]]',
        b'[["a", "b", 8, [], "abc"]]',
        b'[["a", "b", 8, [], null]]',
    ):
        assert _heads_of(damaged) is None, damaged
    digest_line, _, kept = entry.read_bytes().partition(b"\n")
    entry.write_bytes(digest_line + b"\n" + kept.replace(b"Opening", b"Changed"))  # fails its digest
    assert models.slide_heads(page) == made
