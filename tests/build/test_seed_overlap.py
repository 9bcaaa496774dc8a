"""The prose is ours: no run of ten or more words on a built page, or in the Markdown it is made from, is a
seed document's own (the seeds give the facts and figures, never the sentences)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.build.test_bad_inputs import built_site
from tests.conftest import PROJECT

__all__ = ["built_site"]

TOOL = PROJECT.parent / "shared" / "tools" / "seed-overlap"


def test_no_page_shares_ten_words_with_a_seed(built_site: Path) -> None:
    assert TOOL.is_file(), f"{TOOL} is missing (it reads ../shared/seeds)"
    content = built_site.parent / "project" / "content"
    got = subprocess.run(
        [sys.executable, str(TOOL), str(built_site), "--content", str(content)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    last = got.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"seed-overlap: (\d+) runs of >= 10 words in (\d+) files \(longest (\d+)\)", last)
    assert m is not None, got.stdout[-2000:] + got.stderr
    assert m.group(1) == "0", got.stdout[-6000:]
    assert got.returncode == 0
