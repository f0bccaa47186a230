"""The store's JSON is exactly what ``json.dumps`` (compact, keys sorted)
writes, whichever way :func:`db.sql.to_json` builds it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from db.sql import to_json


def reference(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


flat_values = st.one_of(st.integers(), st.text(), st.booleans(), st.none(), st.floats())
flat_dicts = st.dictionaries(st.text(), flat_values, max_size=6)


@given(flat_dicts)
def test_a_flat_dict_is_written_as_json_dumps_writes_it(value: dict[str, Any]) -> None:
    assert to_json(value) == reference(value)


nested_values = st.recursive(flat_values, lambda inner: st.lists(inner, max_size=3))


@given(st.dictionaries(st.text(), nested_values))
def test_a_nested_dict_is_written_as_json_dumps_writes_it(value: dict[str, Any]) -> None:
    assert to_json(value) == reference(value)


@pytest.mark.parametrize(
    "value",
    [
        {"seat": 2, "value": 31},
        {"seat": 1, "value": -1, "bot": "search"},
        {'quote"d': "é\n\u2028", "b": True},
        {1: 2, 3: "x"},
        {"x": 1, "y": [1, 2]},
        {},
        [{"b": 1, "a": 2}],
        "text",
    ],
)
def test_the_common_shapes_and_the_odd_ones(value: Any) -> None:
    assert to_json(value) == reference(value)


def test_keys_of_mixed_types_are_refused_as_json_dumps_refuses_them() -> None:
    with pytest.raises(TypeError):
        reference({"a": 1, 2: 3})
    with pytest.raises(TypeError):
        to_json({"a": 1, 2: 3})
