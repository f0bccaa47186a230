"""Group commit (SQLite): actions queued while a transaction is being written
go in together in the next one, each still version-checked, each failing
alone when refused, all failing together when the transaction fails; the
store's async statements of an action run on the connection's thread and may
not wait on anything else."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from db.connection import Connected
from db.group_commit import ThreadStatements, run_to_end
from db.sql import Statements
from db.store import (
    Change,
    Committed,
    Deadline,
    GameEnd,
    IntegrityFailure,
    LogEntry,
    StateWrite,
    Store,
    StoreError,
    VersionConflict,
)
from tests.backends import FOUR_SEATED, open_tables
from tests.store.test_one_write import wal_commits

SEATS = FOUR_SEATED


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "store.db")
    yield store
    await store.close()


def _write_lock(store: Store) -> asyncio.Lock:
    """The connection's write lock: held, as a transaction in flight holds it."""
    assert isinstance(store.db, Connected)
    return store.db.write_lock


def _plain(table_id: int) -> Change:
    return Change(
        state=StateWrite(1, "fmt", f"state of {table_id}".encode(), keep_history=True),
        deadlines=(Deadline(table_id, "turn", 50.0 + table_id),),
    )


@asynccontextmanager
async def _traced(store: Store) -> AsyncIterator[list[str]]:
    """The statements the connection runs in the block."""
    statements: list[str] = []
    await store.connection.set_trace_callback(statements.append)
    try:
        yield statements
    finally:
        await store.connection.set_trace_callback(None)  # type: ignore[arg-type]


def _bid(store: Store, table_id: int) -> Awaitable[Committed]:
    """A bid at version 1 that arms the table's turn deadline."""
    return store.commit_action(table_id, 1, LogEntry("bid", 11, {}, 2.0), _plain(table_id))


async def _together(store: Store, *calls: Awaitable[Any]) -> tuple[list[Any], list[str]]:
    """Run ``calls`` so that their writes queue while a transaction is being
    written: they all wait for the next one. Returns what each call returned
    or raised, and the statements the connection ran meanwhile."""
    async with _traced(store) as statements:
        async with _write_lock(store):
            tasks = [asyncio.ensure_future(call) for call in calls]
            await asyncio.sleep(0)  # each call has queued its write
        results = await asyncio.gather(*tasks, return_exceptions=True)
    return results, statements


def _begins(statements: list[str]) -> int:
    return sum(s.split()[0].upper() == "BEGIN" for s in statements)


def _dump(store: Store) -> list[str]:
    with sqlite3.connect(store.path) as db:
        return list(db.iterdump())


