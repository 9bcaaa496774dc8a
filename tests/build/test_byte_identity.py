"""Every file the build writes is byte for byte what the reference build wrote.

The reference is ``tests/build/output_manifest.txt``: the SHA-256 of each file of a cold build (``--no-cache``)
of this project, regenerated when the decks' slides and the PDFs the build prints were merged (issue 19), before
the build is split into phases. A restructuring of the build must leave it as it is. Only a change meant to alter the output regenerates it, with the command

    .venv/bin/python scripts/output_manifest.py

and says so in its commit. The cached builds are held to the cold one by tests/build/test_render_cache.py.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from site_builder.cli import main
from tests.conftest import PROJECT

SCRIPT = PROJECT / "scripts" / "output_manifest.py"


def _manifest_module() -> ModuleType:  # a script, loaded by its path
    spec = importlib.util.spec_from_file_location("output_manifest", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_cold_build_writes_the_reference_bytes(tmp_path: Path) -> None:
    manifest = _manifest_module()
    out = tmp_path / "site"
    assert main(["build", "--project", str(PROJECT), "--out", str(out), "--no-cache"]) == 0
    have, want = manifest.digests(out), manifest.read_manifest()
    assert sorted(set(want) - set(have)) == [], "files the reference build wrote are missing"
    assert sorted(set(have) - set(want)) == [], "files the reference build did not write"
    differ = sorted(name for name in want if have[name] != want[name])
    assert differ == [], f"{len(differ)} files differ from the reference build: {differ[:10]}"
