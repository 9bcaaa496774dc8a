"""Broken inputs: each stops the build with one clear line, a non-zero exit, and an untouched site/."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.cli import main
from tests.conftest import PROJECT, REFERENCE, VENDOR

RESULTS_JSON = "demo-fixed-band/tinystories-gpu/results.json"
RESULTS_MD = "demo-fixed-band/tinystories-gpu/results.md"
CURVE = "demo-fixed-band/curves/tinystories-adamw-lr0.003-s1.jsonl"


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
        for rel in (RESULTS_JSON, RESULTS_MD):
            (self.vendor / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(VENDOR / rel, self.vendor / rel)
        shutil.copytree(VENDOR / "demo-fixed-band" / "curves", self.vendor / "demo-fixed-band" / "curves")
        shutil.copytree(REFERENCE, self.reference)

    def args(self, command: str = "build") -> list[str]:
        a = [command, "--project", str(self.project), "--vendor", str(self.vendor), "--reference", str(self.reference)]
        if command != "build":
            return a
        cache = ["--cache", str(SHARED_CACHE[0])] if SHARED_CACHE else []
        return [*a, "--out", str(self.out), *cache]

    def repin(self) -> None:
        assert main(self.args("pin")) == 0

    def edit(self, rel: str, change: Callable[[str], str], root: Path | None = None, repin: bool = True) -> None:
        path = (root or self.vendor) / rel
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
        if repin:
            self.repin()


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(p.relative_to(folder).as_posix().encode())
        if p.is_file():
            h.update(p.read_bytes())
            h.update(str(p.stat().st_mtime_ns).encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    SHARED_CACHE[:] = [tmp_path_factory.mktemp("cache")]
    box = Sandbox(tmp_path_factory.mktemp("good"))
    assert main(box.args()) == 0
    return box.out


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


CASES: dict[str, tuple[Callable[[Sandbox], None], str]] = {
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
        r"results\.json: rows\[0\]\.final_val: expected a finite number, found float nan",
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
        r"content/cit/index\.md: line \d+: expected a registered figure key, found 'exp\.no\.such\.key'",
    ),
    "front matter without a title": (
        lambda b: b.edit("content/index.md", lambda t: t.replace("title:", "titel:", 1), root=b.project, repin=False),
        r"content/index\.md: front matter\.title: expected a non-empty string, found NoneType None",
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


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_input_stops_the_build_cleanly(box: Sandbox, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    breaker, pattern = CASES[case]
    breaker(box)
    capsys.readouterr()
    before = tree_digest(box.out)
    status = main(box.args())
    err = capsys.readouterr().err
    assert status == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert tree_digest(box.out) == before, "site/ was touched"
    assert not [p for p in box.root.iterdir() if p.name.startswith(".site.")], "temporary output left behind"


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
    assert names[:6] == ["load", "models", "figures", "collect", "render", "checks"]
    assert re.match(r"built \d+ pages, \d+ figures in [\d.]+ s", proc.stdout.splitlines()[-1])
    assert (box.out / "figures.json").is_file()
