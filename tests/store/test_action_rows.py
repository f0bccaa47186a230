"""The ordinary actions' own path into the database, on both backends: the
store hands each one over as a row of the view ``action_commits``
(``Database.commit_action_row``); the rows waiting at one time share a
transaction (SQLite's group commit, PostgreSQL's batches), and each is still
refused alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from db.connection import Connected
from db.errors import IntegrityFailure
from db.postgres import PostgresDatabase
from db.postgres_commits import ActionBatches
from db.sql import ActionRow
from db.store import Change, Deadline, LogEntry, StateWrite, Store, VersionConflict
from tests.backends import Backend, open_tables, table_rows


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


def _row(table_id: int, seq: int, current: bytes = b"state") -> ActionRow:
    return ActionRow(
        table_id, seq, "bid", 11, f'{{"seq":{seq}}}', 2.0, 1, "fmt", current,
        f'[["turn",{50.0 + table_id},"{{}}"]]',
    )  # fmt: skip


async def _version(store: Store, table_id: int) -> int:
    rows = await table_rows(store, "SELECT version FROM tables WHERE id = ?", (table_id,))
    return int(rows[0][0])


def _record_rows(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[ActionRow]:
    """The rows the store hands to its database from now on, in order."""
    handed: list[ActionRow] = []
    commit_row = store.db.commit_action_row

    async def recorded(row: ActionRow) -> None:
        handed.append(row)
        await commit_row(row)

    monkeypatch.setattr(store.db, "commit_action_row", recorded)
    return handed


@asynccontextmanager
async def _transactions(store: Store) -> AsyncIterator[Callable[[], int]]:
    """How many transactions the actions of the block took to commit, on
    either backend (PostgreSQL's batches with one call at the server at a time,
    so that the actions coming while it is out wait together)."""
    if isinstance(store.db, Connected):
        statements: list[str] = []
        await store.connection.set_trace_callback(statements.append)
        try:
            yield lambda: sum(s.split()[0].upper() == "BEGIN" for s in statements)
        finally:
            await store.connection.set_trace_callback(None)  # type: ignore[arg-type]
        return
    assert isinstance(store.db, PostgresDatabase)
    database = store.db
    calls = 0

    async def counted(work: Callable[[asyncpg.Connection], Awaitable[Any]]) -> Any:
        nonlocal calls
        calls += 1
        return await database._call(work)

    database._actions = ActionBatches(counted, slots=1)
    yield lambda: calls


async def test_the_rows_fields_are_the_views_columns_in_order(store: Store) -> None:
    if isinstance(store.db, Connected):
        columns = [r[1] for r in await table_rows(store, "PRAGMA table_info('action_commits')")]
    else:
        columns = [
            r[0]
            for r in await table_rows(
                store,
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_name = 'action_commits' ORDER BY ordinal_position",
            )
        ]
    assert tuple(columns) == ActionRow._fields


async def test_a_row_commits_the_whole_action(store: Store) -> None:
    (table_id,) = await open_tables(store, 1)
    await store.db.commit_action_row(_row(table_id, 2))
    assert await _version(store, table_id) == 2
    log = await store.action_log(table_id)
    assert [(e.seq, e.kind, e.actor, e.payload) for e in log][-1] == (2, "bid", 11, {"seq": 2})
    assert await table_rows(
        store, "SELECT game_no, version, format, current FROM table_states"
    ) == [(1, 2, "fmt", b"state")]
    assert await table_rows(store, "SELECT table_id, kind, due_at FROM deadlines") == [
        (table_id, "turn", 50.0 + table_id)
    ]


async def test_a_stale_row_is_refused_alone_and_the_others_of_its_batch_commit(
    store: Store,
) -> None:
    first, second, third = await open_tables(store, 3)
    async with _transactions(store) as transactions:
        results = await asyncio.gather(
            store.db.commit_action_row(_row(first, 2)),  # alone: the others wait
            store.db.commit_action_row(_row(second, 2)),
            store.db.commit_action_row(_row(first, 2, b"stale")),
            store.db.commit_action_row(_row(third, 2)),
            return_exceptions=True,
        )
        assert transactions() == 2
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], IntegrityFailure)
    assert "version conflict" in str(results[2])
    assert [await _version(store, t) for t in (first, second, third)] == [2, 2, 2]
    states = await table_rows(store, "SELECT table_id, current FROM table_states ORDER BY 1")
    assert states == [(first, b"state"), (second, b"state"), (third, b"state")]
    assert [e.seq for e in await store.action_log(first)] == [1, 2]


async def test_the_store_hands_an_ordinary_action_over_as_its_row(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    (table_id,) = await open_tables(store, 1)
    handed = _record_rows(store, monkeypatch)
    change = Change(
        state=StateWrite(1, "fmt", b"state", keep_history=True),
        deadlines=(Deadline(table_id, "turn", 7.5, {"seat": 1}),),
    )
    committed = await store.commit_action(table_id, 1, LogEntry("bid", 11, {"n": 3}, 2.0), change)
    assert committed.version == 2
    assert handed == [
        ActionRow(
            table_id, 2, "bid", 11, '{"n":3}', 2.0, 1, "fmt", b"state",
            '[["turn",7.5,"{\\"seat\\":1}"]]',
        )
    ]  # fmt: skip
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 1, LogEntry("bid", 12, {}, 3.0), change)
    assert len(handed) == 2
    assert await _version(store, table_id) == 2
    assert await table_rows(store, "SELECT due_at, data FROM deadlines") == [(7.5, '{"seat":1}')]


async def test_a_hand_s_last_card_is_one_row_with_the_new_history(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a hand's end the engine state's history part is rewritten: that
    action goes as one row too, and the actions after it leave the history
    as it is."""
    (table_id,) = await open_tables(store, 1)
    handed = _record_rows(store, monkeypatch)
    hand_end = Change(state=StateWrite(1, "fmt", b"state 2", b"history 1"))
    await store.commit_action(table_id, 1, LogEntry("play", 11, {"card": 5}, 2.0), hand_end)
    assert [row.history for row in handed] == [b"history 1"]
    histories = "SELECT table_id, history FROM table_histories"
    assert await table_rows(store, histories) == [(table_id, b"history 1")]
    next_card = Change(state=StateWrite(1, "fmt", b"state 3", keep_history=True))
    await store.commit_action(table_id, 2, LogEntry("play", 12, {"card": 6}, 3.0), next_card)
    assert [row.history for row in handed] == [b"history 1", None]
    assert await table_rows(store, histories) == [(table_id, b"history 1")]
    later = Change(state=StateWrite(1, "fmt", b"state 4", b"history 2"))
    await store.commit_action(table_id, 3, LogEntry("play", 13, {"card": 7}, 4.0), later)
    assert await table_rows(store, histories) == [(table_id, b"history 2")]
    assert await table_rows(store, "SELECT version, current FROM table_states") == [(4, b"state 4")]
    # A stale hand end writes no history.
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 3, LogEntry("play", 13, {}, 5.0), hand_end)
    assert await table_rows(store, histories) == [(table_id, b"history 2")]


