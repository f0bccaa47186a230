"""The store's own guarantees, below the table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clock import Deadline
from db.store import (
    Change,
    ChannelTaken,
    IntegrityFailure,
    LogEntry,
    SeatRow,
    Store,
    TurnMention,
    VersionConflict,
)
from tests.backends import Backend, dump_rows, set_user_data, table_rows

SEATS = (SeatRow(0, 10), SeatRow(1), SeatRow(2), SeatRow(3))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    store = await backend.open()
    yield store
    await store.close()


async def _table(store: Store, channel: int = 1) -> int:
    return await store.create_table(
        guild_id=5,
        channel_id=channel,
        host_id=10,
        options={"target": 500},
        seats=SEATS,
        entry=LogEntry("create", 10, {}, 1.0),
    )


async def _dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    return await dump_rows(store)


async def test_commit_appends_one_row_and_moves_the_version(store: Store) -> None:
    table_id = await _table(store)
    seats = (SEATS[0], SeatRow(1, 11), SEATS[2], SEATS[3])
    committed = await store.commit_action(
        table_id, 1, LogEntry("join", 11, {"seat": 1}, 2.0), Change(seats=seats)
    )
    assert committed.version == 2
    record = await store.load_table(table_id)
    assert record is not None and record.version == 2
    assert record.seats[1] == SeatRow(1, 11)
    assert [(e.seq, e.kind, e.payload) for e in await store.action_log(table_id)] == [
        (1, "create", {}),
        (2, "join", {"seat": 1}),
    ]


async def test_a_write_on_an_old_version_writes_nothing(store: Store) -> None:
    table_id = await _table(store)
    await store.commit_action(table_id, 1, LogEntry("join", 11, {}, 2.0))
    before = await _dump(store)
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 1, LogEntry("join", 12, {}, 3.0))
    assert await _dump(store) == before


async def test_one_open_table_per_channel(store: Store) -> None:
    first = await _table(store, channel=7)
    before = await _dump(store)
    with pytest.raises(ChannelTaken):
        await _table(store, channel=7)
    assert await _dump(store) == before
    await store.commit_action(first, 1, LogEntry("cancel", 10, {}, 2.0), Change(status="cancelled"))
    second = await _table(store, channel=7)
    # Reopening the cancelled one would take the channel twice: refused whole.
    before = await _dump(store)
    with pytest.raises(ChannelTaken):
        await store.commit_action(first, 2, LogEntry("x", 10, {}, 3.0), Change(status="lobby"))
    assert await _dump(store) == before
    assert [r.id for r in await store.load_open_tables() if r.channel_id == 7] == [second]


async def test_the_action_log_is_append_only(store: Store) -> None:
    table_id = await _table(store)
    with pytest.raises(IntegrityFailure, match="append-only"):
        async with store.transaction() as db:
            await db.execute("UPDATE actions SET kind = 'x' WHERE table_id = ?", (table_id,))
    with pytest.raises(IntegrityFailure, match="append-only"):
        async with store.transaction() as db:
            await db.execute("DELETE FROM actions")
    assert len(await store.action_log(table_id)) == 1


async def test_a_failed_transaction_leaves_nothing(store: Store) -> None:
    before = await _dump(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as db:
            await db.execute("INSERT INTO user_prefs (user_id, updated_at) VALUES (1, 0)")
            raise RuntimeError("boom")
    assert await _dump(store) == before


async def test_deadlines_upsert_delete_and_load_soonest_first(store: Store) -> None:
    a = await _table(store, channel=1)
    b = await _table(store, channel=2)
    await store.put_deadline(a, "turn", 50.0, {"version": 3})
    await store.put_deadline(b, "turn", 20.0, {})
    await store.put_deadline(a, "warn", 10.0, {"n": 1})
    await store.put_deadline(a, "turn", 30.0, {"version": 4})  # replaces
    assert await store.load_deadlines() == [
        Deadline(a, "warn", 10.0, {"n": 1}),
        Deadline(b, "turn", 20.0, {}),
        Deadline(a, "turn", 30.0, {"version": 4}),
    ]
    await store.delete_deadline(a, "warn")
    assert [d.key for d in await store.load_deadlines()] == [(b, "turn"), (a, "turn")]
    await store.delete_deadline(a, "turn")
    await store.delete_deadline(b, "missing")  # nothing to delete: no error
    assert [d.key for d in await store.load_deadlines()] == [(b, "turn")]


async def test_deadlines_survive_a_restart(backend: Backend) -> None:
    store = await backend.open()
    table_id = await _table(store)
    await store.put_deadline(table_id, "turn", 99.5, {"version": 7})
    await store.close()
    store = await backend.open()
    try:
        assert await store.load_deadlines() == [Deadline(table_id, "turn", 99.5, {"version": 7})]
    finally:
        await store.close()


async def test_a_turn_mention_survives_a_restart_until_cleared(backend: Backend) -> None:
    store = await backend.open()
    try:
        table_id = await _table(store, channel=1)
        other = await _table(store, channel=2)
        assert await store.turn_mention(table_id) is None
        mention = TurnMention(1_234_567_890_123_456_789, "1:2:bidding:987654321098765432")
        await store.set_turn_mention(table_id, mention)
        record = await store.load_table(table_id)
        assert record is not None and record.version == 1  # not an action
    finally:
        await store.close()
    store = await backend.open()
    try:
        # The id and the turn it was for, both as written.
        assert await store.turn_mention(table_id) == mention
        assert await store.turn_mention(other) is None
        assert await store.turn_mention(999) is None  # no such table
        moved = TurnMention(55, "1:3:bidding:42")
        await store.set_turn_mention(table_id, moved)  # the turn moved on: replaced
        assert await store.turn_mention(table_id) == moved
        await store.set_turn_mention(table_id, None)
        assert await store.turn_mention(table_id) is None
    finally:
        await store.close()
    store = await backend.open()
    try:
        assert await store.turn_mention(table_id) is None  # cleared: id and turn both
        assert await table_rows(
            store, "SELECT turn_mention_id, turn_mention_turn FROM tables WHERE id = ?", (table_id,)
        ) == [(None, None)]
    finally:
        await store.close()


async def test_user_prefs(store: Store) -> None:
    assert await store.get_user_prefs(42) is None
    await store.set_deck(42, "four-color", at=5.0)
    await set_user_data(store, 42, {"compact": True}, at=6.0)
    prefs = await store.get_user_prefs(42)
    assert prefs is not None
    assert (prefs.deck, prefs.data, prefs.updated_at) == ("four-color", {"compact": True}, 6.0)
    await store.set_deck(42, "classic", at=7.0)
    prefs = await store.get_user_prefs(42)
    assert prefs is not None and (prefs.deck, prefs.data) == ("classic", {"compact": True})
    await store.set_language(42, "de", at=8.0)
    await store.set_coach(42, True, at=9.0)
    prefs = await store.get_user_prefs(42)
    assert prefs is not None and (prefs.language, prefs.coach) == ("de", True)
