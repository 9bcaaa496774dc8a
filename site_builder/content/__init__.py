"""The content: pages and their front matter, the Markdown parse of the collect phase, the page list, decks, glossary terms and the series-level assembly."""
