"""The PostgreSQL database of the store (``postgresql://`` URLs), through an asyncpg pool.

The store's ``?`` and ``:name`` placeholders become ``$n`` here. A server that goes away
does not end the bot: calls fail at once with :class:`~db.errors.DatabaseAway` and the pool
reconnects after a doubling back-off. Migrations run under an advisory lock (processes may
start together); the step reached is the one row of ``schema_version``."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Self, TypeVar

import asyncpg

from db.errors import DatabaseAway, IntegrityFailure, StoreError
from db.schema import MIGRATIONS_DIR, Migration, find_migrations, migration_target, too_new
from db.sql import POSTGRESQL, Args, Row, TableShape
from db.targets import safe_url

T = TypeVar("T")

POOL_SIZE = 8
CONNECT_TIMEOUT_S = 3.0
#: A statement the server does not answer in this time counts as the server gone.
COMMAND_TIMEOUT_S = 15.0
FIRST_BACKOFF_S = 0.1
MAX_BACKOFF_S = 5.0
#: Any number: processes migrating one database take this advisory lock in turn.
_MIGRATION_LOCK = 0x5BADE5
AWAY = "the database is not answering; it is reconnecting"

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|::|\?|(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=4096)
def numbered(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``sql`` with ``$n`` placeholders, and its ``:name`` names in order (None: positional)."""
    names: list[str] = []
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text == "?":
            count += 1
            return f"${count}"
        name = match.group(1)
        if name is None:
            return text  # a quoted literal or a ``::`` cast
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    converted = _PLACEHOLDER.sub(replace, sql)
    if names and count:
        raise ValueError("a statement mixes ? and :name placeholders")
    return converted, tuple(names) if names else None


def _bind(sql: str, args: Args) -> tuple[str, tuple[Any, ...]]:
    converted, names = numbered(sql)
    if names is None:
        return converted, tuple(args)
    assert isinstance(args, Mapping)
    return converted, tuple(args[n] for n in names)


class PostgresStatements:
    """:class:`db.sql.Statements` on one connection inside a transaction."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, args: Args = ()) -> int:
        query, values = _bind(sql, args)
        with _refusals():
            return _rowcount(await self.connection.execute(query, *values))

    async def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        bound = [_bind(sql, row) for row in rows]
        if bound:
            with _refusals():
                await self.connection.executemany(bound[0][0], [values for _, values in bound])

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]:
        query, values = _bind(sql, args)
        return [tuple(r) for r in await self.connection.fetch(query, *values)]

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None:
        query, values = _bind(sql, args)
        row = await self.connection.fetchrow(query, *values)
        return None if row is None else tuple(row)

    async def insert(self, sql: str, args: Args = ()) -> int:
        query, values = _bind(sql + " RETURNING id", args)
        with _refusals():
            return int(await self.connection.fetchval(query, *values))


#: A refused write: a broken constraint, or a rolled-back transaction (serialization, deadlock).
_REFUSALS = (asyncpg.IntegrityConstraintViolationError, asyncpg.TransactionRollbackError)


@contextmanager
def _refusals() -> Iterator[None]:
    """A write the database refused raises the store's word for it, IntegrityFailure."""
    try:
        yield
    except _REFUSALS as exc:
        constraint = getattr(exc, "constraint_name", None)
        raise IntegrityFailure(str(exc) if not constraint else f"{exc} ({constraint})") from exc


_GONE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InternalClientError,
)


