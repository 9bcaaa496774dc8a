"""A cache cannot change what the site says: its entries are data (never code), a poisoned figure fails the
build before the swap, ``--cache`` is held to the rules ``--out`` is, and a cache that cannot be written only
costs time (tried as an attacker with write access to the cache folder would)."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
from pathlib import Path

import pytest

from site_builder.cache.store import FORMAT, KEEP, ResultsCache
from site_builder.cli import main
from tests.build.test_bad_inputs import SHARED_CACHE, Sandbox, box, tree_digest

__all__ = ["box"]


def private_cache(box: Sandbox, tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of the shared cache for this case alone, a build into it, and the build's arguments. Entries another
    test's build is writing at the time (``.NAME.PID.tmp``, shared between pytest-xdist's workers) are not copied."""
    cache = tmp_path / "cache"
    shutil.copytree(SHARED_CACHE[0], cache, ignore=shutil.ignore_patterns(".*.tmp"))
    args = [*box.args()[:-2], "--cache", str(cache)]
    assert main(args) == 0
    return cache, args


def rewrite(entry: Path, body: bytes) -> None:
    """Replace an entry's payload and recompute its digest line, as anyone with write access can."""
    key = entry.read_bytes().partition(b"\n")[0].split()[-2].decode()  # FORMAT, the key, the payload's SHA-256
    entry.write_bytes(f"{FORMAT} {key} {hashlib.sha256(body).hexdigest()}\n".encode() + body)


class Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def edit_home(box: Sandbox, words: str) -> None:
    box.content("content/index.md", lambda t: t + f"\n{words}\n")


def test_code_in_a_cache_entry_is_never_run(box: Sandbox, tmp_path: Path) -> None:
    cache, args = private_cache(box, tmp_path)
    marker = tmp_path / "ran"
    entries = sorted(cache.glob("basis.*")) + sorted(cache.glob("basis-pages.*"))
    entries += sorted(cache.glob("parse-*")) + sorted(cache.glob("sections-*"))
    assert entries
    for entry in entries:
        rewrite(entry, pickle.dumps(Payload(marker)))
    edit_home(box, "A reader's note.")
    assert main(args) == 0  # the entries are not what this code writes: recomputed
    assert not marker.exists()
    assert "A reader" in (box.out / "index.html").read_text("utf-8")


