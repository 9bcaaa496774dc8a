"""Nearest names for a misspelt one, for error messages ("did you mean exp.final.B?")."""

from __future__ import annotations

from collections.abc import Iterable


def nearest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` known names closest to ``name`` (case-insensitive), best first."""
    names = list(known)
    lower = {k.lower(): k for k in names}
    exact = lower.get(name.lower())
    if exact is not None:  # the same name in other case: surely that one
        return [exact]
    import difflib  # only when a name is misspelt (an error message)

    got = difflib.get_close_matches(name.lower(), list(lower), n=n, cutoff=0.6)
    return [lower[g] for g in got]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean A or B?)`` for the nearest known names, or "" when none is near."""
    got = nearest(name, known)
    if not got:
        return ""
    return " (did you mean " + " or ".join(got) + "?)"
