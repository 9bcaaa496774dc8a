"""The models' inputs, each loaded and validated by its own loader, only when a model asks for it.

A loader is a module of this folder that reads one input through the pins: it declares ``READS`` (every file
it reads, as ``root/pattern``) and ``load(pinned)``. Which loaders there are, by name, and which inputs each results
document needs, are declared with the producers (``site_builder/results/producers.py``); this module only holds what
loads them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.sources.pins import Pinned

LOADERS_LABEL = "site_builder/results/producers.py"


@dataclass(frozen=True)
class Loader:
    """A named input, the module that loads it (its source is in the cache key of every document reading it) and
    how it is loaded (a function that calls the module's ``load``, importing it only then)."""

    name: str
    module: str
    load: Callable[[Pinned], Any]

    def reads(self) -> tuple[str, ...]:
        """The files it reads, each as ``root/pattern`` (the module's ``READS``)."""
        return importlib.import_module(self.module).READS


class Inputs:
    """The inputs, loaded on first use: each at most once, from the pins (read when the first input is asked for)."""

    def __init__(self, loaders: Mapping[str, Loader], pinned: Pinned | Callable[[], Pinned]) -> None:
        self.loaders = loaders
        self._pinned = pinned
        self._loaded: dict[str, Any] = {}

    @property
    def pinned(self) -> Pinned:
        if not isinstance(self._pinned, Pinned):
            self._pinned = self._pinned()
        return self._pinned

    @property
    def loaded(self) -> tuple[str, ...]:
        """The names of the inputs loaded so far."""
        return tuple(self._loaded)

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            loader = self.loaders.get(name)
            if loader is None:
                known = ", ".join(self.loaders) or "none"
                raise BuildError(f"{LOADERS_LABEL}: LOADERS: expected a loader of input {name!r}, found {known}")
            self._loaded[name] = loader.load(self.pinned)
        return self._loaded[name]

    def load(self, names: Iterable[str]) -> None:
        """Load these inputs now (before a fork, so that both processes have them)."""
        for name in names:
            self[name]

    def view(self, reader: str, names: tuple[str, ...]) -> InputsView:
        return InputsView(self, reader, names)


class InputsView:
    """The inputs one reader (a producer) declares: asking for any other is an error naming the reader."""

    def __init__(self, inputs: Inputs, reader: str, names: tuple[str, ...]) -> None:
        self._inputs = inputs
        self.reader = reader
        self.names = names

    def __getitem__(self, name: str) -> Any:
        if name not in self.names:
            declared = ", ".join(self.names) or "none"
            raise BuildError(
                f"{LOADERS_LABEL}: producer {self.reader!r}.inputs: expected {name!r} declared, found {declared}"
            )
        return self._inputs[name]
