"""The search phase: Pagefind runs on the temporary output before the swap, so a failure is one line and
leaves site/ untouched; an unchanged site reuses the cached index."""

from __future__ import annotations

import re
import shutil
import stat
from pathlib import Path

import pytest

from site_builder import search
from site_builder.cli import main
from tests.build.test_bad_inputs import Sandbox, box, leftovers, tree_digest

__all__ = ["box"]  # the fixture: a sandbox holding a copy of one good build


def failing_pagefind(folder: Path) -> Path:
    exe = folder / "pagefind"
    exe.write_text("#!/bin/sh\necho 'Error: could not index the site' >&2\nexit 3\n", encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_a_failing_pagefind_is_one_line_and_leaves_the_site(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = failing_pagefind(box.root)
    monkeypatch.setattr(search, "executable", lambda: exe)
    monkeypatch.setattr(search, "_restore", lambda entry, target: False)  # no cached index: Pagefind must run
    before = tree_digest(box.out)
    inputs = box.inputs_digest()
    capsys.readouterr()
    assert main(box.args()) == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert re.fullmatch(
        r"error: search index: pagefind: expected exit status 0 and pagefind/pagefind\.js, found status 3: "
        r"Error: could not index the site",
        lines[0],
    ), lines[0]
    assert "Traceback" not in out + err
    assert tree_digest(box.out) == before, "site/ was touched"
    assert box.inputs_digest() == inputs
    assert leftovers(box.root) == []


def test_an_unchanged_site_reuses_the_cached_index(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(box.args()) == 0
    first = capsys.readouterr().out
    assert re.search(r"^search .* index files for \d+ pages", first, re.M), first
    shutil.rmtree(box.out)  # else the build finds the site up to date and runs no phase at all
    assert main(box.args()) == 0
    second = capsys.readouterr().out
    assert "(unchanged pages: the cached index)" in second
    assert (box.out / "pagefind" / "pagefind.js").is_file()


def tiny_site(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(
        f'<!doctype html><html lang="en"><head><title>T</title></head><body><main><h1>T</h1><h2 id="a">A</h2>'
        f"<p>{text}</p></main></body></html>",
        encoding="utf-8",
    )
    return folder


def test_the_index_cache_is_keyed_by_the_pages_and_checked(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    out = tiny_site(tmp_path / "one", "photonic transit")
    assert search.build_index(out, cache)[1] is False
    again = tiny_site(tmp_path / "two", "photonic transit")
    assert search.build_index(again, cache)[1] is True
    assert sorted(p.name for p in (again / "pagefind").iterdir()) == sorted(
        p.name for p in (out / "pagefind").iterdir()
    )
    changed = tiny_site(tmp_path / "three", "photonic transit, changed")
    assert search.build_index(changed, cache)[1] is False
    (entry,) = [e for e in (cache / "search").iterdir() if search.pages_digest(again) == e.name]
    (entry / "pagefind" / "pagefind.js").write_text("tampered", encoding="utf-8")
    fresh = tiny_site(tmp_path / "four", "photonic transit")
    assert search.build_index(fresh, cache)[1] is False  # a changed cache entry is not trusted
    assert (fresh / "pagefind" / "pagefind.js").read_text(encoding="utf-8") != "tampered"
    for unused in search.UNUSED:
        assert not (fresh / "pagefind" / unused).exists()


def test_a_page_in_the_index_folder_is_refused(tmp_path: Path) -> None:
    out = tiny_site(tmp_path / "site", "x")
    (out / "pagefind").mkdir()
    with pytest.raises(search.BuildError, match=r"^search index: pagefind/: expected the folder free"):
        search.build_index(out, None)
