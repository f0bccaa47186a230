"""Actions of many tables at once over one store: each is its own
transaction, version-checked, and succeeds or fails alone; a failed one
writes nothing. And what a process of the version before migration 028
(still running during a rolling upgrade) meets: its ordinary actions fail
and write nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest

from db.sqlite import SQLiteDatabase
from db.store import (
    Change,
    Committed,
    Deadline,
    GameEnd,
    IntegrityFailure,
    LogEntry,
    Store,
    StoreError,
    VersionConflict,
)
from tests.backends import FOUR_SEATED, Backend, dump_rows, open_tables, table_rows

#: A time as the turn clock writes them: every digit must come back.
DUE = 1796228003.5914996
#: The columns of the view ``action_commits`` (migrations 016 to 027).
OLD_ROW_COLUMNS = 11


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


def _deadline(table_id: int, n: int = 0) -> Change:
    return Change(deadlines=(Deadline(table_id, "turn", DUE + n, {"n": n}),))


def _bid(store: Store, table_id: int, version: int = 1, actor: int = 11) -> Awaitable[Committed]:
    return store.commit_action(
        table_id, version, LogEntry("bid", actor, {}, 2.0), _deadline(table_id)
    )


async def _table_rows(store: Store, table_id: int) -> tuple[Any, ...]:
    return (
        await table_rows(store, "SELECT version FROM tables WHERE id = ?", (table_id,)),
        await table_rows(
            store, "SELECT seq, kind FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        ),
        await table_rows(
            store, "SELECT kind, due_at, data FROM deadlines WHERE table_id = ?", (table_id,)
        ),
    )


async def test_actions_of_many_tables_at_once_all_commit(store: Store) -> None:
    tables = await open_tables(store, 50)
    results = await asyncio.gather(
        *(
            store.commit_action(t, 1, LogEntry("bid", 11, {"n": n}, 2.0), _deadline(t, n))
            for n, t in enumerate(tables)
        )
    )
    assert [r.version for r in results] == [2] * len(tables)
    for n, t in enumerate(tables):
        assert await _table_rows(store, t) == (
            [(2,)],
            [(1, "create"), (2, "bid")],
            [("turn", DUE + n, f'{{"n":{n}}}')],
        )


async def test_a_refused_action_fails_alone_and_the_others_commit(store: Store) -> None:
    first, stale, general, unfinished, refused, last = await open_tables(store, 6)
    await store.put_deadline(stale, "turn", 7.0, {})
    before = {t: await _table_rows(store, t) for t in (stale, unfinished, refused)}
    no_such_game = GameEnd(9, 3.0, 0, "target", None, (500, 0), (), ())
    results = await asyncio.gather(
        _bid(store, first),
        # Its version moved long ago.
        _bid(store, stale, version=5),
        # The same table and version twice: one of the two is stale.
        _bid(store, first, actor=12),
        store.commit_action(general, 1, LogEntry("join", 14, {}, 2.0), Change(seats=FOUR_SEATED)),
        # Refused only after its version bump and log row were written.
        store.commit_action(
            unfinished, 1, LogEntry("end", 10, {}, 2.0), Change(game_end=no_such_game)
        ),
        # A log row without a kind: the database refuses it (NOT NULL).
        store.commit_action(refused, 1, LogEntry(None, 10, {}, 2.0)),  # type: ignore[arg-type]
        _bid(store, last),
        return_exceptions=True,
    )
    assert isinstance(results[0], Committed) != isinstance(results[2], Committed)
    assert {type(results[0]), type(results[2])} == {Committed, VersionConflict}
    assert isinstance(results[1], VersionConflict)
    assert type(results[4]) is StoreError and "no game 9" in str(results[4])
    assert isinstance(results[5], IntegrityFailure) and "kind" in str(results[5])
    assert [r.version if isinstance(r, Committed) else r for r in (results[3], results[6])] == [
        2,
        2,
    ]
    assert [(a.kind, a.actor) for a in await store.action_log(first)] == [
        ("create", 10),
        ("bid", 11 if isinstance(results[0], Committed) else 12),
    ]
    assert [a.kind for a in await store.action_log(general)] == ["create", "join"]
    assert [a.kind for a in await store.action_log(last)] == ["create", "bid"]
    assert {t: await _table_rows(store, t) for t in (stale, unfinished, refused)} == before


async def test_of_many_actions_on_one_table_at_one_version_exactly_one_commits(
    store: Store,
) -> None:
    (table_id,) = await open_tables(store, 1)
    results = await asyncio.gather(
        *(_bid(store, table_id, actor=n) for n in range(50)), return_exceptions=True
    )
    won = [r for r in results if isinstance(r, Committed)]
    assert len(won) == 1 and won[0].version == 2
    assert all(isinstance(r, VersionConflict) for r in results if r is not won[0])
    assert [e.seq for e in await store.action_log(table_id)] == [1, 2]


async def test_an_earlier_versions_ordinary_action_fails_and_writes_nothing(
    store: Store,
) -> None:
    """Migration 028 retired the view ``action_commits`` and PostgreSQL's
    ``commit_actions``: a process of the earlier version, still running while
    its shards move, has its ordinary actions refused with nothing written."""
    (table_id,) = await open_tables(store, 1)
    before = await dump_rows(store)
    row = (table_id, 2, "bid", 11, "{}", 2.0, 1, "fmt", b"state", None, None)
    assert len(row) == OLD_ROW_COLUMNS
    if isinstance(store.db, SQLiteDatabase):
        columns = "table_id, seq, kind, actor, payload, at, game_no, format, current"
        statement = (
            f"INSERT INTO action_commits ({columns}, deadlines, history)"
            f" VALUES ({', '.join('?' * OLD_ROW_COLUMNS)})"
        )
        with pytest.raises(sqlite3.OperationalError, match="no such table: action_commits"):
            await store.db.execute(statement, row)
    else:
        import asyncpg

        from db.postgres import PostgresDatabase

        assert isinstance(store.db, PostgresDatabase)
        for width in (OLD_ROW_COLUMNS, OLD_ROW_COLUMNS - 1):  # migrations 026 and 025
            call = "SELECT commit_actions(" + ", ".join(f"${n + 1}" for n in range(width)) + ")"
            arrays = [[value] for value in row[:width]]
            connection = await asyncpg.connect(store.db.url)
            try:
                with pytest.raises(asyncpg.UndefinedFunctionError):
                    await connection.fetchval(call, *arrays)
            finally:
                await connection.close()
    assert await dump_rows(store) == before
    assert (await _bid(store, table_id)).version == 2  # this version's write goes on


# -- SQLite: one connection shared by every coroutine -------------------------------


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "store.db")
    yield store
    await store.close()


def _dump(store: Store) -> list[str]:
    with sqlite3.connect(store.path) as db:
        return list(db.iterdump())


async def test_a_transaction_that_fails_writes_nothing_and_the_store_goes_on(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    tables = await open_tables(store, 4)
    before = _dump(store)
    # The database may not grow: the large log rows below cannot be written.
    async with store.connection.execute("PRAGMA page_count") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    await store.connection.execute(f"PRAGMA max_page_count = {int(row[0])}")
    big = {"blob": "x" * 100_000}
    results = await asyncio.gather(
        *(store.commit_action(t, 1, LogEntry("bid", 11, big, 2.0), _deadline(t)) for t in tables),
        return_exceptions=True,
    )
    assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    assert "full" in str(results[0])
    await store.connection.execute("PRAGMA max_page_count = 1073741823")
    assert _dump(store) == before
    # The connection is usable again: each transaction was rolled back.
    committed = await store.commit_action(tables[0], 1, LogEntry("bid", 11, big, 2.0))
    assert committed.version == 2


async def test_an_action_cancelled_while_it_waits_for_the_connection_is_not_written(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    kept, dropped = await open_tables(store, 2)
    before = await _table_rows(store, dropped)
    assert isinstance(store.db, SQLiteDatabase)
    async with store.db.write_lock:  # a transaction in flight
        keep = asyncio.ensure_future(_bid(store, kept))
        drop = asyncio.ensure_future(_bid(store, dropped))
        await asyncio.sleep(0)
        drop.cancel()
    assert (await keep).version == 2
    with pytest.raises(asyncio.CancelledError):
        await drop
    assert await _table_rows(store, dropped) == before


async def test_closing_writes_the_actions_already_waiting_first(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "store.db")
    tables = await open_tables(store, 3)
    pending = [
        asyncio.ensure_future(store.commit_action(t, 1, LogEntry("bid", 11, {}, 2.0)))
        for t in tables
    ]
    await asyncio.sleep(0)
    await store.close()
    assert [(await p).version for p in pending] == [2, 2, 2]
    with sqlite3.connect(tmp_path / "store.db") as db:
        assert db.execute("SELECT version FROM tables ORDER BY id").fetchall() == [(2,)] * 3
