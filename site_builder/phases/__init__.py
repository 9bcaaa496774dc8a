"""The build's phases, in the order site_builder/build.py runs them over one :class:`BuildContext`:

load → models → figures → collect → render → (print) → check → search → parity → swap.

Each phase is a function of its own module that takes the context and what the phase before it returned,
and returns what the next needs.
"""
