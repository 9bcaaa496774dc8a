"""The typed-number rule: a number a reader sees is a registered figure, never text typed into the page.

Every word holding a digit in a page's prose (paragraphs, headings, lists, tables, link text, image text)
and in the front matter the site shows (title, summary, lead, kicker, description, nav, a term's short
definition) must be one of the names below; anything else is an error asking for a figure. Code spans and
fenced code are literal code, not prose, and are not read. ``docs/writing.md`` lists the same names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from markdown_it.token import Token

from site_builder.datatypes import dataclass
from site_builder.errors import InputError

# Names that hold digits but are not numbers: each a full match of one word (punctuation around it stripped).
NAMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a section number (§2, §7a, §2–§4)", re.compile(r"§\d+[a-z]?(?:[–-]§?\d+[a-z]?)?")),
    (
        "a number format (BF16, FP8, FP32, INT8, int64, E4M3, E5M2)",
        re.compile(r"(?:BF|FP|INT|int|uint)(?:4|8|16|32|64)|E[45]M[23]"),
    ),
    (
        "a model name (Llama-3-8B, Llama-3-8B-shaped, GPT-2, Hyena-2)",
        re.compile(r"(?:Llama-\d(?:\.\d)?(?:-\d+B)?|GPT-\d|Hyena-\d)(?:-[a-z]+)?"),
    ),
    ("an accelerator name (H100, A100, B200, TPUv4)", re.compile(r"[HAB]\d{3}|TPUv\d")),
    ("a rule or optics name (6N, 4f, 2f)", re.compile(r"6N|[24]f")),
    ("a dimension name (1-D, 2-D, 3-D)", re.compile(r"[123]-D")),
    ("a norm name (L1, L2)", re.compile(r"L[12]")),
    ("a module form factor (QSFP56, QSFP28, OSFP)", re.compile(r"Q?SFP(?:\d+|-DD)?|OSFP")),
)
# Words that, directly after a number, make it a name: an Ethernet standard ("100 GbE", "25 GbE").
NAME_AFTER = frozenset({"GbE"})
# Words that, directly before a two-digit number, make it a deck number: "FOptTrn 01", "CiT 05", "deck 04"
# (FOptInf: the sister series on inference, whose findings the decks quote).
DECK_WORDS = frozenset({"FOptTrn", "FOptInf", "CiT", "Deck", "deck", "Decks", "decks"})
DECK_NUMBER = re.compile(r"\d{2}")
CITATION = re.compile(r"\((?:19|20)\d{2}[a-z]?\)|(?:19|20)\d{2}[a-z]?")  # a year, after "et al." or in (…)
WORD = re.compile(r"\S+")
STRIP = "\"'“”‘’()[]{},.;:!?*_…"
# Inline markup of a front-matter string (not parsed as Markdown there): what is not read as prose.
FIG_MARKUP = re.compile(r":fig\[[^\]]*\]")
TERM_KEY = re.compile(r":term\[[a-z0-9-]+(?:\|([^\]\n]+))?\]")
CODE_SPAN = re.compile(r"`[^`]*`")
URL_PART = re.compile(r"\]\([^)]*\)")

META_LINE = re.compile(r"^(?:Terms|Source):")
SHOWN_FRONT_MATTER = ("title", "summary", "lead", "kicker", "description", "nav", "short")

RULE = "a figure (:fig[key]; numbers are never typed, see docs/writing.md)"


@dataclass(frozen=True)
class Typed:
    """A number typed as text: the word, and the text around it (for the message)."""

    word: str
    context: str


def _allowed(word: str, previous: str, before: str, following: str) -> bool:
    if any(pattern.fullmatch(word) for _, pattern in NAMES):
        return True
    if word.isdigit() and following.strip(STRIP) in NAME_AFTER:
        return True
    if DECK_NUMBER.fullmatch(word) and previous.strip(STRIP) in DECK_WORDS:
        return True
    if CITATION.fullmatch(word) and (before.rstrip().endswith("et al.") or word.startswith("(")):
        return True
    return False


def typed_in(text: str) -> Iterator[Typed]:
    """The words of plain prose ``text`` that hold a digit and are not an allowed name."""
    words = list(WORD.finditer(text))
    for i, m in enumerate(words):
        raw = m.group(0)
        if any(c.isdecimal() for c in raw):  # a superscript (D²NN, m²) is part of a name or unit, not a number
            word = raw.strip(STRIP)
            before = text[: m.start()]
            previous = words[i - 1].group(0) if i else ""
            following = words[i + 1].group(0) if i + 1 < len(words) else ""
            bare = re.sub(r"['’]s$", "", word)  # a name's possessive ("Hyena-2's") is the name
            if not any(_allowed(w, previous, before, following) for w in (word, bare, raw.rstrip(",.;:"))):
                lo, hi = max(0, m.start() - 30), min(len(text), m.end() + 30)
                yield Typed(word or raw, " ".join(text[lo:hi].split()))


def typed_in_tokens(tokens: Iterable[Token], skip_meta: bool = False) -> Iterator[tuple[Typed, list[int] | None]]:
    """Typed numbers in a parsed page: the text of every inline token (figures, terms' keys, code spans and link
    addresses are not text), with the line span of the block holding it. A term's shown text is prose."""
    for t in tokens:
        if t.type != "inline" or not t.children:
            continue
        if skip_meta and META_LINE.match(t.content):
            continue  # a deck's Terms: and Source: lines name glossary keys and sections, not numbers
        parts: list[str] = []
        _text_of(t.children, parts)
        for typed in typed_in("".join(parts)):
            yield typed, t.map


def _text_of(children: list[Token], parts: list[str]) -> None:
    for c in children:
        if c.type == "text":
            parts.append(c.content)
        elif c.type == "term" and c.meta.get("text"):
            parts.append(c.meta["text"])
        elif c.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif c.type in ("fig", "code_inline"):
            parts.append(" ")  # a figure or code stands between words, never part of one
        elif c.type == "image" and c.children:  # its text alternative is prose
            _text_of(c.children, parts)
            parts.append(" ")


def front_matter_text(value: str) -> str:
    """A front-matter string as prose: figures, code spans, term keys and link addresses taken out."""
    value = FIG_MARKUP.sub(" ", value)
    value = CODE_SPAN.sub(" ", value)
    value = URL_PART.sub("]", value)
    return TERM_KEY.sub(lambda m: m.group(1) or " ", value)


def typed_error(label: str, where: str, typed: Typed) -> InputError:
    return InputError(label, where, f"{RULE} for {typed.word!r} in “…{typed.context}…”", "typed text")


def check_front_matter(label: str, meta: dict[str, object]) -> None:
    """The rule for the front matter the site shows (title, summary, lead, …, a term's short definition)."""
    for name in SHOWN_FRONT_MATTER:
        value = meta.get(name)
        if isinstance(value, str):
            for typed in typed_in(front_matter_text(value)):
                raise typed_error(label, f"front matter.{name}", typed)
