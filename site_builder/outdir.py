"""The output folder is the build's alone: check it before building, replace it by renames only.

- :func:`check_out` refuses an ``--out`` the build must not replace (a file, ``/``, the home folder, a
  folder it did not build, a project or input folder, a git work tree, an unwritable place);
- :func:`new_tmp` makes the temporary folder next to ``out`` (holding the :data:`MARKER` file) that the
  build writes into, and :func:`swap_in` replaces ``out`` by it with renames only;
- :func:`remove_stale_tmp` removes the temporary folders a killed build left behind;
- :func:`interrupts_as_errors` turns SIGTERM/SIGINT into :class:`Interrupted` so the caller's cleanup runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType

from site_builder.errors import BuildError

MARKER = ".site-builder"
"""The file the build writes into every output folder it makes; its presence lets the build replace the folder."""
MARKER_TEXT = "site-builder: made by `python -m site_builder build`, which replaces this whole folder\n"
"""The content of :data:`MARKER` (one line naming the tool)."""

_EXPECTED = f"expected an empty or absent folder, or one this tool built (it holds {MARKER})"


def _show(path: object) -> str:
    return str(path).replace("\n", "\\n").replace("\r", "\\r")


def _fail(out: Path, found: str) -> BuildError:
    return BuildError(f"--out {_show(out)}: {_EXPECTED}, found {found}")


def _real(path: Path) -> Path:
    return Path(os.path.realpath(os.path.abspath(path)))


def _home() -> Path | None:
    try:
        return _real(Path.home())
    except (RuntimeError, KeyError, OSError):
        return None


def _inside(child: Path, parent: Path) -> bool:
    """``child`` is strictly inside ``parent`` (both real, absolute paths)."""
    return parent in child.parents


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a folder"


def _writable_dir(path: Path) -> bool:
    return os.access(path, os.W_OK | os.X_OK)


def check_out(out: Path, protected: Iterable[tuple[Path, str]], *, project: Path | None = None) -> None:
    """Check that the build may replace ``out``; raise a one-line BuildError if not. Creates nothing.

    ``protected`` are (folder, name) pairs ``out`` must neither be, be inside, nor hold (content/,
    templates/, data/, the vendor and reference folders…). ``project`` is the project root: ``out`` may
    be a folder inside it (``site/``) but must not be it nor hold it. Always refused: a symbolic link,
    ``/``, the home folder or a folder holding it, an existing file, a folder holding ``.git``, a
    non-empty folder without :data:`MARKER`, a folder whose parent is not writable, and an absent folder
    whose nearest existing ancestor is not a writable folder. The message is
    ``--out DIR: expected an empty or absent folder, or one this tool built (it holds .site-builder), found …``.
    """
    out = Path(out)
    if os.path.islink(out):
        try:
            target = os.readlink(out)
        except OSError:
            target = "?"
        raise _fail(out, f"a symbolic link to {_show(target)}")
    real = _real(out)
    if real == Path(real.anchor):
        raise _fail(out, "the root folder")
    home = _home()
    if home is not None:
        if real == home:
            raise _fail(out, f"the home folder ({_show(home)})")
        if _inside(home, real):
            raise _fail(out, f"a folder holding the home folder ({_show(home)})")
    if project is not None:
        p = _real(Path(project))
        if real == p:
            raise _fail(out, f"the project root ({_show(p)})")
        if _inside(p, real):
            raise _fail(out, f"a folder holding the project root ({_show(p)})")
    for path, name in protected:
        p = _real(Path(path))
        if real == p:
            raise _fail(out, f"the {name} ({_show(p)})")
        if _inside(real, p):
            raise _fail(out, f"a folder inside the {name} ({_show(p)})")
        if _inside(p, real):
            raise _fail(out, f"a folder holding the {name} ({_show(p)})")
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        st = None
    except OSError as e:
        raise _fail(out, f"a path it cannot inspect ({_show((e.strerror or type(e).__name__).lower())})") from None
    if st is None:
        anc = real.parent
        while not os.path.lexists(anc) and anc != anc.parent:
            anc = anc.parent
        if not os.path.isdir(anc):
            raise _fail(out, f"a path under {_show(anc)}, which is not a folder")
        if not _writable_dir(anc):
            raise _fail(out, f"an absent folder under {_show(anc)}, which is not writable")
        return
    if not stat.S_ISDIR(st.st_mode):
        raise _fail(out, _kind(st.st_mode))
    try:
        entries = sorted(os.listdir(real))
    except OSError as e:
        raise _fail(out, f"a folder it cannot read ({_show((e.strerror or type(e).__name__).lower())})") from None
    if ".git" in entries:
        raise _fail(out, "a folder holding .git")
    if entries:
        marker = real / MARKER
        if MARKER not in entries or os.path.islink(marker) or not os.path.isfile(marker):
            n = len(entries)
            raise _fail(
                out,
                f"a folder without {MARKER} holding {n} {'entry' if n == 1 else 'entries'} ({_show(entries[0])!r}…)",
            )
    if not _writable_dir(real.parent):
        raise _fail(out, f"a folder in {_show(real.parent)}, which is not writable (the build replaces it by renaming)")


def write_marker(folder: Path) -> None:
    """Write :data:`MARKER` into ``folder`` (:func:`new_tmp` does this for the build's folder)."""
    (Path(folder) / MARKER).write_text(MARKER_TEXT, encoding="utf-8")


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def new_tmp(out: Path) -> Path:
    """A new empty folder next to ``out`` (``.{out.name}.tmp-{pid}-…``) holding :data:`MARKER`.

    Creates ``out``'s parent if needed. The folder gets the usual permissions (0777 less the umask),
    not mkdtemp's 0700, so the swapped-in site is readable as before. Raises BuildError on OSError.
    """
    out_abs = Path(os.path.abspath(out))
    try:
        out_abs.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_abs.name}.tmp-{os.getpid()}-", dir=out_abs.parent))
        try:
            os.chmod(tmp, 0o777 & ~_umask())
            write_marker(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    except OSError as e:
        reason = _show((e.strerror or type(e).__name__).lower())
        raise BuildError(
            f"--out {_show(out)}: expected a place for a temporary folder next to it, found {reason}"
        ) from None
    return tmp


def _pid_of(name: str, prefix: str) -> int | None:
    head = name[len(prefix) :].split("-", 1)[0]
    return int(head) if head.isdigit() else None


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # on Windows os.kill(pid, 0) would terminate the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_stale_tmp(out: Path) -> int:
    """Remove ``.{out.name}.tmp-*`` and ``.{out.name}.old-*`` folders left next to ``out`` by a killed build.

    Only folders (not links) that are empty or hold :data:`MARKER`, and whose name does not carry the pid
    of a running process (a concurrent build), are removed; anything else is left alone, as is a folder
    that cannot be removed. Returns how many were removed.
    """
    out_abs = Path(os.path.abspath(out))
    parent = out_abs.parent
    prefixes = (f".{out_abs.name}.tmp-", f".{out_abs.name}.old-")
    removed = 0
    try:
        candidates = [e for e in os.scandir(parent) if e.name.startswith(prefixes)]
    except OSError:
        return 0
    for entry in sorted(candidates, key=lambda e: e.name):
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            prefix = next(p for p in prefixes if entry.name.startswith(p))
            pid = _pid_of(entry.name, prefix)
            if pid is not None and _alive(pid):
                continue
            names = os.listdir(entry.path)
            if names and not os.path.isfile(os.path.join(entry.path, MARKER)):
                continue
            shutil.rmtree(entry.path)
        except OSError:
            continue
        removed += 1
    return removed


def swap_in(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with renames only (``out`` → ``.{name}.old-…``, ``tmp`` → ``out``), then
    remove the old folder. A reader sees the old site or the new one, never a mix. If the second rename
    fails the old folder is renamed back. Raises BuildError on OSError or if ``tmp`` lacks :data:`MARKER`.
    """
    tmp = Path(tmp)
    out_abs = Path(os.path.abspath(out))
    if not (tmp / MARKER).is_file():
        raise BuildError(f"--out {_show(out)}: expected a temporary folder holding {MARKER}, found {_show(tmp)}")
    old: Path | None = None
    try:
        if os.path.lexists(out_abs):
            old = out_abs.parent / f".{out_abs.name}.old-{os.getpid()}-{os.urandom(4).hex()}"
            os.rename(out_abs, old)
        try:
            os.rename(tmp, out_abs)
        except OSError:
            if old is not None:
                with contextlib.suppress(OSError):
                    os.rename(old, out_abs)
            raise
    except OSError as e:
        reason = _show((e.strerror or type(e).__name__).lower())
        raise BuildError(f"--out {_show(out)}: expected a folder it can replace by renaming, found {reason}") from None
    if old is not None:
        if os.path.islink(old) or not os.path.isdir(old):
            with contextlib.suppress(OSError):
                os.unlink(old)
        else:
            shutil.rmtree(old, ignore_errors=True)


class Interrupted(BuildError):
    """SIGTERM or SIGINT arrived during :func:`interrupts_as_errors`; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        super().__init__(f"interrupted by {name}: nothing was written")


_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGINT", None)) if s is not None)


@contextlib.contextmanager
def interrupts_as_errors() -> Iterator[None]:
    """While active, SIGTERM and SIGINT raise :class:`Interrupted` (once: later signals are ignored so the
    caller's cleanup can finish); the previous handlers are restored on exit. Outside the main thread
    (where Python cannot install handlers) it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal fired
        if fired:
            return
        fired = True
        raise Interrupted(signum)

    previous: dict[int, object] = {}
    try:
        for sig in _SIGNALS:
            previous[sig] = signal.signal(sig, handler)
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)  # type: ignore[arg-type]


__all__ = [
    "MARKER",
    "MARKER_TEXT",
    "Interrupted",
    "check_out",
    "interrupts_as_errors",
    "new_tmp",
    "remove_stale_tmp",
    "swap_in",
    "write_marker",
]
