from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.stats.service import StatsService
from db.stats_store import StatsStore

MIGRATIONS = Path(__file__).resolve().parents[2] / "db" / "migrations"


@pytest.fixture
async def stats(tmp_path: Path) -> AsyncIterator[StatsService]:
    async with aiosqlite.connect(tmp_path / "stats.db") as db:
        await db.execute("PRAGMA foreign_keys = ON")
        for script in sorted(MIGRATIONS.glob("01[0-4]_*.sql")):
            await db.executescript(script.read_text())
        await db.commit()
        yield StatsService(StatsStore(db))
