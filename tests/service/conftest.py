from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.tables.service import TableService
from db.store import Store
from tests.service.driver import FakeClock, seed_counter


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "spades.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> TableService:
    return await TableService.open(store, now=clock, seed_source=seed_counter())


def dump(path: Path) -> list[str]:
    """Every row and schema object of the database, through a second connection."""
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())
