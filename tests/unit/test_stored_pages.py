"""Content pages an earlier build read (content/pages.py load_content with ``stored``): a file whose digest is the
stored one is not read; its body is read only when asked for, and only if its bytes are still those."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from site_builder.content import pages as content
from site_builder.content.pages import FrontMatter, load_content, stored_page
from site_builder.errors import InputError
from site_builder.kinds import CONTENT_KINDS

PAGE = "---\ntitle: Optics\nkind: page\n---\nThe body, as written.\n"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    (root / "cit").mkdir(parents=True)
    (root / "cit" / "optics.md").write_text(PAGE, encoding="utf-8")
    (root / "cit" / "method.md").write_text(PAGE.replace("Optics", "Method"), encoding="utf-8")
    return root


def digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root.parent).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*.md")
    }


def test_an_unchanged_file_is_taken_as_stored_and_read_only_for_its_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    first = FrontMatter()
    before = load_content(root, CONTENT_KINDS, first)
    stored = {p.label: (p.file_digest, p.body_line, first.of_label[p.label]) for p in before}
    (root / "cit" / "method.md").write_text(PAGE.replace("Optics", "Method").replace("written", "edited"), "utf-8")
    read: list[str] = []
    real = content.read_text_and_sha256
    monkeypatch.setattr(content, "read_text_and_sha256", lambda path, *a: read.append(path.name) or real(path, *a))
    front = FrontMatter(first.used)
    after = load_content(root, CONTENT_KINDS, front, stored, digests(root))
    assert read == ["method.md"]  # the edited file; the other is taken as stored
    fresh = load_content(root, CONTENT_KINDS, FrontMatter())
    read.clear()
    assert [p.__key_parts__() for p in after] == [p.__key_parts__() for p in fresh] and read == []
    assert after == fresh and read == ["optics.md"]  # comparing the bodies read the stored one's, once
    assert front.of_label == {p.label: first.of_label[p.label] for p in before}


def test_a_stored_page_whose_file_changed_since_is_one_line_when_its_body_is_read(tmp_path: Path) -> None:
    root = project(tmp_path)
    path = root / "cit" / "optics.md"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    page = stored_page(
        path, "content/cit/optics.md", "cit/optics/", CONTENT_KINDS["page"], {"title": "Optics"}, 5, digest
    )
    assert page.title == "Optics" and page.text_digest() == digest
    path.write_text(PAGE.replace("as written", "changed"), encoding="utf-8")
    with pytest.raises(InputError, match=r"^content/cit/optics\.md: file: expected the bytes the build started from"):
        _ = page.body
    path.write_text(PAGE, encoding="utf-8")
    assert page.body == "The body, as written.\n"


def test_a_stored_entry_that_does_not_match_is_read_again(tmp_path: Path) -> None:
    root = project(tmp_path)
    first = FrontMatter()
    before = load_content(root, CONTENT_KINDS, first)
    now = digests(root)
    for stored in (
        {p.label: ("0" * 64, p.body_line, first.of_label[p.label]) for p in before},  # another digest
        {p.label: (p.file_digest, p.body_line, "f" * 64) for p in before},  # front matter not known
    ):
        front = FrontMatter(first.used)
        after = load_content(root, CONTENT_KINDS, front, stored, now)  # type: ignore[arg-type]
        assert all("body" in p.__dict__ for p in after)  # each read now
