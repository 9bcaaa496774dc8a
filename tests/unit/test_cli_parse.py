"""site_builder/cli.py parse: a command's parser alone reads its command line as the whole parser does."""

from __future__ import annotations

import contextlib
import io

import pytest

from site_builder import cli

GOOD = [
    ["build"],
    ["build", "--no-pdf", "--out", "o", "--cache", "c", "--template-seconds", "2.5", "--site-url", "https://x/"],
    ["build", "--no-c"],  # an abbreviation
    ["serve", "--port", "9000"],
    ["figures", "exp.final.*", "--cache", "c"],
    ["explain", "exp.final.B"],
    ["changes", "a", "b"],
    ["pdf", "--out", "o"],
    *([name] for name in ("results", "pin", "check", "terms", "charts")),
]
BAD = [
    ["build", "--bogus"],
    ["build", "--template-seconds", "x"],
    ["build", "extra"],
    ["explain"],
    ["bogus"],
    [],
    ["serve", "--port", "eighty"],
]


def whole(argv: list[str]) -> tuple[object, str, str]:
    """What the whole parser makes of ``argv``: the arguments or the exit code, and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            got: object = vars(cli.parser().parse_args(argv))
        except SystemExit as e:
            got = ("exit", e.code)
    return got, out.getvalue(), err.getvalue()


def parsed(argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            got: object = vars(cli.parse(argv))
        except SystemExit as e:
            got = ("exit", e.code)
    return got, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", GOOD + BAD + [["build", "--help"], ["build", "--he"], ["--help"]], ids=" ".join)
def test_a_command_line_reads_as_the_whole_parser_reads_it(argv: list[str]) -> None:
    assert parsed(argv) == whole(argv)


def test_every_command_is_in_the_whole_parser_and_a_good_line_needs_no_other() -> None:
    assert set(cli.COMMANDS) == {"build", "serve", "results", "pin", "pdf", "check", "figures", "terms", "explain",
                                 "changes", "charts"}  # fmt: skip
    for argv in GOOD:
        only = cli.parser(argv[0])
        assert vars(only.parse_args(argv)) == whole(argv)[0], argv
