"""Ordinary actions committed together on PostgreSQL (db/postgres_commits.py):
the actions waiting at one time are one call of ``commit_actions``, and each
still succeeds or fails exactly as if it had been sent alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import asyncpg
import pytest

from db.errors import IntegrityFailure
from db.postgres import PostgresDatabase
from db.postgres_commits import MAX_BATCH, ActionBatches
from db.sql import ACTION_INSERT, ActionRow
from db.store import Change, Deadline, LogEntry, StateWrite, Store, VersionConflict
from tests.backends import FOUR_SEATED, Server, need_server, open_tables, table_rows

SEATS = FOUR_SEATED
#: A time as the turn clock writes them: every digit must come back.
DUE = 1796228003.5914996


@pytest.fixture
async def store(postgres_server: Server | None) -> AsyncIterator[Store]:
    server = need_server(postgres_server)
    store = await Store.open(await server.create_database())
    yield store
    await store.close()


def _database(store: Store) -> PostgresDatabase:
    assert isinstance(store.db, PostgresDatabase)
    return store.db


def _row(
    table_id: int, seq: int, current: bytes | None = b"state", kind: str | None = "bid"
) -> ActionRow:
    deadlines = f'[["turn",{DUE},"{{\\"seq\\":{seq}}}"]]'
    # kind None: a row the database refuses (the log's column is NOT NULL).
    return ActionRow(table_id, seq, cast(str, kind), 11, "{}", 2.0, 1, "fmt", current, deadlines)


class _Counted:
    """The database's ``_call``, counting the calls that reach the server."""

    def __init__(self, database: PostgresDatabase) -> None:
        self.database = database
        self.calls = 0

    async def __call__(self, work: Callable[[asyncpg.Connection], Awaitable[Any]]) -> Any:
        self.calls += 1
        return await self.database._call(work)


async def _versions(store: Store, table_ids: list[int]) -> list[int]:
    rows = await table_rows(store, "SELECT id, version FROM tables ORDER BY id")
    versions = dict(rows)
    return [versions[t] for t in table_ids]


async def test_actions_waiting_together_are_one_call_and_all_commit(store: Store) -> None:
    tables = await open_tables(store, 2 + MAX_BATCH)
    change = Change(
        state=StateWrite(1, "fmt", b"state", keep_history=True),
        deadlines=None,
    )
    counted = _Counted(_database(store))
    batches = ActionBatches(counted, slots=1)
    _database(store)._actions = batches
    await asyncio.gather(
        *(
            store.commit_action(
                t,
                1,
                LogEntry("bid", 11, {"n": n}, 2.0),
                Change(
                    state=change.state,
                    deadlines=(Deadline(t, "turn", DUE + n, {"n": n}),),
                ),
            )
            for n, t in enumerate(tables)
        )
    )
    # The first one leaves alone at once; those that came meanwhile, together,
    # in as few calls as the batches' bound allows.
    assert counted.calls == 3
    assert await _versions(store, tables) == [2] * len(tables)
    for n, t in enumerate(tables):
        log = await store.action_log(t)
        assert [(e.seq, e.kind, e.payload) for e in log][-1] == (2, "bid", {"n": n})
        assert await table_rows(
            store, "SELECT kind, due_at, data FROM deadlines WHERE table_id = ?", (t,)
        ) == [("turn", DUE + n, f'{{"n":{n}}}')]


async def test_a_stale_action_fails_alone_in_its_batch(store: Store) -> None:
    first, second = await open_tables(store, 2)
    batches = ActionBatches(_database(store)._call, slots=1)
    results = await asyncio.gather(
        batches.commit(_row(second, 2)),  # leaves alone: the rest wait
        batches.commit(_row(first, 2)),
        batches.commit(_row(first, 2, b"the other")),
        batches.commit(_row(first, 5)),
        return_exceptions=True,
    )
    assert results[0] is None and results[1] is None
    for refused in results[2:]:
        assert isinstance(refused, IntegrityFailure)
        assert "version conflict" in str(refused)
    assert await _versions(store, [first, second]) == [2, 2]
    states = await table_rows(store, "SELECT table_id, current FROM table_states ORDER BY 1")
    assert states == [(first, b"state"), (second, b"state")]


