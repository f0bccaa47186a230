"""The SQLite database of the store: one aiosqlite connection (WAL, foreign keys, busy timeout).

Writes run one transaction at a time: coroutines sharing a connection must never
interleave two transactions. At open, migrations above ``PRAGMA user_version`` run in one
transaction; a newer file is refused (:class:`SchemaTooNew`). ``synchronous=NORMAL`` in WAL
survives a killed process; only a power cut can lose the last commits."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Self

import aiosqlite

from db.errors import IntegrityFailure, StoreError
from db.schema import MIGRATIONS_DIR, Migration, find_migrations, migration_target, too_new
from db.sql import SQLITE, Args, Row, TableShape

BUSY_TIMEOUT_MS = 5000
READ_ONLY = (
    "the database is read-only: the bot must be able to write its file, the -wal and -shm"
    " files beside it, and their folder"
)


# -- migrations --------------------------------------------------------------------


def split_statements(script: str) -> list[str]:
    """A script's statements one by one: ``executescript`` would commit mid-migration."""
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


class SQLiteStatements:
    """:class:`db.sql.Statements` on the aiosqlite connection."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, args: Args = ()) -> int:
        return (await self._run(sql, args)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        try:
            await self.connection.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityFailure(str(exc)) from exc

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, args))

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None:
        async with self.connection.execute(sql, args) as cursor:
            row: Row | None = await cursor.fetchone()
            return row

    async def insert(self, sql: str, args: Args = ()) -> int:
        row_id = (await self._run(sql, args)).lastrowid
        assert row_id is not None
        return row_id

    async def _run(self, sql: str, args: Args) -> aiosqlite.Cursor:
        try:
            return await self.connection.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise IntegrityFailure(str(exc)) from exc


class SQLiteDatabase(SQLiteStatements):
    """An open, migrated SQLite database; reads run directly, writes one transaction at a time."""

    dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        super().__init__(connection)
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
        """Open (creating its folder if needed) and migrate; ``upto`` stops at that migration.

        Raises :class:`SchemaTooNew` or :class:`StoreError`, closing the connection first so
        its thread never outlives the caller."""
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
            await store._migrate(find_migrations(migrations, "sqlite"), upto)
        except sqlite3.Error as exc:
            await _close(connection)
            raise _open_error(exc) from exc
        except BaseException:
            await _close(connection)
            raise
        return store

    async def close(self) -> None:
        """Close the connection once the transactions already waiting have run."""
        async with self.write_lock:
            await _close(self.connection)

    def describe(self) -> str:
        return str(self.path)

    async def execute(self, sql: str, args: Args = ()) -> int:
        async with self.write_lock:
            return await super().execute(sql, args)

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def tables(self) -> list[TableShape]:
        names = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        shapes = []
        for (name,) in names:
            # PRAGMA takes no parameters; the name comes from sqlite_master.
            columns = await self.fetchall(f"PRAGMA table_info('{name}')")
            keys = await self.fetchall(f"PRAGMA foreign_key_list('{name}')")
            shapes.append(
                TableShape(
                    name,
                    tuple(str(c[1]) for c in columns),
                    frozenset(str(k[2]) for k in keys) - {name},
                )
            )
        return shapes

    async def after_copy(self, tables: list[TableShape]) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY continues from the largest."""

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteStatements]:
        """Run the block in one ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if it raises."""
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield SQLiteStatements(self.connection)
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()

    @asynccontextmanager
    async def consistent_read(self) -> AsyncIterator[SQLiteStatements]:
        """Several reads of one state: a deferred transaction (in WAL it blocks no writer)."""
        async with self.write_lock:
            await self.connection.execute("BEGIN")
            try:
                yield SQLiteStatements(self.connection)
            finally:
                await self.connection.rollback()

    async def _check_writable(self) -> None:
        """Fail at open, not at the first move, if SQLite opened the file read-only."""
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                await self.connection.execute("CREATE TABLE store_write_check (x)")
            finally:
                await self.connection.rollback()

    async def _migrate(self, migrations: list[Migration], upto: int | None) -> None:
        known, target = migration_target(migrations, upto)
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
                    except (sqlite3.Error, IntegrityFailure) as exc:
                        raise StoreError(f"migration {migration.path.name} failed: {exc}") from exc
            if pending:
                # PRAGMA takes no parameters; the number is an int we parsed.
                await db.execute(f"PRAGMA user_version = {pending[-1].number:d}")

    def _too_new(self, current: int, known: int) -> StoreError:
        return too_new(str(self.path), current, known)


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
    """Join aiosqlite's thread, which otherwise may report to a closed event loop."""
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
