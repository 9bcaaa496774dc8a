"""Static results-website generator for the Fourier Optics for Training and Compute in Transit series."""

__version__ = "0.1.0"
