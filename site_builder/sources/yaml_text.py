"""Safe YAML: PyYAML's safe loader, with every failure a one-line InputError (see :func:`load_yaml`).

Its own module so that PyYAML is imported only when some YAML is parsed (site_builder.sources.reading's
``load_yaml`` imports it on first use).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from site_builder.errors import SURROGATE as _SURROGATE
from site_builder.errors import BuildError, InputError
from site_builder.errors import one_line as _one_line

YAML_MAX_CHARS = 1024 * 1024
"""Default limit on the length of YAML text given to :func:`load_yaml`."""
YAML_MAX_DEPTH = 64
"""Default limit on YAML nesting (collections inside collections)."""

# Characters YAML does not allow in a stream (PyYAML's Reader.NON_PRINTABLE, plus lone surrogates).
_YAML_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_YAMLBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"


class StrictLoader(_YAMLBase):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader (libyaml's when available) whose constructor failures are InputErrors.

    Anchors, aliases, size and depth are checked on the event stream by :func:`load_yaml` before
    this loader composes anything; this class turns constructor failures (``2024-02-30``,
    ``!!timestamp foo``, ``!!bool maybe``, a 5000-digit integer, a lone surrogate ``"\\ud800"``, a
    repeated key) into InputErrors naming the file's real line.
    """

    label = "<yaml>"
    first_line = 1

    def _where(self, node: yaml.Node) -> str:
        mark = getattr(node, "start_mark", None)
        return f"line {mark.line + self.first_line}" if mark is not None else "file"

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (BuildError, yaml.YAMLError, RecursionError):  # BuildError: InputError, or an interrupt
            raise
        except Exception as e:
            kind = node.tag.rsplit(":", 1)[-1] if isinstance(node.tag, str) else "value"
            value = node.value if isinstance(node, yaml.ScalarNode) else node.id
            found = _one_line(repr(value), 60)
            if isinstance(e, ValueError) and str(e):
                found += f" ({_one_line(str(e), 60)})"
            raise InputError(self.label, self._where(node), f"a valid {kind}", found) from None

    def construct_yaml_str(self, node: yaml.Node) -> str:
        value = super().construct_yaml_str(node)
        if _SURROGATE.search(value):
            raise InputError(self.label, self._where(node), "a string of Unicode characters", "a lone surrogate")
        return value

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    repeated = key in seen
                    seen.add(key)
                except TypeError:
                    continue
                if repeated:
                    raise InputError(
                        self.label,
                        self._where(key_node),
                        "each key once in a mapping",
                        f"{_one_line(repr(key), 60)} again",
                    )
        return super().construct_mapping(node, deep)


StrictLoader.add_constructor("tag:yaml.org,2002:str", StrictLoader.construct_yaml_str)


def _yaml_error(e: yaml.YAMLError, label: str, text: str, first_line: int) -> InputError:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    context = getattr(e, "context", None) or ""
    if "quoted scalar" in context and getattr(e, "context_mark", None) is not None:
        # an unclosed quote is found only at the end of the text: the line to fix is where the string opened
        mark = e.context_mark  # type: ignore[attr-defined]
        return InputError(label, f"line {mark.line + first_line}", "a closing quote for the string opened here", "none")
    if mark is not None:
        where = f"line {mark.line + first_line}"
    elif isinstance(getattr(e, "position", None), int):
        where = f"line {text.count(chr(10), 0, e.position) + first_line}"  # type: ignore[attr-defined]
    else:
        where = "file" if first_line == 1 else f"line {first_line}"
    problem = getattr(e, "problem", None) or getattr(e, "reason", None) or str(e)
    problem = re.sub(r"^(?:but )?found ", "", _one_line(problem))
    return InputError(label, where, "valid YAML", problem)


def _check_events(text: str, label: str, first_line: int, max_depth: int) -> None:
    """Walk the event stream (no composing): refuse anchors, aliases and nesting deeper than ``max_depth``."""
    loader = _YAMLBase(text)
    try:
        depth = 0
        while loader.check_event():
            event = loader.get_event()
            line = f"line {event.start_mark.line + first_line}"
            if isinstance(event, yaml.AliasEvent):
                raise InputError(label, line, "YAML without anchors or aliases", f"an alias '*{event.anchor}'")
            if getattr(event, "anchor", None) is not None:
                raise InputError(label, line, "YAML without anchors or aliases", f"an anchor '&{event.anchor}'")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    raise InputError(label, line, f"YAML nested at most {max_depth} levels deep", f"level {depth}")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        loader.dispose()


def load_yaml(
    text: str, label: str, first_line: int = 1, max_chars: int = YAML_MAX_CHARS, max_depth: int = YAML_MAX_DEPTH
) -> object:
    """Parse one YAML document safely (``None`` for an empty one).

    ``first_line`` is the file line of the text's first line (2 for front matter after a ``---`` line),
    so errors name the file's real line. Raises InputError(label, …) for: text longer than ``max_chars``
    ("file", "at most N characters of YAML"); a character YAML forbids ("line L", "YAML text",
    "character U+XXXX"); an anchor or alias ("line L", "YAML without anchors or aliases", "an alias '*x'"
    / "an anchor '&x'"); nesting deeper than ``max_depth``; any YAML syntax error ("line L",
    "valid YAML", problem); an impossible value such as ``2024-02-30`` ("line L", "a valid timestamp",
    "'2024-02-30' (day is out of range for month)"); a lone surrogate; a repeated mapping key.
    """
    if not isinstance(text, str):
        raise TypeError("load_yaml takes str")
    if len(text) > max_chars:
        where = "file" if first_line == 1 else f"line {first_line}"
        raise InputError(label, where, f"at most {max_chars} characters of YAML", f"{len(text)} characters")
    bad = _YAML_NON_PRINTABLE.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + first_line
        raise InputError(label, f"line {line}", "YAML text", f"character U+{ord(bad.group()):04X}")
    try:
        _check_events(text, label, first_line, max_depth)
        loader = StrictLoader(text)
        loader.label = label
        loader.first_line = first_line
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except BuildError:  # InputError, or outdir.Interrupted (SIGTERM/SIGINT) passing through
        raise
    except yaml.YAMLError as e:
        raise _yaml_error(e, label, text, first_line) from None
    except RecursionError:
        raise InputError(label, "file", f"YAML nested at most {max_depth} levels deep", "deeper nesting") from None
    except Exception as e:  # a safety net: no traceback ever leaves this function
        raise InputError(label, "file", "valid YAML", _one_line(f"{type(e).__name__}: {e}")) from None
