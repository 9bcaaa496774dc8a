"""No module of site_builder imports itself through others, and no top-level folder of it imports itself
through another folder: every import (at module level or inside a function, ``TYPE_CHECKING`` ones too) is
read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import PROJECT

PACKAGE = PROJECT / "site_builder"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The site_builder modules that ``name`` imports (a ``from package import module`` names the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (as the nodes along it, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def folder_of(module: str) -> str:
    """The top-level folder (or module) of site_builder that ``module`` is in."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_through_others() -> None:
    found = cycle({m: {n for n in deps if not m.startswith(n + ".")} for m, deps in graph().items()})
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_no_folder_imports_itself_through_another() -> None:
    folders: dict[str, set[str]] = {}
    for m, deps in graph().items():
        folders.setdefault(folder_of(m), set()).update(folder_of(d) for d in deps if folder_of(d) != folder_of(m))
    folders.pop("site_builder", None)  # the package's own __init__
    found = cycle({f: d - {"site_builder"} for f, d in folders.items()})
    assert found is None, "import cycle between folders: " + " -> ".join(found or [])
