"""The store every process of these tests shares.

``store_location`` is the one place that says where it lives: an SQLite file
now (WAL mode lets several processes write it); parametrize this fixture with
a database URL to run every test here on another backend.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def store_location(tmp_path: Path) -> str:
    return str(tmp_path / "shared" / "spades.db")
