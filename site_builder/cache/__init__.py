"""The build's one cache under ``--cache``: the entry store and its keys, the folder rules, the up-to-date record, the basis and the carried-over pages."""
