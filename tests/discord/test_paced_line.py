"""The paced line on its own, in plain asyncio: one waiting item per key, due
order, one sender that naps and is woken, withdrawals, and failures that
leave the line going.

Its clock stands still here (unless a test moves it): the line's naps are
asyncio's, and an instant napped until counts as come.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import pytest

from cogs.paced_line import PacedLine

#: Long enough for anything that should happen to happen, under any load.
PATIENCE_S = 10.0


class Owner:
    """Serves the items of a line, noting what it served and when it was
    serving two at once; spawns the line's tasks, noting them."""

    def __init__(self) -> None:
        self.now = 0.0
        self.served: list[tuple[str, str]] = []
        self.tasks: list[asyncio.Task[Any]] = []
        self.serving = 0
        self.most_serving = 0
        self.hold: asyncio.Event | None = None  # while set-up, serving waits for it
        self.fail_for: set[str] = set()
        self._changed = asyncio.Event()

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self.tasks.append(task)
        return task

    async def serve(self, key: str, item: str) -> None:
        self.serving += 1
        self.most_serving = max(self.most_serving, self.serving)
        try:
            if self.hold is not None:
                await self.hold.wait()
            if key in self.fail_for:
                raise RuntimeError(f"no luck with {key}")
            self.served.append((key, item))
        finally:
            self.serving -= 1
            self._changed.set()

    def line(self, **options: Any) -> PacedLine[str, str]:
        return PacedLine(self.serve, spawn=self.spawn, now=lambda: self.now, name="line", **options)

    async def until_served(self, count: int) -> None:
        async def wait() -> None:
            while len(self.served) < count:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(wait(), PATIENCE_S)

    async def until_idle(self) -> None:
        """Wait until every sender has finished."""
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), PATIENCE_S)

    def live_senders(self) -> list[asyncio.Task[Any]]:
        return [task for task in self.tasks if not task.done() and not task.cancelling()]


@pytest.fixture
async def owner() -> AsyncIterator[Owner]:
    owner = Owner()
    yield owner
    for task in owner.tasks:
        task.cancel()
    await asyncio.gather(*owner.tasks, return_exceptions=True)


async def let_run() -> None:
    """Let the sender run until it waits (a nap, a turn, a serve held up)."""
    for _step in range(10):
        await asyncio.sleep(0)


async def test_items_are_served_in_order_of_due_instant_then_of_arrival(owner: Owner) -> None:
    owner.now = 100.0
    line = owner.line()
    line.put("a", "a1", due=100.0)
    line.put("b", "b1", due=99.0)
    line.put("c", "c1", due=99.5)
    line.put("d", "d1", due=99.0)
    line.put("e", "e1")  # due now: after every other due now
    await owner.until_served(5)
    assert [key for key, _item in owner.served] == ["b", "d", "c", "a", "e"]
    assert len(line) == 0


async def test_a_replacement_without_a_due_keeps_the_waiting_ones_place(owner: Owner) -> None:
    line = owner.line()
    line.put("a", "a1")
    line.put("b", "b1")
    line.put("a", "a2")
    assert len(line) == 2
    await owner.until_served(2)
    assert owner.served == [("a", "a2"), ("b", "b1")]  # the old "a1" is never served


async def test_a_replacement_with_a_due_is_placed_by_it(owner: Owner) -> None:
    line = owner.line()
    line.put("a", "a1", due=0.0)
    line.put("b", "b1", due=0.0)
    line.put("a", "a2", due=0.0)  # a new appointment: after "b", which came before it
    await owner.until_served(2)
    assert owner.served == [("b", "b1"), ("a", "a2")]


async def test_an_item_put_while_the_turn_is_awaited_is_served_in_its_place(
    owner: Owner,
) -> None:
    turn_came = asyncio.Event()
    turns = 0

    async def turn() -> None:
        nonlocal turns
        turns += 1
        await turn_came.wait()

    line = owner.line(turn=turn)
    line.put("a", "a1")
    line.put("b", "b1")
    await let_run()  # waiting for its turn, "a1" still in line
    assert turns == 1 and "a" in line
    line.put("a", "a2")
    turn_came.set()
    await owner.until_served(2)
    assert owner.served == [("a", "a2"), ("b", "b1")]
    assert turns == 2  # one for each item served


