"""The training FLOP-ledger analysis: a pure model (parameters in, numbers out; no I/O).

Modules: ``shape`` (model shape and study constants), ``ops`` (op classes, cost conventions),
``blocks`` (per-block forward and backward ledgers), ``ledger`` (the step ledger), ``step`` (shares and
Amdahl bounds), ``sixn`` (the 6N cross-check), ``masks`` (mask budget), ``optimizer`` (DeMo's DCT cost),
``precision`` (ENOB for training formats), ``checks`` (NumPy checks of the backward formulas).
"""

from .ledger import StepLedger, sequence_cost, step_ledger
from .masks import MaskBudget, data_mask_values, mask_budget, weight_mask_values
from .ops import Ops
from .optimizer import DemoCost, demo_cost
from .sixn import SixNCheck, six_n_check
from .step import StepShares, amdahl, step_shares

__all__ = [
    "DemoCost",
    "MaskBudget",
    "Ops",
    "SixNCheck",
    "StepLedger",
    "StepShares",
    "amdahl",
    "data_mask_values",
    "demo_cost",
    "mask_budget",
    "sequence_cost",
    "six_n_check",
    "step_ledger",
    "step_shares",
    "weight_mask_values",
]