def _is_gone(exc: BaseException) -> bool:
    if isinstance(exc, _GONE):
        return True
    # asyncpg's word for a connection that was closed under it.
    return isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc)


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresDatabase:
    """An open, migrated PostgreSQL database. ``await open(url)``; ``await close()``."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self._retry_at = 0.0  # monotonic time of the next try while the server is away
        self._backoff = 0.0
        # For the metrics: calls failed with the server away, and its returns.
        self.failures = 0
        self.reconnects = 0

    @classmethod
    async def open(
        cls, url: str, *, migrations: Path = MIGRATIONS_DIR, upto: int | None = None
    ) -> Self:
        """Connect and migrate; raises :class:`~db.errors.SchemaTooNew` or ``StoreError``."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT_S,
                command_timeout=COMMAND_TIMEOUT_S,
                reset=_nothing_to_reset,
            )
        except (TimeoutError, asyncpg.PostgresError, OSError, ValueError) as exc:
            raise StoreError(f"cannot connect to {safe_url(url)}: {exc}") from None
        database = cls(pool, url)
        try:
            await database._migrate(find_migrations(migrations, "postgresql"), upto)
        except BaseException:
            await pool.close()
            raise
        return database

    def describe(self) -> str:
        return safe_url(self.url)

    async def close(self) -> None:
        await self.pool.close()

    # -- calls, each failing fast while the server is away ----------------------

    @asynccontextmanager
    async def _reaching(self) -> AsyncIterator[None]:
        """Refuse at once while backing off; a lost server backs off longer, an answer ends it."""
        if self._backoff and time.monotonic() < self._retry_at:
            raise DatabaseAway(AWAY)
        try:
            yield
        except BaseException as exc:
            if not _is_gone(exc):
                raise
            self.failures += 1
            self._backoff = min(max(self._backoff * 2, FIRST_BACKOFF_S), MAX_BACKOFF_S)
            self._retry_at = time.monotonic() + self._backoff
            raise DatabaseAway(f"{AWAY}: {type(exc).__name__}") from exc
        if self._backoff:
            self.reconnects += 1
        self._backoff = 0.0

    async def _call(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        async with self._reaching(), self.pool.acquire() as connection:
            return await work(connection)

    async def execute(self, sql: str, args: Args = ()) -> int:
        return await self._call(lambda c: PostgresStatements(c).execute(sql, args))

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]:
        return await self._call(lambda c: PostgresStatements(c).fetchall(sql, args))

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None:
        return await self._call(lambda c: PostgresStatements(c).fetchone(sql, args))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresStatements]:
        async with self._reaching(), self.pool.acquire() as connection, connection.transaction():
            yield PostgresStatements(connection)

    @asynccontextmanager
    async def consistent_read(self) -> AsyncIterator[PostgresStatements]:
        """Several reads of one state: a read-only REPEATABLE READ transaction."""
        async with (
            self._reaching(),
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresStatements(connection)

    # -- the schema -------------------------------------------------------------

    async def tables(self) -> list[TableShape]:
        columns = await self.fetchall(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c"
            " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
            " AND t.table_name = c.table_name"
            " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
            " AND c.table_name <> 'schema_version' ORDER BY c.table_name, c.ordinal_position"
        )
        keys = await self.fetchall(
            "SELECT DISTINCT conrelid::regclass::text, confrelid::regclass::text"
            " FROM pg_constraint WHERE contype = 'f'"
            " AND connamespace = current_schema()::regnamespace"
        )
        found: dict[str, list[str]] = {}
        for table, column in columns:
            found.setdefault(str(table), []).append(str(column))
        return [
            TableShape(
                name,
                tuple(names),
                frozenset(str(to) for of, to in keys if of == name and to != name),
            )
            for name, names in sorted(found.items())
        ]

    async def after_copy(self, tables: list[TableShape]) -> None:
        async with self.transaction() as tx:
            for table in tables:
                sequence = (
                    await tx.fetchone("SELECT pg_get_serial_sequence(?, 'id')", (table.name,))
                    if "id" in table.columns
                    else None
                )
                if sequence is not None and sequence[0] is not None:
                    await tx.execute(
                        f"SELECT setval(?, coalesce((SELECT max(id) FROM {table.name}), 0) + 1,"
                        " false)",
                        (sequence[0],),
                    )

    async def schema_version(self) -> int:
        return await self._call(_version)

    async def _migrate(self, migrations: list[Migration], upto: int | None) -> None:
        known, target = migration_target(migrations, upto)
        async with self.pool.acquire() as connection:
            current = await _version(connection)
            if current > known:
                raise too_new(self.describe(), current, known)
            if current >= target:
                return
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                current = await _version(connection)  # another process may have migrated
                if current > known:
                    raise too_new(self.describe(), current, known)
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                pending = [m for m in migrations if current < m.number <= target]
                for migration in pending:
                    try:
                        await connection.execute(migration.path.read_text(encoding="utf-8"))
                    except asyncpg.PostgresError as exc:
                        raise StoreError(f"migration {migration.path.name} failed: {exc}") from exc
                if pending:
                    await connection.execute("DELETE FROM schema_version")
                    await connection.execute(
                        "INSERT INTO schema_version (version) VALUES ($1)", pending[-1].number
                    )


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """Skip asyncpg's reset query (a round trip per call): the store changes no session state."""


async def _version(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    value = await connection.fetchval("SELECT max(version) FROM schema_version")
    return int(value or 0)