async def test_a_card_within_a_trick_is_one_row_that_leaves_the_state(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action with no engine state (a trick's first cards, the first bids)
    goes as a row of the view too: its log row, the version bump and its
    deadlines are written, and the stored state stays as it was."""
    (table_id,) = await open_tables(store, 1)
    handed = _record_rows(store, monkeypatch)
    trick_end = Change(state=StateWrite(1, "fmt", b"state 2", b"history 1"))
    await store.commit_action(table_id, 1, LogEntry("play", 11, {"card": 5}, 2.0), trick_end)
    states = "SELECT version, current FROM table_states"
    assert await table_rows(store, states) == [(2, b"state 2")]
    deadlines = (Deadline(table_id, "turn", 9.5, {"seat": 2}),)
    for version, change in ((2, Change(deadlines=deadlines)), (3, None)):
        committed = await store.commit_action(
            table_id, version, LogEntry("play", 12, {"card": version}, 3.0), change
        )
        assert committed.version == version + 1
    assert [(row.seq, row.current, row.history) for row in handed] == [
        (2, b"state 2", b"history 1"),
        (3, None, None),
        (4, None, None),
    ]
    assert await _version(store, table_id) == 4
    assert [e.seq for e in await store.action_log(table_id)] == [1, 2, 3, 4]
    assert await table_rows(store, states) == [(2, b"state 2")]
    assert await table_rows(store, "SELECT history FROM table_histories") == [(b"history 1",)]
    assert await table_rows(store, "SELECT due_at FROM deadlines") == [(9.5,)]
