"""The development and author commands beside ``build``: serve, check and the listings, explain and changes, the trial build they share."""
