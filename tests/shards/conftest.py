"""The store every process of these tests shares.

``store_location`` is the one place that says where it lives: an SQLite file
(WAL mode lets several processes write it) and a database on the throwaway
PostgreSQL server, so that every test here runs on both backends.
"""

from __future__ import annotations

import pytest

from tests.backends import Backend


@pytest.fixture
def store_location(backend: Backend) -> str:
    return backend.target
