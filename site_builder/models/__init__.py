"""Pure models: parameters in, numbers out. No file I/O in this package."""
