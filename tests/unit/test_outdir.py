"""site_builder.outdir: the build replaces only folders it made, with renames, and survives SIGTERM."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from site_builder import outdir
from site_builder.errors import BuildError
from site_builder.outdir import (
    MARKER,
    MARKER_TEXT,
    Interrupted,
    check_out,
    interrupts_as_errors,
    new_tmp,
    remove_stale_tmp,
    swap_in,
)

PREFIX = "expected an empty or absent folder, or one this tool built (it holds .site-builder), found "


def refused(out: Path, protected=(), **kwargs) -> str:
    """check_out refuses ``out`` with one line; the part after 'found '."""
    with pytest.raises(BuildError) as info:
        check_out(out, protected, **kwargs)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(f"--out {out}: {PREFIX}"), text
    return text.split(PREFIX, 1)[1]


@pytest.fixture
def project(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path / "project"
    for sub in ("content", "templates", "data"):
        (root / sub).mkdir(parents=True)
    shared = tmp_path / "shared"
    (shared / "vendor").mkdir(parents=True)
    (shared / "reference").mkdir(parents=True)
    return {
        "root": root,
        "content": root / "content",
        "templates": root / "templates",
        "data": root / "data",
        "vendor": shared / "vendor",
        "reference": shared / "reference",
    }


def protected_of(p: dict[str, Path]) -> list[tuple[Path, str]]:
    return [(p[k], f"{k} folder") for k in ("content", "templates", "data", "vendor", "reference")]


# ------------------------------------------------------------------------------------------- check_out


def test_accepts_absent_empty_and_marked_folders(tmp_path: Path, project: dict[str, Path]) -> None:
    prot = protected_of(project)
    check_out(project["root"] / "site", prot, project=project["root"])
    check_out(tmp_path / "a" / "b" / "c", prot, project=project["root"])
    (tmp_path / "empty").mkdir()
    check_out(tmp_path / "empty", prot)
    built = tmp_path / "built"
    built.mkdir()
    (built / MARKER).write_text(MARKER_TEXT)
    (built / "index.html").write_text("<p>")
    check_out(built, prot)
    check_out(Path(os.path.relpath(built)), prot)


def test_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "site").write_text("x")
    assert refused(tmp_path / "site") == "a file"


def test_refuses_root_and_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert refused(Path("/")) == "the root folder"
    home = tmp_path / "home" / "me"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    assert refused(home).startswith("the home folder")
    assert refused(home.parent).startswith("a folder holding the home folder")
    check_out(home / "site", ())


def test_refuses_non_empty_folder_without_marker(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "thesis.tex").write_text("x")
    assert refused(out) == "a folder without .site-builder holding 1 entry ('thesis.tex'…)"
    (out / MARKER).mkdir()  # a folder named like the marker is not the marker
    assert refused(out).startswith("a folder without .site-builder holding 2 entries")


def test_refuses_marker_that_is_a_symlink(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (tmp_path / "elsewhere").write_text(MARKER_TEXT)
    (out / MARKER).symlink_to(tmp_path / "elsewhere")
    assert refused(out).startswith("a folder without .site-builder")


def test_refuses_git_work_tree_even_with_marker(tmp_path: Path) -> None:
    out = tmp_path / "repo"
    (out / ".git").mkdir(parents=True)
    (out / MARKER).write_text(MARKER_TEXT)
    assert refused(out) == "a folder holding .git"


@pytest.mark.parametrize("name", ["content", "templates", "data", "vendor", "reference"])
def test_refuses_protected_folders_both_ways(project: dict[str, Path], name: str) -> None:
    prot = protected_of(project)
    p = project[name]
    assert refused(p, prot) == f"the {name} folder ({p})"
    assert refused(p / "site", prot) == f"a folder inside the {name} folder ({p})"
    assert refused(p / "a" / "b", prot) == f"a folder inside the {name} folder ({p})"
    assert refused(p.parent, prot).startswith("a folder holding the ")


def test_project_root_may_hold_out_but_not_be_or_be_inside_it(project: dict[str, Path]) -> None:
    root = project["root"]
    check_out(root / "site", (), project=root)
    assert refused(root, (), project=root) == f"the project root ({root})"
    assert refused(root.parent / "x" / "..", (), project=root).startswith("a folder holding the project root")
    assert refused(root.parent, (), project=root) == f"a folder holding the project root ({root})"


def test_protected_paths_compare_after_resolving_symlinks(tmp_path: Path, project: dict[str, Path]) -> None:
    (tmp_path / "alias").symlink_to(project["content"])
    assert refused(tmp_path / "alias" / "site", protected_of(project)).startswith("a folder inside the content folder")


def test_refuses_a_symlink_as_out(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "site").symlink_to(tmp_path / "real")
    assert refused(tmp_path / "site") == f"a symbolic link to {tmp_path / 'real'}"


def test_refuses_absent_folder_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert refused(tmp_path / "f" / "site") == f"a path under {tmp_path / 'f'}, which is not a folder"
    assert refused(tmp_path / "f" / "a" / "site") == f"a path under {tmp_path / 'f'}, which is not a folder"


def _deny_write(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    real_access = os.access

    def access(path, mode, *args, **kwargs):
        if Path(path) == denied and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(outdir.os, "access", access)


def test_refuses_absent_folder_under_unwritable_ancestor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    _deny_write(monkeypatch, ro)
    assert refused(ro / "a" / "site") == f"an absent folder under {ro}, which is not writable"
    assert not (ro / "a").exists()


def test_refuses_existing_folder_in_unwritable_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ro = tmp_path / "ro"
    (ro / "site").mkdir(parents=True)
    _deny_write(monkeypatch, ro)
    assert refused(ro / "site").startswith(f"a folder in {ro}, which is not writable")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_refuses_unreadable_folder(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    out.chmod(0)
    try:
        assert refused(out).startswith("a folder it cannot read")
    finally:
        out.chmod(0o755)


def test_check_out_creates_nothing(tmp_path: Path) -> None:
    check_out(tmp_path / "a" / "b" / "site", ())
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------ new_tmp, swap_in, stale


def test_new_tmp_next_to_out_with_marker_and_normal_permissions(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "site"
    tmp = new_tmp(out)
    assert tmp.parent == out.parent
    assert tmp.name.startswith(f".site.tmp-{os.getpid()}-")
    assert (tmp / MARKER).read_text() == MARKER_TEXT
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(tmp.stat().st_mode) == 0o777 & ~umask
    assert not out.exists()


def test_new_tmp_failure_is_a_build_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(BuildError) as info:
        new_tmp(tmp_path / "f" / "site")
    assert "\n" not in str(info.value) and str(info.value).startswith(f"--out {tmp_path / 'f' / 'site'}: expected")


def test_swap_in_absent_out(tmp_path: Path) -> None:
    out = tmp_path / "site"
    tmp = new_tmp(out)
    (tmp / "index.html").write_text("new")
    swap_in(tmp, out)
    assert (out / "index.html").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_swap_in_replaces_old_site_and_leaves_nothing_behind(tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = new_tmp(out)
    (first / "old.html").write_text("old")
    swap_in(first, out)
    second = new_tmp(out)
    (second / "index.html").write_text("new")
    swap_in(second, out)
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_swap_in_refuses_tmp_without_marker(tmp_path: Path) -> None:
    (tmp_path / "tmp").mkdir()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "keep").write_text("x")
    with pytest.raises(BuildError):
        swap_in(tmp_path / "tmp", tmp_path / "site")
    assert (tmp_path / "site" / "keep").exists()


def test_swap_in_puts_the_old_site_back_when_the_second_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    first = new_tmp(out)
    (first / "old.html").write_text("old")
    swap_in(first, out)
    second = new_tmp(out)
    real_rename = os.rename

    def rename(src, dst):
        if Path(src) == second:
            raise OSError(28, "No space left on device")
        return real_rename(src, dst)

    monkeypatch.setattr(outdir.os, "rename", rename)
    with pytest.raises(BuildError) as info:
        swap_in(second, out)
    assert str(info.value) == (
        f"--out {out}: expected a folder it can replace by renaming, found no space left on device"
    )
    assert (out / "old.html").read_text() == "old"
    assert not any(p.name.startswith(".site.old-") for p in tmp_path.iterdir())


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_remove_stale_tmp(tmp_path: Path) -> None:
    out = tmp_path / "site"
    dead = _dead_pid()
    stale_marked = tmp_path / f".site.tmp-{dead}-abc"
    (stale_marked / "sub").mkdir(parents=True)
    (stale_marked / MARKER).write_text(MARKER_TEXT)
    (stale_marked / "sub" / "page.html").write_text("x")
    stale_empty = tmp_path / ".site.tmp-xyz"  # the old naming, without a pid
    stale_empty.mkdir()
    stale_old = tmp_path / f".site.old-{dead}-def"
    stale_old.mkdir()
    (stale_old / MARKER).write_text(MARKER_TEXT)
    live = tmp_path / f".site.tmp-{os.getpid()}-ghi"  # a build still running
    live.mkdir()
    foreign = tmp_path / ".site.tmp-notes"  # not ours: no marker
    foreign.mkdir()
    (foreign / "notes.txt").write_text("x")
    a_file = tmp_path / ".site.tmp-file"
    a_file.write_text("x")
    target = tmp_path / "target"
    target.mkdir()
    (target / MARKER).write_text(MARKER_TEXT)
    (tmp_path / ".site.tmp-link").symlink_to(target)
    other = tmp_path / ".other.tmp-1"
    other.mkdir()
    assert remove_stale_tmp(out) == 3
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([live.name, foreign.name, a_file.name, ".site.tmp-link", "target", other.name])
    assert (target / MARKER).exists()
    assert remove_stale_tmp(out) == 0
    assert remove_stale_tmp(tmp_path / "absent" / "site") == 0


# ----------------------------------------------------------------------------------- interrupts


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_becomes_interrupted_and_handlers_are_restored(sig: signal.Signals) -> None:
    before = signal.getsignal(sig)
    cleaned = False
    with pytest.raises(Interrupted) as info:
        with interrupts_as_errors():
            try:
                os.kill(os.getpid(), sig)
                for _ in range(1000):  # the handler runs between bytecodes
                    pass
                pytest.fail("no exception")
            except BaseException:
                cleaned = True
                raise
    assert cleaned
    assert str(info.value) == f"interrupted by {sig.name}: nothing was written"
    assert info.value.signum == sig
    assert isinstance(info.value, BuildError)
    assert signal.getsignal(sig) == before


def test_second_signal_does_not_abort_cleanup() -> None:
    steps = []
    with pytest.raises(Interrupted):
        with interrupts_as_errors():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):
                    pass
            finally:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):
                    pass
                steps.append("cleaned")
    assert steps == ["cleaned"]


def test_no_handlers_outside_main_thread() -> None:
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def work() -> None:
        with interrupts_as_errors():
            seen.append(signal.getsignal(signal.SIGTERM))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [before]


def test_sigterm_in_a_real_process_leaves_the_old_site(tmp_path: Path) -> None:
    """A child builds into a tmp folder, gets SIGTERM mid-build, cleans up: old site intact, no leftovers."""
    out = tmp_path / "site"
    first = new_tmp(out)
    (first / "index.html").write_text("old")
    swap_in(first, out)
    script = f"""
import os, shutil, signal, sys, time
from pathlib import Path
from site_builder.outdir import interrupts_as_errors, new_tmp, swap_in
from site_builder.errors import BuildError
out = Path({str(out)!r})
try:
    with interrupts_as_errors():
        tmp = new_tmp(out)
        try:
            (tmp / "index.html").write_text("half")
            print("ready", flush=True)
            time.sleep(30)
            swap_in(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
except BuildError as e:
    print(f"error: {{e}}", file=sys.stderr)
    sys.exit(1)
"""
    from tests.conftest import PROJECT

    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=PROJECT
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 1
    assert err == "error: interrupted by SIGTERM: nothing was written\n"
    assert (out / "index.html").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_the_project_root_is_named_before_the_inputs_it_holds(project: dict[str, Path]) -> None:
    """`--out .` in the project says "the project root", not "a folder holding the content folder"."""
    root = project["root"]
    assert refused(root, protected_of(project), project=root) == f"the project root ({root})"
