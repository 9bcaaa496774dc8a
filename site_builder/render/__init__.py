"""Turning content and results into HTML: Markdown with figure references, results pages, templates."""
