"""The scheduler core on a fake clock: timing, wake-ups, cancellation, restarts."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.clock import Deadline, Scheduler, SystemClock
from tests.clock.conftest import Harness
from tests.clock.memory_store import MemoryDeadlineStore

HOUR = 3600.0


async def test_fires_at_due_time_not_before(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 600, {"version": 3}))
    await harness.clock.advance(599)
    assert harness.recorder.fired == []
    await harness.clock.advance(1)
    [(at, deadline)] = harness.recorder.fired
    assert at == t0 + 600
    assert deadline.data == {"version": 3}
    assert harness.store.rows == {}
    assert len(scheduler) == 0


async def test_nearer_deadline_wakes_the_sleeping_task(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 48 * HOUR))
    await harness.clock.advance(10)
    await scheduler.arm(Deadline(2, "ping", t0 + 60))
    await harness.clock.advance(50)
    assert [(at - t0, d.owner) for at, d in harness.recorder.fired] == [(60, 2)]
    await harness.clock.advance(48 * HOUR)
    assert [(at - t0, d.owner) for at, d in harness.recorder.fired] == [
        (60, 2),
        (48 * HOUR, 1),
    ]


async def test_one_sleeping_timer_however_many_deadlines(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    for table in range(200):
        await scheduler.arm(Deadline(table, "ping", t0 + 1000 - table))
    await harness.settle()
    assert harness.clock.sleepers == 1
    await harness.clock.advance(1000)
    assert [d.owner for _, d in harness.recorder.fired] == list(range(199, -1, -1))


async def test_cancel_drops_the_deadline_and_its_row(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 60))
    await scheduler.arm(Deadline(2, "ping", t0 + 60))
    assert await scheduler.cancel(1, "ping")
    assert not await scheduler.cancel(1, "ping")
    assert set(harness.store.rows) == {(2, "ping")}
    await harness.clock.advance(3600)
    assert harness.recorder.keys() == [(2, "ping")]


async def test_arming_a_key_again_replaces_its_deadline(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 60, {"version": 1}))
    await scheduler.arm(Deadline(1, "ping", t0 + 120, {"version": 2}))
    await harness.clock.advance(119)
    assert harness.recorder.fired == []
    await harness.clock.advance(1)
    assert [d.data["version"] for _, d in harness.recorder.fired] == [2]
    await harness.clock.advance(3600)
    assert len(harness.recorder.fired) == 1


async def test_cancel_all_drops_every_kind(harness: Harness) -> None:
    def both(scheduler: Scheduler) -> None:
        scheduler.on("ping", harness.recorder)
        scheduler.on("pong", harness.recorder)

    harness.setup = both
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "ping", t0 + 60))
    await scheduler.arm(Deadline(1, "pong", t0 + 90))
    await scheduler.arm(Deadline(2, "pong", t0 + 90))
    await scheduler.cancel_all(1)
    await harness.clock.advance(100)
    assert harness.recorder.keys() == [(2, "pong")]


async def test_restart_between_arming_and_firing(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(7, "ping", t0 + HOUR, {"version": 4}))
    await harness.clock.advance(HOUR / 2)
    scheduler = await harness.restart()
    assert scheduler.pending(7, "ping") == Deadline(7, "ping", t0 + HOUR, {"version": 4})
    await harness.clock.advance(HOUR / 2 - 1)
    assert harness.recorder.fired == []
    await harness.clock.advance(1)
    assert [(at - t0, d.key) for at, d in harness.recorder.fired] == [(HOUR, (7, "ping"))]
    await harness.restart()
    await harness.clock.advance(10 * HOUR)
    assert len(harness.recorder.fired) == 1


async def test_deadline_passed_while_down_fires_at_once_and_once(harness: Harness) -> None:
    t0 = harness.clock.now()
    await harness.store.put_deadline(3, "ping", t0 + 60, {"version": 9})
    harness.clock.t += 12 * HOUR  # the bot was down
    await harness.start()
    assert [(at, d.key) for at, d in harness.recorder.fired] == [(t0 + 12 * HOUR, (3, "ping"))]
    assert harness.store.rows == {}
    await harness.restart()
    await harness.clock.advance(HOUR)
    assert len(harness.recorder.fired) == 1


async def test_a_thousand_tables_due_at_the_same_moment(harness: Harness) -> None:
    scheduler = await harness.start()
    due = harness.clock.now() + 300
    for table in range(1000):
        await scheduler.arm(Deadline(table, "ping", due, {"version": table}))
    await harness.clock.advance(299)
    assert harness.recorder.fired == []
    await harness.clock.advance(1)
    assert sorted(harness.recorder.keys()) == [(table, "ping") for table in range(1000)]
    assert {at for at, _ in harness.recorder.fired} == {due}
    assert harness.store.rows == {}
    assert scheduler.fired_count == 1000


async def test_a_thousand_overdue_tables_load_and_fire_once(harness: Harness) -> None:
    t0 = harness.clock.now()
    for table in range(1000):
        await harness.store.put_deadline(table, "ping", t0 - table, {})
    await harness.start()
    assert len(harness.recorder.fired) == 1000
    await harness.restart()
    await harness.clock.advance(HOUR)
    assert len(harness.recorder.fired) == 1000


async def test_a_handler_that_arms_its_own_key_keeps_the_new_row(harness: Harness) -> None:
    ticks: list[float] = []

    async def tick(deadline: Deadline) -> None:
        ticks.append(harness.clock.now() - t0)
        if len(ticks) < 3:
            await scheduler.arm(Deadline(1, "tick", harness.clock.now() + 60))

    harness.setup = lambda s: s.on("tick", tick)
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "tick", t0 + 60))
    await harness.clock.advance(60)
    assert (1, "tick") in harness.store.rows
    await harness.clock.advance(600)
    assert ticks == [60, 120, 180]
    assert harness.store.rows == {}


async def test_a_failing_handler_is_logged_and_retried_then_dropped(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[float] = []

    async def broken(deadline: Deadline) -> None:
        calls.append(harness.clock.now() - t0)
        raise RuntimeError("discord is down")

    harness.setup = lambda s: s.on("broken", broken)
    scheduler = await harness.start()
    t0 = harness.clock.now()
    await scheduler.arm(Deadline(1, "broken", t0 + 10))
    with caplog.at_level(logging.ERROR, logger="bot.clock.scheduler"):
        await harness.clock.advance(HOUR)
    # retry_after_s=60, growing with each attempt; three attempts in all.
    assert calls == [10, 70, 190]
    assert "discord is down" in caplog.text
    assert "giving up" in caplog.text
    assert harness.store.rows == {}
    assert scheduler.running


async def test_unknown_kind_is_logged_and_dropped(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await harness.store.put_deadline(5, "retired-kind", harness.clock.now() - 1, {})
    with caplog.at_level(logging.ERROR, logger="bot.clock.scheduler"):
        await harness.start()
    assert "no handler for retired-kind" in caplog.text
    assert harness.store.rows == {}


async def test_registering_a_kind_twice_is_refused() -> None:
    scheduler = Scheduler(MemoryDeadlineStore())
    scheduler.on("ping", _nothing)
    with pytest.raises(ValueError, match="already registered"):
        scheduler.on("ping", _nothing)


async def test_stop_leaves_no_task_behind(harness: Harness) -> None:
    scheduler = await harness.start()
    await scheduler.arm(Deadline(1, "ping", harness.clock.now() + 60))
    await scheduler.stop()
    assert not scheduler.running
    alive = [t.get_name() for t in asyncio.all_tasks() if not t.done()]
    assert not [name for name in alive if name.startswith("deadline")]
    assert (1, "ping") in harness.store.rows


async def test_stop_lets_a_running_handler_finish_within_grace() -> None:
    store = MemoryDeadlineStore()
    clock = SystemClock()
    finished: list[int] = []

    async def slow(deadline: Deadline) -> None:
        await asyncio.sleep(0.01)
        finished.append(deadline.owner)

    scheduler = Scheduler(store, clock)
    scheduler.on("slow", slow)
    await scheduler.start()
    await scheduler.arm(Deadline(1, "slow", clock.now()))
    await asyncio.sleep(0.001)
    await scheduler.stop(grace_s=1)
    assert finished == [1]
    assert store.rows == {}


async def test_real_clock_fires_short_deadlines_promptly() -> None:
    store = MemoryDeadlineStore()
    fired: dict[int, float] = {}
    done = asyncio.Event()

    async def record(deadline: Deadline) -> None:
        fired[deadline.owner] = time.time() - deadline.due_at
        if len(fired) == 20:
            done.set()

    scheduler = Scheduler(store, SystemClock())
    scheduler.on("ping", record)
    await scheduler.start()
    now = time.time()
    for table in range(20):
        await scheduler.arm(Deadline(table, "ping", now + 0.005 * (20 - table)))
    await asyncio.wait_for(done.wait(), timeout=5)
    await scheduler.stop()
    assert all(-0.005 < delay < 1.0 for delay in fired.values())


async def _nothing(deadline: Deadline) -> None:
    return None


async def test_rearming_keeps_the_heap_small(harness: Harness) -> None:
    scheduler = await harness.start()
    t0 = harness.clock.now()
    for n in range(5000):
        await scheduler.arm(Deadline(n % 10, "ping", t0 + 3600 + n))
    assert len(scheduler) == 10
    assert len(scheduler._heap) <= 4 * 10 + 64
    await harness.clock.advance(2 * 3600 + 5000)
    assert sorted(d.due_at - t0 for _, d in harness.recorder.fired) == [
        3600 + n for n in range(4990, 5000)
    ]
