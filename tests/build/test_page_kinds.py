"""Every page kind is registered in one place (site_builder/kinds/ KINDS) and nothing else branches on a kind's
name: each kind's template exists, the kinds a content file may ask for are the registered content kinds, and no
module outside site_builder/kinds/ compares ``kind.name`` with a string literal."""

from __future__ import annotations

import re

import pytest

from site_builder.content.pages import load_page
from site_builder.content.plan import Kind
from site_builder.errors import InputError
from site_builder.kinds import CONTENT_KINDS, KINDS
from tests.conftest import PROJECT

NAME_COMPARED = re.compile(
    r"kind\.name\s*(==|!=|\bin\b|\bnot in\b)\s*[\(\[\{]?\s*[\"']|[\"']\s*(==|!=)\s*\w*\.?kind\.name"
)


def test_every_kind_has_its_template_and_its_own_name() -> None:
    for name, kind in KINDS.items():
        assert isinstance(kind, Kind) and kind.name == name
        assert (PROJECT / "templates" / kind.template).is_file(), f"{name}: templates/{kind.template}"


def test_the_kinds_a_content_file_may_name_are_the_registered_content_kinds() -> None:
    assert CONTENT_KINDS == tuple(k.name for k in KINDS.values() if k.from_content)
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
