"""Results producers: model outputs laid out as results documents (results.md / results.json)."""
