"""A trial build: the whole build into a temporary folder outside the project, thrown away afterwards (with its
up-to-date record), for the commands that need every check a build makes or the figures' pages (``check``,
``figures``, ``explain``) without touching ``--out``."""

from __future__ import annotations

import contextlib
import dataclasses
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from site_builder.paths import Options

Log = Callable[[str], None]


@contextlib.contextmanager
def built(opts: Options, log: Log, print_decks: bool = True) -> Iterator[Path]:
    """A full build into a temporary folder, removed afterwards (with its up-to-date record). ``print_decks`` False:
    for a listing that reads the figures only, the decks' PDFs are not printed (see Options.print_decks)."""
    from site_builder.build import build
    from site_builder.cache import uptodate

    with tempfile.TemporaryDirectory(prefix="site-builder-check-") as folder:
        trial = dataclasses.replace(opts, out=Path(folder) / "site", print_decks=print_decks and opts.print_decks)
        try:
            build(trial, log=log, state=uptodate.check(trial))
            yield Path(folder) / "site"
        finally:
            record = uptodate.record_path(trial.paths())
            if record is not None:
                record.unlink(missing_ok=True)
