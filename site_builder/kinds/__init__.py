"""The kinds of page the site has: one module each (its hooks and template), registered here and only here.

A content page names its kind in front matter (``kind: page`` by default); the generated kinds (results pages,
the figure index, the 404 page) make their pages in their ``generated`` hook. The base class and what each hook
is called with: :class:`site_builder.content.plan.Kind`.
"""

from __future__ import annotations

from site_builder.content.plan import Kind
from site_builder.kinds.deck import DECK
from site_builder.kinds.figures import FIGURES
from site_builder.kinds.home import HOME
from site_builder.kinds.hub import GLOSSARY, HUB
from site_builder.kinds.method import METHOD
from site_builder.kinds.notfound import NOTFOUND
from site_builder.kinds.page import PAGE
from site_builder.kinds.results import RESULTS

KINDS: dict[str, Kind] = {k.name: k for k in (HOME, PAGE, DECK, HUB, GLOSSARY, METHOD, RESULTS, FIGURES, NOTFOUND)}
CONTENT_KINDS = {name: k for name, k in KINDS.items() if k.from_content}
