"""What one ordinary action (a bid, a card) writes, on both databases: the
version bump, the log row and the table's deadlines, all or nothing; a stale
action is refused and writes nothing. No engine state is written: a game is
its log."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db.store import Change, Deadline, LogEntry, Store, VersionConflict
from tests.backends import Backend, dump_rows, open_tables, table_rows


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


async def _version(store: Store, table_id: int) -> int:
    rows = await table_rows(store, "SELECT version FROM tables WHERE id = ?", (table_id,))
    return int(rows[0][0])


async def test_an_action_commits_its_log_row_and_deadlines(store: Store) -> None:
    (table_id,) = await open_tables(store, 1)
    change = Change(deadlines=(Deadline(table_id, "turn", 7.5, {"seat": 1}),))
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
    assert await table_rows(store, "SELECT count(*) FROM table_states") == [(0,)]
    assert await table_rows(store, "SELECT table_id, kind, due_at, data FROM deadlines") == [
        (table_id, "turn", 7.5, '{"seat":1}')
    ]
    # The same action again is stale: refused, and nothing of it written.
    before = await dump_rows(store)
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 1, LogEntry("bid", 12, {}, 3.0), change)
    assert await dump_rows(store) == before


async def test_actions_with_and_without_deadlines(store: Store) -> None:
    """An action writes its log row, the version bump and, when it gives
    them, its deadlines; one that gives none leaves them as they are."""
    (table_id,) = await open_tables(store, 1)
    await store.commit_action(table_id, 1, LogEntry("play", 11, {"card": 5}, 2.0), None)
    deadlines = (Deadline(table_id, "turn", 9.5, {"seat": 2}),)
    for version, change in ((2, Change(deadlines=deadlines)), (3, None)):
        committed = await store.commit_action(
            table_id, version, LogEntry("play", 12, {"card": version}, 3.0), change
        )
        assert committed.version == version + 1
    assert await _version(store, table_id) == 4
    assert [e.seq for e in await store.action_log(table_id)] == [1, 2, 3, 4]
    assert await table_rows(store, "SELECT due_at FROM deadlines") == [(9.5,)]