async def test_a_row_the_database_refuses_fails_alone(store: Store) -> None:
    tables = await open_tables(store, 3)
    counted = _Counted(_database(store))
    batches = ActionBatches(counted, slots=1)
    results = await asyncio.gather(
        batches.commit(_row(tables[0], 2)),
        batches.commit(_row(tables[1], 2, kind=None)),  # NOT NULL
        batches.commit(_row(tables[2], 2)),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], IntegrityFailure)
    assert "kind" in str(results[1])
    # The refused batch of two, then its rows one by one.
    assert counted.calls == 4
    assert await _versions(store, tables) == [2, 1, 2]
    assert [e.seq for e in await store.action_log(tables[1])] == [1]
    assert (
        await table_rows(store, "SELECT count(*) FROM deadlines WHERE table_id = ?", (tables[1],))
    ) == [(0,)]


async def test_an_action_cancelled_before_it_left_is_not_written(store: Store) -> None:
    first, second = await open_tables(store, 2)
    batches = ActionBatches(_database(store)._call, slots=1)
    sent = asyncio.ensure_future(batches.commit(_row(first, 2)))
    waiting = asyncio.ensure_future(batches.commit(_row(second, 2)))
    await asyncio.sleep(0)  # both queued; the first batch is under way
    waiting.cancel()
    await sent
    assert sent.exception() is None
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await batches.wait_sent()
    assert await _versions(store, [first, second]) == [2, 1]


async def test_the_view_alone_still_commits_and_refuses(store: Store) -> None:
    """An INSERT into the view that does not come through the batches (any
    other client of the database) writes through the same function."""
    (table_id,) = await open_tables(store, 1)
    connection = await asyncpg.connect(_database(store).url)
    try:
        sql = ACTION_INSERT
        for n in range(1, len(ActionRow._fields) + 1):
            sql = sql.replace("?", f"${n}", 1)
        await connection.execute(sql, *_row(table_id, 2))
        with pytest.raises(asyncpg.SerializationError, match="version conflict"):
            await connection.execute(sql, *_row(table_id, 2))
    finally:
        await connection.close()
    assert await _versions(store, [table_id]) == [2]
    assert await table_rows(store, "SELECT due_at FROM deadlines") == [(DUE,)]


async def test_the_store_reports_a_stale_batched_action_as_a_version_conflict(
    store: Store,
) -> None:
    (table_id,) = await open_tables(store, 1)
    state = Change(state=StateWrite(1, "fmt", b"state", keep_history=True))
    results = await asyncio.gather(
        *(store.commit_action(table_id, 1, LogEntry("play", n, {}, 2.0), state) for n in range(50)),
        return_exceptions=True,
    )
    # Batches go to the server side by side, so any one of them may win.
    won = [r for r in results if not isinstance(r, BaseException)]
    assert len(won) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r is not won[0])
    assert [e.seq for e in await store.action_log(table_id)] == [1, 2]


async def test_the_earlier_versions_call_of_ten_columns_still_commits(store: Store) -> None:
    """A process of the version before migration 026 (still running while its
    shards move) calls commit_actions with ten arrays: its actions commit, a
    stale one is refused, and a stored history is left alone."""
    first, second = await open_tables(store, 2)
    await store.db.execute(
        "INSERT INTO table_histories (table_id, history) VALUES (?, ?)", (first, b"kept")
    )
    rows = [_row(first, 2), _row(second, 2), _row(second, 2, b"stale")]
    columns = [[row[n] for row in rows] for n in range(10)]
    call = "SELECT commit_actions(" + ", ".join(f"${n + 1}" for n in range(10)) + ")"
    connection = await asyncpg.connect(_database(store).url)
    try:
        refusals = await connection.fetchval(call, *columns)
    finally:
        await connection.close()
    assert refusals == [None, None, "version conflict"]
    assert await _versions(store, [first, second]) == [2, 2]
    assert await table_rows(store, "SELECT history FROM table_histories") == [(b"kept",)]
