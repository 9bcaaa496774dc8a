"""Every results document is the same, byte for byte, whichever SIMD units NumPy dispatches to.

NumPy picks its vector kernels (SSE, AVX2, AVX-512) at run time, and reductions such as ``np.sum`` or a dot
product add in an order that depends on that choice. The committed ``data/<name>/results.{md,json}`` must
not: each case below recomputes every document in a fresh interpreter with ``NPY_DISABLE_CPU_FEATURES``
set, so that NumPy falls back to narrower kernels, and compares it with the committed files.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT, REFERENCE, VENDOR

# (id, NPY_DISABLE_CPU_FEATURES value or None, /proc/cpuinfo flag the disabled level needs to be present)
SETTINGS: tuple[tuple[str, str | None, str | None], ...] = (
    ("native", None, None),
    ("no-avx512", "X86_V4 AVX512_ICL AVX512_SPR", "avx512f"),
    ("no-avx2", "X86_V3 X86_V4 AVX512_ICL AVX512_SPR", "avx2"),
)

# Runs in the child: which of the disabled features NumPy still reports as enabled, and every document.
CHILD = r"""
import json, os, sys
from pathlib import Path

try:
    from numpy._core._multiarray_umath import __cpu_features__ as features
except ImportError:  # NumPy 1.x
    from numpy.core._multiarray_umath import __cpu_features__ as features

from site_builder import build

project, vendor, reference = (Path(a) for a in sys.argv[1:4])
opts = build.Options(project=project, vendor=vendor, reference=reference)
try:  # the producers' own module, with inputs loaded from resolved paths
    from site_builder.results.producers import PRODUCERS
    from site_builder.results.producers import load_inputs

    inputs = load_inputs(opts.paths())
except ImportError:  # the site map holds the producers, inputs loaded from the options
    from site_builder.site import PRODUCERS

    inputs = build.load_inputs(opts)
names = os.environ.get("NPY_DISABLE_CPU_FEATURES", "").split()
out = {
    "unknown": [n for n in names if n not in features],
    "still_enabled": [n for n in names if features.get(n)],
    "files": {},
}
for p in PRODUCERS:
    doc = p.build(inputs)  # recomputed here, never read from a cache
    out["files"][f"{p.name}/results.md"] = doc.to_markdown()
    out["files"][f"{p.name}/results.json"] = doc.to_json()
json.dump(out, sys.stdout)
"""


def _cpu_flags() -> set[str] | None:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set()


def _skip_reason(flag: str | None) -> str | None:
    """Why a setting that disables the level needing ``flag`` would test nothing here, or None."""
    if flag is None:
        return None
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return f"NumPy's x86 feature levels do not exist on {machine or 'this machine'}"
    flags = _cpu_flags()
    if flags is None:
        return "cannot read /proc/cpuinfo to tell which x86 features this CPU has"
    if flag not in flags:
        return f"this CPU lacks {flag}: NumPy never dispatches to the kernels this setting disables"
    return None


def first_difference(committed: str, computed: str) -> str:
    """The first line where two texts differ, with its number, for a failure message."""
    a, b = committed.splitlines(keepends=True), computed.splitlines(keepends=True)
    for i, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return f"line {i}:\n  committed: {x!r}\n  computed:  {y!r}"
    if len(a) != len(b):
        i = min(len(a), len(b)) + 1
        extra = "committed" if len(a) > len(b) else "computed"
        line = (a if len(a) > len(b) else b)[i - 1]
        return f"line {i}: only the {extra} text has it: {line!r}"
    return "the texts differ only in their final line ending"


def test_first_difference_names_the_line() -> None:
    assert "line 2:" in first_difference("a\nb\nc\n", "a\nB\nc\n")
    assert "line 3: only the computed text has it" in first_difference("a\nb\n", "a\nb\nc\n")


@pytest.mark.parametrize(("disable", "flag"), [s[1:] for s in SETTINGS], ids=[s[0] for s in SETTINGS])
def test_results_are_identical_with_fewer_simd_features(disable: str | None, flag: str | None) -> None:
    reason = _skip_reason(flag)
    if reason:
        pytest.skip(reason)
    env = dict(os.environ)
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    if disable is not None:
        env["NPY_DISABLE_CPU_FEATURES"] = disable
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(PROJECT), str(VENDOR), str(REFERENCE)],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"recomputing the results failed:\n{proc.stderr[-3000:]}"
    out = json.loads(proc.stdout)
    if out["unknown"]:
        pytest.skip(f"this NumPy has no CPU feature named {', '.join(out['unknown'])}")
    assert not out["still_enabled"], f"NPY_DISABLE_CPU_FEATURES did not disable {out['still_enabled']}"
    files = out["files"]
    committed_files = sorted(
        p.relative_to(PROJECT / "data").as_posix()
        for ext in ("md", "json")
        for p in (PROJECT / "data").glob(f"*/results.{ext}")
    )
    assert sorted(files) == committed_files, "the producers and the committed results files do not match"
    problems = []
    for rel, computed in files.items():
        committed = (PROJECT / "data" / rel).read_text(encoding="utf-8")
        if committed != computed:
            problems.append(f"data/{rel} differs at {first_difference(committed, computed)}")
    if problems:
        pytest.fail(f"with NPY_DISABLE_CPU_FEATURES={disable or '(unset)'}:\n" + "\n".join(problems), pytrace=False)
