"""The scheduler against a plain model: whatever the order of arming,
cancelling, waiting and restarting, every deadline fires once, at its time."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.scheduler import Scheduler
from db.deadlines import Deadline
from tests.clock.conftest import Harness

Step = tuple[str, tuple[int, str], int]
KEYS = st.tuples(st.integers(0, 4), st.sampled_from(["ping", "pong"]))
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("arm"), KEYS, st.integers(-20, 200)),
        st.tuples(st.just("cancel"), KEYS, st.just(0)),
        st.tuples(st.just("advance"), KEYS, st.integers(0, 120)),
        st.tuples(st.just("restart"), KEYS, st.integers(0, 300)),
    ),
    max_size=40,
)


async def run(steps: list[Step]) -> None:
    harness = Harness()

    def both(scheduler: Scheduler) -> None:
        scheduler.on("ping", harness.recorder)
        scheduler.on("pong", harness.recorder)

    harness.setup = both
    scheduler = await harness.start()
    clock = harness.clock
    t0 = clock.now()
    pending: dict[tuple[int, str], float] = {}
    expected: list[tuple[float, tuple[int, str], float]] = []

    def fire_due(now: float) -> None:
        """Overdue deadlines fire as soon as a running scheduler knows them."""
        for key, due in list(pending.items()):
            if due <= now:
                expected.append((now, key, due))
                del pending[key]

    try:
        for op, key, amount in steps:
            if op == "arm":
                due = clock.now() + amount
                await scheduler.arm(Deadline(key[0], key[1], due))
                pending[key] = due
                await harness.settle()
                fire_due(clock.now())
            elif op == "cancel":
                await scheduler.cancel(*key)
                pending.pop(key, None)
            elif op == "advance":
                target = clock.now() + amount
                for k, due in list(pending.items()):
                    if due <= target:
                        expected.append((due, k, due))  # on time
                        del pending[k]
                await clock.advance(amount)
            else:
                await scheduler.stop()
                clock.t += amount  # down for a while
                scheduler = await harness.start()
                fire_due(clock.now())
        fired = sorted((at - t0, d.key, d.due_at - t0) for at, d in harness.recorder.fired)
        wanted = sorted((at - t0, k, due - t0) for at, k, due in expected)
        assert fired == wanted
        assert set(harness.store.rows) == set(pending)
    finally:
        await scheduler.stop()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_every_deadline_fires_once_at_its_time(
    steps: list[tuple[str, tuple[int, str], int]],
) -> None:
    asyncio.run(run(steps))
