"""Work beside the build: a forked call's value, its errors as one line, and a child killed when not awaited."""

from __future__ import annotations

import os
import time

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


def test_jobs_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(processes.JOBS_ENV, "3")
    assert processes.allowed_jobs() == 3
    monkeypatch.setenv(processes.JOBS_ENV, "0")
    with pytest.raises(ValueError, match=processes.JOBS_ENV):
        processes.allowed_jobs()


def test_the_documents_are_shared_between_two_processes_by_cost() -> None:
    from site_builder.build import split_work
    from site_builder.producers import PRODUCERS

    here, beside = split_work(list(PRODUCERS))
    assert sorted(p.name for p in here + beside) == sorted(p.name for p in PRODUCERS)
    cost = [sum(p.cost for p in g) for g in (here, beside)]
    assert max(cost) - min(cost) <= max(p.cost for p in PRODUCERS)
    assert here and beside
    only, none = split_work([PRODUCERS[0]])
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
