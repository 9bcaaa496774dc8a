"""No function of site_builder is longer than a reader can hold at once (issue 18: about 80 lines): a long one is
a list of steps that wants names. Lengths are read from the source with ``ast`` (decorators and docstrings count).
"""

from __future__ import annotations

import ast

from tests.conftest import PROJECT

LIMIT = 80


def long_functions(source: str, limit: int = LIMIT) -> list[tuple[str, int]]:
    """(name, lines) of every function or method in ``source`` longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = (node.end_lineno or node.lineno) - first + 1
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_the_length_check_finds_a_long_function() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    assert long_functions(f"def f():\n{body}\n") == [("f", LIMIT + 1)]
    assert long_functions(f"def f():\n{body}\n", limit=LIMIT + 1) == []


def test_no_function_of_the_package_is_over_the_limit() -> None:
    paths = sorted((PROJECT / "site_builder").rglob("*.py"))
    assert PROJECT / "site_builder" / "build.py" in paths  # the check reads the package, not an empty folder
    over = {
        f"{path.relative_to(PROJECT)}: {name}": lines
        for path in paths
        for name, lines in long_functions(path.read_text(encoding="utf-8"))
    }
    assert over == {}, f"functions over {LIMIT} lines"
