"""The home page (``kind: home``)."""

from __future__ import annotations

from site_builder.kinds.page import ContentKind

HOME = ContentKind("home", "home.html", True)
