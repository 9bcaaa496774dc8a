"""The one error type the build reports to the user: a single line naming where, what was expected and what was found."""

from __future__ import annotations


class BuildError(Exception):
    """A problem that stops the build. ``str()`` is the one line shown to the user."""


class InputError(BuildError):
    """Bad input: names the file, the key path or line, the expectation and what was found."""

    def __init__(self, file: str, where: str, expected: str, found: str) -> None:
        self.file = file
        self.where = where
        self.expected = expected
        self.found = found
        super().__init__(f"{file}: {where}: expected {expected}, found {found}")


def describe(value: object, limit: int = 60) -> str:
    """A short, one-line description of a found value for error messages."""
    text = repr(value)
    text = text.replace("\n", "\\n")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(value).__name__} {text}"
