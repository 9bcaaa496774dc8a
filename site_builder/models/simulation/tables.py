"""The simulation's published rows and columns, named once: the (variant, budget) rows of every per-variant table
and the hot-spot resources the step's time is charged to (closed_form's phases, collectives' links), in the order
results.md §6 lists them. The results writer and the transit and link-kernel explorers import them."""

from __future__ import annotations

ROWS: tuple[tuple[str, str | None], ...] = (
    ("A", None),
    ("B", None),
    ("C", None),
    ("Cp", None),
    ("E", "free"),
    ("E", "low"),
    ("E", "high"),
    ("Ep", "free"),
    ("Ep", "low"),
    ("Ep", "high"),
)
HOT_SPOT_RESOURCES: tuple[str, ...] = (
    "GPU compute",
    "intra-DC link",
    "module port",
    "module optics",
    "module compute",
    "module FPGA",
    "inter-DC link",
)
