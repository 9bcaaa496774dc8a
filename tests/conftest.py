"""Shared fixtures: where the project and the external inputs are, and the project's one printed build of the run."""

from __future__ import annotations

import fcntl
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
VENDOR = PROJECT.parent / "shared" / "vendor"
REFERENCE = PROJECT.parent / "shared" / "reference"


@pytest.fixture(scope="session")
def experiment():
    from site_builder.sources.experiment import load_experiment

    return load_experiment(VENDOR)


def built_once(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str, make: Callable[[Path], None]
) -> Path:
    """The folder ``name`` that ``make(folder)`` fills, once for the whole run: under pytest-xdist the first worker to
    ask builds it into the run's shared temporary folder while the others wait on a lock, then every worker reads the
    same files. Safe to share because no test writes into them (the servers only read them; a test that builds from
    them copies them first)."""
    if worker_id == "master":  # one process: its own folder
        out = tmp_path_factory.mktemp(name) / name
        make(out)
        return out
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, above every worker's own
    out, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                make(out)
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


@dataclass(frozen=True)
class PrintedBuild:
    """The project built as ``make site`` builds it, the decks' PDFs printed in Chromium, into a cache folder of its
    own that starts empty: the site, that cache (its PDF store among it), the build's log and the decks it printed."""

    site: Path
    cache: Path
    log: list[str]
    printed: list[str]


@pytest.fixture(scope="session")
def printed_build(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> PrintedBuild:
    """The project's cold build with printing, once for the whole run (``built_once``). The browser tests read its
    site (``site_dir``); tests/build/test_pdf_store.py takes it as its cold build (its PDF store, PDFs and log), one
    printing of every deck for both."""

    def make(folder: Path) -> None:
        from site_builder.build import Options, build

        lines: list[str] = []
        opts = Options(project=PROJECT, out=folder / "site", vendor=VENDOR, reference=REFERENCE, cache=folder / "cache")
        summary = build(opts, log=lines.append)
        (folder / "build.json").write_text(json.dumps({"log": lines, "printed": summary.printed}), encoding="utf-8")

    folder = built_once(tmp_path_factory, worker_id, "printed-build", make)
    record = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    return PrintedBuild(folder / "site", folder / "cache", record["log"], record["printed"])