def test_a_poisoned_figure_in_the_basis_fails_before_the_swap(
    box: Sandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, args = private_cache(box, tmp_path)
    before = tree_digest(box.out)
    poisoned = 0
    for entry in cache.glob("basis.*"):
        doc = json.loads(entry.read_bytes().partition(b"\n")[2])
        doc["figures"]["exp.setting.params_m"][1] = "666"
        rewrite(entry, json.dumps(doc).encode())
        poisoned += 1
    assert poisoned
    edit_home(box, "Another note.")  # the home page shows exp.setting.params_m and is rendered again
    capsys.readouterr()
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert re.search(r"figure exp\.setting\.params_m shows '666': expected its cell .* to read it, found", err), err
    assert tree_digest(box.out) == before  # the old site stays


def test_a_poisoned_rendered_page_fails_before_the_swap(
    box: Sandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, args = private_cache(box, tmp_path)
    shutil.rmtree(box.out)  # nothing to carry over: every page comes from the page cache
    poisoned = 0
    for entry in cache.glob("page-home.*"):
        html, tables = json.loads(entry.read_bytes().partition(b"\n")[2])  # a page entry: [its HTML, its tables]
        html, n = re.subn(r'(data-fig="exp\.setting\.params_m"[^>]*>)[^<]*<', r"\g<1>666<", html)
        if n:
            rewrite(entry, json.dumps([html, tables]).encode())
            poisoned += 1
    assert poisoned
    capsys.readouterr()
    assert main(args) == 1
    assert "figure exp.setting.params_m shows '666'" in capsys.readouterr().err
    assert not box.out.exists()


def test_a_folder_of_user_files_is_refused_as_cache(
    box: Sandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("analysis.txt", "analysis.csv", "analysis.md", "basis.notes"):
        (mine / name).write_text("my work\n")
    before = tree_digest(mine)
    assert main([*box.args()[:-2], "--cache", str(mine)]) == 1
    err = capsys.readouterr().err.strip()
    assert re.fullmatch(
        r"error: --cache .*mine: expected an empty or absent folder, or this tool's cache \(it holds "
        r"\.site-builder-cache\), found a folder without \.site-builder-cache holding 4 entries \('analysis\.csv'…\)",
        err,
    ), err
    assert tree_digest(mine) == before


@pytest.mark.parametrize("where", ["content", "data", "out"])  # the output: refused by --out's own check
def test_an_input_or_the_output_is_refused_as_cache(
    where: str, box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = {"content": box.project / "content", "data": box.project / "data", "out": box.out}[where]
    before = box.inputs_digest()
    assert main([*box.args()[:-2], "--cache", str(folder)]) == 1
    assert re.search(r"error: --cache .*: expected an empty or absent folder", capsys.readouterr().err)
    assert box.inputs_digest() == before


def test_the_cache_deletes_only_its_own_entries(tmp_path: Path) -> None:
    cache = ResultsCache(tmp_path)
    keep = [tmp_path / "analysis.notes", tmp_path / "analysis.1234", tmp_path / ("analysis." + "0" * 31 + "g")]
    for p in keep:
        p.write_text("not an entry\n")
    keys = [hashlib.sha256(str(n).encode()).hexdigest() for n in range(KEEP + 3)]
    for k in keys:
        cache.write("analysis", k, "text")
    entries = sorted(p.name for p in tmp_path.glob("analysis.*") if p not in keep)
    assert len(entries) == KEEP  # the oldest entries pruned
    assert all(p.read_text() == "not an entry\n" for p in keep)


def test_a_cache_that_cannot_be_written_is_skipped_with_one_warning(
    box: Sandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert main([*box.args()[:-2], "--cache", str(blocker / "cache")]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.fullmatch(
        r"warning: --cache .*a-file/cache: cannot be written \(not a directory\); building without a cache", err[0]
    ), err


def test_every_entry_the_cache_holds_is_data(box: Sandbox, tmp_path: Path) -> None:
    """After a build that printed nothing but wrote every other kind of entry: one folder of files, each the marker,
    a JSON file, or an entry (its digest line, then text, JSON or a PDF), none a format that is run when read (a
    pickle, a marshalled code object such as Jinja's bytecode cache)."""
    from site_builder.cache.folder import MARKER

    cache, _ = private_cache(box, tmp_path)
    edit_home(box, "A reader's note.")
    assert main([*box.args()[:-2], "--cache", str(cache)]) == 0
    kinds: set[str] = set()
    for path in sorted(cache.iterdir()):
        assert path.is_file(), f"{path.name}: a folder in the cache"
        raw = path.read_bytes()
        if path.name == MARKER:
            continue
        if path.suffix == ".json":
            json.loads(raw)
            continue
        head, _, body = raw.partition(b"\n")
        assert head.startswith(FORMAT.encode() + b" "), path.name
        assert not body.startswith(b"\x80"), f"{path.name}: a pickle"  # every pickle protocol 2+ starts so
        kinds.add(path.name.split(".", 1)[0].split("-", 1)[0])
        if body.startswith(b"%PDF-"):
            continue
        text = body.decode("utf-8")  # every other entry is text: JSON (one document, or lines of it) or a word
        assert (
            _json(text)
            or all(_json(line) for line in text.splitlines())
            or re.fullmatch(r"[0-9a-f]{64}|\d+|Chromium [^\n]*", text)
        ), f"{path.name}: {text[:60]!r}"
    assert {"analysis", "basis", "page", "reads", "record", "links", "linkids", "linkcheck"} <= kinds, kinds


def _json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
