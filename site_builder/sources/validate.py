"""Small typed readers for parsed JSON/YAML: each failure is an InputError naming file and key path."""

from __future__ import annotations

import math
from typing import Any

from site_builder.errors import InputError, describe


class Reader:
    """Reads typed fields out of one parsed document, for error messages that name ``file`` and the key path."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, expected: str, found: object) -> InputError:
        return InputError(self.file, path, expected, describe(found))

    def mapping(self, obj: object, path: str) -> dict[str, Any]:
        if not isinstance(obj, dict):
            raise self.fail(path, "an object", obj)
        return obj

    def key(self, obj: dict[str, Any], key: str, path: str) -> Any:
        if key not in obj:
            raise InputError(self.file, f"{path}.{key}" if path else key, "a required key", "it is missing")
        return obj[key]

    def list(self, obj: object, path: str) -> list[Any]:
        if not isinstance(obj, list):
            raise self.fail(path, "a list", obj)
        return obj

    def str(self, obj: dict[str, Any], key: str, path: str) -> str:
        v = self.key(obj, key, path)
        if not isinstance(v, str) or not v:
            raise self.fail(f"{path}.{key}", "a non-empty string", v)
        return v

    def int(self, obj: dict[str, Any], key: str, path: str, minimum: int = 0) -> int:
        v = self.key(obj, key, path)
        if isinstance(v, float) and v.is_integer() and math.isfinite(v):
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise self.fail(f"{path}.{key}", f"an integer ≥ {minimum}", v)
        return v

    def num(self, obj: dict[str, Any], key: str, path: str, minimum: float | None = None) -> float:
        v = self.key(obj, key, path)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail(f"{path}.{key}", "a number", v)
        if not math.isfinite(v):
            raise self.fail(f"{path}.{key}", "a finite number", v)
        if minimum is not None and v < minimum:
            raise self.fail(f"{path}.{key}", f"a number ≥ {minimum}", v)
        return float(v)

    def opt_num(self, obj: dict[str, Any], key: str, path: str) -> float | None:
        if obj.get(key) is None:
            if key not in obj:
                raise InputError(self.file, f"{path}.{key}", "a required key", "it is missing")
            return None
        return self.num(obj, key, path)
