"""What a build holds per page: no page's tokens outlive their use (a deck's its parse, any other page's its
render), so a large site's tokens are never all held at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from site_builder.cli import main
from site_builder.content.plan import PlannedPage
from site_builder.phases import collect
from tests.conftest import PROJECT, REFERENCE, VENDOR


def test_no_page_holds_its_tokens_past_their_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plans: list[list[PlannedPage]] = []
    held_after_collect: list[tuple[str, bool]] = []  # (page, its tokens are held) right after collect
    real = collect.collect

    def spied(*args: Any) -> collect.Collected:
        got = real(*args)
        plans.append(got.plan)
        held_after_collect.extend((p.url, p.parsed._tokens is not None) for p in got.plan if p.parsed is not None)
        return got

    monkeypatch.setattr(collect, "collect", spied)
    args = ["build", "--project", str(PROJECT), "--vendor", str(VENDOR), "--reference", str(REFERENCE)]
    # a cache of its own: every page is parsed in this build (a shared cache's parsed pages hold no tokens)
    assert main([*args, "--out", str(tmp_path / "site"), "--cache", str(tmp_path / "cache"), "--no-pdf"]) == 0
    (plan,) = plans
    kinds = {p.url: p.kind for p in plan}
    decks = [url for url, held in held_after_collect if not kinds[url].renders_tokens]
    others = [url for url, held in held_after_collect if kinds[url].renders_tokens]
    assert decks and others
    assert not [url for url, held in held_after_collect if held and url in decks]  # let go when parsed
    assert [url for url, held in held_after_collect if held and url in others] == others  # kept for render
    assert not [p.url for p in plan if p.parsed is not None and p.parsed._tokens is not None]  # let go once rendered
