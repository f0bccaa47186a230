from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.tables.service import TableService
from db.store import Store
from tests.backends import Backend, dump_rows
from tests.service.driver import FakeClock, seed_counter


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "spades.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> TableService:
    return await TableService.open(store, now=clock, seed_source=seed_counter())


async def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database."""
    return await dump_rows(store)
