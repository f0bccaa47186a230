"""The store's connection: opening it, its settings, the schema migrations,
transactions, and the errors every part of the store raises.

One :class:`Connected` owns one aiosqlite connection (WAL, foreign keys on,
a busy timeout). Writes go through :meth:`Connected.transaction`, one at a
time: several coroutines sharing a connection must never interleave the
statements of two transactions.

The schema lives in ``db/migrations/NNN_name.sql``. At open every file whose
number is above ``PRAGMA user_version`` is applied, in number order, all in
one transaction, and ``user_version`` becomes the highest number applied.
Numbers may have gaps. A database whose version is above every known
migration was written by newer code and is refused (:class:`SchemaTooNew`).

Durability: ``synchronous=NORMAL`` in WAL mode. A commit survives the
process being killed at any moment (the WAL is written before ``COMMIT``
returns); only a power cut or OS crash can lose the last few commits.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")
BUSY_TIMEOUT_MS = 5000
READ_ONLY = (
    "the database is read-only: the bot must be able to write its file, the -wal and -shm"
    " files beside it, and their folder"
)


class StoreError(Exception):
    """A problem with the database itself (not a refused action)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class VersionConflict(StoreError):
    """The table's stored version is not the one the write was based on:
    another writer got there first. Nothing was written."""


class ChannelTaken(StoreError):
    """Another open table already holds the channel. Nothing was written."""


# -- migrations --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    path: Path


def find_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every ``NNN_name.sql`` file of the folder, by number; a duplicate
    number is an error (two engineers picked the same one)."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path.name!r} is not named NNN_name.sql")
        number = int(match.group(1))
        if number <= 0:
            raise StoreError(f"migration {path.name!r}: numbers start at 1")
        if number in found:
            raise StoreError(
                f"migrations {found[number].path.name!r} and {path.name!r} share number {number}"
            )
        found[number] = Migration(number, path)
    return [found[n] for n in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Split a SQL script into single statements (trigger bodies stay whole):
    ``executescript`` would commit, and migrations must share one transaction."""
    statements: list[str] = []
    current = ""
    pieces = script.split(";")
    for piece in pieces[:-1]:  # each of these ended at a semicolon
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if _has_sql(current):
                statements.append(current.strip())
            current = ""
    current += pieces[-1]
    if _has_sql(current):
        raise StoreError(f"incomplete SQL statement at the end of a migration: {current[:60]!r}")
    return statements


def _has_sql(text: str) -> bool:
    for line in text.splitlines():
        code = line.split("--", 1)[0].strip().strip(";").strip()
        if code:
            return True
    return False


# -- the connection ----------------------------------------------------------------


class Connected:
    """An open, migrated database connection. Create with ``await open(path)``
    (on :class:`db.store.Store`); ``await close()``."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        # One transaction at a time on the shared connection.
        self.write_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Path = MIGRATIONS_DIR,
        upto: int | None = None,
        synchronous: str = "NORMAL",
    ) -> Self:
        """Open (creating it and its folder if needed) and migrate the database.

        ``upto`` stops the migrations at that number (tests of old versions).
        Raises :class:`SchemaTooNew` if the file is newer than the code and
        :class:`StoreError` if it cannot be opened or written. Whatever fails,
        the connection is closed first: its thread never outlives the caller.
        """
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        path = Path(path)
        if str(path) != ":memory:":
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot create the folder {path.parent}: {exc.strerror}"
                ) from None
        connection = await _connect(path)
        store = cls(connection, path)
        try:
            await _configure(connection, synchronous.upper())
            await store._check_writable()
            await store._migrate(find_migrations(migrations), upto)
        except sqlite3.Error as exc:
            await _close(connection)
            raise _open_error(exc) from exc
        except BaseException:
            await _close(connection)
            raise
        return store

    async def close(self) -> None:
        async with self.write_lock:
            await _close(self.connection)

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.transaction() as db:`` runs the block in one
        ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if it raises. Other
        modules sharing this connection write through here too."""
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()

    @asynccontextmanager
    async def read_snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.read_snapshot() as db:`` runs several reads that
        see one state of the database while other processes write: one
        deferred (read-only) transaction, which in WAL mode blocks no writer
        elsewhere. This process's own writes wait until it ends."""
        async with self.write_lock:
            await self.connection.execute("BEGIN")
            try:
                yield self.connection
            finally:
                await self.connection.rollback()

    async def _check_writable(self) -> None:
        """Write something and roll it back. SQLite opens a file it may not
        write without a word (read-only), and WAL also needs to write the
        folder; found out only at the first move, every move would fail."""
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                await self.connection.execute("CREATE TABLE store_write_check (x)")
            finally:
                await self.connection.rollback()

    async def _migrate(self, migrations: list[Migration], upto: int | None) -> None:
        known = max((m.number for m in migrations), default=0)
        target = known if upto is None else min(known, upto)
        current = await self.schema_version()
        if current > known:
            raise self._too_new(current, known)
        if current >= target:
            return  # the usual start: nothing to do, no write transaction
        async with self.transaction() as db:
            # Read again inside the transaction: another process may have migrated.
            current = await self.schema_version()
            if current > known:
                raise self._too_new(current, known)
            pending = [m for m in migrations if current < m.number <= target]
            for migration in pending:
                script = migration.path.read_text(encoding="utf-8")
                for statement in split_statements(script):
                    try:
                        await db.execute(statement)
                    except sqlite3.Error as exc:
                        raise StoreError(f"migration {migration.path.name} failed: {exc}") from exc
            if pending:
                # PRAGMA takes no parameters; the number is an int we parsed.
                await db.execute(f"PRAGMA user_version = {pending[-1].number:d}")

    def _too_new(self, current: int, known: int) -> SchemaTooNew:
        return SchemaTooNew(
            f"the database {self.path} is at schema version {current}, newer than this bot "
            f"knows ({known}): run a newer version of the bot"
        )


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: the store issues BEGIN/COMMIT itself.
    connection = aiosqlite.connect(str(path), isolation_level=None)
    try:
        return await connection
    except sqlite3.Error as exc:
        _wait_for_thread(connection)
        raise _open_error(exc) from exc


async def _close(connection: aiosqlite.Connection) -> None:
    try:
        await connection.close()
    finally:
        _wait_for_thread(connection)


def _wait_for_thread(connection: aiosqlite.Connection) -> None:
    """Wait for the connection's thread to end. aiosqlite only tells it to
    stop (on close, or when the connection failed to open); a thread still
    running when the event loop closes reports to a closed loop ("Event loop
    is closed"). It has nothing left to do but end, so this is quick."""
    worker = getattr(connection, "_thread", None)  # aiosqlite's own attribute
    if isinstance(worker, threading.Thread) and worker.is_alive():
        worker.join(timeout=5)


async def _configure(connection: aiosqlite.Connection, synchronous: str) -> None:
    # busy_timeout first: switching to WAL may wait on another connection.
    await connection.executescript(
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d};"
        " PRAGMA journal_mode = WAL;"
        f" PRAGMA synchronous = {synchronous};"
        " PRAGMA foreign_keys = ON;"
    )


def _open_error(exc: sqlite3.Error) -> StoreError:
    if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_READONLY:
        return StoreError(READ_ONLY)
    return StoreError(str(exc))


def to_json(value: Any) -> str:
    """``value`` as the store writes JSON: compact, keys sorted."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
