"""Loading and validating the build's inputs: pinned vendored files and the reference presets."""
