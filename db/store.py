"""The bot's store: tables, their action logs, game results, user
preferences and turn-clock deadlines, in an SQLite file or on a PostgreSQL
server.

One :class:`Store` owns one database (:class:`db.sql.Database`) and offers
every part of the store on it; each part's SQL lives in its own module,
written once for both databases:

* :mod:`db.sql`: what the parts need from a database, and its dialect;
* :mod:`db.sqlite`: the SQLite file (settings, migrations, transactions);
* :mod:`db.postgres`: the PostgreSQL server (a pool, reconnecting);
* :mod:`db.schema`: the one numbered migration history of both;
* :mod:`db.errors`: the errors every part raises;
* :mod:`db.table_store`: tables, seats, spectators, the action log, games
  and engine states (read back by :mod:`db.table_reads`, records in
  :mod:`db.table_records`);
* :mod:`db.deadlines`: the turn clock's deadlines;
* :mod:`db.prefs`: user preferences and turn mentions;
* :mod:`db.server_settings`: each server's settings;
* :mod:`db.rest_budget`: the token's REST budget, leased by every process.

The statistics (:mod:`db.stats_store`) and the turn clock's table state
(:mod:`db.clock_store`) share the store's database and transactions.
Nothing in ``db`` imports the bot: the types it takes and returns are its own.
"""

from __future__ import annotations

from pathlib import Path

import aiosqlite

from db.deadlines import Deadline, DeadlineKey, DeadlineSQL
from db.errors import (
    ChannelTaken,
    DatabaseAway,
    IntegrityFailure,
    SchemaTooNew,
    StoreError,
    VersionConflict,
)
from db.game_reviews import GameReviewSQL
from db.prefs import PrefsSQL, TurnMention, UserPrefs
from db.rest_budget import RestBudgetSQL
from db.schema import MIGRATIONS_DIR, Migration, find_migrations
from db.server_settings import ServerSettingsSQL
from db.sql import Database
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
    "DeadlineKey",
    "GameEnd",
    "GameInfo",
    "GameStart",
    "IntegrityFailure",
    "LogEntry",
    "Migration",
    "SchemaTooNew",
    "SeatOutcome",
    "SeatRow",
    "Store",
    "StoreError",
    "TableRecord",
    "TurnMention",
    "UserPrefs",
    "VersionConflict",
    "find_migrations",
    "split_statements",
]


class Store(TableSQL, DeadlineSQL, PrefsSQL, ServerSettingsSQL, GameReviewSQL, RestBudgetSQL):
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
        """Open (creating and migrating it if needed) the database ``target``
        names: a path or ``sqlite:///path`` for an SQLite file,
        ``postgresql://...`` for a PostgreSQL server. ``upto`` stops the
        migrations at that number (tests of old versions); ``synchronous`` is
        SQLite's setting. Raises :class:`SchemaTooNew` for a database written
        by a newer bot and :class:`StoreError` if it cannot be opened."""
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
