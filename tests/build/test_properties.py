"""Property tests: whatever bytes, YAML or JSON the content and results readers get, the answer is a page,
a validated document, or the one-line error. Never a traceback, never a hang.

The loaders are fed directly (hundreds of examples); a few examples go through a real build too.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.cli import main
from site_builder.content.pages import load_page
from site_builder.content.parse import check_refs, parse_page
from site_builder.errors import InputError
from site_builder.kinds import CONTENT_KINDS
from site_builder.markdown.parser import make_markdown
from site_builder.sources.experiment import load_results_json, load_run
from tests.build.test_bad_inputs import Sandbox, leftovers
from tests.conftest import VENDOR

RESULTS_JSON = VENDOR / "demo-fixed-band" / "tinystories-gpu" / "results.json"
CURVE = VENDOR / "demo-fixed-band" / "curves" / "tinystories-adamw-lr0.003-s1.jsonl"
ONE_LINE = re.compile(r"^[^\n\r]+: [^\n\r]+: expected [^\n\r]+, found [^\n\r]*$")
MD = make_markdown()

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def one_line(e: InputError) -> None:
    text = str(e)
    assert ONE_LINE.match(text), text
    assert text == f"{e.file}: {e.where}: expected {e.expected}, found {e.found}"


def page_or_error(path: Path, root: Path) -> None:
    try:
        page = load_page(path, root, CONTENT_KINDS)
        check_refs(parse_page(page, MD), {}, {})
    except InputError as e:
        one_line(e)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    return root


@SETTINGS
@given(data=st.binary(max_size=400))
def test_random_bytes_as_a_content_file(content: Path, data: bytes) -> None:
    path = content / "page.md"
    path.write_bytes(data)
    page_or_error(path, content)


@SETTINGS
@given(head=st.binary(max_size=200), body=st.text(max_size=200))
def test_random_bytes_as_front_matter(content: Path, head: bytes, body: str) -> None:
    path = content / "page.md"
    path.write_bytes(b"---\n" + head + b"\n---\n" + body.encode("utf-8", "surrogatepass"))
    page_or_error(path, content)


yaml_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.dates().map(str),
)
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
YAML_TOKENS = ["&a ", "*a ", "!!str ", "!!timestamp ", "!!python/object ", "<<: ", "- ", ": ", "{", "}", "[", "]",
               "'", '"', "\n  ", "\n", "#", "2024-02-30", "? ", "|", ">", "%YAML 1.1", "---", "..."]  # fmt: skip


@SETTINGS
@given(meta=st.dictionaries(st.sampled_from(["title", "kind", "series", "nav", "nav_order", "lead", "x"]), yaml_values))
def test_random_yaml_front_matter(content: Path, meta: dict) -> None:
    text = yaml.safe_dump(meta, allow_unicode=True)
    path = content / "page.md"
    path.write_text(f"---\n{text}---\nBody with :fig[no.such] reference.\n", encoding="utf-8")
    page_or_error(path, content)


@SETTINGS
@given(tokens=st.lists(st.sampled_from(YAML_TOKENS) | st.text(string.printable, max_size=6), max_size=30))
def test_yaml_shaped_noise_as_front_matter(content: Path, tokens: list[str]) -> None:
    path = content / "page.md"
    path.write_text("---\ntitle: T\n" + "".join(tokens) + "\n---\nBody.\n", encoding="utf-8")
    page_or_error(path, content)


MD_TOKENS = [*"<>[]()!:#*_`&;/ \nabjsvfd", "javascript:", "data:", "<span>", ":fig[", ":value[", "::: list\n", "&#106;"]


@SETTINGS
@given(body=st.lists(st.sampled_from(MD_TOKENS), max_size=60).map("".join))
def test_random_markdown_body(content: Path, body: str) -> None:
    path = content / "page.md"
    path.write_text("---\ntitle: T\n---\n" + body, encoding="utf-8")
    page_or_error(path, content)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=25,
)
REAL = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))


def results_or_error(text: str) -> None:
    try:
        load_results_json(RESULTS_JSON, text)
    except InputError as e:
        one_line(e)


@SETTINGS
@given(value=json_values)
def test_random_json_as_results(value: object) -> None:
    results_or_error(json.dumps(value))


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(REAL)


@SETTINGS
@given(where=st.sampled_from(PATHS[1:]), value=json_values, drop=st.booleans())
def test_the_real_results_with_one_value_changed(where: tuple, value: object, drop: bool) -> None:
    doc = json.loads(json.dumps(REAL))
    parent = doc
    for k in where[:-1]:
        parent = parent[k]
    if drop and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    results_or_error(json.dumps(doc))


@SETTINGS
@given(text=st.text(max_size=300))
def test_random_text_as_results_and_as_a_curve(text: str) -> None:
    results_or_error(text)
    try:
        load_run(CURVE, text)
    except InputError as e:
        one_line(e)


@SETTINGS
@given(
    n=st.integers(min_value=1, max_value=8),
    key=st.sampled_from(["step", "val_loss", "type", "seconds"]),
    value=json_values,
)
def test_the_real_curve_with_one_value_changed(n: int, key: str, value: object) -> None:
    lines = CURVE.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[n])
    rec[key] = value
    lines[n] = json.dumps(rec)
    try:
        load_run(CURVE, "\n".join(lines))
    except InputError as e:
        one_line(e)


# ---------------------------------------------------------------------------------- through a build


@pytest.fixture(scope="module")
def sandbox(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    import shutil

    box = Sandbox(tmp_path_factory.mktemp("prop"))
    shutil.copytree(built_site, box.out)
    return box


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.dictionaries(st.sampled_from(["title", "kind", "series", "nav", "lead"]), yaml_values, min_size=1).map(
            lambda m: ("---\n" + yaml.safe_dump(m, allow_unicode=True) + "---\nHello :fig[exp.final.A].\n").encode()
        ),
    )
)
def test_a_real_build_of_random_content_builds_or_gives_one_line(
    sandbox: Sandbox, data: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (sandbox.project / "content" / "random.md").write_bytes(data)
    inputs = sandbox.inputs_digest()
    capsys.readouterr()
    status = main(sandbox.args())
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if status == 0:
        assert (sandbox.out / "random" / "index.html").is_file()
    else:
        assert status == 1
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: content/random.md: "), err
    assert sandbox.inputs_digest() == inputs
    assert leftovers(sandbox.root) == []
