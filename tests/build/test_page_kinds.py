"""Every page kind is registered in one place (site_builder/kinds/ KINDS) and nothing else branches on a kind's
name: each kind's template exists, the kinds a content file may ask for are the registered content kinds, and no
module outside site_builder/kinds/ compares ``kind.name`` with a string literal."""

from __future__ import annotations

import dataclasses
import re

import pytest

from site_builder.content.pages import load_page
from site_builder.content.plan import Kind
from site_builder.errors import InputError
from site_builder.kinds import CONTENT_KINDS, KINDS
from tests.conftest import PROJECT

_NAMES = "|".join(sorted(KINDS))
NAME_COMPARED = re.compile(  # kind.name, or any *kind compared with a registered kind's name
    r"kind\.name\s*(==|!=|\bin\b|\bnot in\b)\s*[\(\[\{]?\s*[\"']|[\"']\s*(==|!=)\s*\w*\.?kind\.name"
    rf"|\bkind\s*(==|!=)\s*[\"']({_NAMES})[\"']|[\"']({_NAMES})[\"']\s*(==|!=)\s*[\w.]*\bkind\b"
)


def test_every_kind_has_its_template_and_its_own_name() -> None:
    for name, kind in KINDS.items():
        assert isinstance(kind, Kind) and kind.name == name
        assert (PROJECT / "templates" / kind.template).is_file(), f"{name}: templates/{kind.template}"


def test_the_kinds_a_content_file_may_name_are_the_registered_content_kinds() -> None:
    assert CONTENT_KINDS == {k.name: k for k in KINDS.values() if k.from_content}
    assert {"results", "figures", "notfound"}.isdisjoint(CONTENT_KINDS)


def test_each_content_kind_is_accepted_in_front_matter(tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "content"
    for name in CONTENT_KINDS:
        folder = root / "cit" / "decks" if name == "deck" else root
        folder.mkdir(parents=True, exist_ok=True)
        extra = "deck: CiT 01\nsummary: A deck.\n" if name == "deck" else ""
        path = folder / ("01-a.md" if name == "deck" else f"{name}.md")
        path.write_text(f"---\ntitle: A {name}\nkind: {name}\n{extra}---\n\nText.\n", encoding="utf-8")
        assert load_page(path, root, CONTENT_KINDS).kind == name


def test_no_module_outside_the_kinds_compares_a_kind_name_with_a_literal() -> None:
    found = [
        f"{path.relative_to(PROJECT)}:{n}"
        for path in sorted((PROJECT / "site_builder").rglob("*.py"))
        if "kinds" not in path.relative_to(PROJECT / "site_builder").parts[:1]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NAME_COMPARED.search(line)
    ]
    assert found == []
    assert NAME_COMPARED.search('if p.kind.name == "deck":') and NAME_COMPARED.search('p.kind.name in ("hub", "x")')
    assert NAME_COMPARED.search('skip_meta=page.kind == "deck"') and NAME_COMPARED.search("'deck' != kind")
    assert not NAME_COMPARED.search('meta.get("kind", "page")')


def test_a_kind_s_folder_and_front_matter_are_declared_on_the_kind_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A kind with a folder of its own (as decks have content/<series>/decks/) and keys of its own: load_page
    takes both from the kind, so a new kind of this sort is declared in its module and KINDS only."""
    note = dataclasses.replace(KINDS["page"], name="note", folder="notes", front_matter=("due",), meta_lines=True)
    kinds = {**CONTENT_KINDS, "note": note}
    root = tmp_path / "content"
    (root / "cit" / "notes").mkdir(parents=True)
    inside = root / "cit" / "notes" / "01-a.md"
    inside.write_text("---\ntitle: A note\nkind: note\ndue: soon\n---\n\nText.\n", encoding="utf-8")
    page = load_page(inside, root, kinds)
    assert page.kind == "note" and page.meta_lines and page.meta["due"] == "soon"
    outside = root / "b.md"
    outside.write_text("---\ntitle: A note\nkind: note\n---\n\nText.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^content/b\.md: front matter\.kind: expected a note only in a file under "):
        load_page(outside, root, kinds)
    plain = root / "cit" / "notes" / "02-b.md"
    plain.write_text("---\ntitle: A page\n---\n\nText.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"expected note \(a file under content/<series>/notes/ is a note\).*no kind"):
        load_page(plain, root, kinds)
    stray = root / "c.md"
    stray.write_text("---\ntitle: A page\ndue: soon\n---\n\nText.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^content/c\.md: front matter"):
        load_page(stray, root, kinds)  # "due" belongs to notes only


def test_an_unknown_kind_is_a_one_line_error_naming_the_file_and_the_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "content"
    root.mkdir()
    path = root / "a.md"
    path.write_text("---\ntitle: A page\nkind: pgae\n---\n\nText.\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_page(path, root, CONTENT_KINDS)
    assert "\n" not in str(e.value)
    assert str(e.value).startswith("content/a.md: front matter.kind: expected one of " + ", ".join(CONTENT_KINDS))
    assert "'pgae'" in str(e.value) and "page" in str(e.value)
