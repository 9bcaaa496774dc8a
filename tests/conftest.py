"""Shared fixtures: where the project and the external inputs are."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
VENDOR = PROJECT.parent / "shared" / "vendor"
REFERENCE = PROJECT.parent / "shared" / "reference"


@pytest.fixture(scope="session")
def experiment():
    from site_builder.sources.experiment import load_experiment

    return load_experiment(VENDOR)
