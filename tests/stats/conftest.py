from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.stats.service import StatsService
from bot.tables.service import TableService
from db.stats_store import StatsStore
from db.store import Store
from tests.backends import Backend
from tests.stats.games import counted_by

from .games import Clock, Tables


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open(synchronous="OFF")
    yield store
    await store.close()


@pytest.fixture
def stats(store: Store) -> StatsService:
    return StatsService(StatsStore(store))


@pytest.fixture
async def tables(store: Store, stats: StatsService) -> Tables:
    clock = Clock()
    holder: list[Tables] = []
    service = await TableService.open(store, now=clock, seed_source=lambda: holder[0].next_seed())
    stop = service.subscribe(counted_by(stats))
    holder.append(Tables(service, stats, clock, stop_counting=stop))
    return holder[0]
