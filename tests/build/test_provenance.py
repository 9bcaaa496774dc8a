"""``explain KEY`` and ``changes OLD NEW``: where a figure comes from, and which figures an edit moved.

The unit tests run on small figure lists; the build tests edit an input of a sandbox (the experiment's earlier
version, results.05a68ae.*), rebuild and compare the two builds, and explain figures of the real build.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from site_builder.cli import main
from site_builder.commands import provenance
from site_builder.errors import BuildError
from site_builder.sources.pins import load_pins
from tests.build.test_bad_inputs import PREVIOUS_JSON, PREVIOUS_MD, SHARED_CACHE, Sandbox, box, json_edit
from tests.conftest import PROJECT

__all__ = ["box"]  # the fixture: a sandbox holding a copy of the good build

ZIGZAG = "tinystories-band-zigzag-k16-2d64-lr0.001"


def fig(key: str, text: str, value: Any = None, pages: tuple[str, ...] = (), row: str = "r") -> dict[str, Any]:
    return {
        "key": key,
        "text": text,
        "value": text if value is None else value,
        "source": {"file": "data/x/results.md", "section": "1. S", "row": [row], "column": "C", "page": "x/"},
        "pages": list(pages),
    }


# -- unit: compare and its lines ------------------------------------------------------------------
def test_compare_finds_changed_appeared_and_disappeared_and_leaves_the_rest() -> None:
    old = {f["key"]: f for f in (fig("a", "1"), fig("b", "2"), fig("c", "3"), fig("v", "4", 4.01))}
    new = {f["key"]: f for f in (fig("a", "1"), fig("b", "5", pages=("p/",)), fig("d", "6"), fig("v", "4", 4.02))}
    got = provenance.compare(old, new)
    assert [(c.kind, c.key) for c in got] == [
        ("changed", "b"),
        ("disappeared", "c"),
        ("appeared", "d"),
        ("changed", "v"),
    ]
    lines = provenance.change_lines(got, old, new)
    assert lines[0] == "changed\tb\t2 → 5\tdata/x/results.md § 1. S › r › C\t/p/"
    assert lines[1].startswith("disappeared\tc\t3\t") and lines[2].startswith("appeared\td\t6\t")
    assert "(value 4.01 → 4.02)" in lines[3]
    assert lines[-1] == "2 changed, 1 appeared, 1 disappeared, 1 unchanged (4 figures before, 4 after)"


def test_a_file_that_is_not_a_figure_list_is_one_line() -> None:
    with pytest.raises(BuildError, match=r"^x\.json: top level: expected a figures\.json"):
        provenance.by_key({"pages": []}, "x.json")
    with pytest.raises(BuildError, match=r"^x\.json: figures\[0\]: expected a figure with a key and a source"):
        provenance.by_key({"figures": [{"text": "1"}]}, "x.json")


def test_origin_names_the_producer_its_models_and_the_roots_it_reads() -> None:
    exp = provenance.origin_of("data/experiment/results.md")
    assert exp is not None and exp.writer == "site_builder.results.experiment.build_experiment_results"
    assert exp.models == ("site_builder.models.experiment",) and exp.reads == ("vendor",)
    ana = provenance.origin_of("data/analysis/results.md")
    assert ana is not None and ana.reads == () and any(m.startswith("site_builder.models.analysis") for m in ana.models)
    sim = provenance.origin_of("data/simulation/results.md")
    assert sim is not None and sim.reads == ("vendor", "reference")
    ven = provenance.origin_of("vendor/demo-fixed-band/tinystories-gpu/results.md")
    assert ven is not None and ven.writer == "site_builder.results.experiment_vendored.register"
    assert provenance.origin_of("data/nothing/results.md") is None


# -- build: changes from an edited input ----------------------------------------------------------
def _drop_zigzag(box: Sandbox) -> None:
    """The earlier version without its zig-zag run: one configuration and one run fewer."""
    box.edit(PREVIOUS_JSON, json_edit(lambda d: d.update(rows=[r for r in d["rows"] if r["group"] != ZIGZAG])))
    box.edit(PREVIOUS_MD, lambda t: t.replace("from 25 completed runs", "from 24 completed runs", 1))


def test_changes_lists_what_an_edited_input_moved_and_not_what_it_left(
    box: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    _drop_zigzag(box)
    assert main(box.args("results")) == 0
    after = box.root / "site-after"
    assert main(box.args("build", out=after)) == 0
    capsys.readouterr()
    assert main([*box.args("changes"), str(box.out / "figures.json"), str(after)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {tuple(line.split("\t")[:2]): line.split("\t") for line in lines[:-1]}
    runs = rows[("changed", "exp.version.05a68ae.setting.runs")]
    assert runs[2] == "25 → 24"
    assert (
        runs[3] == "data/experiment/results.md § 10. From 05a68ae to 4d6b4b2: what moved › exp.setting.runs › 05a68ae"
    )
    assert ("changed", "exp.version.count.both") in rows
    assert ("disappeared", "exp.version.05a68ae.final_mean_sd.F-zigzag") in rows
    assert ("disappeared", "exp.version.4d6b4b2.final_mean_sd.F-zigzag") in rows
    assert not any(key in ("exp.final.B", "exp.setting.runs", "exp.final_mean_sd.F-zigzag") for _, key in rows)
    assert {kind for kind, _ in rows} == {"changed", "disappeared"}
    summary = re.fullmatch(r"(\d+) changed, 0 appeared, (\d+) disappeared, (\d+) unchanged .*", lines[-1])
    assert summary is not None and int(summary[1]) >= 3 and int(summary[2]) >= 2
    # the other way round, what disappeared appears, and a site folder names its figures.json
    assert main([*box.args("changes"), str(after), str(box.out)]) == 0
    back = capsys.readouterr().out
    assert "appeared\texp.version.05a68ae.final_mean_sd.F-zigzag\t" in back
    assert "changed\texp.version.05a68ae.setting.runs\t24 → 25\t" in back
    # the same site against itself: nothing moved
    assert main([*box.args("changes"), str(after), str(after)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 changed, 0 appeared, 0 disappeared, ")


def commit_project(box: Sandbox) -> None:
    """The sandbox's project as one commit of a new git repository (HEAD, for ``changes``)."""
    git = ["git", "-C", str(box.project), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q", str(box.project)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "sandbox"], check=True)


def test_changes_builds_a_git_revision_with_its_own_code(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(
        PROJECT / "site_builder", box.project / "site_builder", ignore=shutil.ignore_patterns("__pycache__")
    )
    commit_project(box)
    capsys.readouterr()
    assert main([*box.args("changes"), "HEAD", str(box.out)]) == 0
    out = capsys.readouterr()
    assert "building HEAD (" in out.err
    assert out.out.splitlines()[-1].startswith("0 changed, 0 appeared, 0 disappeared, ")
    assert main([*box.args("changes"), "no-such-revision", str(box.out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "error: changes: no-such-revision: expected a figures.json, a built site's folder or a git revision of "
        "this project, found none of these"
    ]


def test_changes_builds_a_revision_without_printing_unless_its_code_predates_the_option(
    box: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the revision's figures.json is compared, so its decks' PDFs are not printed (--no-pdf); a revision whose
    command line refuses the option (code older than it) is built as it can be, without it."""
    commit_project(box)
    figures = (box.out / "figures.json").read_text("utf-8")
    real_run = subprocess.run
    builds: list[list[str]] = []

    def older_revision(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        if cmd[:3] != [provenance.sys.executable, "-m", "site_builder"]:
            return real_run(cmd, **kw)  # git
        builds.append(cmd)
        if provenance.NO_PDF in cmd:  # what argparse says of an option it does not know
            return subprocess.CompletedProcess(cmd, 2, "", f"error: unrecognized arguments: {provenance.NO_PDF}\n")
        out = cmd[cmd.index("--out") + 1]
        Path(out).mkdir(parents=True)
        (Path(out) / "figures.json").write_text(figures, "utf-8")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(provenance.subprocess, "run", older_revision)
    capsys.readouterr()
    assert main([*box.args("changes"), "HEAD", str(box.out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 changed, 0 appeared, 0 disappeared, ")
    assert [provenance.NO_PDF in cmd for cmd in builds] == [True, False]


# -- build: explain ----------------------------------------------------------------------------------
def _explain(box: Sandbox, key: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    capsys.readouterr()
    code = main([*box.args("explain"), key, "--cache", str(SHARED_CACHE[0])])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def _field(lines: list[str], name: str) -> str:
    (line,) = [ln for ln in lines if ln.startswith(f"  {name} ")]
    return line[len(name) + 2 :].strip()


def test_explain_a_committed_figure(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = _explain(box, "exp.setting.runs", capsys)
    assert code == 0 and lines[0] == "exp.setting.runs"
    doc = json.loads((box.out / "figures.json").read_text("utf-8"))
    (f,) = [f for f in doc["figures"] if f["key"] == "exp.setting.runs"]
    assert _field(lines, "text") == f["text"] == "32" and _field(lines, "value") == "32"
    assert _field(lines, "file") == "data/experiment/results.md"
    assert _field(lines, "section") == "1. The setting"
    assert _field(lines, "row") == "Completed runs" and _field(lines, "column") == "Value"
    assert _field(lines, "writer").startswith("site_builder.results.experiment.build_experiment_results ")
    assert _field(lines, "models") == "site_builder.models.experiment"
    assert _field(lines, "how") == "read from the runs' configuration lines and counted"
    assert _field(lines, "shown on") == ", ".join("/" + p for p in f["pages"])
    assert _field(lines, "versions") == "05a68ae: 25 → 4d6b4b2: 32"
    pins = load_pins(box.project / "data" / "sources.yaml")["vendor"]
    text = "\n".join(lines)
    for rel, digest in pins.items():  # every pinned file the experiment is computed from, with its digest
        assert f"vendor/{rel}  sha256 {digest}" in text
    assert "presets.yaml" not in text  # the experiment reads no reference file


def test_explain_a_vendored_figure_and_a_published_one(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = _explain(box, "exp.final.B", capsys)
    assert code == 0
    assert _field(lines, "text") == "1.785 ± 0.007"
    assert _field(lines, "file") == "vendor/demo-fixed-band/tinystories-gpu/results.md"
    assert _field(lines, "row") == "B  DeMo, top-k, 2-D 64x64 chunks"
    assert _field(lines, "column") == "Final val loss (mean ± sd)"
    assert _field(lines, "writer").startswith("site_builder.results.experiment_vendored.register ")
    assert _field(lines, "how").startswith("recomputed from each run's last evaluation")
    digest = load_pins(box.project / "data" / "sources.yaml")["vendor"]["demo-fixed-band/tinystories-gpu/results.md"]
    assert f"vendor/demo-fixed-band/tinystories-gpu/results.md  sha256 {digest}" in "\n".join(lines)
    assert not any(ln.startswith(("  published ", "  versions ")) for ln in lines)
    code, lines, _ = _explain(box, "ana.precision.bf16.enob_range", capsys)
    assert code == 0 and _field(lines, "published") == "10.3–10.7 (ours: 10.3–10.8)"
    assert _field(lines, "inputs").startswith("none read from outside the project")


def test_explain_an_unknown_key_is_one_line(box: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = _explain(box, "exp.fnal.B", capsys)
    assert code == 1 and lines == []
    assert err.strip().splitlines() == [
        "error: explain: exp.fnal.B: expected a registered figure key (did you mean exp.final.B or exp.final.D or "
        "exp.final.A?)"
    ]
