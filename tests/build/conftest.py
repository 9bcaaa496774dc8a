"""The build tests share one good build and one results cache (its keys cover whatever a case breaks)."""

from tests.build.test_bad_inputs import built_site

__all__ = ["built_site"]
