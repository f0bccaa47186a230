"""What every part of the store needs from a database; SQL is written once for both dialects."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

Row = Sequence[Any]
Args = Sequence[Any] | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str  # "sqlite" or "postgresql", as in the migration file names
    #: A join kept in the written order (SQLite's CROSS JOIN; elsewhere a plain JOIN).
    ordered_join: str


SQLITE = Dialect("sqlite", "CROSS JOIN")
POSTGRESQL = Dialect("postgresql", "JOIN")


@dataclass(frozen=True, slots=True)
class TableShape:
    """One table of the schema as the database describes it."""

    name: str
    columns: tuple[str, ...]
    references: frozenset[str]  # the tables its foreign keys point to


class Statements(Protocol):
    """Statements inside one transaction."""

    async def execute(self, sql: str, args: Args = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Args]) -> None: ...

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None: ...

    async def insert(self, sql: str, args: Args = ()) -> int:
        """Run an INSERT of one row into a table whose key is ``id``; returns that id."""


class Database(Protocol):
    """An open, migrated database."""

    dialect: Dialect

    def describe(self) -> str:
        """Where the database is, for messages (no password)."""

    def transaction(self) -> AbstractAsyncContextManager[Statements]:
        """Run the block in one transaction, rolled back if it raises."""

    def consistent_read(self) -> AbstractAsyncContextManager[Statements]:
        """Run several reads that all see one state of the database."""

    async def execute(self, sql: str, args: Args = ()) -> int:
        """One write statement as a transaction of its own."""

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None: ...

    async def schema_version(self) -> int: ...

    async def tables(self) -> list[TableShape]:
        """Every table of the store's schema (not the migration bookkeeping), by name."""

    async def after_copy(self, tables: list[TableShape]) -> None:
        """Rows were copied in with their ids: make new ids follow them."""

    async def close(self) -> None: ...


class StorePart:
    """A part of the store, whose SQL runs on :attr:`db`, the store's one database."""

    db: Database

    def transaction(self) -> AbstractAsyncContextManager[Statements]:
        return self.db.transaction()


def to_json(value: Any) -> str:
    """``value`` as compact JSON with sorted keys: the same value is always the same text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
