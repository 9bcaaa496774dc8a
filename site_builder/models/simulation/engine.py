"""The discrete-event engine, built on SimPy: workers as processes, links as SimPy resources.

Every worker's NIC link and every data centre's WAN egress is a ``simpy.Resource`` of capacity 1 (FIFO).
A step runs the plan's phases in order: compute and the module's stream as timeouts on every worker, then
each sync round as one process per sender, with a barrier at the end of the round (the ring's rounds are
synchronised). WAN transfers are cut into chunks so other jobs' traffic can interleave with them: the
other jobs arrive as a Poisson process of fixed-size transfers on every WAN egress, drawn from a seeded NumPy
Generator. At zero load the engine reproduces the closed form (a test checks 1e-12).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import simpy

from .closed_form import StepPlan
from .collectives import Round

BACKGROUND_TRANSFER_BYTES = 1.0e6  # illustrative: other jobs' transfers are 1 MB each (deck/issue)
CHUNK_BYTES = 1.0e6  # the sync's WAN transfers are cut into chunks of at most this size


@dataclass(frozen=True)
class EngineResult:
    step_times: tuple[float, ...]
    background_transfers: int

    @property
    def mean_step(self) -> float:
        return sum(self.step_times) / len(self.step_times)


class _Background:
    """Poisson arrivals of fixed-size transfers on one link resource (FIFO).

    Nobody waits on another job's transfer, and the link serves its queue in order, so a transfer that
    arrives while the previous other-job request is still the last one waiting is merged into it (its
    holding time grows by one transfer). This changes no sync chunk's timing and saves most events at high load.
    """

    def __init__(self, env: simpy.Environment, res: simpy.Resource, rate: float, hold: float, rng: np.random.Generator):
        self.env, self.res, self.rate, self.hold, self.rng = env, res, rate, hold, rng
        self.count = 0
        self._gaps = np.empty(0)
        self._i = 0
        self._pending: simpy.Event | None = None
        self._held: dict[simpy.Event, int] = {}

    def _gap(self) -> float:
        if self._i >= len(self._gaps):
            self._gaps = self.rng.exponential(1.0 / self.rate, 4096)
            self._i = 0
        g = float(self._gaps[self._i])
        self._i += 1
        return g

    def run(self) -> Generator[simpy.Event, None, None]:
        while True:
            yield self.env.timeout(self._gap())
            self.count += 1
            pend = self._pending
            if pend is not None and not pend.triggered and self.res.queue and self.res.queue[-1] is pend:
                self._held[pend] += 1
                continue
            req = self.res.request()
            self._held[req] = 1
            self._pending = req
            req.callbacks.append(self._granted)

    def _granted(self, req: simpy.Event) -> None:
        n = self._held.pop(req)
        if self._pending is req:
            self._pending = None
        done = self.env.timeout(n * self.hold)
        done.callbacks.append(lambda _ev: self.res.release(req))  # type: ignore[arg-type]


def _send(env: simpy.Environment, res: simpy.Resource, r: Round) -> Generator[simpy.Event, None, None]:
    """One sender's share of a WAN round: chunks through the shared FIFO link, the port cap, then latency."""
    start = env.now
    bw = r.link.bandwidth
    left = r.per_sender
    pieces = max(1, math.ceil(left / CHUNK_BYTES))
    for i in range(pieces):
        size = left / (pieces - i)
        left -= size
        with res.request() as req:
            yield req
            yield env.timeout(size / bw)
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
    transfer_bytes: float = BACKGROUND_TRANSFER_BYTES,
) -> EngineResult:
    """Run ``syncs`` steps of ``plan``; ``load`` is other jobs' share of each WAN link (0 <= load < 1)."""
    if not 0.0 <= load < 1.0:
        raise ValueError(f"load must be in [0, 1), got {load}")
    topo = plan.topology
    env = simpy.Environment()
    nics = [simpy.Resource(env, capacity=1) for _ in range(topo.workers)]
    wans = [simpy.Resource(env, capacity=1) for _ in range(topo.dcs)] if topo.wan is not None else []
    rng = np.random.default_rng(seed)
    backgrounds: list[_Background] = []
    if load > 0 and topo.wan is not None:
        for res in wans:
            bg = _Background(env, res, load * topo.wan.bandwidth / transfer_bytes, transfer_bytes / topo.wan.bandwidth, rng)
            backgrounds.append(bg)
            env.process(bg.run())
    times: list[float] = []

    def intra_round(r: Round) -> Generator[simpy.Event, None, None]:
        # Every sender holds its own NIC link; nothing else uses these links, so one process drives them all.
        reqs = [nics[s].request() for s in range(r.senders)]
        yield env.all_of(reqs)
        yield env.timeout(max(r.link_time, r.port_time))
        for s, req in enumerate(reqs):
            nics[s].release(req)
        yield env.timeout(r.link.latency)

    def training() -> Generator[simpy.Event, None, None]:
        for _ in range(syncs):
            t0 = env.now
            for ph in plan.phases:
                r = ph.round
                if r is None:  # compute or the module's stream: the same time on every worker
                    yield env.timeout(ph.time)
                elif r.scope == "wan":
                    yield env.all_of([env.process(_send(env, wans[s // r.sharing], r)) for s in range(r.senders)])
                else:
                    yield env.process(intra_round(r))
            times.append(env.now - t0)

    main = env.process(training())
    env.run(until=main)
    return EngineResult(tuple(times), sum(b.count for b in backgrounds))
