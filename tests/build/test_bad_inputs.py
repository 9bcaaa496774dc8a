"""Broken inputs: each stops the build with one clear line, a non-zero exit, and an untouched site/.

Every case also checks that nothing outside the output folder was written (the inputs are byte for
byte as the case left them) and that no temporary folder is left next to the output.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.cli import main
from site_builder.outdir import MARKER
from tests.conftest import PROJECT, REFERENCE, VENDOR

RESULTS_JSON = "demo-fixed-band/tinystories-gpu/results.json"
RESULTS_MD = "demo-fixed-band/tinystories-gpu/results.md"
PREVIOUS_JSON = "demo-fixed-band/tinystories-gpu/results.05a68ae.json"
PREVIOUS_MD = "demo-fixed-band/tinystories-gpu/results.05a68ae.md"
CURVE = "demo-fixed-band/curves/tinystories-adamw-lr0.003-s1.jsonl"
INVESTIGATION = "demo-fixed-band/docs/optics_investigation.md"


SHARED_CACHE: list[Path] = []  # one results cache for every sandbox: its keys cover what a case breaks


class Sandbox:
    """A copy of the project and its inputs that a case may break."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "project"
        self.vendor = root / "vendor"
        self.reference = root / "reference"
        self.out = root / "site"
        for name in ("data", "content", "templates"):
            shutil.copytree(PROJECT / name, self.project / name)
        for rel in (RESULTS_JSON, RESULTS_MD, PREVIOUS_JSON, PREVIOUS_MD, INVESTIGATION):
            (self.vendor / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(VENDOR / rel, self.vendor / rel)
        shutil.copytree(VENDOR / "demo-fixed-band" / "curves", self.vendor / "demo-fixed-band" / "curves")
        shutil.copytree(REFERENCE, self.reference)

    def args(self, command: str = "build", out: Path | str | None = None) -> list[str]:
        a = [command, "--project", str(self.project), "--vendor", str(self.vendor), "--reference", str(self.reference)]
        if command != "build":
            return a
        cache = ["--cache", str(SHARED_CACHE[0])] if SHARED_CACHE else []
        return [*a, "--out", str(self.out if out is None else out), *cache]

    def repin(self) -> None:
        assert main(self.args("pin")) == 0

    def edit(self, rel: str, change: Callable[[str], str], root: Path | None = None, repin: bool = True) -> None:
        path = (root or self.vendor) / rel
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
        if repin:
            self.repin()

    def content(self, rel: str, change: Callable[[str], str]) -> None:
        """Edit a file of the project (content/, templates/, data/); no pins change."""
        self.edit(rel, change, root=self.project, repin=False)

    def write(self, rel: str, data: bytes, root: Path | None = None) -> Path:
        path = (root or self.project) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def inputs_digest(self) -> str:
        """Everything in the sandbox but the output folder: the build must write nothing there."""
        return tree_digest(self.root, skip=self.out)


def tree_digest(folder: Path, skip: Path | None = None) -> str:
    """Names of everything under ``folder`` (``skip`` left out), each link's target, and each file's size,
    modification time and inode: writing a file changes its time, replacing it its inode, so two digests of the
    same tree differ when anything in it was written, replaced, added or removed. (The files' bytes are not read:
    that was a quarter of the bad-input matrix's time.)"""
    h = hashlib.sha256()
    if not folder.is_dir():  # a file (or nothing) where a folder was asked for: that file
        st = folder.lstat() if os.path.lexists(folder) else None
        h.update(f"{st.st_size} {st.st_mtime_ns} {st.st_ino}".encode() if st else b"absent")
        return h.hexdigest()
    todo = [folder]
    entries: list[tuple[str, bytes]] = []
    while todo:
        with os.scandir(todo.pop()) as it:
            for e in it:
                path = Path(e.path)
                if skip is not None and path == skip:
                    continue
                st = e.stat(follow_symlinks=False)
                if e.is_symlink():
                    what = b"-> " + os.readlink(path).encode()
                elif e.is_dir(follow_symlinks=False):
                    what = b"dir"
                    todo.append(path)
                elif e.is_file(follow_symlinks=False):
                    what = f"{st.st_size} {st.st_mtime_ns} {st.st_ino}".encode()
                else:
                    what = b"other"
                entries.append((path.relative_to(folder).as_posix(), what))
    for name, what in sorted(entries):
        h.update(name.encode() + b"\0" + what + b"\n")
    return h.hexdigest()


def test_tree_digest_sees_every_kind_of_write(tmp_path: Path) -> None:
    """The digest the cases compare: same bytes written again, a file replaced by a copy, a new empty file, a new
    folder and a changed link each change it; reading does not."""
    (tmp_path / "a").mkdir()
    f = tmp_path / "a" / "f.txt"
    f.write_text("same\n")
    (tmp_path / "l").symlink_to("a")
    d = tree_digest(tmp_path)
    f.read_bytes()
    assert tree_digest(tmp_path) == d
    seen = {d}
    for change in (
        lambda: (time.sleep(0.01), f.write_text("same\n")),
        lambda: (shutil.copy2(f, tmp_path / "g"), os.replace(tmp_path / "g", f)),
        lambda: (tmp_path / "a" / "new").touch(),
        lambda: (tmp_path / "b").mkdir(),
        lambda: ((tmp_path / "l").unlink(), (tmp_path / "l").symlink_to("b")),
    ):
        change()
        now = tree_digest(tmp_path)
        assert now not in seen
        seen.add(now)


def leftovers(folder: Path) -> list[str]:
    """Temporary folders of the build (``.site.tmp-*``, ``.site.old-*``) left in ``folder``."""
    return [p.name for p in folder.iterdir() if p.name.startswith(".site.")]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """One good build for the whole session; its results cache is shared by every sandbox of this process.

    Under pytest-xdist the first worker to get here makes the build (it prints the decks' PDFs and computes every
    model) into the run's shared folder while the others wait on a lock; then each worker, that one included, takes
    a copy of the sandbox and of its cache, which its cases write into: a copy costs a fraction of the build."""
    if worker_id == "master":  # one process: its own build
        if not SHARED_CACHE:
            SHARED_CACHE[:] = [tmp_path_factory.mktemp("cache")]
        box = Sandbox(tmp_path_factory.mktemp("good"))
        assert main(box.args()) == 0
        return box.out
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, above every worker's own
    good, cache, done = shared / "build-good", shared / "build-cache", shared / "build-good.done"
    with open(shared / "build-good.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                SHARED_CACHE[:] = [cache]
                assert main(Sandbox(good).args()) == 0
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    mine = tmp_path_factory.mktemp("good")
    shutil.copytree(good, mine, dirs_exist_ok=True, copy_function=shutil.copy2, symlinks=True)
    SHARED_CACHE[:] = [tmp_path_factory.mktemp("cache")]
    shutil.copytree(cache, SHARED_CACHE[0], dirs_exist_ok=True, copy_function=shutil.copy2)
    return mine / "site"


@pytest.fixture
def box(tmp_path: Path, built_site: Path) -> Sandbox:
    b = Sandbox(tmp_path)
    shutil.copytree(built_site, b.out, copy_function=shutil.copy2)
    return b


def json_edit(fn: Callable[[dict], None]) -> Callable[[str], str]:
    def change(text: str) -> str:
        doc = json.loads(text)
        fn(doc)
        return json.dumps(doc)

    return change


def first_row(key: str, value: object) -> Callable[[dict], None]:
    def fn(doc: dict) -> None:
        doc["rows"][0][key] = value

    return fn


def drop_key(doc: dict) -> None:
    del doc["rows"][2]["final_val"]


def swap_eval_lines(text: str) -> str:
    lines = text.splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    return "\n".join(lines) + "\n"


def wrong_seed(text: str) -> str:
    return text.replace('"seed": 1,', '"seed": 7,', 1)


Breaker = Callable[["Sandbox"], "list[str] | None"]

CASES: dict[str, tuple[Breaker, str]] = {
    "truncated JSON": (
        lambda b: b.edit(RESULTS_JSON, lambda t: t[: len(t) // 2]),
        r"results\.json: line \d+ column \d+: expected valid JSON, found ",
    ),
    "missing key": (
        lambda b: b.edit(RESULTS_JSON, json_edit(drop_key)),
        r"results\.json: rows\[2\]\.final_val: expected a required key, found it is missing",
    ),
    "wrong type": (
        lambda b: b.edit(RESULTS_JSON, json_edit(first_row("seeds", "3"))),
        r"results\.json: rows\[0\]\.seeds: expected an integer ≥ 1, found str '3'",
    ),
    "NaN": (
        lambda b: b.edit(RESULTS_JSON, lambda t: t.replace('"final_val": 1.645527184009552', '"final_val": NaN', 1)),
        r"results\.json: line \d+ column \d+: expected a finite number, found NaN",
    ),
    "pin mismatch": (
        lambda b: b.edit(RESULTS_MD, lambda t: t + "\n", repin=False),
        r"results\.md: sha256 pinned in data/sources\.yaml: expected [0-9a-f]{16}…, found [0-9a-f]{16}… \(file changed\)",
    ),
    "curve steps out of order": (
        lambda b: b.edit(CURVE, swap_eval_lines),
        r"tinystories-adamw-lr0\.003-s1\.jsonl: line 4\.step: expected a step after 600 \(steps in order\), found int 400",
    ),
    "run name does not match its config": (
        lambda b: b.edit(CURVE, wrong_seed),
        r"s1\.jsonl: line 1\.config\.seed: expected 1 \(the seed in the run name\), found int 7",
    ),
    "missing curve": (
        lambda b: ((b.vendor / CURVE).unlink(), b.repin()) and None,
        r"results\.json: rows\[0\]\.seeds: expected 2 \(run curves found\), found int 3",
    ),
    "missing vendor folder": (
        lambda b: shutil.rmtree(b.vendor),
        r"vendor: vendor: expected the vendor folder \(set it with --vendor\), found no such folder",
    ),
    "malformed pin": (
        lambda b: b.edit("data/sources.yaml", lambda t: t.replace(": ", ": x", 1), root=b.project, repin=False),
        r"sources\.yaml: reference\.presets\.yaml: expected a 64-digit lowercase hex SHA-256, found str",
    ),
    "results cell disagrees with the model": (
        lambda b: b.edit(RESULTS_MD, lambda t: t.replace("| 1.646 ± 0.005 |", "| 1.646 ± 0.006 |", 1)),
        r"figure exp\.final\.A: vendor/.*results\.md § 1\. Loss against communication › A  AdamW, all-reduce › "
        r"Final val loss \(mean ± sd\): the model gives '1\.646 ± 0\.005', the cell reads '1\.646 ± 0\.006'",
    ),
    "committed results drifted": (
        lambda b: b.edit(
            "data/experiment/results.md", lambda t: t.replace("| 2,667 |", "| 2,666 |", 1), root=b.project, repin=False
        ),
        r"data/experiment/results\.md: line \d+: expected what the model writes now \(run `make results`\), found",
    ),
    "unknown figure key": (
        lambda b: b.edit(
            "content/cit/index.md",
            lambda t: t + "\nA bad reference :fig[exp.no.such.key].\n",
            root=b.project,
            repin=False,
        ),
        r"content/cit/index\.md: line \d+: expected a registered figure key; list them with python -m site_builder "
        r"figures \[PATTERN\], found 'exp\.no\.such\.key'",
    ),
    "front matter without a title": (
        lambda b: b.edit("content/index.md", lambda t: t.replace("title:", "titel:", 1), root=b.project, repin=False),
        r"content/index\.md: front matter\.titel: expected one of the keys of a home: .* \(did you mean title\?\), "
        r"found 'titel'",
    ),
    "template error": (
        lambda b: b.edit(
            "templates/page.html", lambda t: t.replace("{% endblock %}", "{% endblok %}"), root=b.project, repin=False
        ),
        r"templates/page\.html: line \d+: expected valid Jinja, found ",
    ),
    "broken internal link": (
        lambda b: b.edit("content/index.md", lambda t: t + "\n[gone](/no/such/page/)\n", root=b.project, repin=False),
        r"content/index\.md \(page /\): link 'no/such/page/': expected a page or file of the site, found none",
    ),
    "broken anchor": (
        lambda b: b.edit(
            "content/index.md", lambda t: t + "\n[gone](/cit/#no-such-section)\n", root=b.project, repin=False
        ),
        r"content/index\.md \(page /\): link 'cit/#no-such-section': expected an element with id 'no-such-section', found none",
    ),
}


# ------------------------------------------------------------------------------------- issue 8 cases


def append(text: str) -> Callable[[str], str]:
    return lambda t: t + text


def in_page_template(html: str) -> Callable[[str], str]:
    return lambda t: t.replace("{{ body }}", "{{ body }}\n" + html, 1)


def front_matter(extra: str) -> Callable[[str], str]:
    """Lines added at the top of the front matter of a content file."""
    return lambda t: t.replace("---\n", "---\n" + extra, 1)


def curve_line(n: int, key: str, value: object) -> Callable[[str], str]:
    def change(text: str) -> str:
        lines = text.splitlines()
        rec = json.loads(lines[n - 1])
        rec[key] = value
        lines[n - 1] = json.dumps(rec)
        return "\n".join(lines) + "\n"

    return change


def drop_pin(rel: str) -> Callable[[str], str]:
    return lambda t: "".join(line for line in t.splitlines(keepends=True) if not line.strip().startswith(rel + ":"))


def add_pin(root: str, rel: str) -> Callable[[str], str]:
    return lambda t: t.replace(f"{root}:\n", f"{root}:\n  {rel}: {'0' * 64}\n", 1)


def drop_section(root: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        out, skipping = [], False
        for line in text.splitlines(keepends=True):
            if not line.startswith(" "):
                skipping = line.startswith(f"{root}:")
            if not skipping:
                out.append(line)
        return "".join(out)

    return change


def link_out_of_root(b: Sandbox) -> None:
    """reference/presets.yaml becomes a link to an identical file outside the reference folder."""
    outside = b.root / "elsewhere" / "presets.yaml"
    outside.parent.mkdir()
    shutil.copyfile(b.reference / "presets.yaml", outside)
    (b.reference / "presets.yaml").unlink()
    (b.reference / "presets.yaml").symlink_to(outside)


def unpinned_curve(b: Sandbox) -> None:
    shutil.copyfile(b.vendor / CURVE, b.vendor / CURVE.replace("-s1.jsonl", "-s9.jsonl"))


def deep_json(text: str) -> str:
    doc = json.loads(text)
    doc["energy"]["deep"] = json.loads("[" * 100 + "]" * 100)
    return json.dumps(doc)


def fifo(b: Sandbox) -> None:
    os.mkfifo(b.project / "content" / "pipe.md")


def dangling(b: Sandbox) -> None:
    (b.project / "content" / "gone.md").symlink_to(b.root / "no-such-file.md")


ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("bcdefgh", "cdefghi", strict=True)
)
LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% for k in range(100000) %}{% endfor %}{% endfor %}{% endfor %}"
NOT_A_URL = "expected names of letters, digits, '.', '_' and '-'"
NO_HTML = r"expected Markdown without raw HTML \(figures, charts, containers and :value\[…\] have rules of their own\)"
SAFE = r"expected a link with no scheme \(relative, /site-root, #anchor\) or http, https, mailto"
PIN_HINT = (
    r"expected a file pinned in data/sources\.yaml \(check it, then run `python -m site_builder pin`\), found no pin"
)

CASES.update(
    {
        # raw HTML and unsafe URLs in content; what the link check reads from the parsed HTML
        "raw HTML span in content": (
            lambda b: b.content("content/index.md", append("\nThe answer is <span>no</span>.\n")),
            rf"content/index\.md: line \d+: {NO_HTML}, found '<span>'",
        ),
        "script block in content": (
            lambda b: b.content("content/index.md", append("\n<script>alert(1)</script>\n")),
            rf"content/index\.md: line \d+: {NO_HTML}, found '<script>alert\(1\)</script>'",
        ),
        "img onerror in content": (
            lambda b: b.content("content/cit/index.md", append("\nSee <img src=x onerror=alert(1)> here.\n")),
            rf"content/cit/index\.md: line \d+: {NO_HTML}, found '<img src=x onerror=alert\(1\)>'",
        ),
        "javascript: link in content": (
            lambda b: b.content("content/index.md", append("\n[click](javascript:alert(1))\n")),
            rf"content/index\.md: line \d+: {SAFE}, found 'javascript:alert\(1\)'",
        ),
        "entity-escaped javascript: link in content": (
            lambda b: b.content("content/index.md", append("\n[click](&#106;avascript:alert(1))\n")),
            rf"content/index\.md: line \d+: {SAFE}, found 'javascript:alert\(1\)'",
        ),
        "data: image in content": (
            lambda b: b.content("content/index.md", append("\n![dot](data:image/png;base64,iVBORw0KGgo=)\n")),
            rf"content/index\.md: line \d+: {SAFE}, found 'data:image/png;base64,iVBORw0KGgo='",
        ),
        "single-quoted external src in a template": (
            lambda b: b.content(
                "templates/page.html", in_page_template("<img src='https://example.com/x.png' alt=''>")
            ),
            r"content/cit/index\.md \(page /cit/\): src='https://example\.com/x\.png': expected a local resource, "
            r"found an external one",
        ),
        "unquoted broken link in a template": (
            lambda b: b.content("templates/page.html", in_page_template("<a href=no/such/page/>gone</a>")),
            r"content/cit/index\.md \(page /cit/\): link 'no/such/page/': expected a page or file of the site, found none",
        ),
        "external stylesheet in a template": (
            lambda b: b.content(
                "templates/base.html",
                lambda t: t.replace("</head>", "<link rel=stylesheet href=//cdn.example.com/x.css>\n</head>"),
            ),
            r"\(page /[^)]*\): href='//cdn\.example\.com/x\.css': expected a local resource, found an external one",
        ),
        "inline script in a template": (
            lambda b: b.content("templates/page.html", in_page_template("<script>alert(1)</script>")),
            r"content/cit/index\.md \(page /cit/\): <script>: expected a script from a file \(the CSP forbids inline "
            r"ones; JSON data is fine\), found inline code",
        ),
        "inline event handler in a template": (
            lambda b: b.content("templates/page.html", in_page_template('<p onclick="go()">x</p>')),
            r"\(page /cit/\): <p>: expected no inline event handler \(the CSP forbids it\), found onclick=…",
        ),
        "javascript: href in a template": (
            lambda b: b.content("templates/page.html", in_page_template("<a href='JavaScript:alert(1)'>x</a>")),
            r"\(page /cit/\): href='JavaScript:alert\(1\)': expected a link by http, https or mailto, "
            r"found the scheme 'javascript'",
        ),
        # every input pinned, every pin inside its root
        "unpinned curve": (
            unpinned_curve,
            rf"curves/tinystories-adamw-lr0\.003-s9\.jsonl: data/sources\.yaml vendor: {PIN_HINT}",
        ),
        "pin missing for a curve the build reads": (
            lambda b: b.content("data/sources.yaml", drop_pin(CURVE)),
            rf"curves/tinystories-adamw-lr0\.003-s1\.jsonl: data/sources\.yaml vendor: {PIN_HINT}",
        ),
        "pin missing for the presets": (
            lambda b: b.content("data/sources.yaml", lambda t: t.replace("reference:\n", "reference:\n  x.yaml: 0\n")),
            r"data/sources\.yaml: reference\.x\.yaml: expected a 64-digit lowercase hex SHA-256, found int 0",
        ),
        "pin path with ..": (
            lambda b: b.content("data/sources.yaml", add_pin("vendor", "../outside.json")),
            r"data/sources\.yaml: vendor\.\.\./outside\.json: expected a normalised path inside the vendor folder, "
            r"found '\.\./outside\.json'",
        ),
        "absolute pin path": (
            lambda b: b.content("data/sources.yaml", add_pin("reference", "/etc/passwd")),
            r"data/sources\.yaml: reference\./etc/passwd: expected a normalised path inside the reference folder",
        ),
        "pinned file is a link out of its root": (
            link_out_of_root,
            r"reference/presets\.yaml: data/sources\.yaml reference\.presets\.yaml: expected a file inside the "
            r"reference folder, found a link to .*/elsewhere/presets\.yaml",
        ),
        "sources.yaml without its vendor section": (
            lambda b: b.content("data/sources.yaml", drop_section("vendor")),
            r"data/sources\.yaml: vendor: expected a vendor section pinning every file the build reads there, found none",
        ),
        # bounded parsing, and one line for every failure to read
        "alias bomb in front matter": (
            lambda b: b.content("content/index.md", front_matter(ALIAS_BOMB)),
            r"content/index\.md: line 2: expected YAML without anchors or aliases, found an anchor '&a'",
        ),
        "alias bomb in a glossary entry": (
            lambda b: b.content("content/glossary/enob.md", front_matter(ALIAS_BOMB)),
            r"content/glossary/enob\.md: line 2: expected YAML without anchors or aliases, found an anchor '&a'",
        ),
        "raw HTML in a deck": (
            lambda b: b.content(
                "content/fopttrn/decks/01-transforms-in-training.md",
                append("\n<iframe src=https://example.com/></iframe>\n"),
            ),
            rf"content/fopttrn/decks/01-transforms-in-training\.md: line \d+: {NO_HTML}, "
            r"found '<iframe src=https://example\.com/></iframe>'",
        ),
        "impossible date in front matter": (
            lambda b: b.content("content/index.md", front_matter("date: 2024-02-30\n")),
            r"content/index\.md: line 2: expected a valid timestamp, found '2024-02-30' \(day is out of range for month\)",
        ),
        "repeated key in front matter": (
            lambda b: b.content("content/index.md", front_matter("title: One\n")),
            r"content/index\.md: line \d+: expected each key once in a mapping, found 'title' again",
        ),
        "content that is not UTF-8": (
            lambda b: b.write("content/latin1.md", "---\ntitle: Café\n---\n".encode("latin-1")) and None,
            r"content/latin1\.md: line 2 column 11: expected UTF-8 text, found byte 0xe9",
        ),
        "template that is not UTF-8": (
            lambda b: (
                b.write("templates/page.html", (PROJECT / "templates/page.html").read_bytes() + b"\xff\n") and None
            ),
            r"templates/page\.html: line \d+ column 1: expected UTF-8 text, found byte 0xff",
        ),
        "presets.yaml that is not UTF-8": (
            lambda b: (
                (
                    b.write("presets.yaml", b"# \xe9\n" + (REFERENCE / "presets.yaml").read_bytes(), b.reference),
                    b.repin(),
                )
                and None
            ),
            r"reference/presets\.yaml: line 1 column 3: expected UTF-8 text, found byte 0xe9",
        ),
        "committed results.md that is not UTF-8": (
            lambda b: (
                b.write("data/analysis/results.md", b"\x80" + (PROJECT / "data/analysis/results.md").read_bytes())
                and None
            ),
            r"data/analysis/results\.md: line 1 column 1: expected UTF-8 text, found byte 0x80",
        ),
        "vendored results.md that is not UTF-8": (
            lambda b: (
                (b.write(RESULTS_MD, (VENDOR / RESULTS_MD).read_bytes() + b"\n\xc3(\n", b.vendor), b.repin()) and None
            ),
            r"tinystories-gpu/results\.md: line \d+ column 1: expected UTF-8 text, found byte 0xc3",
        ),
        "deeply nested JSON": (
            lambda b: b.edit(RESULTS_JSON, deep_json),
            r"results\.json: line 1 column \d+: expected JSON nested at most 64 levels deep",
        ),
        "huge number in results.json": (
            lambda b: b.edit(RESULTS_JSON, lambda t: t.replace('"seeds": 3', '"seeds": 3' + "0" * 40, 1)),
            r"results\.json: line \d+ column \d+: expected an integer of at most 30 digits, found an integer of 41 digits",
        ),
        "content file that is a dangling link": (
            dangling,
            r"content/gone\.md: file: expected a readable file, found a dangling symbolic link",
        ),
        "content file that is a named pipe": (
            fifo,
            r"content/pipe\.md: file: expected a readable file, found a named pipe",
        ),
        "content file that is a folder": (
            lambda b: (b.project / "content" / "folder.md").mkdir() and None,
            r"content/folder\.md: file: expected a readable file, found a folder",
        ),
        "content file above the size limit": (
            lambda b: b.write("content/big.md", b"---\ntitle: Big\n---\n" + b"x" * (1 << 20)) and None,
            r"content/big\.md: file: expected at most 1048576 bytes, found 1048595 bytes",
        ),
        "content file name that is no URL": (
            lambda b: b.write("content/what now?.md", b"---\ntitle: Q\n---\n") and None,
            rf"content/what now\?\.md: file name: {NOT_A_URL}.*, found 'what now\?'",
        ),
        "endless template loop": (
            lambda b: (b.content("templates/page.html", in_page_template(LOOP)), ["--template-seconds", "0.5"])[1],
            r"templates/page\.html: render: expected a template that finishes within 0\.5 s, found one still running",
        ),
        "endless template recursion": (
            lambda b: b.content(
                "templates/page.html", in_page_template("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")
            ),
            r"templates/page\.html: line \d+: expected a template that ends, found endless recursion",
        ),
        "template runtime error": (
            lambda b: b.content("templates/page.html", in_page_template("{{ title|length // 0 }}")),
            r"templates/page\.html: line \d+: expected a template that renders, found ZeroDivisionError: "
            r"integer division or modulo by zero",
        ),
        "template reaching outside the sandbox": (
            lambda b: b.content("templates/page.html", in_page_template("{{ fig.__globals__ }}")),
            r"templates/page\.html: line \d+: expected what Jinja's sandbox allows, found access to attribute "
            r"'__globals__' of 'function' object is unsafe\.",
        ),
        "template building a huge string": (
            lambda b: b.content("templates/page.html", in_page_template("{{ 'x' * 100000000 }}")),
            r"templates/page\.html: line \d+: expected what Jinja's sandbox allows, found a sequence repeated to more than",
        ),
        # the data's meaning, validated before the drift check
        "negative loss in a curve": (
            lambda b: b.edit(CURVE, curve_line(2, "val_loss", -1.0)),
            r"s1\.jsonl: line 2\.val_loss: expected a number ≥ 0\.0, found float -1\.0",
        ),
        "negative final loss in results.json": (
            lambda b: b.edit(RESULTS_JSON, json_edit(first_row("final_val", -0.5))),
            r"results\.json: rows\[0\]\.final_val: expected a number ≥ 0\.0, found float -0\.5",
        ),
        "duplicated results.json row": (
            lambda b: b.edit(RESULTS_JSON, json_edit(lambda d: d["rows"].append(dict(d["rows"][1])))),
            r"results\.json: rows\[\d+\]\.group: expected each run group once \(rows\[1\] has it\), "
            r"found str 'tinystories-topk-k16-2d64-lr0\.001'",
        ),
        "unknown variant": (
            lambda b: b.edit(RESULTS_JSON, json_edit(first_row("variant", "sgd"))),
            r"results\.json: rows\[0\]\.variant: expected one of adamw, topk, band, calib, optics, found str 'sgd'",
        ),
        "variant that contradicts the run group": (
            lambda b: b.edit(RESULTS_JSON, json_edit(first_row("variant", "topk"))),
            r"results\.json: rows\[0\]\.variant: expected 'adamw' \(the variant in the group name\), found str 'topk'",
        ),
        # URL collisions
        "content page at the figure index's URL": (
            lambda b: b.write("content/figures/index.md", b"---\ntitle: Mine\n---\nHello.\n") and None,
            r"templates/figures\.html: page /figures/: expected one source per URL, found content/figures/index\.md too",
        ),
        "content page at a results page's URL": (
            lambda b: b.write("content/cit/simulation/results.md", b"---\ntitle: Mine\n---\nHello.\n") and None,
            r"data/simulation/results\.md: page /cit/simulation/results/: expected one source per URL, "
            r"found content/cit/simulation/results\.md too",
        ),
        "content page under /assets/": (
            lambda b: b.write("content/assets/css.md", b"---\ntitle: Mine\n---\nHello.\n") and None,
            r"content/assets/css\.md: page /assets/css/: expected a URL outside /assets/, found one inside it",
        ),
        "content page at /assets/": (
            lambda b: b.write("content/assets.md", b"---\ntitle: Mine\n---\nHello.\n") and None,
            r"content/assets\.md: page /assets/: expected one source per URL, found the site's assets "
            r"\(site_builder/static/\) too",
        ),
        "content page at the figure list's URL": (
            lambda b: b.write("content/figures.json.md", b"---\ntitle: Mine\n---\nHello.\n") and None,
            r"content/figures\.json\.md: page /figures\.json/: expected one source per URL, found the figure list",
        ),
    }
)
NEW_CASES = 49  # issue 8's cases, counted in test_the_matrix_has_the_cases_issue_8_asks_for


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_stops_the_build_cleanly(box: Sandbox, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    breaker, pattern = CASES[case]
    extra = breaker(box) or []
    capsys.readouterr()
    before = tree_digest(box.out)
    inputs = box.inputs_digest()
    status = main([*box.args(), *extra])
    out, err = capsys.readouterr()
    assert status == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err + out
    assert re.search(pattern, lines[0]), lines[0]
    assert tree_digest(box.out) == before, "site/ was touched"
    assert box.inputs_digest() == inputs, "something outside the output folder was written"
    assert leftovers(box.root) == [], "temporary output left behind"


def test_exit_status_from_a_real_process(box: Sandbox) -> None:
    box.edit(RESULTS_JSON, lambda t: t[:100])
    proc = subprocess.run(
        [sys.executable, "-m", "site_builder", *box.args()], capture_output=True, text=True, cwd=PROJECT, check=False
    )
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert "Traceback" not in proc.stderr


def test_a_good_build_prints_stages_and_a_summary(tmp_path: Path) -> None:
    box = Sandbox(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "site_builder", *box.args()], capture_output=True, text=True, cwd=PROJECT, check=False
    )
    assert proc.returncode == 0, proc.stderr
    names = [line.split()[0] for line in proc.stdout.splitlines()]
    assert names[:6] == ["load", "models", "figures", "collect", "render", "print"]
    rest = names[6:] if names[6] != "scan" else names[7:]  # scan: pages the shared cache has not parsed yet
    assert set(rest[:2]) == {"checks", "search"}  # the link check may run beside the search index
    # the command line always prints the decks (tests/build/conftest.py's skip is for in-process builds only)
    assert re.search(r"^print .* 5 deck PDFs \(\d printed in Chromium, \d from the PDF store\)$", proc.stdout, re.M)
    assert len(list(box.out.glob("*/decks/*.pdf"))) == 5
    assert re.match(r"built \d+ pages, \d+ figures in [\d.]+ s", proc.stdout.splitlines()[-1])
    assert (box.out / "figures.json").is_file()


def test_no_pdf_builds_without_the_pdfs_and_a_later_build_prints_them(tmp_path: Path) -> None:
    box = Sandbox(tmp_path)
    run = [sys.executable, "-m", "site_builder", *box.args()]
    proc = subprocess.run([*run, "--no-pdf"], capture_output=True, text=True, cwd=PROJECT, check=False)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^print .* 5 deck PDFs not printed, by request", proc.stdout, re.M)
    assert not list(box.out.glob("*/decks/*.pdf"))
    # the same inputs without --no-pdf are not "up to date": the build runs again and prints every deck
    proc = subprocess.run(run, capture_output=True, text=True, cwd=PROJECT, check=False)
    assert proc.returncode == 0, proc.stderr
    assert len(list(box.out.glob("*/decks/*.pdf"))) == 5


def test_the_matrix_has_the_cases_issue_8_asks_for() -> None:
    assert len(CASES) - 18 >= 25


# ------------------------------------------------------------------------------------------ --out


def run(args: list[str], cwd: Path = PROJECT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}  # the package under test, from any folder
    return subprocess.run(
        [sys.executable, "-m", "site_builder", *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


REFUSED = "expected an empty or absent folder, or one this tool built (it holds .site-builder), found "


def test_out_dot_in_a_checkout_refuses_and_deletes_nothing(box: Sandbox) -> None:
    """The reported data loss: `build --out .` in a clone replaced the whole checkout, .git included."""
    git = box.project / ".git"
    git.mkdir()
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    before = tree_digest(box.root)
    line = one_error_line(run([*box.args(out=".")], cwd=box.project))
    assert line == f"error: --out .: {REFUSED}the project root ({box.project})"
    assert tree_digest(box.root) == before
    assert leftovers(box.root) == leftovers(box.project) == []


def _users_folder(b: Sandbox) -> Path:
    mine = b.root / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes\n")
    return mine


def _checkout(b: Sandbox) -> Path:
    other = b.root / "other-checkout"
    (other / ".git").mkdir(parents=True)
    return other


def _a_file(b: Sandbox) -> Path:
    f = b.root / "file.txt"
    f.write_text("keep me\n")
    return f


def _link(b: Sandbox) -> Path:
    link = b.root / "link"
    link.symlink_to(b.out)
    return link


OUT_CASES: dict[str, tuple[Callable[[Sandbox], Path], str]] = {
    "the content folder": (lambda b: b.project / "content", r"the content folder \("),
    "the templates folder": (lambda b: b.project / "templates", r"the templates folder \("),
    "the data folder": (lambda b: b.project / "data", r"the data folder \("),
    "the vendor folder": (lambda b: b.vendor, r"the vendor folder \("),
    "a folder inside the reference folder": (lambda b: b.reference / "site", r"a folder inside the reference folder"),
    "a folder holding the inputs": (lambda b: b.root, r"a folder holding the project root"),
    "the project root": (lambda b: b.project, r"the project root"),
    "the results cache": (lambda b: SHARED_CACHE[0], r"the results cache"),
    "a user's folder holding a file the build did not write": (
        _users_folder,
        r"a folder without \.site-builder holding 1 entry \('notes\.txt'…\)",
    ),
    "another checkout": (_checkout, r"a folder holding \.git"),
    "an existing file": (_a_file, r"a file$"),
    "a path under a file": (lambda b: _a_file(b) / "site", r"a path under .*/file\.txt, which is not a folder"),
    "a symbolic link": (_link, r"a symbolic link to .*/site"),
    "the root folder": (lambda b: Path("/"), r"the root folder$"),
    "the home folder": (lambda b: Path.home(), r"the home folder"),
}


@pytest.mark.parametrize("case", list(OUT_CASES), ids=list(OUT_CASES))
def test_out_is_refused_before_anything_is_written(box: Sandbox, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    make, pattern = OUT_CASES[case]
    out = make(box)
    watched = out if out.is_dir() and out != Path("/") and out != Path.home() else out.parent
    before = tree_digest(watched) if watched != Path("/") and watched != Path.home().parent else None
    inputs = box.inputs_digest()
    site = tree_digest(box.out)
    capsys.readouterr()
    assert main(box.args(out=out)) == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: --out {out}: {REFUSED}"), lines[0]
    assert re.search(pattern, lines[0]), lines[0]
    if before is not None:
        assert tree_digest(watched) == before
    assert box.inputs_digest() == inputs and tree_digest(box.out) == site
    assert leftovers(box.root) == []


def test_out_may_be_absent_empty_or_a_folder_this_tool_built(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    empty = box.root / "empty"
    empty.mkdir()
    for out in (box.root / "new" / "site", empty, box.out):
        assert main(box.args(out=out)) == 0, capsys.readouterr().err
        assert (out / MARKER).is_file() and (out / "index.html").is_file()
    assert leftovers(box.root) == [] and leftovers(box.root / "new") == []


def test_temporary_folders_of_a_killed_build_are_removed_by_the_next(box: Sandbox) -> None:
    dead = 2**22 + 12345  # above the default pid_max: no such process
    stale = [box.root / f".site.tmp-{dead}-abc", box.root / f".site.old-{dead}-def"]
    for folder in stale:
        folder.mkdir()
        (folder / MARKER).write_text("site-builder\n")
        (folder / "index.html").write_text("<p>half</p>")
    foreign = box.root / f".site.tmp-{dead}-user"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("not the build's\n")
    assert main(box.args()) == 0
    assert not any(p.exists() for p in stale)
    assert (foreign / "mine.txt").is_file(), "a folder without the marker is never removed"


def test_a_full_disk_is_one_line_and_leaves_the_site(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    real_text, real_bytes = Path.write_text, Path.write_bytes

    def full_when_a_page(self: Path) -> None:
        if ".site.tmp-" in str(self) and self.name == "index.html" and "cit" in self.parts:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))

    def full_text(self: Path, *args: object, **kwargs: object) -> int:
        full_when_a_page(self)
        return real_text(self, *args, **kwargs)  # type: ignore[arg-type]

    def full_bytes(self: Path, data: bytes) -> int:
        full_when_a_page(self)
        return real_bytes(self, data)

    monkeypatch.setattr(Path, "write_text", full_text)
    monkeypatch.setattr(Path, "write_bytes", full_bytes)
    before = tree_digest(box.out)
    capsys.readouterr()
    assert main(box.args()) == 1
    line = capsys.readouterr().err.strip()
    assert "\n" not in line
    assert re.match(
        rf"error: --out {re.escape(str(box.out))}: write: expected room to write \(.*\), found no space left on device$",
        line,
    ), line
    assert tree_digest(box.out) == before
    assert leftovers(box.root) == []


def test_raw_html_in_the_vendored_results_is_shown_as_text(box: Sandbox) -> None:
    hostile = (
        "\n<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> and [a link](javascript:alert(1)) "
        "and <a href='https://example.com/'>an anchor</a>.\n"
    )
    box.edit(RESULTS_MD, lambda t: t + hostile)
    assert main(box.args()) == 0
    html = (box.out / "cit" / "experiment" / "results" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert (
        "<script>alert" not in html
        and "<img src=x" not in html
        and "javascript:" not in html.replace("[a link](javascript:alert(1))", "")
    )
    assert 'href="https://example.com/"' not in html


# ------------------------------------------------------------------------------------- signals


def _start_stuck_build(box: Sandbox) -> tuple[subprocess.Popen[str], Path]:
    """A real build process stuck rendering (an endless template loop), once its temporary folder exists."""
    import time

    box.content("templates/page.html", in_page_template(LOOP))
    proc = subprocess.Popen(
        [sys.executable, "-m", "site_builder", *box.args(), "--template-seconds", "120"],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        tmp = [p for p in box.root.iterdir() if p.name.startswith(".site.tmp-")]
        if tmp and (tmp[0] / MARKER).exists():
            return proc, tmp[0]
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    out, err = proc.communicate()
    raise AssertionError(f"the build never reached its render stage: {proc.returncode} {out} {err}")


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_build_with_one_line_and_no_temporary_folder(box: Sandbox, signame: str) -> None:
    import signal

    before = tree_digest(box.out)
    proc, tmp = _start_stuck_build(box)
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (proc.returncode, err)
    assert err.strip() == f"error: interrupted by {signame}: nothing was written"
    assert "Traceback" not in err
    assert not tmp.exists() and leftovers(box.root) == []
    assert tree_digest(box.out) == before


def test_after_sigkill_the_next_build_removes_the_temporary_folder(box: Sandbox) -> None:
    proc, tmp = _start_stuck_build(box)
    proc.kill()
    proc.communicate(timeout=60)
    assert tmp.exists()  # nothing can clean up after SIGKILL...
    shutil.copyfile(PROJECT / "templates" / "page.html", box.project / "templates" / "page.html")
    assert main(box.args()) == 0
    assert not tmp.exists() and leftovers(box.root) == []  # ...but the next build does


def test_a_signal_while_the_models_compute_stops_every_worker(box: Sandbox) -> None:
    """Half the documents are computed in a forked process, and the drift check runs in another while the site
    renders: SIGTERM ends them with the build."""
    import signal
    import time

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "site_builder", *box.args(), "--no-cache"],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the load stage's line: the models are being computed now
    assert first.startswith("load"), first
    time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and err.strip() == "error: interrupted by SIGTERM: nothing was written", err
    time.sleep(0.3)
    ours = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if str(box.project) in cmd and "site_builder" in cmd:
            ours.append(pid)
    assert ours == [], f"build processes left running: {ours}"
    assert leftovers(box.root) == []
