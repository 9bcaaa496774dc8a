"""The discrete-event engine, built on SimPy: workers as processes, links as FIFO servers on SimPy events.

Every data centre's WAN egress is a FIFO server of capacity 1 (``_Link``, granting and releasing exactly as
a ``simpy.Resource`` of capacity 1 does). A step runs the plan's phases in order: compute and the module's
stream as timeouts (the same on every worker), intra-DC rounds as one timeout (each worker's NIC link is its
own and carries no other traffic), and each WAN round as one process per sender on its DC's egress, with a
barrier at the end of the round (the ring's rounds are synchronised). WAN transfers are cut into chunks so
other jobs' traffic can interleave with them: the other jobs arrive as a Poisson process of fixed-size
transfers on every WAN egress, drawn from a seeded NumPy Generator. At zero load the engine reproduces the
closed form (a test checks 1e-12). The engine is pure: a run depends only on its arguments.

It is the reference for :mod:`.fifo`, which computes the same model without an event per transfer and is
what the results run: tests require the two to give the same step times, bit for bit.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Generator

import numpy as np
import simpy

from .closed_form import StepPlan
from .collectives import Round
from .fifo import BACKGROUND_TRANSFER_BYTES, CHUNK_BYTES, EngineResult


class _Link:
    """One WAN egress: a FIFO server of capacity 1 built on SimPy events.

    It schedules the same events in the same order as ``simpy.Resource(env, capacity=1)``: a request is
    queued and, if the link is free, the oldest queued request is granted at once; a release frees the link
    at once and its event, when processed, grants the oldest queued request. (The profile showed a third of
    the engine's time in the generic put/get machinery a Resource keeps for every kind of store.)
    """

    __slots__ = ("busy", "env", "queue")

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self.queue: deque[simpy.Event] = deque()  # requests waiting, oldest first
        self.busy = False

    def request(self) -> simpy.Event:
        req = simpy.Event(self.env)
        self.queue.append(req)
        if not self.busy:
            self._grant()
        return req

    def release(self) -> None:
        self.busy = False
        done = simpy.Event(self.env)
        done.callbacks.append(self._on_release)
        done.succeed()

    def _on_release(self, _ev: simpy.Event) -> None:
        if not self.busy and self.queue:
            self._grant()

    def _grant(self) -> None:
        self.busy = True
        self.queue.popleft().succeed()


class _Background:
    """Other jobs' traffic: Poisson arrivals of fixed-size transfers, spread uniformly over the WAN links.

    Arrivals on all links together form one Poisson process (the sum of the links' rates), each transfer
    going to a link drawn uniformly. Nobody waits on another job's transfer and each link serves its queue in
    order, so a transfer that arrives while that link's previous other-job request is still the last one
    waiting is merged into it (its holding time grows by one transfer). Arrivals that fall before the next
    scheduled event of the whole simulation are handled in one go: nothing can change any queue before then.
    Neither shortcut changes any sync chunk's timing; together they save most events at high load.
    """

    def __init__(
        self, env: simpy.Environment, links: list[_Link], rate: float, hold: float, rng: np.random.Generator
    ) -> None:
        self.env, self.links, self.hold, self.rng = env, links, hold, rng
        self.total_rate = rate * len(links)
        self.count = 0
        # Draws come in blocks of 4096 and are kept as Python lists: one conversion per block, not per draw.
        self._gaps: list[float] = []
        self._which: list[int] = []
        self._i = 0
        self._pending: list[simpy.Event | None] = [None] * len(links)
        self._held: dict[simpy.Event, int] = {}
        self._next = 0.0
        self._link = 0
        # One callback per link, bound once rather than a new closure per request.
        self._on_grant = [functools.partial(self._granted, k=k) for k in range(len(links))]

    def _draw(self) -> None:
        i = self._i
        if i >= len(self._gaps):
            self._gaps = self.rng.exponential(1.0 / self.total_rate, 4096).tolist()
            self._which = self.rng.integers(0, len(self.links), 4096).tolist()
            i = 0
        self._next += self._gaps[i]
        self._link = self._which[i]
        self._i = i + 1

    def start(self) -> None:
        self._next = self.env.now
        self._draw()
        self.env.timeout(self._next - self.env.now).callbacks.append(self._arrive)

    def _mergeable(self, k: int) -> bool:
        """Link k's last queued request is still our waiting other-job request: a new transfer can join it."""
        pend = self._pending[k]
        if pend is None or pend.triggered:
            return False
        queue = self.links[k].queue
        return bool(queue) and queue[-1] is pend

    def _arrive(self, _ev: simpy.Event) -> None:
        k = self._link
        if self._mergeable(k):
            self._held[self._pending[k]] += 1  # type: ignore[index]
        else:
            req = self.links[k].request()
            self._held[req] = 1
            self._pending[k] = req
            req.callbacks.append(self._on_grant[k])
        arrived = 1
        # Nothing changes any queue before the next scheduled event, so which links can merge is fixed till then.
        horizon = self.env.peek()
        merge = [self._mergeable(j) for j in range(len(self.links))]
        self._draw()
        while self._next < horizon and merge[self._link]:
            self._held[self._pending[self._link]] += 1  # type: ignore[index]
            arrived += 1
            self._draw()
        self.count += arrived
        self.env.timeout(self._next - self.env.now).callbacks.append(self._arrive)

    def _granted(self, req: simpy.Event, k: int) -> None:
        n = self._held.pop(req)
        if self._pending[k] is req:
            self._pending[k] = None
        link = self.links[k]
        self.env.timeout(n * self.hold).callbacks.append(lambda _ev: link.release())


def _send(env: simpy.Environment, link: _Link, r: Round) -> Generator[simpy.Event, None, None]:
    """One sender's share of a WAN round: chunks through the shared FIFO link, the port cap, then latency."""
    start = env.now
    bw = r.link.bandwidth
    left = r.per_sender
    pieces = max(1, math.ceil(left / CHUNK_BYTES))
    for i in range(pieces):
        size = left / (pieces - i)
        left -= size
        yield link.request()
        yield env.timeout(size / bw)
        link.release()
    if r.port_rate is not None:
        rest = start + r.port_time - env.now
        if rest > 0:
            yield env.timeout(rest)
    yield env.timeout(r.link.latency)


def simulate(
    plan: StepPlan,
    syncs: int,
    load: float = 0.0,
    seed: int = 0,
) -> EngineResult:
    """Run ``syncs`` steps of ``plan``; ``load`` is other jobs' share of each WAN link (0 <= load < 1)."""
    if not 0.0 <= load < 1.0:
        raise ValueError(f"load must be in [0, 1), got {load}")
    if any(r.port_first for r in plan.rounds if r.scope == "wan"):
        raise ValueError("a store-and-forward WAN round is not modelled by the engine")
    topo = plan.topology
    env = simpy.Environment()
    wans = [_Link(env) for _ in range(topo.dcs)] if topo.wan is not None else []
    rng = np.random.default_rng(seed)
    background: _Background | None = None
    if load > 0 and topo.wan is not None:
        bw = topo.wan.bandwidth
        size = BACKGROUND_TRANSFER_BYTES
        background = _Background(env, wans, load * bw / size, size / bw, rng)
        background.start()
    times: list[float] = []

    def training() -> Generator[simpy.Event, None, None]:
        for _ in range(syncs):
            t0 = env.now
            for ph in plan.phases:
                r = ph.round
                if r is None:  # compute or the module's stream: the same time on every worker
                    yield env.timeout(ph.time)
                elif r.scope == "wan":
                    yield env.all_of([env.process(_send(env, wans[s // r.sharing], r)) for s in range(r.senders)])
                else:  # a worker's NIC link is its own and carries nothing else: the round is one timeout
                    yield env.timeout(r.time)
            times.append(env.now - t0)

    main = env.process(training())
    env.run(until=main)
    return EngineResult(tuple(times), background.count if background else 0)