def _table_rows(store: Store, table_id: int) -> tuple[object, ...]:
    with sqlite3.connect(store.path) as db:
        return (
            db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone(),
            db.execute(
                "SELECT seq, kind FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall(),
            db.execute(
                "SELECT kind, due_at FROM deadlines WHERE table_id = ?", (table_id,)
            ).fetchall(),
        )


async def test_concurrent_actions_of_many_tables_land_in_one_transaction(store: Store) -> None:
    tables = await open_tables(store, 50)
    commits = wal_commits(store.path)
    results, statements = await _together(
        store,
        *(
            store.commit_action(t, 1, LogEntry("bid", 11, {"table": t}, 2.0), _plain(t))
            for t in tables
        ),
    )
    assert [r.version for r in results] == [2] * len(tables)
    assert _begins(statements) == 1 and wal_commits(store.path) == commits + 1
    for t in tables:
        assert _table_rows(store, t) == ((2,), [(1, "create"), (2, "bid")], [("turn", 50.0 + t)])
    with sqlite3.connect(store.path) as db:
        states = dict(db.execute("SELECT table_id, current FROM table_states").fetchall())
    assert states == {t: f"state of {t}".encode() for t in tables}


async def test_a_refused_action_fails_alone_and_the_others_commit(store: Store) -> None:
    first, stale, general, unfinished, last = await open_tables(store, 5)
    await store.put_deadline(stale, "turn", 7.0, {})
    before = {t: _table_rows(store, t) for t in (stale, unfinished)}
    no_such_game = GameEnd(9, 3.0, 0, "target", None, (500, 0), (), ())
    results, statements = await _together(
        store,
        _bid(store, first),
        # Its version moved long ago: refused by the one-statement commit.
        store.commit_action(stale, 5, LogEntry("bid", 11, {}, 2.0), _plain(stale)),
        # The same table and version twice in one transaction: the second is stale.
        store.commit_action(first, 1, LogEntry("bid", 12, {}, 2.0), _plain(first)),
        store.commit_action(general, 1, LogEntry("join", 14, {}, 2.0), Change(seats=SEATS)),
        # Refused only after its version bump and log row were written.
        store.commit_action(
            unfinished, 1, LogEntry("end", 10, {}, 2.0), Change(game_end=no_such_game)
        ),
        _bid(store, last),
    )
    assert _begins(statements) == 1
    assert [type(r) for r in results] == [
        type(results[0]),
        VersionConflict,
        VersionConflict,
        type(results[0]),
        StoreError,
        type(results[0]),
    ]
    assert "no game 9" in str(results[4])
    assert [results[i].version for i in (0, 3, 5)] == [2, 2, 2]
    assert [a.kind for a in await store.action_log(first)] == ["create", "bid"]
    assert (await store.action_log(first))[1].actor == 11
    assert [a.kind for a in await store.action_log(general)] == ["create", "join"]
    assert [a.kind for a in await store.action_log(last)] == ["create", "bid"]
    assert {t: _table_rows(store, t) for t in (stale, unfinished)} == before


async def test_a_failed_transaction_fails_every_action_in_it_and_writes_nothing(
    store: Store,
) -> None:
    tables = await open_tables(store, 4)
    before = _dump(store)
    # The database may not grow: the large log rows below cannot be written.
    async with store.connection.execute("PRAGMA page_count") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    await store.connection.execute(f"PRAGMA max_page_count = {int(row[0])}")
    big = {"blob": "x" * 100_000}
    results, statements = await _together(
        store,
        store.commit_action(tables[0], 1, LogEntry("bid", 11, {}, 2.0), _plain(tables[0])),
        *(store.commit_action(t, 1, LogEntry("bid", 11, big, 2.0), _plain(t)) for t in tables[1:]),
    )
    assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    assert "full" in str(results[0])
    assert _begins(statements) == 1
    await store.connection.execute("PRAGMA max_page_count = 1073741823")
    assert _dump(store) == before
    # The connection is usable again: the transaction was rolled back.
    committed = await store.commit_action(tables[0], 1, LogEntry("bid", 11, big, 2.0))
    assert committed.version == 2


async def test_an_action_alone_is_one_transaction_of_its_own(store: Store) -> None:
    (table_id,) = await open_tables(store, 1)
    results, statements = await _together(store, _bid(store, table_id))
    assert results[0].version == 2
    words = [s.split()[0].upper() for s in statements]
    assert words.count("BEGIN") == words.count("COMMIT") == 1
    assert "SAVEPOINT" not in words and "ROLLBACK" not in words


async def test_an_action_cancelled_while_queued_is_not_written(store: Store) -> None:
    kept, dropped = await open_tables(store, 2)
    before = _table_rows(store, dropped)
    async with _write_lock(store):
        keep = asyncio.ensure_future(_bid(store, kept))
        drop = asyncio.ensure_future(_bid(store, dropped))
        await asyncio.sleep(0)
        drop.cancel()
    assert (await keep).version == 2
    with pytest.raises(asyncio.CancelledError):
        await drop
    assert _table_rows(store, dropped) == before


async def test_closing_writes_what_is_queued_first(tmp_path: Path) -> None:
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


async def test_a_leader_cancelled_mid_transaction_hands_over_and_nobody_is_left_waiting(
    store: Store,
) -> None:
    first, second, third = await open_tables(store, 3)
    # The connection's thread busy for a moment, so the transaction below
    # waits on it while its leader is cancelled.
    busy = asyncio.ensure_future(store.connection._execute(time.sleep, 0.2))  # type: ignore[no-untyped-call]
    await asyncio.sleep(0)
    async with _write_lock(store):
        leader = asyncio.ensure_future(_bid(store, first))
        follower = asyncio.ensure_future(_bid(store, second))
        await asyncio.sleep(0)
    for _ in range(3):
        await asyncio.sleep(0)  # the leader has sent both to the thread
    leader.cancel()
    later = asyncio.ensure_future(_bid(store, third))
    with pytest.raises(asyncio.CancelledError):
        await leader
    # The follower hears how its transaction went; the next action finds a
    # new leader (itself).
    assert (await follower).version == 2
    assert (await later).version == 2
    await busy
    # The cancelled leader's action went with its transaction all the same.
    assert _table_rows(store, first)[0] == (2,)


async def test_a_leader_cancelled_while_waiting_for_the_lock_hands_over(store: Store) -> None:
    first, second = await open_tables(store, 2)
    async with _write_lock(store):
        leader = asyncio.ensure_future(_bid(store, first))
        follower = asyncio.ensure_future(_bid(store, second))
        await asyncio.sleep(0)
        leader.cancel()
        await asyncio.sleep(0)
    with pytest.raises(asyncio.CancelledError):
        await leader
    assert (await follower).version == 2
    assert _table_rows(store, first)[0] == (1,)


async def test_actions_arriving_while_one_is_written_share_the_next_transaction(
    store: Store,
) -> None:
    """Without holding anything back: the first action goes alone, the others
    queued behind it meanwhile go together."""
    tables = await open_tables(store, 30)
    async with _traced(store) as statements:
        results = await asyncio.gather(*(_bid(store, t) for t in tables))
    assert [r.version for r in results] == [2] * len(tables)
    assert _begins(statements) == 2
    assert sum(s.upper().startswith("SAVEPOINT") for s in statements) == len(tables) - 1


async def test_a_write_that_waits_on_something_else_fails_its_transaction_loudly(
    store: Store,
) -> None:
    first, second = await open_tables(store, 2)
    before = _dump(store)

    async def waits(db: Statements) -> None:
        await db.execute("UPDATE tables SET version = 7 WHERE id = ?", (first,))
        await asyncio.sleep(0)

    assert isinstance(store.db, Connected)
    async with _write_lock(store):
        bad = asyncio.ensure_future(store.db.write_action(waits))
        good = asyncio.ensure_future(_bid(store, second))
        await asyncio.sleep(0)
    results = await asyncio.gather(bad, good, return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results), results
    assert "may only run statements" in str(results[0])
    assert _dump(store) == before
    assert (await store.commit_action(second, 1, LogEntry("bid", 11, {}, 2.0))).version == 2


def test_thread_statements_finish_without_suspending(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "plain.db", isolation_level=None) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v UNIQUE)")
        statements = ThreadStatements(db)
        assert run_to_end(statements.insert("INSERT INTO t (v) VALUES (?)", (5,))) == 1
        run_to_end(statements.executemany("INSERT INTO t (v) VALUES (?)", [(6,), (7,)]))
        assert run_to_end(statements.execute("UPDATE t SET v = v + 10 WHERE v > ?", (5,))) == 2
        assert run_to_end(statements.fetchall("SELECT v FROM t ORDER BY v")) == [
            (5,),
            (16,),
            (17,),
        ]
        assert run_to_end(statements.fetchone("SELECT v FROM t WHERE v = 99")) is None
        with pytest.raises(IntegrityFailure, match="UNIQUE"):
            run_to_end(statements.execute("INSERT INTO t (v) VALUES (5)"))
        with pytest.raises(IntegrityFailure, match="UNIQUE"):
            run_to_end(statements.executemany("INSERT INTO t (v) VALUES (?)", [(16,)]))


