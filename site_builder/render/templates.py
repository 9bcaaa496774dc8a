"""The Jinja environment (sandboxed, time-limited), and the figures a template names (found by reading it).

Templates are rendered in Jinja's :class:`~jinja2.sandbox.SandboxedEnvironment` with a wall-clock
limit per page, and read with the build's one text reader (bounded, UTF-8). Every failure, syntax,
runtime, sandbox or time limit, is one line naming the template and, where known, its line.
"""

from __future__ import annotations

import operator
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from site_builder.errors import BuildError
from site_builder.results.figures import slug
from site_builder.sources.reading import CONTENT_MAX_BYTES, read_text

DEFAULT_SECONDS = 10.0
ALARM_AGAIN = 0.05  # seconds between alarms once a render's time is up (one may be lost)
MAX_SEQUENCE = 10_000_000  # longest string or list a template may build by repetition
MAX_EXPONENT = 1_000


class TemplateTimeout(Exception):
    """A template ran past its time limit."""


class TemplateLoader(jinja2.BaseLoader):
    """Templates from one folder, read like every other input (size bound, UTF-8, one-line errors)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)  # refuses '..'
        path = self.folder.joinpath(*pieces)
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        source = read_text(path, "templates/" + "/".join(pieces), CONTENT_MAX_BYTES)
        try:
            mtime = os.path.getmtime(path)
        except OSError:
            mtime = 0.0

        def uptodate() -> bool:
            try:
                return os.path.getmtime(path) == mtime
            except OSError:
                return False

        return source, str(path), uptodate


class SiteSandbox(SandboxedEnvironment):
    """Jinja's sandbox, plus a deadline checked on every call and attribute access, and bounded ``*``/``**``."""

    intercepted_binops = frozenset(["*", "**"])
    deadline: float | None = None
    time_limit: float = DEFAULT_SECONDS  # seconds per render

    def _tick(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TemplateTimeout()

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        __self._tick()
        return SandboxedEnvironment.call(__self, __context, __obj, *args, **kwargs)

    def getattr(self, obj: Any, attribute: str) -> Any:
        self._tick()
        return super().getattr(obj, attribute)

    def call_binop(self, context: Any, operator_: str, left: Any, right: Any) -> Any:
        self._tick()
        if operator_ == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple) and isinstance(n, int) and len(seq) * n > MAX_SEQUENCE:
                    raise SecurityError(f"a sequence repeated to more than {MAX_SEQUENCE} items")
            return operator.mul(left, right)
        if isinstance(right, int) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"an exponent above {MAX_EXPONENT}")
        return operator.pow(left, right)


def make_env(folder: Path, seconds: float = DEFAULT_SECONDS) -> SiteSandbox:
    """The templates of ``folder``, compiled in this process. Jinja's bytecode cache is not used: its entries are
    code objects, run when read (anyone who can write the cache folder could run code in the next build), and it
    saved under 10 ms of a one-page edit (``make bench``)."""
    env = SiteSandbox(
        loader=TemplateLoader(folder),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.time_limit = seconds
    env.filters["slug"] = slug
    return env


@contextmanager
def _time_limit(env: SiteSandbox, seconds: float) -> Iterator[None]:
    """Stop a render after ``seconds``: SIGALRM in the main thread (stops any loop), a deadline checked on
    every call and attribute access elsewhere. The alarm repeats every ALARM_AGAIN seconds until the render ends: an
    exception raised where Python ignores it (a garbage-collector callback, a ``__del__``) is lost, and a loop that
    makes no call would then run on."""
    env.deadline = time.monotonic() + seconds
    use_alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous: Any = None
    if use_alarm:

        def alarm(signum: int, frame: Any) -> None:
            if env.deadline is not None:  # not once the render has ended (the timer is being cleared)
                raise TemplateTimeout()

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_AGAIN)
    try:
        yield
    finally:
        env.deadline = None
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def _where(e: BaseException, folder: Path, fallback: str) -> str:
    """ "templates/X: line N" of the innermost template frame of ``e``'s traceback ("templates/X: render" if none)."""
    root = str(folder) + os.sep
    for frame in reversed(traceback.extract_tb(e.__traceback__)):
        if frame.filename.startswith(root):
            return f"templates/{Path(frame.filename).relative_to(folder).as_posix()}: line {frame.lineno}"
    return f"templates/{fallback}: render"


