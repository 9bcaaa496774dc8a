"""Markdown: the parser with the site's markup (figures, charts, terms), and the typed-number rule."""
