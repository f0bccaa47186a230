"""The bot's SQLite store: tables, their action logs, game results, user
preferences and turn-clock deadlines.

One :class:`Store` owns one connection and offers every part of the store
on it; each part's SQL lives in its own module, so that another database
can be put in at these seams:

* :mod:`db.connection`: opening, settings, migrations, transactions;
* :mod:`db.errors`: the errors every part raises;
* :mod:`db.group_commit`: the actions of many tables in one transaction;
* :mod:`db.table_store`: tables, seats, spectators, the action log, games
  and engine states (records in :mod:`db.table_records`);
* :mod:`db.deadlines`: the turn clock's deadlines;
* :mod:`db.prefs`: user preferences and turn mentions.

The statistics (:mod:`db.stats_store`) and the turn clock's table state
(:mod:`db.clock_store`) share the store's connection and transactions.
Nothing in ``db`` imports the bot: the types it takes and returns are its own.
"""

from __future__ import annotations

from db.connection import (
    MIGRATIONS_DIR,
    READ_ONLY,
    Migration,
    find_migrations,
    split_statements,
)
from db.deadlines import Deadline, DeadlineKey, DeadlineSQL
from db.errors import ChannelTaken, SchemaTooNew, StoreError, VersionConflict
from db.prefs import PrefsSQL, TurnMention, UserPrefs
from db.table_records import (
    Change,
    Committed,
    GameEnd,
    GameInfo,
    GameStart,
    LogEntry,
    SeatOutcome,
    SeatRow,
    StateWrite,
    StoredState,
    TableRecord,
)
from db.table_store import TableSQL

__all__ = [
    "MIGRATIONS_DIR",
    "READ_ONLY",
    "Change",
    "ChannelTaken",
    "Committed",
    "Deadline",
    "DeadlineKey",
    "GameEnd",
    "GameInfo",
    "GameStart",
    "LogEntry",
    "Migration",
    "SchemaTooNew",
    "SeatOutcome",
    "SeatRow",
    "StateWrite",
    "Store",
    "StoreError",
    "StoredState",
    "TableRecord",
    "TurnMention",
    "UserPrefs",
    "VersionConflict",
    "find_migrations",
    "split_statements",
]


class Store(TableSQL, DeadlineSQL, PrefsSQL):
    """The database. Create with ``await Store.open(path)``; ``await close()``."""
