"""The search phase: the site's own index, written into the temporary output before the swap (a failure is one
line and leaves site/ untouched), each page's extraction cached by its HTML (an unchanged page is not read again,
a damaged record is read again, never trusted), the same bytes from the cache or not, in any process."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder import search
from site_builder.cache.overlay import Overlay
from site_builder.cli import main
from site_builder.phases import scan as page_scan
from site_builder.search import records
from site_builder.search.extract import extract
from tests.build.test_bad_inputs import Sandbox, box, built_site, leftovers, tree_digest
from tests.conftest import PROJECT
from tests.search_index import read_index

__all__ = ["box", "built_site"]  # the fixtures: a sandbox holding a copy of one good build, and that build

PHASE = re.compile(r"^search .* (\d+) index files for (\d+) pages \((\d+) extracted, (\d+) from the cache\)$", re.M)


def phase(log: str) -> tuple[int, int, int, int]:
    m = PHASE.search(log)
    assert m, log
    files, pages, extracted, cached = map(int, m.groups())
    return files, pages, extracted, cached


def test_a_failing_search_phase_is_one_line_and_leaves_the_site(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = search.page_files

    def with_a_damaged_page(out: Overlay) -> list[tuple[str, str]]:
        found = real(out)
        page = out.path(dict(found)["/cit/optics/"])
        page.write_bytes(page.read_bytes() + b"\xff")  # not UTF-8 any more: its record cannot be in the cache
        return found

    monkeypatch.setattr(search, "page_files", with_a_damaged_page)
    monkeypatch.setattr(page_scan, "prefill", lambda *_: 0)  # the phase reads the page itself
    before = tree_digest(box.out)
    box.content("content/cit/optics.md", lambda t: t + "\nA sentence so that the site is not up to date.\n")
    inputs = box.inputs_digest()
    capsys.readouterr()
    assert main(box.args()) == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert re.fullmatch(
        r"error: search index: cit/optics/index\.html: expected UTF-8 HTML, found byte 0xff at offset \d+", lines[0]
    ), lines[0]
    assert "Traceback" not in out + err
    assert tree_digest(box.out) == before, "site/ was touched"
    assert box.inputs_digest() == inputs
    assert leftovers(box.root) == []


def test_an_unreadable_page_is_one_line(tmp_path: Path) -> None:
    out = tiny_site(tmp_path / "site", "photonic transit")
    (out / "gone").mkdir()
    (out / "gone" / "index.html").symlink_to(tmp_path / "nowhere.html")
    with pytest.raises(search.BuildError) as e:
        search.build_index(out, None)
    assert str(e.value) == "search index: gone/index.html: expected a readable page, found No such file or directory"


def test_a_build_reads_only_the_pages_that_changed(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    box.content("content/cit/optics.md", lambda t: t + "\nA sentence about a zeugma, added for the search phase.\n")
    assert main(box.args()) == 0
    files, pages, extracted, cached = phase(capsys.readouterr().out)
    assert (extracted, cached) == (1, pages - 1)
    index = read_index(box.out / "search")
    term_files = len(list((box.out / "search" / "terms").iterdir()))
    assert files == 1 + term_files + pages  # index.json, the term files and one fragment per page
    (optics,) = [p for p in index["pages"] if p[0] == "/cit/optics/"]
    fragment = json.loads((box.out / "search" / "fragments" / f"{optics[3]}.json").read_bytes())
    assert fragment["words"].endswith("A sentence about a zeugma, added for the search phase.")
    postings = dict(zip(index["terms"], index["postings"], strict=True))
    assert postings["zeugma"][::2] == [index["pages"].index(optics)]


def tiny_site(folder: Path, text: str, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(
        f'<!doctype html><html lang="en"><head><title>T · Site</title></head><body>'
        f'<header class="site-header"><a href="./">Site</a><nav><a href="a/">Nav words</a></nav></header>'
        f'<main id="main"><h1>Tiny</h1><h2 id="a">Section A</h2><p>{text}</p>{extra}</main>'
        f"<footer><p>Footer words</p></footer><script>var scripted = 1;</script></body></html>",
        encoding="utf-8",
    )
    (folder / "a").mkdir(exist_ok=True)
    (folder / "a" / "index.html").write_text(
        "<!doctype html><html><head><title>Second page</title></head><body><p>Photonic links, trained.</p></body></html>",
        encoding="utf-8",
    )
    (folder / "404.html").write_text("<html><body><main><h1>Not found</h1></main></body></html>", encoding="utf-8")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def built(site: Path, cache: Path | None) -> int:
    """The index of ``site`` built: how many pages' records came from the cache (the files it counts, counted)."""
    files, cached = search.build_index(site, cache)
    assert files == len(files_of(site / "search"))
    return cached