async def test_a_leader_answers_its_caller_once_its_own_batch_is_committed(
    store: Store,
) -> None:
    """The caller that led a batch is not kept writing the batches of others
    who keep queuing: it hands over and hears back."""
    leader_table, busy_table = await open_tables(store, 2)
    busy_done: list[int] = []

    async def keep_writing() -> None:
        for version in range(1, 21):
            await store.commit_action(busy_table, version, LogEntry("bid", 11, {}, 2.0))
            busy_done.append(version)

    leader = asyncio.ensure_future(
        store.commit_action(leader_table, 1, LogEntry("bid", 11, {}, 2.0))
    )
    busy = asyncio.ensure_future(keep_writing())
    assert (await leader).version == 2
    assert len(busy_done) <= 1
    await busy
    assert busy_done == list(range(1, 21))


@pytest.mark.parametrize(
    "steps", [pytest.param(0, id="before it knows"), pytest.param(3, id="waiting for the lock")]
)
async def test_a_batch_due_while_a_transaction_holds_the_lock_waits_for_it(
    store: Store, steps: int
) -> None:
    """The next batch is due while another transaction holds the connection:
    it waits; the caller named to send it, cancelled, names the next."""
    first, second, third = await open_tables(store, 3)
    busy = asyncio.ensure_future(store.connection._execute(time.sleep, 0.2))  # type: ignore[no-untyped-call]
    await asyncio.sleep(0)
    sent = asyncio.ensure_future(_bid(store, first))  # its batch waits on the busy thread
    await asyncio.sleep(0)
    named = asyncio.ensure_future(_bid(store, second))
    left = asyncio.ensure_future(_bid(store, third))
    await asyncio.sleep(0)
    async with _write_lock(store):
        assert (await sent).version == 2
        for _ in range(steps):
            await asyncio.sleep(0)
        named.cancel()
        with pytest.raises(asyncio.CancelledError):
            await named
        for _ in range(3):
            await asyncio.sleep(0)
        assert not left.done() and _table_rows(store, third)[0] == (1,)
    # Left waiting, nobody would send it: fail rather than hang.
    assert (await asyncio.wait_for(left, 5)).version == 2
    await busy
    assert _table_rows(store, second)[0] == (1,)
