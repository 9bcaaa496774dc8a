"""The site a build makes, as the phases after render read it: the files written into the temporary folder, over
the files carried from the previous output.

When ``--out`` is as the last successful build left it (:attr:`site_builder.cache.uptodate.State.intact`), a file
this build would write byte for byte as that build did is not written again: it is *carried* (named here) and read
where it is, in ``--out``. The temporary folder then holds only the files written anew. Once every check has
passed, :meth:`Overlay.publish` puts them into ``--out`` by one rename each and removes the files this build no
longer makes, so a one-page edit touches a handful of files, not the site's thousands. When most of the site was
written anew (or a phase needs the whole site in one folder, as printing a deck does), the carried files are
hard-linked into the temporary folder instead and it replaces ``--out`` whole by renames, as on a cold build.

Either way nothing in ``--out`` changes before every check has passed. A build stopped while it updates ``--out``
in place leaves the last build's record behind, which no longer matches the folder: the next build is then a
whole one (the record is written only after the update).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

from site_builder import outdir
from site_builder.errors import BuildError


def _walk(root: Path) -> tuple[list[str], set[str]]:
    """The files (sorted) and folders under ``root``, as paths relative to it."""
    files: list[str] = []
    dirs: set[str] = set()
    base = os.fspath(root)
    for folder, subdirs, names in os.walk(base):
        rel = folder[len(base) + 1 :].replace(os.sep, "/")
        prefix = f"{rel}/" if rel else ""
        dirs.update(prefix + d for d in subdirs)
        files.extend(prefix + n for n in names)
    return sorted(files), dirs


def _parents(files: Iterable[str]) -> set[str]:
    dirs: set[str] = set()
    for rel in files:
        while "/" in rel:
            rel = rel.rsplit("/", 1)[0]
            if rel in dirs:
                break
            dirs.add(rel)
    return dirs


class Overlay:
    """The files written into ``new`` (the build's temporary folder), over those carried from ``old`` (the previous
    output, holding ``old_files``, or None on a build that carries nothing)."""

    def __init__(self, new: Path, old: Path | None = None, old_files: frozenset[str] = frozenset()) -> None:
        self.new = new
        self.old = old
        self.old_files = old_files if old is not None else frozenset()
        self.carried: set[str] = set()
        # after a publish in place: the files written into --out, and the files and folders (ending in "/") removed
        self.published: tuple[list[str], list[str]] | None = None

    @staticmethod
    def of(site: Path | Overlay) -> Overlay:
        """``site`` as an overlay (a folder: the site it holds, nothing carried)."""
        return site if isinstance(site, Overlay) else Overlay(Path(site))

    def carry(self, rels: Iterable[str]) -> bool:
        """Carry each of ``rels`` from the previous output; False (and none carried) if any is not there."""
        wanted = list(rels)
        if self.old is None or not all(rel in self.old_files for rel in wanted):
            return False
        self.carried.update(wanted)
        return True

    def write(self, rel: str, data: bytes) -> None:
        """The site's file ``rel`` holding ``data``: carried when the previous output's holds those bytes (a small
        file the build makes anew each time, such as the sitemap), else written. Raises OSError."""
        if self.old is not None and rel in self.old_files:
            try:
                same = (self.old / rel).read_bytes() == data
            except OSError:
                same = False
            if same and self.carry([rel]):
                return
        path = self.new / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):  # a carried file linked in (materialize): replaced, never written through
            os.unlink(path)
        path.write_bytes(data)

    def files_under(self, folder: str) -> list[str]:
        """The previous output's files under ``folder``."""
        prefix = folder.rstrip("/") + "/"
        return sorted(rel for rel in self.old_files if rel.startswith(prefix))

    def path(self, rel: str) -> Path:
        """Where the site's file ``rel`` is: written into the temporary folder, or carried from the previous output."""
        return self.old / rel if self.is_carried(rel) and self.old is not None else self.new / rel

    def is_file(self, rel: str) -> bool:
        """Whether the site has the file ``rel``: carried (the previous output, intact, holds it: no need to look) or
        written into the temporary folder."""
        return rel in self.carried or (self.new / rel).is_file()

    def is_carried(self, rel: str) -> bool:
        """``rel`` is read from the previous output (carried, and not written since)."""
        return rel in self.carried and not os.path.lexists(self.new / rel)

    def listing(self) -> tuple[set[str], set[str]]:
        """Every file and folder of the site (paths relative to its root; the root is ``""``)."""
        files, dirs = _walk(self.new)
        return set(files) | self.carried, dirs | _parents(self.carried) | {""}

    def materialize(self) -> None:
        """Link every carried file into the temporary folder (which then holds the whole site); raises OSError."""
        assert self.old is not None or not self.carried
        for rel in sorted(self.carried):
            dest = self.new / rel
            if os.path.lexists(dest):
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.link(self.old / rel, dest)  # type: ignore[operator]
        self.carried.clear()

    def publish(self, out: Path, swap: Callable[[Path, Path], None]) -> None:
        """Make ``out`` the new site: in place when a few files changed, else by ``swap`` (temporary folder for
        ``out``, by renames) after linking the carried files in."""
        written, _dirs = _walk(self.new)
        if self.carried and len(written) <= len(self.carried):
            self._in_place(out, written)
            return
        try:
            self.materialize()
        except OSError as e:
            reason = (e.strerror or type(e).__name__).lower()
            raise BuildError(
                f"--out {out}: expected to link the unchanged files into the new site, found {reason}"
            ) from None
        swap(self.new, out)

    def _in_place(self, out: Path, written: list[str]) -> None:
        """The files written anew renamed into ``out`` (each replacing its old version at once), the files and folders
        this build does not make removed, the temporary folder removed."""
        keep = set(written) | self.carried
        removed: list[str] = []
        try:
            for rel in sorted(self.old_files - keep):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(out / rel)
                removed.append(rel)
            for rel in sorted(_parents(self.old_files) - _parents(keep), key=lambda d: -d.count("/")):
                with contextlib.suppress(OSError):
                    os.rmdir(out / rel)
                    removed.append(f"{rel}/")
            for rel in written:
                dest = out / rel
                if os.path.isdir(dest) and not os.path.islink(dest):
                    shutil.rmtree(dest)
                try:
                    os.replace(self.new / rel, dest)
                except FileNotFoundError:
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(self.new / rel, dest)
        except OSError as e:
            reason = (e.strerror or type(e).__name__).lower()
            raise BuildError(
                f"--out {out}: expected to update its changed files in place, found {reason} "
                f"({e.filename}); the next build writes it whole"
            ) from None
        self.published = (written, removed)
        shutil.rmtree(self.new, ignore_errors=True)


def previous_output(out: Path, intact: bool, listing: frozenset[str]) -> tuple[Path | None, frozenset[str]]:
    """The previous output to carry from: ``out`` when intact and built by this tool, else nothing."""
    if intact and listing and outdir.MARKER in listing:
        return out, listing
    return None, frozenset()