def test_an_unchanged_page_reuses_its_record_and_gives_the_same_bytes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    one = tiny_site(tmp_path / "one", "photonic transit")
    assert built(one, cache) == 0
    two = tiny_site(tmp_path / "two", "photonic transit")
    assert built(two, cache) == 2
    assert files_of(two / "search") == files_of(one / "search")
    changed = tiny_site(tmp_path / "three", "photonic transit, changed")
    assert built(changed, cache) == 1  # the second page's record is reused
    uncached = tiny_site(tmp_path / "four", "photonic transit, changed")
    assert built(uncached, None) == 0
    assert files_of(uncached / "search") == files_of(changed / "search")


@pytest.mark.parametrize("damage", ["truncated", "a count changed", "the digest line", "the summary not JSON"])
def test_a_damaged_record_is_extracted_again(tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    one = tiny_site(tmp_path / "one", "photonic transit")
    search.build_index(one, cache)
    entries = sorted(cache.glob("record-*"))
    assert len(entries) == 2
    for entry in entries:
        data = entry.read_bytes()
        if damage == "truncated":
            data = data[: len(data) // 2]
        elif damage == "a count changed":
            data = data.replace(b'"photonic":1', b'"photonic":9')
            assert b'"photonic":9' in data
        elif damage == "the digest line":
            data = data.replace(data.split(b"\n", 1)[0][-64:], b"0" * 64, 1)
        else:  # its digest line recomputed, as anyone with write access can
            head, body = data.split(b"\n", 1)
            fragment, _ = body.split(b"\n", 1)
            body = fragment + b"\n{not JSON"
            data = head[:-64] + records.hashlib.sha256(body).hexdigest().encode() + b"\n" + body
        entry.write_bytes(data)
    two = tiny_site(tmp_path / "two", "photonic transit")
    assert built(two, cache) == 0  # nothing trusted
    assert files_of(two / "search") == files_of(one / "search")
    assert all(records.decode(e.read_bytes().split(b"\n", 1)[1]) is not None for e in entries)  # written again


def test_the_record_digest_covers_the_extraction_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    search.build_index(tiny_site(tmp_path / "one", "photonic"), cache)
    monkeypatch.setattr(search, "code_key", lambda: "another extractor")
    assert search.build_index(tiny_site(tmp_path / "two", "photonic"), cache)[1] == 0


def test_the_record_key_covers_every_module_the_extraction_imports() -> None:
    from site_builder.cache.store import source_files

    here = Path(records.__file__).resolve().parent
    covered = {p.resolve() for p in source_files(records.CODE[0])} | {
        p.resolve() for name in records.CODE for p in source_files(name)
    }
    for name in records.CODE:
        path = here / (name.rsplit(".", 1)[1] + ".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("site_builder"):
                found = [node.module]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names if a.name.startswith("site_builder")]
            for module in found:
                file = here.parent.parent / (module.replace(".", "/") + ".py")
                assert file.resolve() in covered, f"{path.name} imports {module}, which its key does not cover"


def test_a_page_in_the_index_folder_is_refused(tmp_path: Path) -> None:
    out = tiny_site(tmp_path / "site", "x")
    (out / "search").mkdir()
    with pytest.raises(search.BuildError, match=r"^search index: search/: expected the folder free for the index"):
        search.build_index(out, None)


def test_a_content_page_at_the_index_url_is_refused(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    box.write("content/search.md", b"---\ntitle: Search\n---\n\nA page where the index goes.\n")
    capsys.readouterr()
    assert main(box.args()) == 1
    err = capsys.readouterr().err.strip()
    assert re.fullmatch(
        r"error: content/search\.md: page /search/: expected one source per URL, found the search index \(search/\) too",
        err,
    ), err


def test_what_a_page_gives_the_index() -> None:
    html = (
        '<html><head><title>Fallback</title></head><body><a class="skip-link" href="#main">Skip</a>'
        '<header class="site-header"><nav>Menu</nav></header><main id="main">'
        '<h1>The <em>page</em></h1><section id="s1"><h2 id="h">Loss <code>curves</code></h2>'
        '<table><tr id="row"><td>B DeMo</td><td><a class="fig" data-fig="exp.final.B" href="#">1.785</a></td></tr>'
        "</table><p>Trainers x<sup>2</sup> &amp; more</p>"
        '<p class="chart-loading" data-search-ignore>Loading the chart…</p><script>var x;</script>'
        "<footer>Footer</footer></section></main><footer>Site footer</footer></body></html>"
    )
    page = extract(html)
    assert page.title == "The page"
    assert " ".join(page.words) == "The page. Loss curves. B DeMo. exp.final.B. 1.785. Trainers x2 & more."
    anchors = [(a.id, a.element, a.location, a.text) for a in page.anchors]
    assert anchors == [
        ("main", "main", 0, ""),
        ("s1", "section", 2, ""),
        ("h", "h2", 2, "Loss curves"),
        ("row", "tr", 4, ""),
    ]
    assert page.counts["exp.final.b"] == 1 and page.counts["trainer"] == 1
    assert page.counts["pag"] == 5 and page.counts["curv"] == 3  # words in headings weigh more
    assert not {"skip", "menu", "footer", "loading", "var"} & set(page.counts)
    assert extract("<p>No main here</p>").words == ["No", "main", "here."]


def index_bytes_in_a_process(folder: Path, seed: str) -> bytes:
    code = (
        "import sys; from pathlib import Path; from site_builder import search; "
        "search.build_index(Path(sys.argv[1]), None); folder = Path(sys.argv[1]) / 'search'; "
        "sys.stdout.buffer.write(b''.join(f.relative_to(folder).as_posix().encode() + b'\\0' + f.read_bytes() + b'\\0' "
        "for f in sorted(folder.rglob('*.json'))))"
    )
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-c", code, str(folder)], cwd=PROJECT, env=env, capture_output=True, check=True
    ).stdout


def test_the_index_is_the_same_in_any_process(tmp_path: Path) -> None:
    text = "Photonic transit, trained; all-reduce against all-gather (wire bytes) at 3.686 and 31,666,944 bytes"
    one = index_bytes_in_a_process(tiny_site(tmp_path / "one", text), "1")
    two = index_bytes_in_a_process(tiny_site(tmp_path / "two", text), "2")
    assert one == two and b'index.json\0{"format":4,' in one


def several_pages(folder: Path, n: int) -> Path:
    tiny_site(folder, "photonic transit")
    for i in range(n):
        (folder / f"p{i}").mkdir()
        body = " ".join(f"word{i}x{j} trained" for j in range(40 * (i + 1)))
        (folder / f"p{i}" / "index.html").write_text(f"<main><h1>Page {i}</h1><p>{body}</p></main>", encoding="utf-8")
    return folder


def test_pages_read_in_a_forked_process_give_the_same_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # in a process of its own: this one may run threads (the browser tests'), and then it does not fork
    code = (
        "import sys; from pathlib import Path; from site_builder import processes, search; real = processes.Beside; "
        "forks = []; processes.Beside = lambda fn: forks.append(1) or real(fn); "
        "print(len(forks) if search.build_index(Path(sys.argv[1]), None)[1] == 0 else 'wrong counts', end='')"
    )
    forked = several_pages(tmp_path / "forked", 6)
    env = {k: v for k, v in os.environ.items() if k != "SITE_BUILDER_JOBS"}
    ran = subprocess.run(
        [sys.executable, "-c", code, str(forked)], cwd=PROJECT, env=env, capture_output=True, text=True
    )
    assert ran.stdout == "1", ran.stdout + ran.stderr  # one forked process read about half the pages
    monkeypatch.setenv("SITE_BUILDER_JOBS", "1")
    alone = several_pages(tmp_path / "alone", 6)
    search.build_index(alone, None)
    assert files_of(alone / "search") == files_of(forked / "search")


def test_a_page_failing_in_the_forked_process_is_one_line(tmp_path: Path) -> None:
    out = several_pages(tmp_path / "site", 6)
    for i in range(6):  # whichever side each page falls on
        page = out / f"p{i}" / "index.html"
        page.write_bytes(page.read_bytes().replace(b"<h1>", b"<h1>\xfe"))
        with pytest.raises(search.BuildError) as e:
            search.build_index(out, None)
        assert re.fullmatch(
            rf"search index: p{i}/index\.html: expected UTF-8 HTML, found byte 0xfe at offset \d+", str(e.value)
        )
        page.write_bytes(page.read_bytes().replace(b"<h1>\xfe", b"<h1>"))
        assert not (out / "search").exists()


WORDS = ["photonic", "transit", "optics", "band", "fourier", "lens", "mask", "step", "trainer", "energy", "kernel"]


def word_site(folder: Path, texts: list[list[str]]) -> dict[str, str]:
    """A site of one page per text (the home page first); returns each page's SHA-256 by URL."""
    digests = {}
    for i, words in enumerate(texts):
        url = "" if i == 0 else f"p{i}/"
        page = folder / url / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        html = f"<html><head><title>Page {i}</title></head><body><main><h1>Page {i}</h1><p>{' '.join(words)}</p>"
        page.write_bytes(f"{html}</main></body></html>".encode())
        digests[url] = records.hashlib.sha256(page.read_bytes()).hexdigest()
    return digests


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=st.lists(st.lists(st.sampled_from(WORDS), max_size=8), min_size=2, max_size=6),
    edits=st.lists(st.tuples(st.integers(0, 5), st.lists(st.sampled_from([*WORDS, "novel"]), max_size=8)), max_size=3),
)
def test_an_index_updated_where_pages_changed_is_the_index_assembled_anew(
    tmp_path_factory: pytest.TempPathFactory, before: list[list[str]], edits: list[tuple[int, list[str]]]
) -> None:
    updated_is_assembled(tmp_path_factory.mktemp("update"), before, edits)


# words sharing first characters (a one-character term among them), for indexes whose characters split and join
SPLIT_WORDS = ["photonic", "phase", "pulse", "p", "transit", "trainer", "tensor", "t", "band", "beam", "optics"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=st.lists(st.lists(st.sampled_from(SPLIT_WORDS), max_size=8), min_size=4, max_size=6),
    edits=st.lists(st.tuples(st.integers(0, 5), st.lists(st.sampled_from(SPLIT_WORDS), max_size=8)), max_size=2),
    split_from=st.integers(2, 12),
)
def test_an_updated_index_splits_and_joins_a_characters_term_files_as_one_assembled_anew(
    tmp_path_factory: pytest.TempPathFactory,
    before: list[list[str]],
    edits: list[tuple[int, list[str]]],
    split_from: int,
) -> None:
    """With few postings allowed per character, edits cross the limit both ways: the updated index still has the
    files, names and counts a cold build gives."""
    real = search.SPLIT_FROM
    search.SPLIT_FROM = split_from
    try:
        updated_is_assembled(tmp_path_factory.mktemp("split"), before, edits)
    finally:
        search.SPLIT_FROM = real


def test_a_character_with_many_postings_has_a_term_file_per_two_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "SPLIT_FROM", 4)
    texts = [["sensor", "signal", "spectra", "s", "band"], ["sensor", "spectra", "transit"], ["signal", "beam"]]
    old_digests = word_site(tmp_path / "site", texts)
    search.build_index(tmp_path / "site", tmp_path / "cache", old_digests)
    index = json.loads((tmp_path / "site" / "search" / "index.json").read_bytes())
    # s: 7 postings, split (the one-character term in a file of its own); b: 2 and t: 1, whole
    assert [(k, n) for k, _, n in index["terms"] if k[0] in "bst"] == [
        ("b", 2), ("s", 1), ("se", 2), ("si", 2), ("sp", 2), ("t", 1)
    ]  # fmt: skip
    found = [t for t in read_index(tmp_path / "site" / "search")["terms"] if t[0] in "bst"]
    assert found == ["band", "beam", "s", "sensor", "signal", "spectra", "transit"]
    # a term file whose postings are not those index.json counts (edited in the output) is not built on: the
    # index is assembled anew
    se = next(name for key, name, _ in index["terms"] if key == "se")
    se_file = tmp_path / "site" / "search" / "terms" / f"{se}.json"
    se_file.write_bytes(se_file.read_bytes().replace(b"[[0,1,1,1]", b"[[0,1]"))
    previous = search.Previous(tmp_path / "site", search.code_key(), old_digests)
    after = [["band", "s"], *texts[1:]]
    fresh = tmp_path / "fresh"
    word_site(fresh, after)
    search.build_index(fresh, None)
    search.build_index(tmp_path / "edited", tmp_path / "cache", word_site(tmp_path / "edited", after), previous)
    assert files_of(tmp_path / "edited" / "search") == files_of(fresh / "search")
    se_file.write_bytes(se_file.read_bytes().replace(b"[[0,1]", b"[[0,1,1,1]"))
    # one page's edit takes s under the limit: its files are joined into one, as a cold build makes it
    shutil.rmtree(fresh)
    after = [["band"], *texts[1:]]
    digests = word_site(tmp_path / "new", after)
    assembled: list[int] = []
    real = search.Assembly
    monkeypatch.setattr(search, "Assembly", lambda: assembled.append(1) or real())
    search.build_index(tmp_path / "new", tmp_path / "cache", digests, previous)
    assert assembled == []  # updated, not assembled anew
    index = json.loads((tmp_path / "new" / "search" / "index.json").read_bytes())
    assert [(k, n) for k, _, n in index["terms"] if k[0] in "bst"] == [("b", 2), ("s", 3), ("t", 1)]
    word_site(tmp_path / "fresh", after)
    search.build_index(tmp_path / "fresh", None)
    assert files_of(tmp_path / "new" / "search") == files_of(tmp_path / "fresh" / "search")