async def test_the_item_served_is_the_first_when_the_turn_has_come(owner: Owner) -> None:
    turn_came = asyncio.Event()

    async def turn() -> None:
        await turn_came.wait()

    line = owner.line(turn=turn)
    line.put("a", "a1")
    line.put("b", "b1")
    await let_run()  # waiting for the turn to serve "a1"
    line.withdraw("a")
    line.put("c", "c1", due=-5.0)
    turn_came.set()
    await owner.until_served(2)
    assert owner.served == [("c", "c1"), ("b", "b1")]


async def test_an_earlier_put_wakes_the_napping_sender(owner: Owner) -> None:
    line = owner.line()
    line.put("late", "l1", due=3600.0)
    await let_run()
    assert owner.served == [] and len(owner.live_senders()) == 1
    line.put("soon", "s1", due=0.0)
    await owner.until_served(1)
    assert owner.served == [("soon", "s1")]
    assert "late" in line
    assert len(owner.live_senders()) == 1  # the one that napped is gone


async def test_a_later_put_leaves_the_napping_sender_alone(owner: Owner) -> None:
    line = owner.line()
    line.put("soon", "s1", due=3600.0)
    await let_run()
    line.put("later", "l1", due=7200.0)
    await let_run()
    assert len(owner.tasks) == 1 and owner.live_senders() == owner.tasks


async def test_the_instant_napped_until_counts_as_come_on_a_clock_standing_still(
    owner: Owner,
) -> None:
    line = owner.line()
    line.put("a", "a1", due=0.01)  # the clock says 0 throughout
    await owner.until_served(1)
    assert owner.served == [("a", "a1")]


async def test_one_sender_serves_one_item_at_a_time(owner: Owner) -> None:
    owner.hold = asyncio.Event()
    line = owner.line()
    line.put("a", "a1")
    await let_run()
    assert owner.serving == 1
    line.put("b", "b1")  # while "a1" is being served
    line.put("c", "c1", due=-1.0)  # due before anything else: still no second sender
    assert len(owner.tasks) == 1
    owner.hold.set()
    await owner.until_served(3)
    assert owner.served == [("a", "a1"), ("c", "c1"), ("b", "b1")]
    assert owner.most_serving == 1
    await owner.until_idle()
    assert len(owner.tasks) == 1


async def test_a_line_emptied_and_filled_again_gets_a_sender_again(owner: Owner) -> None:
    line = owner.line()
    line.put("a", "a1")
    await owner.until_served(1)
    await owner.until_idle()
    line.put("a", "a2")
    await owner.until_served(2)
    assert owner.served == [("a", "a1"), ("a", "a2")]
    assert len(owner.tasks) == 2


async def test_a_withdrawn_item_is_not_served(owner: Owner) -> None:
    line = owner.line()
    line.put("a", "a1")
    line.put("b", "b1")
    line.withdraw("a")
    line.withdraw("nothing waiting")  # no harm
    assert "a" not in line and "b" in line
    await owner.until_served(1)
    await owner.until_idle()
    assert owner.served == [("b", "b1")]


async def test_withdrawing_what_the_sender_naps_for_serves_nothing(owner: Owner) -> None:
    line = owner.line()
    line.put("a", "a1", due=0.01)
    await let_run()
    line.withdraw("a")
    await owner.until_idle()
    assert owner.served == [] and len(line) == 0


async def test_an_item_that_fails_is_logged_and_the_line_goes_on(
    owner: Owner, caplog: pytest.LogCaptureFixture
) -> None:
    owner.fail_for = {"a"}
    line = owner.line()
    line.put("a", "a1")
    line.put("b", "b1")
    with caplog.at_level(logging.ERROR, logger="cogs.paced_line"):
        await owner.until_served(1)
        await owner.until_idle()
    assert owner.served == [("b", "b1")]
    [record] = caplog.records
    assert "line: serving 'a' failed" in record.getMessage()
    assert record.exc_info is not None and "no luck with a" in str(record.exc_info[1])
    assert all(task.exception() is None for task in owner.tasks)
