"""The Jinja environment, and the figures a template names (found by reading it, before rendering)."""

from __future__ import annotations

from pathlib import Path

import jinja2
from jinja2 import nodes

from site_builder.errors import BuildError


def make_env(folder: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _parse(env: jinja2.Environment, name: str) -> nodes.Template:
    try:
        source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        return env.parse(source, name)
    except jinja2.TemplateSyntaxError as e:
        raise BuildError(
            f"templates/{e.name or name}: line {e.lineno}: expected valid Jinja, found {e.message}"
        ) from None
    except jinja2.TemplateNotFound as e:
        raise BuildError(f"templates/{e.name}: file: expected a template, found no such file") from None


def fig_keys(env: jinja2.Environment, name: str) -> set[tuple[str, str]]:
    """(key, "templates/X: line N") of every literal ``fig("key")`` in a template, its parents and includes."""
    out: set[tuple[str, str]] = set()
    seen: set[str] = set()
    todo = [name]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        tree = _parse(env, t)
        for n in tree.find_all((nodes.Extends, nodes.Include)):
            if isinstance(n.template, nodes.Const) and isinstance(n.template.value, str):
                todo.append(n.template.value)
        for call in tree.find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == "fig" and call.args:
                arg = call.args[0]
                if isinstance(arg, nodes.Const) and isinstance(arg.value, str):
                    out.add((arg.value, f"templates/{t}: line {call.lineno}"))
    return out