def updated_is_assembled(root: Path, before: list[list[str]], edits: list[tuple[int, list[str]]]) -> None:
    """The index of the pages ``before``, updated where ``edits`` changed them, is the index of the pages after."""
    cache = root / "cache"
    old_digests = word_site(root / "old", before)
    search.build_index(root / "old", cache, old_digests)
    after = [list(words) for words in before]
    for i, words in edits:
        after[i % len(after)] = words
    new_digests = word_site(root / "new", after)
    previous = search.Previous(root / "old", search.code_key(), old_digests)
    assembled: list[int] = []
    real = search.Assembly

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            assembled.append(1)
            super().__init__()

    search.Assembly = Counted  # type: ignore[misc]
    try:
        files, _ = search.build_index(root / "new", cache, new_digests, previous)
    finally:
        search.Assembly = real  # type: ignore[misc]
    changed = sum(1 for url, d in new_digests.items() if old_digests[url] != d)
    assert assembled == ([] if changed * 2 <= len(after) else [1])  # updated, unless most pages changed
    word_site(root / "fresh", after)
    assert search.build_index(root / "fresh", None) == (files, 0)
    assert files_of(root / "new" / "search") == files_of(root / "fresh" / "search")


def test_an_update_reads_only_the_pages_that_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [["photonic", "transit"], ["optics"], ["band", "lens"], ["mask"]]
    old_digests = word_site(tmp_path / "old", texts)
    search.build_index(tmp_path / "old", tmp_path / "cache", old_digests)
    new_digests = word_site(tmp_path / "new", [*texts[:2], ["band", "kernel"], texts[3]])
    read: list[str] = []
    real = search.read_page
    monkeypatch.setattr(search, "read_page", lambda path, rel: read.append(path.parent.name) or real(path, rel))
    real_get = records.get
    got: list[str] = []
    monkeypatch.setattr(records, "get", lambda cache, url, key: got.append(key) or real_get(cache, url, key))
    previous = search.Previous(tmp_path / "old", search.code_key(), old_digests)
    files, cached = search.build_index(tmp_path / "new", tmp_path / "cache", new_digests, previous)
    assert cached == 3 and files == len(files_of(tmp_path / "new" / "search"))
    assert read == ["p2"] and len(got) == 2  # the changed page, and its old and new records

    def inodes(folder: str, sub: str) -> dict[str, int]:
        return {f.name: f.stat().st_ino for f in (tmp_path / folder / "search" / sub).iterdir()}

    old_fragments, new_fragments = inodes("old", "fragments"), inodes("new", "fragments")
    kept = old_fragments.keys() & new_fragments.keys()
    assert len(kept) == 3 and all(old_fragments[n] == new_fragments[n] for n in kept)  # linked, not written
    # the term files of the characters whose terms' counts did not change ("band" kept its count) are linked;
    # "lens" went and "kernel" came: their characters' files changed
    old_terms, new_terms = inodes("old", "terms"), inodes("new", "terms")
    changed = {"l", "k"}
    index = json.loads((tmp_path / "new" / "search" / "index.json").read_bytes())
    for character, name, _ in index["terms"]:
        assert (new_terms[f"{name}.json"] == old_terms.get(f"{name}.json")) is (character not in changed), character
    fresh = tmp_path / "fresh"
    word_site(fresh, [*texts[:2], ["band", "kernel"], texts[3]])
    search.build_index(fresh, None)
    assert files_of(tmp_path / "new" / "search") == files_of(fresh / "search")


