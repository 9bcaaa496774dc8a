"""Write the SHA-256 of every file a cold build writes: ``tests/build/output_manifest.txt``.

The byte-identity test (tests/build/test_byte_identity.py) builds the site without any cache and compares
each output file with this manifest. Regenerate it only on purpose, when a change is meant to alter what the
site says or how it is written, and say so in the commit:

    .venv/bin/python scripts/output_manifest.py

It builds with ``--no-cache`` into a temporary folder (``--site DIR`` hashes a folder already built instead).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "build" / "output_manifest.txt"


def digests(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (by POSIX path relative to it) -> the SHA-256 of its bytes; the decks' PDFs are
    left out (the tests' builds do not print them: their bytes are held by tests/build/test_pdf_store.py)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix != ".pdf"
    }


def manifest_text(found: dict[str, str]) -> str:
    return "".join(f"{digest}  {name}\n" for name, digest in sorted(found.items()))


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        out[name] = digest
    return out


def cold_build(out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from site_builder.cli import main

    if main(["build", "--project", str(ROOT), "--out", str(out), "--no-cache"]) != 0:
        raise SystemExit("the build failed: no manifest written")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="hash this built folder instead of building one")
    args = parser.parse_args()
    if args.site is not None:
        found = digests(args.site)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            cold_build(Path(tmp) / "site")
            found = digests(Path(tmp) / "site")
    MANIFEST.write_text(manifest_text(found), encoding="utf-8")
    print(f"wrote {MANIFEST.relative_to(ROOT)}: {len(found)} files")


if __name__ == "__main__":
    main()
