"""The explorers' cases files as text: the one-pass indented writer gives json.dumps' characters exactly, and the
method page's case counts read from a file's layout equal the number of cases JSON finds in it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from site_builder.explorers import EXPLORERS, case_count, dumps_indent1
from tests.conftest import PROJECT


def stdlib(value: object) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_each_committed_cases_file_is_written_again_character_for_character(name: str) -> None:
    text = (PROJECT / "data" / "explorers" / f"{name}.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert dumps_indent1(doc) + "\n" == text
    assert case_count(text) == len(doc["cases"]) > 0


def random_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.choice(["", "a", "é ü", 'q"uote\\', "line\nbreak\ttab", "\u2028\x00\x1f", "☃"])
    if kind == 1:
        return rng.choice([0, -1, 7, 2**70, -(2**65)])
    if kind == 2:
        return rng.choice([0.0, -0.0, 0.1, 1e300, 5e-324, -2.5, 1 / 3, np.float64(0.2)])
    if kind in (3, 4, 5):
        return rng.choice([True, False, None])
    n = rng.randrange(4)
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(n)]
    if kind == 7:
        return tuple(random_value(rng, depth + 1) for _ in range(n))
    keys = rng.sample(["a", "b", "é", "", "x y", 1, 2.5, True, None], n)
    return {k: random_value(rng, depth + 1) for k in keys}


def test_any_json_data_is_written_as_json_dumps_writes_it() -> None:
    rng = random.Random(20261207)
    for _ in range(3000):
        value = random_value(rng)
        assert dumps_indent1(value) == stdlib(value), value


@pytest.mark.parametrize("bad", [float("nan"), [float("inf")], {"a": -float("inf")}])
def test_a_number_json_cannot_hold_is_refused_as_json_dumps_refuses_it(bad: object) -> None:
    with pytest.raises(ValueError):
        stdlib(bad)
    with pytest.raises(ValueError):
        dumps_indent1(bad)


@pytest.mark.parametrize("bad", [{(1,): 2}, [{1, 2}], [np.int64(3)], [np.float32(0.5)], [b"bytes"]])
def test_a_value_json_cannot_hold_is_refused_as_json_dumps_refuses_it(bad: object) -> None:
    with pytest.raises(TypeError):
        stdlib(bad)
    with pytest.raises(TypeError):
        dumps_indent1(bad)


def test_the_count_follows_the_layout_of_any_cases() -> None:
    cases = [{"fn": "f", "args": [[1, [2]], {}], "want": {"a": [3]}}, [], {}, 4, "text", [{"x": 1}]]
    text = stdlib({"explorer": "demo", "port": "demo", "cases": cases}) + "\n"
    assert case_count(text) == len(cases) == 6
    assert case_count(stdlib({"explorer": "demo", "port": "demo", "cases": [{"a": 1}]}) + "\n") == 1


def test_a_file_in_another_layout_is_counted_by_parsing_it() -> None:
    assert case_count(json.dumps({"explorer": "demo", "port": "demo", "cases": [1, 2, 3]})) == 3
    assert case_count(stdlib({"explorer": "demo", "port": "demo", "cases": [{"a": 1}, {"b": 2}]})) == 2  # no newline
    assert case_count("not json") == 0
    assert case_count("[1, 2]") == 0
    assert case_count('{"cases": "many"}') == 0