def _one_line(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reraise_own(e: BaseException) -> None:
    """Jinja's lexer turns any exception raised while it reads a template into a TemplateSyntaxError: a build
    error of ours in its cause (SIGINT or SIGTERM arriving then, as ``outdir.Interrupted``) is raised as itself."""
    cause = e.__cause__ or e.__context__
    while cause is not None:
        if isinstance(cause, BuildError):
            raise cause from None
        cause = cause.__cause__ or cause.__context__


def render_template(env: SiteSandbox, name: str, context: dict[str, Any]) -> str:
    """Render template ``name`` within the environment's time limit; every failure is one BuildError line."""
    seconds = env.time_limit
    folder = env.loader.folder  # type: ignore[union-attr]
    try:
        tpl = env.get_template(name)
        with _time_limit(env, seconds):
            return tpl.render(**context)
    except BuildError:
        raise
    except jinja2.TemplateSyntaxError as e:
        _reraise_own(e)
        raise BuildError(
            f"templates/{e.name or name}: line {e.lineno}: expected valid Jinja, found {e.message}"
        ) from None
    except jinja2.TemplateNotFound as e:
        raise BuildError(f"templates/{e.name}: file: expected a template, found no such file") from None
    except TemplateTimeout:
        raise BuildError(
            f"templates/{name}: render: expected a template that finishes within {seconds:g} s, found one still running"
        ) from None
    except RecursionError as e:
        where = _where(e, folder, name)
        raise BuildError(f"{where}: expected a template that ends, found endless recursion") from None
    except jinja2.UndefinedError as e:
        where = _where(e, folder, name)
        raise BuildError(f"{where}: expected defined names, found {_one_line(e.message or '')}") from None
    except SecurityError as e:
        where = _where(e, folder, name)
        raise BuildError(f"{where}: expected what Jinja's sandbox allows, found {_one_line(str(e))}") from None
    except Exception as e:
        where = _where(e, folder, name)
        found = f"{type(e).__name__}: {_one_line(str(e))}"
        raise BuildError(f"{where}: expected a template that renders, found {found}") from None


def _parse(env: jinja2.Environment, name: str) -> nodes.Template:
    try:
        source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        return env.parse(source, name)
    except jinja2.TemplateSyntaxError as e:
        _reraise_own(e)
        raise BuildError(
            f"templates/{e.name or name}: line {e.lineno}: expected valid Jinja, found {e.message}"
        ) from None
    except jinja2.TemplateNotFound as e:
        raise BuildError(f"templates/{e.name}: file: expected a template, found no such file") from None


def _own_refs(env: jinja2.Environment, name: str) -> tuple[list[str], set[tuple[str, str]]]:
    """A template's own parents and includes, and its literal ``fig("key")`` calls (key, "templates/X: line N")."""
    tree = _parse(env, name)
    refs = [
        n.template.value
        for n in tree.find_all((nodes.Extends, nodes.Include))
        if isinstance(n.template, nodes.Const) and isinstance(n.template.value, str)
    ]
    figs: set[tuple[str, str]] = set()
    for call in tree.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name == "fig" and call.args:
            arg = call.args[0]
            if isinstance(arg, nodes.Const) and isinstance(arg.value, str):
                figs.add((arg.value, f"templates/{name}: line {call.lineno}"))
    return refs, figs


def fig_keys(
    env: jinja2.Environment, name: str, parsed: dict[str, tuple[list[str], set[tuple[str, str]]]] | None = None
) -> set[tuple[str, str]]:
    """(key, "templates/X: line N") of every literal ``fig("key")`` in a template, its parents and includes.

    ``parsed`` keeps each template's scan between calls (base.html is the parent of every page kind)."""
    parsed = {} if parsed is None else parsed
    out: set[tuple[str, str]] = set()
    seen: set[str] = set()
    todo = [name]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        if t not in parsed:
            parsed[t] = _own_refs(env, t)
        refs, figs = parsed[t]
        todo.extend(refs)
        out |= figs
    return out
