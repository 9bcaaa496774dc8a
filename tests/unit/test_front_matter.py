"""A content file's front matter and body (content/pages.py split_front_matter): the same split, line for line, as
taking str.splitlines of the whole text, whether or not the text has line breaks other than \\n."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from site_builder.content.pages import split_front_matter
from site_builder.errors import InputError


def by_lines(text: str) -> tuple[str, str, int] | str:
    """The split as every line of the text gives it (the reference), or the error's expectation."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return "opening"
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if close is None:
        return "closing"
    return "\n".join(lines[1:close]), "\n".join(lines[close + 1 :]) + "\n", close + 2


class Front:
    """Front matter as text, not parsed (what the split gives the YAML reader)."""

    def parse(self, text: str, label: str) -> object:
        return {"head": text}


LINES = st.lists(
    st.sampled_from(["---", " --- ", "title: A", "", "body", "x: 1", "----", "- a", "\u2028", "tail \x0c"]), max_size=8
)


@given(LINES, st.sampled_from(["\n", "\n", "\n", "\r", "\u2028", "\x0b"]), st.booleans())
def test_the_split_is_the_one_every_line_gives(lines: list[str], sep: str, trailing: bool) -> None:
    text = sep.join(lines) + (sep if trailing else "")
    want = by_lines(text)
    if isinstance(want, str):
        with pytest.raises(InputError, match="front matter opening" if want == "opening" else "a closing --- line"):
            split_front_matter(text, "content/x.md", Front())  # type: ignore[arg-type]
        return
    head, body, line = want
    assert split_front_matter(text, "content/x.md", Front()) == ({"head": head}, body, line)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "---\n---\n",
        "---\n---",
        "---\ntitle: A\n---\nBody\n",
        "---\ntitle: A\n---\nBody",
        "---\n---\n\n\n",
        "---\n\n---\n",
    ],
)
def test_edge_cases_split_as_their_lines(text: str) -> None:
    head, body, line = by_lines(text)  # type: ignore[misc]
    assert split_front_matter(text, "content/x.md", Front()) == ({"head": head}, body, line)  # type: ignore[arg-type]
