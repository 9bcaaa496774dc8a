"""Hardening, second round: nothing outside the project is read or echoed, a hostile file name gives one line,
and a heading list or a data block cannot make the build slow or the page break."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.cli import main
from tests.build.test_bad_inputs import Sandbox, box, leftovers, tree_digest
from tests.conftest import PROJECT

__all__ = ["box"]

SECRET = "SECRET-FIRST-LINE of a file outside the project"


def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET + "\nmore\n")
    return secret


def link(rel: str, target: Callable[[Path], Path]) -> Callable[[Sandbox, Path], None]:
    def make(b: Sandbox, tmp_path: Path) -> None:
        (b.project / rel).symlink_to(target(tmp_path))

    return make


def named(name: bytes) -> Callable[[Sandbox, Path], None]:
    def make(b: Sandbox, _tmp: Path) -> None:
        folder = os.fsencode(b.project / "content")
        with open(os.path.join(folder, name), "w") as f:
            f.write("---\ntitle: A page\n---\n\nWords.\n")

    return make


CASES: dict[str, tuple[Callable[[Sandbox, Path], None], str]] = {
    "a content link leaving the project": (
        link("content/leak.md", outside),
        r"^error: content/leak\.md: file: expected a file inside the project, found a symbolic link to a file "
        r"outside it$",
    ),
    "a content link to /etc/passwd": (
        link("content/passwd.md", lambda _t: Path("/etc/passwd")),
        r"^error: content/passwd\.md: file: expected a file inside the project",
    ),
    "a template link leaving the project": (
        link("templates/leak.html", outside),
        r"^error: templates/leak\.html: file: expected a file inside the project",
    ),
    "a data link leaving the project": (
        link("data/leak.yaml", outside),
        r"^error: data/leak\.yaml: file: expected a file inside the project",
    ),
    "a link loop": (
        link("content/loop", lambda _t: Path("..")),
        r"^error: content/loop: file: expected a file or folder, not a link to a folder, found a symbolic link$",
    ),
    "a file name that is not UTF-8": (
        named(b"caf\xe9.md"),
        r"^error: content/caf\\xe9\.md: file name: expected a name in UTF-8, found bytes that are not UTF-8$",
    ),
    "a file name with a newline and an escape sequence": (
        named(b"a\n\x1b[31mb.md"),
        r"^error: content/a\\n\\x1b\[31mb\.md: file name: expected names of letters",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_outside_files_are_neither_read_nor_echoed(
    name: str, box: Sandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, message = CASES[name]
    make(box, tmp_path)
    site = tree_digest(box.out)
    capsys.readouterr()
    assert main(box.args()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err, repr(err)
    assert re.search(message, err.strip()), err
    assert SECRET not in err and "root:" not in err
    assert tree_digest(box.out) == site
    assert leftovers(box.out.parent) == []


def test_thousands_of_equal_headings_build(box: Sandbox) -> None:
    """20,000 headings with one text (quadratic before: 73 s); ids as the anchors plugin gives them."""
    body = "".join("## a\n\nWords.\n\n" for _ in range(20_000))
    box.write("content/cit/many.md", ("---\ntitle: Many headings\n---\n\n" + body).encode())
    assert main(box.args()) == 0
    html = (box.out / "cit" / "many" / "index.html").read_text("utf-8")
    assert 'id="a"' in html and 'id="a-1"' in html and 'id="a-19999"' in html


INVISIBLE = ["\u200b", "\u00a0", "\u200d", "\ufeff", "\u2028"]


@pytest.mark.parametrize(
    "markup",
    [":fig[exp.final.B{c}]", ":term[fixed-band{c}]", ":fi{c}g[exp.final.B]", ":te{c}rm[fixed-band]"],
)
@pytest.mark.parametrize("c", INVISIBLE[:2])
def test_an_invisible_character_in_markup_is_an_error_not_published(
    markup: str, c: str, box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    box.content("content/cit/optics.md", lambda t: t + f"\nThe loss {markup.format(c=c)} here.\n")
    capsys.readouterr()
    assert main(box.args()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.match(r"error: content/cit/optics\.md: line \d+: expected ", err), err


NAME_CHARS = st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(
    ["\n", "\x1b", "\t", *INVISIBLE]
)
BODY_PARTS = st.sampled_from(
    [
        "Words.",
        "## a",
        ":fig[exp.final.B]",
        ":fig[exp.final.B\u200b]",
        ":term[fixed-band]",
        ":figure[x]",
        "::chart[amdahl]",
        "x ::chart[amdahl]",
        "::: note\ninside\n:::",
        "> " * 60 + "deep",
        "- " * 40 + "deep",
        "| a | b |\n|---|---|\n| c | d |",
        "[link](/cit/)",
        "[bad](javascript:alert)",
        "<b>raw</b>",
        "`code 0.9`",
        "\u202eRTL",
        "\x00nul",
    ]
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(NAME_CHARS, min_size=1, max_size=12), parts=st.lists(BODY_PARTS, min_size=1, max_size=8))
def test_hostile_names_and_content_give_one_line_or_a_clean_build(
    name: str, parts: list[str], box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = box.project / "content" / "fuzz"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    body = "---\ntitle: Fuzzed\n---\n\n" + "\n\n".join(parts) + "\n"
    try:
        (folder / f"{name.replace('/', '_')}.md").write_text(body, encoding="utf-8", errors="surrogateescape")
    except (OSError, ValueError):
        return  # a name the file system itself refuses (NUL, too long): nothing to build
    site = tree_digest(box.out)
    capsys.readouterr()
    code = main(box.args())
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    if code == 0:
        assert out.err == ""
    else:
        assert code == 1 and out.err.count("\n") == 1 and out.err.startswith("error: "), repr(out.err)
        assert "\x1b" not in out.err
        assert tree_digest(box.out) == site
    assert leftovers(box.out.parent) == []


@pytest.mark.parametrize("utf8_mode", ["0", "1"])
def test_a_non_ascii_out_under_an_ascii_locale_is_one_line_or_a_build(utf8_mode: str, box: Sandbox) -> None:
    env = {**os.environ, "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": utf8_mode}
    out = box.root / "sité"
    args = [*box.args()[:-4], "--out", str(out), *box.args()[-2:]]
    got = subprocess.run(
        [sys.executable, "-m", "site_builder", *args], cwd=PROJECT, env=env, capture_output=True, timeout=600
    )
    err = got.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    if utf8_mode == "1":
        assert got.returncode == 0, err
    else:
        assert got.returncode == 1 and err.count("\n") == 1, err
        assert re.match(r"error: --out .*sit\\xc3\\xa9: expected a path the locale decodes", err), err
        assert not out.exists()


def test_an_unusable_jobs_setting_is_one_line(box: Sandbox) -> None:
    env = {**os.environ, "SITE_BUILDER_JOBS": "abc"}
    got = subprocess.run(
        [sys.executable, "-m", "site_builder", *box.args(), "--no-cache"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert got.returncode == 1 and got.stderr.count("\n") == 1, got.stderr
    assert got.stderr.startswith("error: SITE_BUILDER_JOBS: environment: expected a whole number")
