"""What every part of the store needs from a database, and the deadlines two parts keep;
SQL is written once for both dialects."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
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


# -- deadlines, stored alike for tables and tournaments ------------------------
# Deadlines of the turn clock (table ``deadlines``): at most one per table
# and kind. The store only keeps them; the scheduler and the turn clock give
# them their meaning.
#
# A deadline's ``owner`` is what it belongs to: a table here, a tournament in
# :mod:`db.tournaments` (each kind of owner has its own table of rows, the same
# SQL on each). The column keeps its name ``table_id`` of migration 004: renaming
# it would take a migration that rebuilds the table (SQLite), for no change in
# what it holds.

DeadlineKey = tuple[int, str]


@dataclass(frozen=True, slots=True)
class Deadline:
    """Something that must happen to ``owner`` (a table's or a tournament's
    id) at ``due_at`` (epoch seconds). ``data`` is JSON-compatible: it is
    stored with the row."""

    owner: int
    kind: str
    due_at: float
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> DeadlineKey:
        return (self.owner, self.kind)


class DeadlineSQL(StorePart):
    """The deadline rows of one kind of owner, each write a transaction of its own
    but :meth:`replace_deadlines`, which runs in the caller's."""

    #: The owner's table of rows and its owner column.
    deadline_table = "deadlines"
    owner_column = "table_id"

    async def put_deadline(
        self, owner: int, kind: str, due_at: float, data: Mapping[str, Any]
    ) -> None:
        """Store a deadline, replacing the owner's deadline of the same kind."""
        await self.db.execute(
            f"INSERT INTO {self.deadline_table} ({self.owner_column}, kind, due_at, data)"
            f" VALUES (?, ?, ?, ?) ON CONFLICT ({self.owner_column}, kind) DO UPDATE"
            " SET due_at = excluded.due_at, data = excluded.data",
            (owner, kind, due_at, to_json(data)),
        )

    async def delete_deadline(self, owner: int, kind: str) -> None:
        """Remove the owner's deadline of that kind, if it has one."""
        await self.db.execute(
            f"DELETE FROM {self.deadline_table} WHERE {self.owner_column} = ? AND kind = ?",
            (owner, kind),
        )

    async def load_deadlines(self) -> list[Deadline]:
        """Every stored deadline, soonest first."""
        rows = await self.db.fetchall(
            f"SELECT {self.owner_column}, kind, due_at, data FROM {self.deadline_table}"
            f" ORDER BY due_at, {self.owner_column}, kind"
        )
        return [Deadline(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    async def replace_deadlines(self, db: Statements, owner: int, rows: list[DeadlineRow]) -> None:
        """Inside the caller's transaction: the owner's deadlines become exactly
        ``rows`` (none: it has no deadline left)."""
        table, column = self.deadline_table, self.owner_column
        await db.execute(f"DELETE FROM {table} WHERE {column} = ?", (owner,))
        if rows:
            await db.executemany(
                f"INSERT INTO {table} ({column}, kind, due_at, data) VALUES (?, ?, ?, ?)", rows
            )


DeadlineRow = tuple[int, str, float, str]


def deadline_rows(owner: int, deadlines: Sequence[Deadline]) -> list[DeadlineRow]:
    """The rows of ``deadlines``, checked before any write: all of them the
    owner's, one per kind (the key of a row)."""
    if any(d.owner != owner for d in deadlines):
        raise ValueError(f"a deadline of another owner written with owner {owner}")
    if len({d.kind for d in deadlines}) != len(deadlines):
        raise ValueError(f"two deadlines of the same kind for owner {owner}")
    return [(owner, d.kind, d.due_at, to_json(d.data)) for d in deadlines]
