"""Collectives as lists of synchronised rounds, for any topology of D data centres x w workers.

A round is one synchronised exchange: every sender pushes ``per_sender`` bytes at once. ``sharing`` senders
share the round's link (the workers of a data centre share its WAN egress); a port cap limits each sender to
``port_rate`` bytes/s. A round lasts ``latency + max(sharing·per_sender / bandwidth, per_sender / port_rate)``:
the port and the link overlap. A store-and-forward round (``port_first``) instead passes its bytes through the
module and its port before the link, so the two add up:
``port_latency + per_sender / port_rate + latency + sharing·per_sender / bandwidth``.
"""

from __future__ import annotations

from site_builder.datatypes import dataclass

from .presets import Link


@dataclass(frozen=True)
class Topology:
    key: str  # "1dc8", "2dc4.100gbe", ...
    label: str
    dcs: int
    per_dc: int
    intra: Link
    wan: Link | None

    @property
    def workers(self) -> int:
        return self.dcs * self.per_dc

    def with_wan_bandwidth(self, bandwidth: float) -> Topology:
        if self.wan is None:
            raise ValueError(f"topology {self.key} has no inter-DC link")
        from dataclasses import replace

        return replace(self, wan=replace(self.wan, bandwidth=bandwidth))


@dataclass(frozen=True)
class Round:
    scope: str  # "intra" (worker NIC into the DC fabric) or "wan" (a DC's egress)
    link: Link
    per_sender: float  # bytes each sender pushes this round
    senders: int  # senders in the whole system this round
    sharing: int = 1  # senders sharing one instance of the link
    port_rate: float | None = None  # bytes/s cap of each sender's module port
    by_worker: bool = True  # False when the senders are switches (E')
    end_hops: int = 0  # further crossings of the intra-DC fabric each byte makes (energy only)
    port_first: bool = False  # store-and-forward: the bytes pass the module and its port, then the link
    port_latency: float = 0.0  # s, the module's pipeline latency (store-and-forward rounds only)
    label: str = ""

    @property
    def link_time(self) -> float:
        return self.sharing * self.per_sender / self.link.bandwidth

    @property
    def port_time(self) -> float:
        return 0.0 if self.port_rate is None else self.per_sender / self.port_rate

    @property
    def time(self) -> float:
        if self.port_first:
            return self.port_latency + self.port_time + self.link.latency + self.link_time
        return self.link.latency + max(self.link_time, self.port_time)

    @property
    def binding(self) -> str:
        """The resource the whole round is charged to: its slowest operation."""
        if self.port_time > self.link_time:
            return "module port"
        return "inter-DC link" if self.scope == "wan" else "intra-DC link"


def _ring(scope: str, link: Link, chunk: float, rounds: int, senders: int, **kw: object) -> list[Round]:
    return [Round(scope, link, chunk, senders, **kw) for _ in range(rounds)]  # type: ignore[arg-type]


def allreduce(topo: Topology, nbytes: float) -> list[Round]:
    """Ring all-reduce; across DCs: reduce-scatter in each DC, the DCs' shards ring all-reduced over the WAN
    (each DC's workers sharing its egress), then all-gather in each DC."""
    w, d = topo.per_dc, topo.dcs
    if d == 1:
        return _ring("intra", topo.intra, nbytes / w, 2 * (w - 1), topo.workers, label="ring all-reduce")
    assert topo.wan is not None
    wan_kw = {"sharing": w, "end_hops": 2, "label": "WAN all-reduce of the shards"}
    if w == 1:
        return _ring("wan", topo.wan, nbytes / d, 2 * (d - 1), topo.workers, **wan_kw)
    intra = _ring("intra", topo.intra, nbytes / w, w - 1, topo.workers, label="reduce-scatter in each DC")
    wan = _ring("wan", topo.wan, nbytes / w / d, 2 * (d - 1), topo.workers, **wan_kw)
    back = _ring("intra", topo.intra, nbytes / w, w - 1, topo.workers, label="all-gather in each DC")
    return intra + wan + back


def allgather(topo: Topology, payload: float, port_rate: float | None = None) -> list[Round]:
    """Ring all-gather of every worker's payload; across DCs: all-gather in each DC, each DC's block sent round
    the ring of DCs (its workers sharing the egress), then the received blocks all-gathered in each DC."""
    w, d = topo.per_dc, topo.dcs
    if d == 1:
        return _ring("intra", topo.intra, payload, w - 1, topo.workers, port_rate=port_rate, label="ring all-gather")
    assert topo.wan is not None
    wan_kw = {"sharing": w, "end_hops": 2, "port_rate": port_rate, "label": "WAN all-gather of the DC blocks"}
    if w == 1:
        return _ring("wan", topo.wan, payload, d - 1, topo.workers, **wan_kw)
    first = _ring("intra", topo.intra, payload, w - 1, topo.workers, port_rate=port_rate, label="all-gather in each DC")
    wan = _ring("wan", topo.wan, payload, d - 1, topo.workers, **wan_kw)
    last = _ring(
        "intra",
        topo.intra,
        (d - 1) * payload,
        w - 1,
        topo.workers,
        port_rate=port_rate,
        label="remote blocks in each DC",
    )
    return first + wan + last


def switch_up(topo: Topology, delta_bytes: float) -> list[Round]:
    """E': every worker sends its whole delta over its NIC link to the module in its switch port."""
    return [Round("intra", topo.intra, delta_bytes, topo.workers, label="delta to the switch's module")]


def switch_sum(topo: Topology, band_bytes: float, port_rate: float, module_latency: float) -> list[Round]:
    """E': each switch sums its workers' bands; the switches ring all-reduce the sums over the WAN; each switch
    sends the total back to its workers store-and-forward: the band crosses the DC fabric into the module in the
    switch's port, passes the module (its latency) and its port (band / port rate), and only then crosses the
    fabric to the workers (latency + band / bandwidth). The return therefore crosses the fabric twice."""
    out: list[Round] = []
    d = topo.dcs
    if d > 1:
        assert topo.wan is not None
        out += _ring(
            "wan", topo.wan, band_bytes / d, 2 * (d - 1), d, by_worker=False, label="switches all-reduce the band sums"
        )
    out.append(
        Round(
            "intra",
            topo.intra,
            band_bytes,
            topo.workers,
            port_rate=port_rate,
            by_worker=False,
            end_hops=1,
            port_first=True,
            port_latency=module_latency,
            label="sum back through the switch's module to the workers",
        )
    )
    return out


def wire_bytes_per_worker(rounds: list[Round]) -> float:
    """Bytes one worker sends in a step's collective (rounds sent by switches excluded)."""
    return sum(r.per_sender for r in rounds if r.by_worker)
