"""Work in other processes: how many the build may use, and one call run in a forked process beside this one.

``SITE_BUILDER_JOBS`` caps the processes (1: everything runs in this process, as it would without
``fork``). What runs elsewhere is pure computation whose result does not depend on where it ran.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from site_builder.errors import BuildError

JOBS_ENV = "SITE_BUILDER_JOBS"  # how many processes the models may use; 1 runs everything in this process
T = TypeVar("T")
X = TypeVar("X")


def allowed_jobs() -> int:
    """``SITE_BUILDER_JOBS`` if set (a whole number, 1 or more), else the CPU count."""
    raw = os.environ.get(JOBS_ENV, "").strip()
    if raw:
        if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            shown = raw.encode("unicode_escape").decode("ascii")[:40]
            raise BuildError(
                f"{JOBS_ENV}: environment: expected a whole number of processes, 1 or more, found {shown!r}"
            )
        return int(raw)
    return os.cpu_count() or 1


def can_fork() -> bool:
    """Fork is fast and re-imports nothing, but only safe from a process running a single thread (Linux)."""
    return sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1


def can_share() -> bool:
    """Work may go to a forked process beside this one: more than one job allowed, and forking is safe here."""
    return allowed_jobs() > 1 and can_fork()


def halves(items: Sequence[X], cost: Callable[[X], float]) -> tuple[list[X], list[X]]:
    """Two groups of about the same cost: the costliest first, each to the lighter group (the first on a tie);
    each group in the items' order."""
    load = [0.0, 0.0]
    side = [0] * len(items)
    for i in sorted(range(len(items)), key=lambda i: -cost(items[i])):
        side[i] = 0 if load[0] <= load[1] else 1
        load[side[i]] += cost(items[i])
    return [x for x, g in zip(items, side, strict=True) if g == 0], [x for x, g in zip(items, side, strict=True) if g]


def _die_with(parent: int) -> None:
    """Linux: this (forked) process gets SIGKILL when its parent ends, however it ends (even by SIGKILL,
    which leaves the parent no chance to stop it); it ends at once if the parent is already gone."""
    if sys.platform != "linux":
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
HELD = {signal.SIGINT, signal.SIGTERM}


class Beside(Generic[T]):
    """``fn()`` computed in a forked child while this process goes on; :meth:`result` waits for it.

    Its value comes back pickled through a pipe. An exception in the child comes back as its one-line
    message: a :class:`BuildError` is raised again as one, anything else as ``RuntimeError``. A child
    not waited for (this process failed first) is killed by :meth:`cancel`.
    """

    def __init__(self, fn: Callable[[], T]) -> None:
        read, write = os.pipe()
        parent = os.getpid()
        # SIGINT and SIGTERM wait while the process forks: a signal handled inside fork's own hooks (logging's
        # lock release) is swallowed there, and the build would run on. Held back, it is raised just after.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
        try:
            self.pid = os.fork()
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            raise
        if self.pid == 0:  # the child: compute, send, and leave without running the parent's clean-ups
            os.close(read)
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
                _die_with(parent)
                import pickle  # between this code's own processes only (a build that forks none does not load it)

                try:
                    out = pickle.dumps(("ok", fn()), protocol=pickle.HIGHEST_PROTOCOL)
                except OSError as e:  # raised again as an OSError, so the parent's handler names it (a full disk)
                    out = pickle.dumps(("oserror", e.errno, e.strerror, e.filename))
                except BaseException as e:  # every failure goes back to the parent
                    out = pickle.dumps(("error", isinstance(e, BuildError), str(e) or type(e).__name__))
                with os.fdopen(write, "wb") as f:
                    f.write(out)
            except BaseException:  # nothing may escape a forked child
                code = 1
            finally:
                os._exit(code)
        os.close(write)
        self._read = read
        self._outcome: tuple[bytes, int] | None = None
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a signal held back is raised here
        except BaseException:
            self.cancel()  # no worker is left behind
            raise

    def result(self) -> T:
        """Wait for the child and return its value (or raise its error); again, the same outcome."""
        if self._outcome is None:
            data = b""
            try:
                with os.fdopen(self._read, "rb") as f:
                    data = f.read()
            except BaseException:  # interrupted while waiting (SIGTERM): the child is not waited for to finish
                with contextlib.suppress(OSError):
                    os.kill(self.pid, signal.SIGKILL)
                raise
            finally:
                _, status = os.waitpid(self.pid, 0)
                self.pid = 0
            self._outcome = (data, status)
        data, status = self._outcome
        if not data:
            raise BuildError(f"a worker process stopped without a result (wait status {status})")
        import pickle

        kind, *rest = pickle.loads(data)  # our own child's bytes
        if kind == "ok":
            return rest[0]  # type: ignore[no-any-return]
        if kind == "oserror":
            errno, strerror, filename = rest
            raise OSError(errno, strerror, filename) if filename is not None else OSError(errno, strerror)
        is_build_error, message = rest
        raise (BuildError if is_build_error else RuntimeError)(message)

    def cancel(self) -> None:
        if self.pid and self._outcome is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            with contextlib.suppress(OSError):
                os.close(self._read)
            self.pid = 0
