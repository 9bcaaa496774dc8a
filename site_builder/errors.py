"""The one error type the build reports to the user: a single line naming where, what was expected and what was found."""

from __future__ import annotations

import re


class BuildError(Exception):
    """A problem that stops the build. ``str()`` is the one line shown to the user."""


class InputError(BuildError):
    """Bad input: names the file, the key path or line, the expectation and what was found."""

    def __init__(self, file: str, where: str, expected: str, found: str) -> None:
        file = printable(file)
        self.file = file
        self.where = where
        self.expected = expected
        self.found = found
        super().__init__(f"{file}: {where}: expected {expected}, found {found}")


def printable(name: str) -> str:
    """A file name as an error line shows it: newlines, control characters and bytes that are not UTF-8 escaped,
    so one error stays one line and no escape sequence reaches the terminal."""
    if name.isprintable():
        return name
    out = []
    for c in name:
        if 0xD800 <= ord(c) <= 0xDFFF:  # a byte that was not UTF-8, as Python keeps it in a name
            out.append(f"\\x{ord(c) & 0xFF:02x}")
        elif c.isprintable():
            out.append(c)
        else:
            out.append(c.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def describe(value: object, limit: int = 60) -> str:
    """A short, one-line description of a found value for error messages."""
    text = repr(value)
    text = text.replace("\n", "\\n")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(value).__name__} {text}"


SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: text that cannot be written as UTF-8 (the readers refuse it)."""


def one_line(text: str, limit: int = 120) -> str:
    """``text`` on one line, cut to ``limit`` characters: how a message quotes what it found."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
