"""The browser libraries the site ships (site_builder/static/vendor/), pinned by SHA-256.

``static/vendor/SHA256SUMS`` lists every vendored file with its digest (``sha256sum`` format) and
``static/vendor/VERSIONS`` the package and version each folder comes from; ``scripts/vendor_js.py``
rewrites both. The build refuses a vendored file that changed, is missing, or is not listed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from site_builder.errors import InputError

VENDOR = Path(__file__).resolve().parent / "static" / "vendor"
SUMS = "SHA256SUMS"
META = {SUMS, "VERSIONS"}


def verify(folder: Path = VENDOR) -> int:
    """Check every vendored browser file against its pin; returns how many were checked."""
    label = f"site_builder/static/vendor/{SUMS}"
    try:
        lines = (folder / SUMS).read_text(encoding="utf-8").splitlines()
    except OSError:
        raise InputError(label, "file", "the pins of the vendored browser libraries", "no such file") from None
    pinned: dict[str, str] = {}
    for n, line in enumerate(lines, start=1):
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name or name.startswith("/") or ".." in Path(name).parts:
            raise InputError(label, f"line {n}", "'<sha256>  <relative path>'", repr(line[:60]))
        pinned[name] = digest
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} - META
    for name in sorted(present - pinned.keys()):
        raise InputError(f"site_builder/static/vendor/{name}", "file", f"a file pinned in {SUMS}", "an unpinned file")
    for name, digest in pinned.items():
        path = folder / name
        if not path.is_file():
            raise InputError(
                f"site_builder/static/vendor/{name}", f"pinned in {SUMS}", "a vendored file", "no such file"
            )
        got = hashlib.sha256(path.read_bytes()).hexdigest()
        if got != digest:
            raise InputError(
                f"site_builder/static/vendor/{name}",
                f"sha256 pinned in {SUMS}",
                f"{digest[:16]}…",
                f"{got[:16]}… (file changed)",
            )
    return len(pinned)
