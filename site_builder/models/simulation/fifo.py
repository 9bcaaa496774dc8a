"""The shared-WAN runs as FIFO recurrences: the same model as the SimPy engine, without an event per transfer.

Every WAN egress is a first-come, first-served server. Nobody waits on other jobs' transfers, and a sync chunk
waits only for what was queued on its link before it, so each transfer's start is known the moment it joins
its queue: the later of its arrival and the end of the work queued ahead of it (Lindley's recursion). Walking
the arrivals (other jobs' transfers from the same seeded stream, and the senders' chunks as each previous
chunk ends) in time order then gives every step time directly, with the engine's rules kept one for one:

* other jobs' transfers arrive as one Poisson process over all links (gaps and links drawn in blocks of 4096,
  in the engine's order), and one that arrives while its link's last queued request is still a waiting
  other-job request joins it (that request's holding time grows by one transfer);
* a round's senders request in sender order; each chunk holds the link for its bytes over the bandwidth, and
  the sender asks for its next chunk as the previous one ends; then the port cap and the link's latency;
* compute, the module's stream and intra-DC rounds are plain delays, the same on every worker.

The SimPy engine (:mod:`.engine`) is the reference: tests require these step times to equal its own, bit for
bit, on every point the results publish and on every variant, budget and topology at three loads. This is what
the results run: at load 0.9 the event engine spends a dozen events per transfer.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math

import numpy as np

from site_builder.datatypes import dataclass

from .closed_form import StepPlan
from .collectives import Round

BACKGROUND_TRANSFER_BYTES = 1.0e6  # illustrative: other jobs' transfers are 1 MB each (deck/issue)
CHUNK_BYTES = 1.0e6  # the sync's WAN transfers are cut into chunks of at most this size
BLOCK = 4096  # draws per refill, as the event engine takes them


@dataclass(frozen=True)
class EngineResult:
    step_times: tuple[float, ...]
    background_transfers: int

    @property
    def mean_step(self) -> float:
        return sum(self.step_times) / len(self.step_times)


class _Arrivals:
    """Other jobs' transfers: the arrival times (the running sum of the gaps, in draw order) on each link.

    Links do not affect each other, so each link's arrivals are kept apart and read only when that link is
    used; they are drawn in blocks, as the event engine draws them, as far as the latest time asked for.
    """

    def __init__(self, rng: np.random.Generator, total_rate: float, links: int) -> None:
        self.rng, self.scale, self.links = rng, 1.0 / total_rate, links
        self.times: list[list[float]] = [[] for _ in range(links)]
        self.last = 0.0  # the latest arrival drawn

    def cover(self, t: float) -> None:
        """Draw blocks until an arrival at ``t`` or later has been drawn."""
        while self.last < t:
            gaps = self.rng.exponential(self.scale, BLOCK).tolist()
            which = self.rng.integers(0, self.links, BLOCK)
            at = np.array(list(itertools.accumulate(gaps, initial=self.last))[1:])  # one addition after another
            for k in range(self.links):
                self.times[k].extend(at[which == k].tolist())
            self.last = float(at[-1])


class _Wan:
    """The WAN egresses' queues: for each, when its queued work ends, its last other-job request if that is
    still the last in the queue (its start, transfers held), and how many of its arrivals are queued."""

    def __init__(self, links: int, hold: float, arrivals: _Arrivals | None) -> None:
        self.end = [0.0] * links
        self.last_start: list[float | None] = [None] * links
        self.last_held = [0] * links
        self.seen = [0] * links
        self.hold = hold
        self.arrivals = arrivals

    def background_until(self, k: int, t: float) -> None:
        """Queue every other-job transfer that arrives on link ``k`` before ``t``."""
        arr = self.arrivals
        if arr is None:
            return
        arr.cover(t)
        times, i = arr.times[k], self.seen[k]
        if i >= len(times) or times[i] >= t:
            return
        end, start, held, hold = self.end[k], self.last_start[k], self.last_held[k], self.hold
        while i < len(times) and times[i] < t:
            a = times[i]
            if start is not None and start > a:
                # the link's last request is ours and still waiting: every transfer that arrives before it
                # starts (and before t) joins it, and its holding time grows by one transfer each
                j = bisect.bisect_left(times, start if start < t else t, i)
                held += j - i
                end = start + held * hold
                i = j
            else:
                start = a if end <= a else end
                held = 1
                end = start + hold
                i += 1
        self.end[k], self.last_start[k], self.last_held[k], self.seen[k] = end, start, held, i

    def count_until(self, t: float) -> int:
        """Other jobs' transfers that arrived before ``t``, on all links."""
        if self.arrivals is None:
            return 0
        self.arrivals.cover(t)
        return sum(bisect.bisect_left(times, t) for times in self.arrivals.times)


def _wan_round(wan: _Wan, r: Round, t: float) -> float:
    """One WAN round starting at ``t``; returns when its last sender is through."""
    bw = r.link.bandwidth
    pieces = max(1, math.ceil(r.per_sender / CHUNK_BYTES))
    # (time of the sender's next request, sender, bytes left, chunks sent): senders at the same time go in order
    queue = [(t, s, r.per_sender, 0) for s in range(r.senders)]
    end, last_start, sharing = wan.end, wan.last_start, r.sharing
    background = wan.background_until if wan.arrivals is not None else None
    done = t
    while queue:
        now, s, left, i = queue[0]
        k = s // sharing
        if background is not None:
            background(k, now)
        size = left / (pieces - i)
        left -= size
        # the chunk joins link k's queue: it starts when the work queued before it ends
        through = end[k] = (now if end[k] <= now else end[k]) + size / bw
        last_start[k] = None
        if i + 1 < pieces:
            heapq.heapreplace(queue, (through, s, left, i + 1))
            continue
        heapq.heappop(queue)
        if r.port_rate is not None:
            rest = t + r.port_time - through
            if rest > 0:
                through = through + rest
        done = max(done, through + r.link.latency)
    return done


def simulate(plan: StepPlan, syncs: int, load: float = 0.0, seed: int = 0) -> EngineResult:
    """Run ``syncs`` steps of ``plan``; ``load`` is other jobs' share of each WAN link (0 <= load < 1)."""
    if not 0.0 <= load < 1.0:
        raise ValueError(f"load must be in [0, 1), got {load}")
    if any(r.port_first for r in plan.rounds if r.scope == "wan"):
        raise ValueError("a store-and-forward WAN round is not modelled by the engine")
    topo = plan.topology
    links = topo.dcs if topo.wan is not None else 0
    arrivals = None
    hold = 0.0
    if load > 0 and topo.wan is not None:
        bw = topo.wan.bandwidth
        hold = BACKGROUND_TRANSFER_BYTES / bw
        arrivals = _Arrivals(np.random.default_rng(seed), load * bw / BACKGROUND_TRANSFER_BYTES * links, links)
    wan = _Wan(links, hold, arrivals)
    times: list[float] = []
    t = 0.0
    for _ in range(syncs):
        t0 = t
        for ph in plan.phases:
            r = ph.round
            if r is None:
                t = t + ph.time
            elif r.scope == "wan":
                t = _wan_round(wan, r, t)
            else:
                t = t + r.time
        times.append(t - t0)
    return EngineResult(tuple(times), wan.count_until(t))
