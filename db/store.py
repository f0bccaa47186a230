"""The bot's store on SQLite or PostgreSQL, one module of SQL per part. Imports nothing above."""

from __future__ import annotations

from pathlib import Path

import aiosqlite

from db.errors import (
    ChannelTaken,
    DatabaseAway,
    IntegrityFailure,
    SchemaTooNew,
    StoreError,
    VersionConflict,
)
from db.game_reviews import GameReviewSQL
from db.prefs import PrefsSQL, TurnMention
from db.rest_budget import RestBudgetSQL
from db.schema import MIGRATIONS_DIR, find_migrations
from db.server_settings import ServerSettingsSQL
from db.sql import Database, Deadline, StorePart
from db.sqlite import READ_ONLY, SQLiteDatabase, split_statements
from db.table_records import (
    Change,
    Committed,
    GameEnd,
    GameInfo,
    GameStart,
    LogEntry,
    SeatOutcome,
    SeatRow,
    TableRecord,
)
from db.table_store import TableSQL
from db.targets import is_postgres, sqlite_path

__all__ = [
    "MIGRATIONS_DIR",
    "READ_ONLY",
    "Change",
    "ChannelTaken",
    "Committed",
    "DatabaseAway",
    "Deadline",
    "GameEnd",
    "GameInfo",
    "GameStart",
    "IntegrityFailure",
    "LogEntry",
    "SchemaTooNew",
    "SeatOutcome",
    "SeatRow",
    "Store",
    "StoreError",
    "StoreSection",
    "TableRecord",
    "TurnMention",
    "VersionConflict",
    "find_migrations",
    "split_statements",
]


class Store(TableSQL, PrefsSQL, ServerSettingsSQL, GameReviewSQL, RestBudgetSQL):
    """The database. Create with ``await Store.open(target)``; ``await close()``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations: Path = MIGRATIONS_DIR,
        upto: int | None = None,
        synchronous: str = "NORMAL",
    ) -> Store:
        """Open and migrate ``target``: a path, ``sqlite:///path`` or ``postgresql://...``."""
        if is_postgres(target):
            from db.postgres import PostgresDatabase  # asyncpg only when asked for

            assert isinstance(target, str)
            return cls(await PostgresDatabase.open(target, migrations=migrations, upto=upto))
        try:
            path = sqlite_path(target)
        except ValueError as exc:
            raise StoreError(str(exc)) from None
        return cls(
            await SQLiteDatabase.open(
                path, migrations=migrations, upto=upto, synchronous=synchronous
            )
        )

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.db.dialect.name

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The SQLite connection (tests and benchmarks that look beneath the store)."""
        return self._sqlite().connection

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self._sqlite().path

    def _sqlite(self) -> SQLiteDatabase:
        if not isinstance(self.db, SQLiteDatabase):
            raise StoreError(f"the store is not an SQLite file but {self.db.describe()}")
        return self.db


class StoreSection(StorePart):
    """A part of the store kept out of :class:`Store`, its SQL on the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db
