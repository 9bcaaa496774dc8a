"""Authoring: a mistake an author makes gets one line that names the file and line and helps fix it (the nearest
names, how to list them), and the listing commands an author writes from work on the real content."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable

import pytest

from site_builder.cli import main
from tests.build.test_bad_inputs import Sandbox, box, front_matter

__all__ = ["box"]  # the fixture: a sandbox holding a copy of the good build
from tests.conftest import PROJECT

DECK = "content/cit/decks/04-the-fixed-band-experiment.md"
TERM = "content/glossary/enob.md"


def replace_once(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return change


def append(text: str) -> Callable[[str], str]:
    return lambda t: t + text


CASES: dict[str, tuple[str, Callable[[str], str], str]] = {
    "misspelt figure key": (
        "content/index.md",
        append("\nThe band's loss is :fig[exp.final.b].\n"),
        r"content/index\.md: line \d+: expected a registered figure key \(did you mean exp\.final\.B\?\); "
        r"list them with python -m site_builder figures \[PATTERN\], found 'exp\.final\.b'",
    ),
    "misspelt term": (
        "content/index.md",
        append("\nSee :term[fixed-bands].\n"),
        r"content/index\.md: line \d+: expected a glossary term .*\(did you mean fixed-band\?\); "
        r"list them with python -m site_builder terms \[PATTERN\], found 'fixed-bands'",
    ),
    "misspelt figure key in a glossary entry": (
        TERM,
        append("\nAt :fig[exp.final.b] the loss.\n"),
        r"content/glossary/enob\.md: line \d+: expected a registered figure key \(did you mean exp\.final\.B\?\)",
    ),
    "chart inside a line": (
        "content/index.md",
        append("\nHere is a chart ::chart[amdahl] in a sentence.\n"),
        r"content/index\.md: line \d+: expected ::chart\[name\] on a line of its own, found 'Here is a chart",
    ),
    "unknown chart": (
        "content/index.md",
        append("\n::chart[amdhal]\n"),
        r"content/index\.md: line \d+: expected one of the charts .* \(did you mean amdahl\?\), found 'amdhal'",
    ),
    "unknown directive": (
        "content/index.md",
        append("\nThe loss :figure[exp.final.B] here.\n"),
        r"content/index\.md: line \d+: expected one of :fig\[…\], :term\[…\], :value\[…\], ::chart\[…\] on a line "
        r"of its own \(did you mean fig\?\), found ':figure\[…\]'",
    ),
    "figure without a key": (
        "content/index.md",
        append("\nThe loss :fig[exp final] here.\n"),
        r"content/index\.md: line \d+: expected :fig\[key\] with a key of .*, found ':fig\[exp final\]'",
    ),
    "unknown container": (
        "content/index.md",
        append("\n::: findings\nA finding.\n:::\n"),
        r"content/index\.md: line \d+: expected a container ::: finding, .* \(did you mean finding\?\), "
        r"found '::: findings'",
    ),
    "unknown front-matter key": (
        "content/cit/optics.md",
        front_matter("nav_ordr: 3\n"),
        r"content/cit/optics\.md: front matter\.nav_ordr: expected one of the keys of a page: title, kind, .* "
        r"\(did you mean nav_order\?\), found 'nav_ordr'",
    ),
    "unknown key in a glossary entry": (
        TERM,
        front_matter("shrot: x\n"),
        r"content/glossary/enob\.md: front matter\.shrot: expected one of the keys of a glossary entry: title, "
        r"short, groups \(did you mean short\?\), found 'shrot'",
    ),
    "deck without kind: deck": (
        DECK,
        replace_once("kind: deck\n", ""),
        r"cit/decks/04-the-fixed-band-experiment\.md: front matter\.kind: expected deck \(a file under "
        r"content/<series>/decks/ is a deck\), found no kind \(a plain page\)",
    ),
    "a deck outside decks/": (
        "content/cit/optics.md",
        front_matter("kind: deck\ndeck: CiT 09\nsummary: x\n"),
        r"content/cit/optics\.md: front matter\.kind: expected a deck only in a file under content/<series>/decks/",
    ),
    "missing title": (
        "content/index.md",
        replace_once("title:", "titel:"),
        r"content/index\.md: front matter\.titel: expected one of the keys of a home: .*\(did you mean title\?\)",
    ),
    "missing title in a glossary entry": (
        TERM,
        replace_once("title:", "# title:"),
        r"content/glossary/enob\.md: front matter\.title: expected a non-empty string, found no such key",
    ),
    "unclosed quote in front matter": (
        "content/cit/optics.md",
        replace_once("title:", 'kicker: "Unclosed\ntitle:'),
        r"content/cit/optics\.md: line 2: expected a closing quote for the string opened here, found none",
    ),
    "typed number in prose": (
        "content/cit/optics.md",
        append("\nAt a load of 0.9 the link slows.\n"),
        r"content/cit/optics\.md: line \d+: expected a figure \(:fig\[key\]; numbers are never typed, see "
        r"docs/writing\.md\) for '0\.9' in “…At a load of 0\.9 the link slows\.…”, found typed text",
    ),
    "typed number in a slide title": (
        DECK,
        replace_once("## The question {#question}", "## The question at 32 runs {#question}"),
        r"04-the-fixed-band-experiment\.md: line \d+: expected a figure .* for '32'",
    ),
    "typed number in a table cell": (
        "content/cit/optics.md",
        append("\n| Setting | Value |\n|---|---|\n| Load | 0.5 |\n"),
        r"content/cit/optics\.md: line \d+: expected a figure .* for '0\.5'",
    ),
    "typed number in a title": (
        "content/cit/optics.md",
        replace_once("title:", "title: 25 runs and"),
        r"content/cit/optics\.md: front matter\.title: expected a figure .* for '25'",
    ),
    "typed number in a glossary definition": (
        TERM,
        replace_once("short:", "short: 8 bits or"),
        r"content/glossary/enob\.md: front matter\.short: expected a figure .* for '8'",
    ),
    "typed number in a glossary body": (
        TERM,
        append("\nAbout 7 bits in practice.\n"),
        r"content/glossary/enob\.md: line \d+: expected a figure .* for '7'",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_authoring_mistake_is_one_helpful_line(name: str, box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    rel, change, message = CASES[name]
    box.content(rel, change)
    before = box.inputs_digest()
    assert main(box.args()) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert re.search(message, err), err
    assert box.inputs_digest() == before


@pytest.mark.parametrize("name", ["misspelt figure key", "deck without kind: deck"])
def test_check_reports_what_build_reports_and_writes_no_site(
    name: str, box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    rel, change, message = CASES[name]
    box.content(rel, change)
    out_before = box.inputs_digest()
    listing = sorted(p.relative_to(box.out).as_posix() for p in box.out.rglob("*"))
    assert main([*box.args("check"), "--cache", box.args()[-1]]) == 1
    assert re.search(message, capsys.readouterr().err)
    assert box.inputs_digest() == out_before
    assert sorted(p.relative_to(box.out).as_posix() for p in box.out.rglob("*")) == listing


def test_check_passes_on_good_content_and_touches_no_output(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    stamp = {p: p.stat().st_mtime_ns for p in box.out.rglob("*")}
    assert main([*box.args("check"), "--cache", box.args()[-1]]) == 0
    assert "every check passed" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in box.out.rglob("*")} == stamp


def test_a_broken_link_fails_check_as_it_fails_build(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    box.content("content/index.md", append("\n[gone](/no/such/page/)\n"))
    assert main([*box.args("check"), "--cache", box.args()[-1]]) == 1
    assert "expected a page or file of the site" in capsys.readouterr().err


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "site_builder", *args], cwd=PROJECT, capture_output=True, text=True, timeout=300
    )


def test_figures_lists_key_text_cell_and_pages() -> None:
    got = run("figures", "exp.final.B")
    assert got.returncode == 0, got.stderr
    row = next(line for line in got.stdout.splitlines() if line.startswith("exp.final.B\t"))
    _key, text, cell, pages = row.split("\t")
    assert re.fullmatch(r"\d\.\d{3} ± \d\.\d{3}", text)
    assert "results.md § " in cell and " › " in cell
    assert "/cit/decks/04-the-fixed-band-experiment/" in pages
    assert re.search(r"^\d+ of \d+ figures match 'exp\.final\.B'$", got.stdout, re.M)


def test_figures_takes_a_pattern() -> None:
    got = run("figures", "exp.seeds.*")
    keys = [line.split("\t")[0] for line in got.stdout.splitlines() if "\t" in line]
    assert keys and all(k.startswith("exp.seeds.") for k in keys)


def test_terms_and_charts_list_what_content_may_name() -> None:
    terms = run("terms", "enob")
    assert terms.returncode == 0 and any(line.startswith("enob\t") for line in terms.stdout.splitlines())
    charts = run("charts")
    names = {line.split("\t")[0] for line in charts.stdout.splitlines() if "\t" in line}
    assert {"amdahl", "transit", "loss_curves"} <= names
    assert "/fopttrn/decks/01-transforms-in-training/" in charts.stdout
