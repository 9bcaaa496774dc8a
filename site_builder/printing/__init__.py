"""The decks' PDFs: printed in Chromium (pdf) and kept in the PDF store (store)."""