def test_one_parse_gives_both_readers_what_each_reads_on_its_own(built_site: Path) -> None:
    from site_builder.render import links

    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text("utf-8")
        extraction, record = page_scan.scan(html)
        assert extraction == links.extract(html), page
        assert record == records.make_record(html), page


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(st.text(min_size=1, max_size=6), st.integers(min_value=1, max_value=2**40), max_size=8),
        max_size=6,
    )
)
def test_the_index_is_written_as_json_would_write_it(counts: list[dict[str, int]]) -> None:
    """The term files are written a posting list at a time from machine arrays: the bytes of dumping each whole."""
    assembly = search.Assembly()
    whole: dict[str, list[int]] = {}
    for i, c in enumerate(counts):
        fragment = records.dumps({"anchors": [], "title": f"page {i}", "words": ""})
        rec = records.Record(fragment, records.fragment_name(fragment), f"page {i}", i, c)
        assembly.add(f"/p{i}/", rec)
        for term, n in c.items():
            whole.setdefault(term, []).extend((i, n))
    files = assembly.files()
    names: dict[str, str] = {}
    counts_of: dict[str, int] = {}
    for character in sorted({t[0] for t in whole}):
        terms = sorted(t for t in whole if t[0] == character)
        data = records.dumps({"postings": [whole[t] for t in terms], "terms": terms})
        names[character] = records.fragment_name(data)
        counts_of[character] = sum(len(whole[t]) for t in terms) // 2
        assert files.terms[names[character]] == data
    assert len(files.terms) == len(names)
    terms = [[c, names[c], counts_of[c]] for c in sorted(names)]
    assert files.index == records.dumps({"format": search.FORMAT, "pages": assembly.pages, "terms": terms})
