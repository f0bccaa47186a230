"""One write per action: an action and the deadlines it arms are committed in
one transaction (``Change.deadlines``), whatever else the action changes."""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from db.store import (
    Change,
    Deadline,
    LogEntry,
    SeatRow,
    Store,
    VersionConflict,
)

SEATS = (SeatRow(0, 10), SeatRow(1, 11), SeatRow(2, 12), SeatRow(3, 13))
#: Kinds of action, each with its deadlines (None: left as they are): a bid
#: or card (the log row only), one that also changes the table's status, and
#: one that also replaces its seats.
CHANGES: dict[str, Callable[[tuple[Deadline, ...] | None], Change]] = {
    "log only": lambda deadlines: Change(deadlines=deadlines),
    "status": lambda deadlines: Change(status="playing", deadlines=deadlines),
    "seats": lambda deadlines: Change(seats=SEATS, deadlines=deadlines),
}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "store.db")
    yield store
    await store.close()


async def _table(store: Store, channel: int = 1) -> int:
    return await store.create_table(
        guild_id=5,
        channel_id=channel,
        host_id=10,
        options={},
        seats=SEATS,
        entry=LogEntry("create", 10, {}, 1.0),
    )


def _rows(store: Store, table_id: int) -> list[tuple[object, ...]]:
    with sqlite3.connect(store.path) as db:
        return db.execute(
            "SELECT kind, due_at, data FROM deadlines WHERE table_id = ? ORDER BY kind",
            (table_id,),
        ).fetchall()


def wal_commits(path: Path) -> int:
    """How many transactions the write-ahead log holds: each commit ends with
    a frame that records the database size (other frames record zero)."""
    data = Path(f"{path}-wal").read_bytes()
    if len(data) < 32:
        return 0
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]
    commits = 0
    for start in range(32, len(data) - 24 + 1, 24 + page_size):
        header = data[start : start + 24]
        if header[8:16] != salts:
            break  # frames of an earlier use of the log, not this one's
        commits += struct.unpack(">I", header[4:8])[0] != 0
    return commits


@pytest.mark.parametrize("kind", sorted(CHANGES))
async def test_an_action_replaces_its_tables_deadlines(store: Store, kind: str) -> None:
    table_id = await _table(store)
    other = await _table(store, channel=2)
    await store.put_deadline(table_id, "lobby", 5.0, {"turn": "old"})
    await store.put_deadline(table_id, "turn", 6.0, {})
    await store.put_deadline(other, "turn", 7.0, {"kept": True})
    make = CHANGES[kind]
    armed = (Deadline(table_id, "turn", 50.0, {"turn": "t1"}), Deadline(table_id, "computer", 9.0))
    committed = await store.commit_action(table_id, 1, LogEntry("bid", 11, {}, 2.0), make(armed))
    assert _rows(store, table_id) == [("computer", 9.0, "{}"), ("turn", 50.0, '{"turn":"t1"}')]
    # None leaves the deadlines as they are; an empty tuple deletes them all.
    version = committed.version
    committed = await store.commit_action(
        table_id, version, LogEntry("bid", 12, {}, 3.0), make(None)
    )
    assert len(_rows(store, table_id)) == 2
    await store.commit_action(table_id, committed.version, LogEntry("bid", 13, {}, 4.0), make(()))
    assert _rows(store, table_id) == []
    assert _rows(store, other) == [("turn", 7.0, '{"kept":true}')]  # another table's stay
    assert [d.key for d in await store.load_deadlines()] == [(other, "turn")]


@pytest.mark.parametrize("kind", sorted(CHANGES))
async def test_a_version_conflict_writes_no_deadline(store: Store, kind: str) -> None:
    table_id = await _table(store)
    await store.put_deadline(table_id, "turn", 6.0, {"turn": "before"})
    await store.commit_action(table_id, 1, LogEntry("bid", 11, {}, 2.0))
    with sqlite3.connect(store.path) as db:
        before = list(db.iterdump())
    stale = CHANGES[kind]((Deadline(table_id, "turn", 99.0, {"turn": "stale"}),))
    with pytest.raises(VersionConflict):
        await store.commit_action(table_id, 1, LogEntry("bid", 12, {}, 3.0), stale)
    with sqlite3.connect(store.path) as db:
        assert list(db.iterdump()) == before
    assert _rows(store, table_id) == [("turn", 6.0, '{"turn":"before"}')]


@pytest.mark.parametrize(
    "deadlines",
    [
        pytest.param((Deadline(2, "turn", 1.0),), id="another table's"),
        pytest.param((Deadline(1, "turn", 1.0), Deadline(1, "turn", 2.0)), id="a kind twice"),
    ],
)
@pytest.mark.parametrize("kind", sorted(CHANGES))
async def test_bad_deadlines_are_refused_and_nothing_is_written(
    store: Store, kind: str, deadlines: tuple[Deadline, ...]
) -> None:
    table_id = await _table(store)
    assert table_id == 1
    await _table(store, channel=2)
    with sqlite3.connect(store.path) as db:
        before = list(db.iterdump())
    with pytest.raises(ValueError, match="deadline"):
        await store.commit_action(
            table_id, 1, LogEntry("bid", 11, {}, 2.0), CHANGES[kind](deadlines)
        )
    with sqlite3.connect(store.path) as db:
        assert list(db.iterdump()) == before


@pytest.mark.parametrize("with_deadlines", [False, True])
@pytest.mark.parametrize("kind", sorted(CHANGES))
async def test_one_write_transaction_per_action(
    store: Store, kind: str, with_deadlines: bool
) -> None:
    table_id = await _table(store)
    await store.put_deadline(table_id, "lobby", 5.0, {})
    statements: list[str] = []
    await store.connection.set_trace_callback(statements.append)
    commits = wal_commits(store.path)
    deadlines = (Deadline(table_id, "turn", 9.0, {"n": 1}),) if with_deadlines else None
    change = CHANGES[kind](deadlines)
    await store.commit_action(table_id, 1, LogEntry("bid", 11, {"value": 3}, 2.0), change)
    # None turns tracing off, which the stubs leave out.
    await store.connection.set_trace_callback(None)  # type: ignore[arg-type]
    assert wal_commits(store.path) == commits + 1
    words = [s.split()[0].upper() for s in statements]
    # One BEGIN ... COMMIT around every statement of the action.
    assert words.count("BEGIN") == words.count("COMMIT") == 1 and "ROLLBACK" not in words
    assert words[0] == "BEGIN" and words[-1] == "COMMIT"
    assert _rows(store, table_id) == (
        [("turn", 9.0, '{"n":1}')] if with_deadlines else [("lobby", 5.0, "{}")]
    )


async def test_the_wal_count_sees_every_commit(store: Store) -> None:
    """The counter above counts: three separate writes are three commits."""
    table_id = await _table(store)
    commits = wal_commits(store.path)
    for n in range(3):
        await store.put_deadline(table_id, "turn", float(n), {})
    assert wal_commits(store.path) == commits + 3
