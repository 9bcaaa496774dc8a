"""Work beside the build: a forked call's value, its errors as one line, and a child killed when not awaited."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from site_builder import processes
from site_builder.errors import BuildError

pytestmark = pytest.mark.skipif(not processes.can_fork(), reason="fork from a single-threaded process (Linux) only")


def test_the_value_comes_back() -> None:
    side = processes.Beside(lambda: {"pid": os.getpid(), "text": "é" * 100_000})
    got = side.result()
    assert got["pid"] != os.getpid() and got["text"] == "é" * 100_000


def test_a_build_error_comes_back_as_one() -> None:
    def fail() -> None:
        raise BuildError("model x: expected y, found z")

    with pytest.raises(BuildError, match=r"^model x: expected y, found z$"):
        processes.Beside(fail).result()


def test_any_other_error_comes_back_as_its_message() -> None:
    with pytest.raises(RuntimeError, match="division by zero"):
        processes.Beside(lambda: 1 / 0).result()


def test_a_child_not_awaited_is_killed() -> None:
    side = processes.Beside(lambda: time.sleep(60))
    pid = side.pid
    side.cancel()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_wait_interrupted_by_a_signal_kills_the_child_and_does_not_wait_for_it() -> None:
    """SIGTERM while the build waits for a process beside (stuck in an endless template, say) ends the wait at
    once: the child is killed, not waited for to finish."""
    import signal

    class Stop(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stop

    old = signal.signal(signal.SIGALRM, stop)
    side = processes.Beside(lambda: time.sleep(20))
    pid = side.pid
    t0 = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(Stop):
            side.result()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.monotonic() - t0 < 10
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_jobs_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(processes.JOBS_ENV, "3")
    assert processes.allowed_jobs() == 3
    monkeypatch.setenv(processes.JOBS_ENV, "0")
    with pytest.raises(BuildError, match=rf"^{processes.JOBS_ENV}: environment: expected a whole number"):
        processes.allowed_jobs()


def test_the_documents_are_shared_between_two_processes_by_cost() -> None:
    from site_builder.results.producers import PRODUCERS

    here, beside = processes.halves(list(PRODUCERS), lambda p: p.cost)
    assert sorted(p.name for p in here + beside) == sorted(p.name for p in PRODUCERS)
    cost = [sum(p.cost for p in g) for g in (here, beside)]
    assert max(cost) - min(cost) <= max(p.cost for p in PRODUCERS)
    assert here and beside
    only, none = processes.halves([PRODUCERS[0]], lambda p: p.cost)
    assert only == [PRODUCERS[0]] and none == []


def test_a_result_can_be_asked_for_again() -> None:
    side = processes.Beside(lambda: 7)
    assert side.result() == 7
    assert side.result() == 7
    side.cancel()  # after the result: nothing to stop
    failing = processes.Beside(lambda: 1 / 0)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="division by zero"):
            failing.result()


def test_a_process_beside_ends_with_its_parent_even_after_sigkill(tmp_path: Path) -> None:
    """A build killed by SIGKILL leaves no worker running (Linux: the workers get SIGKILL with their parent)."""
    import signal
    import subprocess
    import sys
    import time

    if sys.platform != "linux":
        pytest.skip("parent-death signals are Linux's")
    pidfile = tmp_path / "child.pid"
    code = (
        "import os, time; from site_builder import processes\n"
        f"side = processes.Beside(lambda: (open({str(pidfile)!r}, 'w').write(str(os.getpid())), time.sleep(60)))\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2])
    deadline = time.monotonic() + 20
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pidfile.read_text())
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        state = Path(f"/proc/{child}/stat").read_text().split()[2] if Path(f"/proc/{child}/stat").exists() else "X"
        if state == "Z":
            break
        time.sleep(0.05)
    alive = Path(f"/proc/{child}/stat").exists() and Path(f"/proc/{child}/stat").read_text().split()[2] != "Z"
    assert not alive, "the worker outlived its killed parent"
