from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai.search import SearchPlayer
from bot.coach.service import CoachService
from bot.prefs import Preferences
from bot.stats.service import StatsService
from bot.tables.service import TableService
from db.stats_store import StatsStore
from db.store import Store
from tests.service.driver import FakeClock, seed_counter


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(step=0.0)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "spades.db", synchronous="OFF")
    yield store
    await store.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> TableService:
    return await TableService.open(store, now=clock, seed_source=seed_counter())


@pytest.fixture
def stats(store: Store) -> StatsService:
    return StatsService(StatsStore(store))


def quick_search() -> SearchPlayer:
    """A hint search with a sample limit: fast and reproducible."""
    return SearchPlayer(seed=3, time_budget=60.0, max_samples=2)


@pytest.fixture
def coach(store: Store, clock: FakeClock) -> CoachService:
    return CoachService(Preferences(store, clock, fresh_s=None), clock, player=quick_search)
