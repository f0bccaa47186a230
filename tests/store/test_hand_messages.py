"""The live hands' rows: one per player and table, never kept past expiry."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from db.hand_messages import HandMessageRow, HandMessageStore
from db.store import LogEntry, SeatRow, Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "store.db")
    yield store
    await store.close()


async def table(store: Store, channel: int = 1) -> int:
    return await store.create_table(
        guild_id=5,
        channel_id=channel,
        host_id=10,
        options={"target": 500},
        seats=(SeatRow(0, 10), SeatRow(1, 11), SeatRow(2), SeatRow(3)),
        entry=LogEntry("create", 10, {}, 1.0),
    )


def stored(store: Store) -> list[tuple[int, int, str]]:
    with sqlite3.connect(store.path) as db:
        return list(db.execute("SELECT table_id, user_id, token FROM live_hands ORDER BY 1, 2"))


async def test_a_saved_hand_loads_until_it_expires_and_is_then_deleted(store: Store) -> None:
    hands = HandMessageStore(store)
    table_id = await table(store)
    row = HandMessageRow(table_id, 10, 77, "secret-a", expires_at=100.0, version=4)
    await hands.save(row, now=50.0)
    assert await hands.load(now=99.0) == [row]
    assert stored(store) == [(table_id, 10, "secret-a")]
    assert await hands.load(now=100.0) == []
    assert stored(store) == []


async def test_a_newer_hand_replaces_the_older_never_the_reverse(store: Store) -> None:
    hands = HandMessageStore(store)
    table_id = await table(store)
    older = HandMessageRow(table_id, 10, 77, "secret-a", expires_at=100.0, version=4)
    newer = replace(older, token="secret-b", expires_at=160.0, version=6)
    await hands.save(older, now=50.0)
    await hands.save(newer, now=110.0)
    await hands.save(older, now=110.0)  # late: it must not undo the newer one
    assert await hands.load(now=120.0) == [newer]
    # Dropping the older token leaves the newer hand alone.
    await hands.drop(table_id, 10, "secret-a")
    assert stored(store) == [(table_id, 10, "secret-b")]
    await hands.drop(table_id, 10, "secret-b")
    assert stored(store) == []


async def test_saving_deletes_every_expired_row(store: Store) -> None:
    hands = HandMessageStore(store)
    first, second = await table(store, 1), await table(store, 2)
    await hands.save(HandMessageRow(first, 10, 77, "secret-a", 100.0, 1), now=50.0)
    await hands.save(HandMessageRow(first, 11, 77, "secret-b", 300.0, 1), now=50.0)
    await hands.save(HandMessageRow(second, 10, 77, "secret-c", 400.0, 1), now=200.0)
    assert stored(store) == [(first, 11, "secret-b"), (second, 10, "secret-c")]


async def test_an_older_database_gets_an_empty_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Store.open(path, upto=17)
    table_id = await table(old)
    await old.close()
    store = await Store.open(path)
    try:
        assert await HandMessageStore(store).load(now=0.0) == []
        row = HandMessageRow(table_id, 10, 77, "secret-a", 100.0, 1)
        await HandMessageStore(store).save(row, now=0.0)
        assert await HandMessageStore(store).load(now=1.0) == [row]
    finally:
        await store.close()


def test_the_token_is_kept_out_of_the_rows_repr() -> None:
    assert "secret" not in repr(HandMessageRow(1, 10, 77, "secret-a", 100.0, 1))
