"""Deadlines a change has already stored: the scheduler adopts them without
writing, and writes only the difference when it stores them itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.clock import Deadline, Scheduler
from tests.clock.conftest import Harness
from tests.clock.memory_store import MemoryDeadlineStore
from tests.clock.world import pending_of

HOUR = 3600.0


def ping_and_pong(harness: Harness) -> None:
    def both(scheduler: Scheduler) -> None:
        scheduler.on("ping", harness.recorder)
        scheduler.on("pong", harness.recorder)

    harness.setup = both


async def test_an_adopted_deadline_fires_at_its_time_without_a_write(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    # The firing task sleeps its idle nap: adopting a nearer deadline wakes it.
    scheduler.adopt(1, (Deadline(1, "ping", t0 + 60, {"turn": "a"}),))
    assert harness.store.rows == {}
    assert len(scheduler) == 1
    await harness.clock.advance(59)
    assert harness.recorder.fired == []
    await harness.clock.advance(1)
    assert [(at - t0, d.key, d.data) for at, d in harness.recorder.fired] == [
        (60, (1, "ping"), {"turn": "a"})
    ]
    assert len(scheduler) == 0


async def test_adopting_replaces_the_tables_deadlines(harness: Harness) -> None:
    ping_and_pong(harness)
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 60))
    await scheduler.arm(Deadline(1, "pong", t0 + 90))
    await scheduler.arm(Deadline(2, "pong", t0 + 90))
    rows = dict(harness.store.rows)
    scheduler.adopt(1, (Deadline(1, "ping", t0 + 120, {"turn": "b"}),))
    assert harness.store.rows == rows  # the change stored them, not the scheduler
    assert pending_of(scheduler, 1, ("ping", "pong")) == [
        Deadline(1, "ping", t0 + 120, {"turn": "b"})
    ]
    await harness.clock.advance(3 * HOUR)
    assert [(at - t0, d.key) for at, d in harness.recorder.fired] == [
        (90, (2, "pong")),
        (120, (1, "ping")),
    ]


async def test_adopting_nothing_forgets_the_table(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 60))
    scheduler.adopt(1, ())
    assert pending_of(scheduler, 1, ("ping", "pong")) == [] and len(scheduler) == 0
    await harness.clock.advance(HOUR)
    assert harness.recorder.fired == []


async def test_adopting_the_pending_deadline_again_keeps_it_once(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    pending = Deadline(1, "ping", t0 + 60, {"stage": 1})
    await scheduler.arm(pending)
    scheduler.adopt(1, (Deadline(1, "ping", t0 + 60, {"stage": 1}),))
    assert scheduler.pending(1, "ping") is pending
    await harness.clock.advance(HOUR)
    assert len(harness.recorder.fired) == 1


async def test_adopting_bad_deadlines_is_refused_and_changes_nothing(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    pending = Deadline(1, "ping", t0 + 60)
    await scheduler.arm(pending)
    with pytest.raises(ValueError, match="another owner"):
        scheduler.adopt(1, (Deadline(2, "ping", t0 + 30),))
    with pytest.raises(ValueError, match="one deadline of each kind"):
        scheduler.adopt(1, (Deadline(1, "ping", t0 + 30), Deadline(1, "ping", t0 + 40)))
    assert (
        pending_of(scheduler, 1, ("ping", "pong")) == [pending]
        and pending_of(scheduler, 2, ("ping", "pong")) == []
    )
    await harness.clock.advance(HOUR)
    assert [(at - t0, d.key) for at, d in harness.recorder.fired] == [(60, (1, "ping"))]


class CountingStore(MemoryDeadlineStore):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[int, str]] = []

    async def put_deadline(
        self, table_id: int, kind: str, due_at: float, data: Mapping[str, Any]
    ) -> None:
        self.writes.append((table_id, kind))
        await super().put_deadline(table_id, kind, due_at, data)


async def test_set_all_writes_only_what_differs(harness: Harness) -> None:
    ping_and_pong(harness)
    store = harness.store = CountingStore()
    scheduler = await harness.start()
    t0 = harness.clock.now()
    kept = Deadline(1, "ping", t0 + 60)
    await scheduler.arm(kept)
    await scheduler.arm(Deadline(1, "pong", t0 + 90))
    store.writes.clear()
    await scheduler.set_all(1, (kept,))
    assert store.writes == []
    assert set(store.rows) == {(1, "ping")}
    await scheduler.set_all(1, (kept, Deadline(1, "pong", t0 + 30)))
    assert store.writes == [(1, "pong")]
    assert scheduler.pending(1, "ping") is kept
    await harness.clock.advance(HOUR)
    assert [(at - t0, d.key) for at, d in harness.recorder.fired] == [
        (30, (1, "pong")),
        (60, (1, "ping")),
    ]
    assert store.rows == {}
