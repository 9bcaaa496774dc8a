"""site_builder.sources.reading: every bad input file is one InputError line naming file and place."""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.errors import InputError
from site_builder.sources import reading
from site_builder.sources.reading import load_json, load_jsonl, load_yaml, read_text, sha256_file


def fails(fn, *args, **kwargs) -> InputError:
    with pytest.raises(InputError) as info:
        fn(*args, **kwargs)
    text = str(info.value)
    assert "\n" not in text and "\r" not in text
    assert text == f"{info.value.file}: {info.value.where}: expected {info.value.expected}, found {info.value.found}"
    return info.value


# ------------------------------------------------------------------------------------------- read_text


def test_read_text_reads_utf8_strips_bom_and_translates_newlines(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_bytes(b"\xef\xbb\xbfh\xc3\xa9\r\nb\rc\n")
    assert read_text(p, "a.md") == "hé\nb\nc\n"


def test_read_text_missing(tmp_path: Path) -> None:
    e = fails(read_text, tmp_path / "nope.md", "content/nope.md")
    assert (e.file, e.where, e.expected, e.found) == ("content/nope.md", "file", "a readable file", "no such file")


def test_read_text_dangling_symlink(tmp_path: Path) -> None:
    (tmp_path / "link.md").symlink_to(tmp_path / "gone.md")
    assert fails(read_text, tmp_path / "link.md", "link.md").found == "a dangling symbolic link"


def test_read_text_symlink_loop(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert fails(read_text, tmp_path / "a", "a").found == "a symbolic link loop"


def test_read_text_folder(tmp_path: Path) -> None:
    e = fails(read_text, tmp_path, "content")
    assert (e.where, e.found) == ("file", "a folder")


def test_read_text_parent_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert fails(read_text, tmp_path / "f" / "g.md", "g.md").found.startswith("no such file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_text_fifo_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    t0 = time.perf_counter()
    assert fails(read_text, tmp_path / "pipe", "pipe").found == "a named pipe"
    assert time.perf_counter() - t0 < 1


def test_read_text_device() -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    assert fails(read_text, Path("/dev/null"), "null").found == "a device"


def test_read_text_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "secret.md"
    p.write_text("x")
    if os.geteuid() != 0:
        p.chmod(0)
    else:  # root reads anything: simulate the refusal

        def deny(path, flags, *args):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))

        monkeypatch.setattr(reading.os, "open", deny)
    assert fails(read_text, p, "secret.md").found == "permission denied"


def test_read_text_io_error_while_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "a.md"
    p.write_text("x")

    def broken(fd, n):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(reading.os, "read", broken)
    e = fails(read_text, p, "a.md")
    assert (e.where, e.found) == ("file", "input/output error")


def test_read_text_too_big(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_bytes(b"x" * 101)
    e = fails(read_text, p, "big.json", max_bytes=100)
    assert (e.where, e.expected, e.found) == ("file", "at most 100 bytes", "101 bytes")
    assert read_text(p, "big.json", max_bytes=101) == "x" * 101


def test_read_text_not_utf8_names_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_bytes(b"line one\nna\xc3\xafve \xff\n")
    e = fails(read_text, p, "a.md")
    assert (e.where, e.expected, e.found) == ("line 2 column 7", "UTF-8 text", "byte 0xff")


def test_read_text_truncated_utf8_at_end(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_bytes(b"ok \xe2\x82")
    assert fails(read_text, p, "a.md").found == "byte 0xe2"


def test_default_limits() -> None:
    assert reading.CONTENT_MAX_BYTES == 1 << 20
    assert reading.DATA_MAX_BYTES == 16 << 20
    assert reading.DEFAULT_MAX_BYTES == reading.DATA_MAX_BYTES


# ------------------------------------------------------------------------------------------ sha256_file


def test_sha256_file(tmp_path: Path) -> None:
    p = tmp_path / "x.bin"
    data = os.urandom(3 << 20)
    p.write_bytes(data)
    assert sha256_file(p, "x.bin") == hashlib.sha256(data).hexdigest()


def test_sha256_file_errors(tmp_path: Path) -> None:
    assert fails(sha256_file, tmp_path / "nope", "vendor/nope").found == "no such file"
    assert fails(sha256_file, tmp_path, "vendor").found == "a folder"


# ---------------------------------------------------------------------------------------------- YAML


def test_load_yaml_plain_values() -> None:
    assert load_yaml("a: 1\nb: [x, 2.5, true, null]\nc: 2024-02-29\n", "f.yaml") == {
        "a": 1,
        "b": ["x", 2.5, True, None],
        "c": __import__("datetime").date(2024, 2, 29),
    }
    assert load_yaml("", "f.yaml") is None
    assert load_yaml("<<: {a: 1}\nb: 2\n", "f.yaml") == {"a": 1, "b": 2}


def test_load_yaml_alias_bomb_fails_fast() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    t0 = time.perf_counter()
    e = fails(load_yaml, "\n".join(lines), "bomb.yaml")
    assert time.perf_counter() - t0 < 0.1
    assert (e.where, e.expected, e.found) == ("line 1", "YAML without anchors or aliases", "an anchor '&a'")


def test_load_yaml_alias_alone() -> None:
    e = fails(load_yaml, "a: 1\nb: *x\n", "f.yaml")
    assert (e.where, e.expected, e.found) == ("line 2", "YAML without anchors or aliases", "an alias '*x'")


def test_load_yaml_alias_after_anchor_in_front_matter_offset() -> None:
    e = fails(load_yaml, "title: T\nx: &anchor 1\n", "content/a.md", first_line=2)
    assert (e.file, e.where, e.found) == ("content/a.md", "line 3", "an anchor '&anchor'")


@pytest.mark.parametrize(
    ("text", "where", "expected", "found_start"),
    [
        ("d: 2024-02-30\n", "line 1", "a valid timestamp", "'2024-02-30' (day is out of range"),
        ("a: 1\nd: 2023-13-01 10:00:00\n", "line 2", "a valid timestamp", "'2023-13-01 10:00:00'"),
        ("x: !!timestamp foo\n", "line 1", "a valid timestamp", "'foo'"),
        ("b: !!bool maybe\n", "line 1", "a valid bool", "'maybe'"),
        ("i: !!int one\n", "line 1", "a valid int", "'one'"),
        ("f: !!float one\n", "line 1", "a valid float", "'one'"),
        ("i: " + "1" * 5000 + "\n", "line 1", "a valid int", "'111"),
        ('s: "\\ud800"\n', "line 1", None, None),
        ("a: 1\na: 2\n", "line 2", "each key once in a mapping", "'a' again"),
        ("a: [1,\n  2\n", None, "valid YAML", None),
        ("\t- a\n", "line 1", "valid YAML", None),
        ("a: 1\n---\nb: 2\n", "line 2", "valid YAML", None),
        ("? [a]\n: 1\n", "line 1", "valid YAML", "unhashable key"),
        ("x: !!python/name:os.system\n", "line 1", "valid YAML", "could not determine a constructor"),
        ("a: b\x00\n", "line 1", "YAML text", "character U+0000"),
        ("a:\n  b: \x07\n", "line 2", "YAML text", "character U+0007"),
    ],
)
def test_load_yaml_failures(text: str, where: str | None, expected: str | None, found_start: str | None) -> None:
    e = fails(load_yaml, text, "f.yaml")
    assert e.file == "f.yaml"
    assert e.where.startswith("line ")
    if where is not None:
        assert e.where == where
    if expected is not None:
        assert e.expected == expected
    if found_start is not None:
        assert e.found.startswith(found_start)


def test_load_yaml_error_lines_are_offset_by_first_line() -> None:
    assert fails(load_yaml, "a: 1\nb: 2024-02-30\n", "p.md", first_line=2).where == "line 3"
    assert fails(load_yaml, "a: 1\nb: [\n", "p.md", first_line=10).where.startswith("line 1")
    assert fails(load_yaml, "a: 1\nb: : :\n", "p.md", first_line=10).where == "line 11"


def test_load_yaml_depth_and_size_limits() -> None:
    deep = "[" * 65 + "]" * 65
    e = fails(load_yaml, deep, "f.yaml")
    assert (e.where, e.expected, e.found) == ("line 1", "YAML nested at most 64 levels deep", "level 65")
    assert load_yaml("[" * 64 + "]" * 64, "f.yaml") is not None
    very_deep = "[" * 100_000 + "]" * 100_000
    e = fails(load_yaml, very_deep, "f.yaml")  # libyaml may stop it first ("exceeded maximum nesting depth")
    assert e.where == "line 1" and ("nest" in e.expected or "nesting" in e.found)
    big = "a: " + "x" * 100
    e = fails(load_yaml, big, "f.yaml", max_chars=50)
    assert (e.where, e.expected, e.found) == ("file", "at most 50 characters of YAML", "103 characters")


def test_load_yaml_leaves_pyyaml_global_loaders_alone() -> None:
    load_yaml("a: b\n", "f.yaml")
    assert yaml.SafeLoader.yaml_constructors["tag:yaml.org,2002:str"] is yaml.SafeLoader.construct_yaml_str


# ---------------------------------------------------------------------------------------------- JSON


def test_load_json_plain() -> None:
    assert load_json('{"a": [1, 2.5, "x", null, true], "b": {"c": -3e2}}', "r.json") == {
        "a": [1, 2.5, "x", None, True],
        "b": {"c": -300.0},
    }
    assert load_json('"\\ud83d\\ude00"', "r.json") == "😀"


@pytest.mark.parametrize(
    ("text", "where", "expected", "found"),
    [
        ('{"a": NaN}', "line 1 column 7", "a finite number", "NaN"),
        ('{"x": "NaN",\n "a": Infinity}', "line 2 column 7", "a finite number", "Infinity"),
        ("[1, -Infinity]", "line 1 column 5", "a finite number", "-Infinity"),
        ('{"a":\n 1e999}', "line 2 column 2", "a finite number", "1e999"),
        ("[1, " + "9" * 31 + "]", "line 1 column 5", "an integer of at most 30 digits", "an integer of 31 digits"),
        ("-" + "9" * 5000, "line 1 column 1", "an integer of at most 30 digits", "an integer of 5000 digits"),
        ('{"a": 1,\n "b": {"c": 1, "c": 2}}', "line 2 column 7", "each key once in an object", "'c' again"),
        ('["ok", "\\udc00"]', "line 1 column 9", "a string of Unicode characters", "a lone surrogate escape"),
        ('{"a": 1,}', "line 1 column 9", "valid JSON", "Expecting property name enclosed in double quotes"),
        ("", "line 1 column 1", "valid JSON", "Expecting value"),
        ("[1] [2]", "line 1 column 5", "valid JSON", "Extra data"),
    ],
)
def test_load_json_failures(text: str, where: str, expected: str, found: str) -> None:
    e = fails(load_json, text, "r.json")
    assert (e.file, e.where, e.expected, e.found) == ("r.json", where, expected, found)


def test_load_json_depth() -> None:
    ok = "[" * 64 + "]" * 64
    assert load_json(ok, "r.json") is not None
    e = fails(load_json, '{"a":' + "[" * 64 + "]" * 64 + "}", "r.json")
    assert (e.where, e.expected, e.found) == ("line 1 column 69", "JSON nested at most 64 levels deep", "level 65")
    t0 = time.perf_counter()
    e = fails(load_json, "[" * 200_000 + "]" * 200_000, "r.json")
    assert e.where == "line 1 column 65" and e.expected == "JSON nested at most 64 levels deep"
    assert time.perf_counter() - t0 < 2
    assert fails(load_json, '["[[[[", ' + "[" * 3 + "]" * 3 + "]", "r.json", max_depth=3).where == "line 1 column 12"


def test_load_json_first_line_and_jsonl() -> None:
    assert fails(load_json, "[NaN]", "c.jsonl", first_line=7).where == "line 7 column 2"
    assert load_jsonl('{"a": 1}\n{"a": 2}\n', "c.jsonl") == [{"a": 1}, {"a": 2}]
    e = fails(load_jsonl, '{"a": 1}\n{"a": 2,}\n', "c.jsonl")
    assert (e.where, e.expected) == ("line 2 column 9", "valid JSON")


def test_load_json_reads_the_vendored_results_like_json_loads() -> None:
    from tests.conftest import VENDOR

    path = VENDOR / "demo-fixed-band" / "tinystories-gpu" / "results.json"
    if not path.is_file():
        pytest.skip("vendored experiment not present")
    text = read_text(path, str(path))
    assert load_json(text, str(path)) == json.loads(text)


def test_existing_yaml_inputs_load_unchanged() -> None:
    from tests.conftest import PROJECT, REFERENCE

    for path in (PROJECT / "data" / "sources.yaml", REFERENCE / "presets.yaml"):
        if path.is_file():
            text = read_text(path, str(path), max_bytes=reading.YAML_MAX_BYTES)
            assert load_yaml(text, str(path)) == yaml.safe_load(text)


# ------------------------------------------------------------------------------------ property tests

LABEL = "in.put"


def only_input_errors(fn, *args, **kwargs) -> object:
    """Run ``fn``: it returns a value or raises a one-line InputError for LABEL; anything else fails the test."""
    try:
        return fn(*args, **kwargs)
    except InputError as e:
        text = str(e)
        assert "\n" not in text and "\r" not in text, text
        assert text.startswith(f"{LABEL}: "), text
        return e


SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(data=st.binary(max_size=400))
def test_property_random_bytes_read_then_parsed(tmp_path: Path, data: bytes) -> None:
    p = tmp_path / "f"
    p.write_bytes(data)
    text = only_input_errors(read_text, p, LABEL, 300)
    if isinstance(text, str):
        only_input_errors(load_yaml, text, LABEL)
        only_input_errors(load_json, text, LABEL)


@SETTINGS
@given(text=st.text(max_size=300))
def test_property_random_text_to_json(text: str) -> None:
    only_input_errors(load_json, text, LABEL)
    only_input_errors(load_yaml, text, LABEL)


JSONISH = st.lists(
    st.sampled_from(
        [
            "[", "]", "{", "}", ",", ":", '"a"', '"b"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\x"', "NaN",
            "Infinity", "-Infinity", "1e999", "-0", "1.5", "9" * 40, "true", "null", " ", "\n", '"',
        ]
    ),
    max_size=60,
).map("".join)  # fmt: skip


@SETTINGS
@given(text=JSONISH)
def test_property_json_fragments(text: str) -> None:
    value = only_input_errors(load_json, text, LABEL, 8)
    if not isinstance(value, InputError):
        assert value == json.loads(text)


YAMLISH = st.lists(
    st.sampled_from(
        [
            "a", "b", ": ", ":", "- ", "? ", "\n", "  ", "\t", "&x ", "*x", "&y ", "*y", "<<: ", "[", "]", "{",
            "}", ", ", "'", '"', '"\\ud800"', "2024-02-30", "2024-02-29", "!!timestamp ", "!!int ", "!!bool ",
            "!!float ", "!!binary ", "!!set ", "!!omap ", "!!python/object ", "!foo ", "---\n", "...\n", "|\n",
            ">\n", "#c", "%YAML 1.1\n", "0x1F", "0o17", "1_000", "1:20", ".nan", ".inf", "~", "1e999", "9" * 5000,
            "\x00", "\ufeff", "\x85",
        ]
    ),
    max_size=40,
).map("".join)  # fmt: skip


@SETTINGS
@given(text=YAMLISH)
def test_property_yaml_fragments(text: str) -> None:
    only_input_errors(load_yaml, text, LABEL, 1, 10_000, 8)


# (PyYAML's own dumper mangles some control and line-break characters: not what is tested here.)
SAFE_CHARS = st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"))
PLAIN = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(SAFE_CHARS, max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(SAFE_CHARS, max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@SETTINGS
@given(value=PLAIN)
def test_property_plain_data_round_trips(value: object) -> None:
    yaml_text = yaml.safe_dump(value, allow_unicode=True)
    json_text = json.dumps(value, ensure_ascii=False)
    if _depth(value) <= 5:
        assert load_yaml(yaml_text, LABEL) == value
        assert load_json(json_text, LABEL) == value
    else:
        assert isinstance(only_input_errors(load_yaml, yaml_text, LABEL, 1, 10_000, 5), InputError)
        assert isinstance(only_input_errors(load_json, json_text, LABEL, 5), InputError)


def test_nonfinite_floats_never_leak_from_json() -> None:
    for text in ("1e400", "-1e400", "[1E+999]"):
        assert fails(load_json, text, "r.json").expected == "a finite number"
    assert math.isfinite(load_json("1.7976931348623157e308", "r.json"))


PURE_CHECK = r"""
import json, sys, yaml
del yaml.CSafeLoader
from site_builder.errors import InputError
from site_builder.sources import reading, yaml_text
assert yaml_text.StrictLoader.__mro__[1] is yaml.SafeLoader
out = []
for text in json.loads(sys.stdin.read()):
    try:
        out.append(["ok", repr(reading.load_yaml(text, "f"))])
    except InputError as e:
        out.append([e.where, e.expected if e.expected != "valid YAML" else "syntax"])
print(json.dumps(out))
"""


def test_pure_python_loader_accepts_and_rejects_the_same() -> None:
    """Without libyaml the loader is PyYAML's pure-Python one: same verdicts and lines (messages may differ)."""
    import subprocess
    import sys

    from tests.conftest import PROJECT

    cases = [
        "a: 1\nb: [x, 2.5]\nc: 2024-02-29\n",
        "<<: {a: 1}\nb: 2\n",
        "d: 2024-02-30\n",
        "x: !!timestamp foo\n",
        "b: !!bool maybe\n",
        "a: 1\na: 2\n",
        "a: [1,\n  2\n",
        "\t- a\n",
        "a: 1\n---\nb: 2\n",
        "? [a]\n: 1\n",
        "x: !!python/name:os.system\n",
        "a: &x 1\n",
        "b: *x\n",
        "[" * 65 + "]" * 65,
        "a: b\x00",
        "a: 1\nb: : :\n",
    ]
    here = []
    for text in cases:
        try:
            here.append(["ok", repr(load_yaml(text, "f"))])
        except InputError as e:
            here.append([e.where, e.expected if e.expected != "valid YAML" else "syntax"])
    run = subprocess.run(
        [sys.executable, "-c", PURE_CHECK], input=json.dumps(cases), capture_output=True, text=True, cwd=PROJECT
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == here


def test_read_text_and_sha256_hashes_the_bytes_read(tmp_path: Path) -> None:
    p = tmp_path / "a.json"
    raw = b"\xef\xbb\xbf{\r\n}\r\n"
    p.write_bytes(raw)
    text, digest = reading.read_text_and_sha256(p, "a.json")
    assert text == "{\n}\n"
    assert digest == hashlib.sha256(raw).hexdigest()
    assert fails(reading.read_text_and_sha256, p, "a.json", max_bytes=3).found == f"{len(raw)} bytes"


def test_the_folder_listing_is_what_pathlib_finds_in_its_order(tmp_path: Path) -> None:
    """links_stay_inside lists a folder once (content/pages.py takes its pages from that listing): every file,
    folder and link to a file, ordered as pathlib's sorted paths are (by parts: "a/b.md" before "a-b/x.md")."""
    root = tmp_path / "project"
    content = root / "content"
    for rel in ["a/b.md", "a-b/x.md", "a.md", "a/.hidden.md", "index.md", "z/y/deep.md", "glossary/t.md", "x.txt"]:
        (content / rel).parent.mkdir(parents=True, exist_ok=True)
        (content / rel).write_text("x", encoding="utf-8")
    (content / "folder.md").mkdir()
    (content / "link.md").symlink_to(content / "a.md")
    (content / "dangling.md").symlink_to(content / "gone.md")
    found = reading.links_stay_inside(content, "content", root)
    assert found == [p.relative_to(content).as_posix() for p in sorted(content.rglob("*"))]
    (content / "out.md").symlink_to(tmp_path / "elsewhere.md")
    (tmp_path / "elsewhere.md").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match=r"^content/out\.md: file: expected a file inside the project"):
        reading.links_stay_inside(content, "content", root)
    (content / "out.md").unlink()
    (content / "dir-link").symlink_to(content / "a")
    with pytest.raises(InputError, match=r"^content/dir-link: file: expected a file or folder, not a link"):
        reading.links_stay_inside(content, "content", root)
