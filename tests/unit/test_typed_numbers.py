"""The typed-number rule: digits in prose are figures, except a short documented list of names."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.content.pages import Page
from site_builder.content.parse import check_typed, parse_page
from site_builder.errors import InputError
from site_builder.kinds import KINDS
from site_builder.markdown.parser import make_markdown
from site_builder.markdown.typed_numbers import check_front_matter, front_matter_text, typed_in, typed_in_tokens

ALLOWED = {
    "section number": "as §2 and §7a show, and §2–§4 in turn",
    "deck number": "FOptTrn 01, FOptInf 02, CiT 05, deck 04 and Deck 02",
    "number format": "BF16, FP8, FP32, INT8, int64, E4M3 and E5M2",
    "model name": "Llama-3-8B, Llama-3-8B-shaped, GPT-2 and Hyena-2's cost",
    "accelerator": "an H100, an A100 or a B200",
    "rule and optics names": "the 6N rule and a 4f system",
    "dimension": "a 1-D band or a 2-D one",
    "norm": "the L2 norm",
    "Ethernet standard": "over 100 GbE or 25 GbE",
    "module form factor": "a QSFP56 module or an OSFP one",
    "citation year": "(Peng et al. 2024) and (2023)",
}

REJECTED = {
    "decimal": ("a load of 0.9 here", "0.9"),
    "integer": ("every 100 steps", "100"),
    "percent": ("noise of 5% on reads", "5%"),
    "thousands": ("about 1,000 tokens", "1,000"),
    "unit glued": ("at 8Gb/s", "8Gb/s"),
    "deck-like number without a deck word": ("section 04 of it", "04"),
    "a year without citation form": ("in 2024 it ran", "2024"),
    "a scientific number": ("below 1e-14", "1e-14"),
    "a label": ("on 2 DC × 4", "2"),
}


@pytest.mark.parametrize("kind", list(ALLOWED))
def test_allowed_names_are_not_typed_numbers(kind: str) -> None:
    assert list(typed_in(ALLOWED[kind])) == []


@pytest.mark.parametrize("kind", list(REJECTED))
def test_a_number_in_prose_is_typed(kind: str) -> None:
    text, word = REJECTED[kind]
    got = list(typed_in(text))
    assert [t.word for t in got][:1] == [word]
    assert word in got[0].context


def page(body: str) -> Page:
    return Page(Path("a.md"), "content/a.md", "a/", "A", "page", body, 5)


PLACES = {
    "paragraph": "Intro.\n\nThe load is 0.9 here.\n",
    "heading": "## At 0.9 load\n",
    "list item": "- first\n- load 0.9\n",
    "table cell": "| Load | Time |\n|---|---|\n| 0.9 | :fig[x] |\n",
    "link text": "See [the 0.9 case](/cit/).\n",
    "emphasis": "A *0.9* load.\n",
    "term's shown text": "A :term[enob|0.9 bits] read-out.\n",
    "container": "::: note\nLoad 0.9.\n:::\n",
    "image text": "![load 0.9](/x.png)\n",
}


@pytest.mark.parametrize("place", list(PLACES))
def test_a_number_is_found_wherever_prose_can_hold_it(place: str) -> None:
    p = page(PLACES[place])
    with pytest.raises(
        InputError, match=r"content/a\.md: line \d+: expected a figure .* for '0\.9' .*found typed text"
    ):
        parse_page(p, make_markdown())  # the collect phase's parse holds every content rule


def test_the_error_names_the_line() -> None:
    p = page("One.\n\nTwo.\n\nLoad 0.9.\n")
    with pytest.raises(InputError, match=r"line 9:"):
        parse_page(p, make_markdown())


def test_a_decks_terms_and_source_lines_are_not_prose() -> None:
    body = "## A {#a}\n\nWords.\n\nTerms: d2nn\nSource: analysis §2\n"
    deck = Page(Path("d.md"), "content/d.md", "d/", "D", "deck", body, 5, meta_lines=KINDS["deck"].meta_lines)
    tokens = make_markdown().parse(deck.body, {})
    check_typed(deck, tokens, deck.body.splitlines())
    page = Page(Path("p.md"), "content/p.md", "p/", "P", "page", body, 5, meta_lines=KINDS["page"].meta_lines)
    with pytest.raises(InputError, match="d2nn"):  # on a page of a kind without such lines, they are prose
        check_typed(page, tokens, page.body.splitlines())


NOT_PROSE = {
    "figure": "The load is :fig[sim.load.high] here.\n",
    "code span": "Run `make 2>&1` and the formula `2(N−1)/N`.\n",
    "fenced code": "```\nx = 0.9\n```\n",
    "link address": "See [the case](/cit/decks/05-x/#slide-2).\n",
    "term key": "A :term[bit-planes] read-out.\n",
}


@pytest.mark.parametrize("what", list(NOT_PROSE))
def test_figures_code_and_addresses_are_not_prose(what: str) -> None:
    tokens = make_markdown().parse(NOT_PROSE[what], {})
    assert list(typed_in_tokens(tokens)) == []


@pytest.mark.parametrize("name", ["title", "summary", "lead", "kicker", "description", "nav", "short"])
def test_shown_front_matter_is_prose(name: str) -> None:
    with pytest.raises(InputError, match=rf"content/a\.md: front matter\.{name}: expected a figure .* for '32'"):
        check_front_matter("content/a.md", {name: "With 32 workers"})


def test_front_matter_figures_and_terms_are_not_typed() -> None:
    text = front_matter_text("At :fig[exp.final.B], see :term[enob] and `x2`, [deck](/cit/decks/05-a/).")
    assert list(typed_in(text)) == []
    check_front_matter("content/a.md", {"series": "cit", "nav_order": 3, "title": "CiT 05 at :fig[x.y]"})
