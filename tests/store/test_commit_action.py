"""What one ordinary action (a bid, a card) writes, on both databases: the
version bump, the log row, the engine state when given (its history part at
a hand's end) and the table's deadlines, all or nothing; a stale action is
refused and writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db.store import Change, Deadline, LogEntry, StateWrite, Store, VersionConflict
from tests.backends import Backend, dump_rows, open_tables, table_rows

STATES = "SELECT version, current FROM table_states"
HISTORIES = "SELECT table_id, history FROM table_histories"


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


async def _version(store: Store, table_id: int) -> int:
    rows = await table_rows(store, "SELECT version FROM tables WHERE id = ?", (table_id,))
    return int(rows[0][0])


async def test_an_action_commits_its_log_row_state_and_deadlines(store: Store) -> None:
    (table_id,) = await open_tables(store, 1)
    change = Change(
        state=StateWrite(1, "fmt", b"state", keep_history=True),
        deadlines=(Deadline(table_id, "turn", 7.5, {"seat": 1}),),
    )
    committed = await store.commit_action(table_id, 1, LogEntry("bid", 11, {"n": 3}, 2.0), change)
    assert committed.version == 2
    assert await _version(store, table_id) == 2
    log = await store.action_log(table_id)
    assert [(e.seq, e.kind, e.actor, e.payload, e.at) for e in log][-1] == (
        2,
        "bid",
        11,
        {"n": 3},
        2.0,
    )
    assert await table_rows(
        store, "SELECT game_no, version, format, current FROM table_states"
    ) == [(1, 2, "fmt", b"state")]
    assert await table_rows(store, "SELECT table_id, kind, due_at, data FROM deadlines") == [
        (table_id, "turn", 7.5, '{"seat":1}')
    ]
    # The same action again is stale: refused, and nothing of it written.
    before = await dump_rows(store)
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 1, LogEntry("bid", 12, {}, 3.0), change)
    assert await dump_rows(store) == before


async def test_a_hand_s_last_card_writes_the_new_history(store: Store) -> None:
    """At a hand's end the engine state's history part is rewritten; the
    actions after it leave the history as it is."""
    (table_id,) = await open_tables(store, 1)
    hand_end = Change(state=StateWrite(1, "fmt", b"state 2", b"history 1"))
    await store.commit_action(table_id, 1, LogEntry("play", 11, {"card": 5}, 2.0), hand_end)
    assert await table_rows(store, HISTORIES) == [(table_id, b"history 1")]
    next_card = Change(state=StateWrite(1, "fmt", b"state 3", keep_history=True))
    await store.commit_action(table_id, 2, LogEntry("play", 12, {"card": 6}, 3.0), next_card)
    assert await table_rows(store, HISTORIES) == [(table_id, b"history 1")]
    later = Change(state=StateWrite(1, "fmt", b"state 4", b"history 2"))
    await store.commit_action(table_id, 3, LogEntry("play", 13, {"card": 7}, 4.0), later)
    assert await table_rows(store, HISTORIES) == [(table_id, b"history 2")]
    assert await table_rows(store, STATES) == [(4, b"state 4")]
    # A stale hand end writes no history.
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 3, LogEntry("play", 13, {}, 5.0), hand_end)
    assert await table_rows(store, HISTORIES) == [(table_id, b"history 2")]


async def test_a_card_within_a_trick_leaves_the_stored_state(store: Store) -> None:
    """An action with no engine state (a trick's first cards, the first bids)
    writes its log row, the version bump and its deadlines; the stored state
    stays as it was."""
    (table_id,) = await open_tables(store, 1)
    trick_end = Change(state=StateWrite(1, "fmt", b"state 2", b"history 1"))
    await store.commit_action(table_id, 1, LogEntry("play", 11, {"card": 5}, 2.0), trick_end)
    assert await table_rows(store, STATES) == [(2, b"state 2")]
    deadlines = (Deadline(table_id, "turn", 9.5, {"seat": 2}),)
    for version, change in ((2, Change(deadlines=deadlines)), (3, None)):
        committed = await store.commit_action(
            table_id, version, LogEntry("play", 12, {"card": version}, 3.0), change
        )
        assert committed.version == version + 1
    assert await _version(store, table_id) == 4
    assert [e.seq for e in await store.action_log(table_id)] == [1, 2, 3, 4]
    assert await table_rows(store, STATES) == [(2, b"state 2")]
    assert await table_rows(store, "SELECT history FROM table_histories") == [(b"history 1",)]
    assert await table_rows(store, "SELECT due_at FROM deadlines") == [(9.5,)]
