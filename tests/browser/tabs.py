"""Browser tabs kept open between tests, in this test process.

Opening a tab starts a renderer and loads and compiles every script afresh (Plotly among them), which cost about
three times what loading the same page into an open tab does. A test takes a free tab for its key (or a new one),
and gives it back after: on about:blank, its storage cleared and print emulation off; a tab the test left
unusable is closed, not kept. The next test gets it at the viewport it asks for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from typing import Any


class Tabs:
    def __init__(self) -> None:
        self._free: dict[Hashable, list[Any]] = {}

    def take(self, key: Hashable, viewport: dict[str, int], make: Callable[[], Any]) -> Any:
        """A free tab kept under ``key``, at ``viewport``; else ``make()``, a new one."""
        free = self._free.setdefault(key, [])
        while free:
            page = free.pop()
            if not page.is_closed():
                page.set_viewport_size(viewport)  # a test may have resized it
                return page
        return make()

    def give_back(self, key: Hashable, page: Any) -> None:
        try:
            page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")
            page.emulate_media(media="null")
            page.goto("about:blank")
        except Exception:
            with contextlib.suppress(Exception):
                page.context.close()
            return
        self._free.setdefault(key, []).append(page)


TABS = Tabs()
