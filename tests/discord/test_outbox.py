"""The outbox's line on its own, in plain asyncio: one waiting item per key,
due order, one request of the line at a time, a sender that naps and is
woken, withdrawals, and failures that leave the outbox going.

Its clock stands still here (unless a test moves it): the outbox's naps are
asyncio's, and an instant napped until counts as come.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import pytest

from cogs.outbox import POST, Budget, Outbox, Route
from cogs.shared_budget import SharedBudget

#: Long enough for anything that should happen to happen, under any load.
PATIENCE_S = 10.0
#: No limit: the line alone decides the order.
UNLIMITED = Budget(per_s=0, per_channel_s=0)


class Owner:
    """Puts items in an outbox's line, noting what was sent and when two
    were being sent at once; spawns the outbox's tasks, noting them."""

    def __init__(self) -> None:
        self.now = 0.0
        self.served: list[tuple[str, str]] = []
        self.tasks: list[asyncio.Task[Any]] = []
        self.serving = 0
        self.most_serving = 0
        self.most_senders = 0
        self.hold: asyncio.Event | None = None  # while set-up, serving waits for it
        self.fail_for: set[str] = set()
        self._changed = asyncio.Event()
        self._names: dict[int, str] = {}

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self.tasks.append(task)
        # A sender spawns its successor as its last act: it is not counted.
        others = [t for t in self.live_senders() if t is not asyncio.current_task()]
        self.most_senders = max(self.most_senders, len(others))
        return task

    def outbox(self, budget: Budget = UNLIMITED) -> Outbox:
        return Outbox(lambda: self.now, budget, spawn=self.spawn)

    def put(
        self,
        outbox: Outbox,
        key: str,
        item: str,
        due: float | None = None,
        token: int | None = None,
    ) -> None:
        number = self._number(key)

        async def send() -> Route:
            await self.serve(key, item)
            return POST

        outbox.put(("notice", number), send, due=due, token=token)

    def withdraw(self, outbox: Outbox, key: str) -> None:
        outbox.withdraw(("notice", self._number(key)))

    def waiting(self, outbox: Outbox, key: str) -> bool:
        return ("notice", self._number(key)) in outbox

    def _number(self, key: str) -> int:
        number = hash(key) & 0xFFFF
        self._names[number] = key
        return number

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

    async def until_served(self, count: int) -> None:
        async def wait() -> None:
            while len(self.served) < count:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(wait(), PATIENCE_S)

    async def until_idle(self) -> None:
        """Wait until every task of the outbox has finished."""

        async def wait() -> None:
            while any(not task.done() for task in self.tasks):
                await asyncio.gather(*self.tasks, return_exceptions=True)

        await asyncio.wait_for(wait(), PATIENCE_S)

    def live_senders(self) -> list[asyncio.Task[Any]]:
        """The outbox's sending tasks (not the requests in flight) still at work."""
        return [
            task
            for task in self.tasks
            if task.get_name() == "outbox" and not task.done() and not task.cancelling()
        ]


@pytest.fixture
async def owner() -> AsyncIterator[Owner]:
    owner = Owner()
    yield owner
    for task in owner.tasks:
        task.cancel()
    await asyncio.gather(*owner.tasks, return_exceptions=True)


async def let_run() -> None:
    """Let the sender run until it waits (a nap, a turn, a send held up)."""
    for _step in range(10):
        await asyncio.sleep(0)


async def test_items_are_served_in_order_of_due_instant_then_of_arrival(owner: Owner) -> None:
    owner.now = 100.0
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1", due=100.0)
    owner.put(outbox, "b", "b1", due=99.0)
    owner.put(outbox, "c", "c1", due=99.5)
    owner.put(outbox, "d", "d1", due=99.0)
    owner.put(outbox, "e", "e1")  # due now: after every other due now
    await owner.until_served(5)
    assert [key for key, _item in owner.served] == ["b", "d", "c", "a", "e"]
    assert len(outbox) == 0


async def test_a_replacement_without_a_due_keeps_the_waiting_ones_place(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1")
    owner.put(outbox, "b", "b1")
    owner.put(outbox, "a", "a2")
    assert len(outbox) == 2
    await owner.until_served(2)
    assert owner.served == [("a", "a2"), ("b", "b1")]  # the old "a1" is never served


async def test_a_replacement_with_a_due_is_placed_by_it(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1", due=0.0)
    owner.put(outbox, "b", "b1", due=0.0)
    owner.put(outbox, "a", "a2", due=0.0)  # a new appointment: after "b", which came before it
    await owner.until_served(2)
    assert owner.served == [("b", "b1"), ("a", "a2")]


# A request every 50 ms: the second item waits for its turn of the budget.
BUDGET = Budget(per_s=20, per_channel_s=0)


async def test_an_item_put_while_the_turn_is_awaited_is_served_in_its_place(
    owner: Owner,
) -> None:
    outbox = owner.outbox(BUDGET)
    owner.put(outbox, "z", "z1")
    await owner.until_served(1)  # the budget's last turn is now taken
    owner.put(outbox, "a", "a1")
    owner.put(outbox, "b", "b1")
    await let_run()  # waiting for its turn, "a1" still in line
    assert owner.waiting(outbox, "a") and len(owner.live_senders()) == 1
    owner.put(outbox, "a", "a2")
    await owner.until_served(3)
    assert owner.served[1:] == [("a", "a2"), ("b", "b1")]
    assert outbox.requests == {POST: 3}  # one turn of the budget for each item served


async def test_the_item_served_is_the_first_when_the_turn_has_come(owner: Owner) -> None:
    outbox = owner.outbox(BUDGET)
    owner.put(outbox, "z", "z1")
    await owner.until_served(1)
    owner.put(outbox, "a", "a1")
    owner.put(outbox, "b", "b1")
    await let_run()  # waiting for the turn to serve "a1"
    owner.withdraw(outbox, "a")
    owner.put(outbox, "c", "c1", due=-5.0)
    await owner.until_served(3)
    assert owner.served[1:] == [("c", "c1"), ("b", "b1")]


async def test_an_earlier_put_wakes_the_napping_sender(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "late", "l1", due=3600.0)
    await let_run()
    assert owner.served == [] and len(owner.live_senders()) == 1
    owner.put(outbox, "soon", "s1", due=0.0)
    await owner.until_served(1)
    assert owner.served == [("soon", "s1")]
    assert owner.waiting(outbox, "late")
    assert len(owner.live_senders()) == 1  # the one that napped is gone


async def test_a_later_put_leaves_the_napping_sender_alone(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "soon", "s1", due=3600.0)
    await let_run()
    owner.put(outbox, "later", "l1", due=7200.0)
    await let_run()
    assert len(owner.tasks) == 1 and owner.live_senders() == owner.tasks


async def test_the_instant_napped_until_counts_as_come_on_a_clock_standing_still(
    owner: Owner,
) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1", due=0.01)  # the clock says 0 throughout
    await owner.until_served(1)
    assert owner.served == [("a", "a1")]


async def test_the_line_sends_one_item_at_a_time(owner: Owner) -> None:
    owner.hold = asyncio.Event()
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1")
    await let_run()
    assert owner.serving == 1
    owner.put(outbox, "b", "b1")  # while "a1" is being sent
    owner.put(outbox, "c", "c1", due=-1.0)  # due before anything else: still not sent alongside
    await let_run()
    assert owner.serving == 1
    owner.hold.set()
    await owner.until_served(3)
    assert owner.served == [("a", "a1"), ("c", "c1"), ("b", "b1")]
    assert owner.most_serving == 1
    await owner.until_idle()
    assert owner.most_senders == 1  # never two sending tasks at work together


async def test_an_outbox_emptied_and_filled_again_gets_a_sender_again(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1")
    await owner.until_served(1)
    await owner.until_idle()
    senders = sum(1 for task in owner.tasks if task.get_name() == "outbox")
    owner.put(outbox, "a", "a2")
    await owner.until_served(2)
    assert owner.served == [("a", "a1"), ("a", "a2")]
    assert sum(1 for task in owner.tasks if task.get_name() == "outbox") == senders + 1


async def test_a_withdrawn_item_is_not_served(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1")
    owner.put(outbox, "b", "b1")
    owner.withdraw(outbox, "a")
    owner.withdraw(outbox, "nothing waiting")  # no harm
    assert not owner.waiting(outbox, "a") and owner.waiting(outbox, "b")
    await owner.until_served(1)
    await owner.until_idle()
    assert owner.served == [("b", "b1")]


async def test_withdrawing_what_the_sender_naps_for_serves_nothing(owner: Owner) -> None:
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1", due=0.01)
    await let_run()
    owner.withdraw(outbox, "a")
    await owner.until_idle()
    assert owner.served == [] and len(outbox) == 0


async def test_an_item_that_fails_is_logged_and_the_outbox_goes_on(
    owner: Owner, caplog: pytest.LogCaptureFixture
) -> None:
    owner.fail_for = {"a"}
    outbox = owner.outbox()
    owner.put(outbox, "a", "a1")
    owner.put(outbox, "b", "b1")
    with caplog.at_level(logging.ERROR, logger="cogs.outbox"):
        await owner.until_served(1)
        await owner.until_idle()
    assert owner.served == [("b", "b1")]
    [record] = caplog.records
    assert f"outbox: sending ('notice', {hash('a') & 0xFFFF}) failed" in record.getMessage()
    assert record.exc_info is not None and "no luck with a" in str(record.exc_info[1])
    assert all(task.exception() is None for task in owner.tasks)
    assert outbox.requests == {POST: 1}


async def test_a_global_429_s_pause_holds_everything_until_it_is_over(owner: Owner) -> None:
    outbox = owner.outbox(BUDGET)
    outbox.pause(0.3)  # seconds the token is paused for; the clock stands still
    started = time.monotonic()
    owner.put(outbox, "a", "a1")
    await let_run()
    assert owner.served == [] and owner.waiting(outbox, "a")
    await owner.until_served(1)
    assert time.monotonic() - started >= 0.29  # asyncio may wake a hair early


async def test_items_through_tokens_go_beside_the_budget_and_its_pause_spaced_per_token(
    owner: Owner,
) -> None:
    # One request a second on the budget, paused for long; a token's requests 0.3 s apart.
    outbox = owner.outbox(Budget(per_s=1, per_channel_s=0, per_token_s=0.3))
    outbox.pause(PATIENCE_S)
    started = time.monotonic()
    owner.put(outbox, "a", "a1")  # on the budget
    owner.put(outbox, "t1", "first", token=1)
    owner.put(outbox, "t2", "other", token=2)
    owner.put(outbox, "t3", "second", token=1)
    await owner.until_served(2)
    assert time.monotonic() - started < 0.29
    assert sorted(owner.served) == [("t1", "first"), ("t2", "other")]
    await owner.until_served(3)
    assert time.monotonic() - started >= 0.29  # token 1's spacing, not the budget's second
    assert owner.served[-1] == ("t3", "second")
    assert owner.waiting(outbox, "a")  # the global 429's pause holds the budget's item only


async def test_items_through_tokens_lease_no_slot_of_a_shared_budget(owner: Owner) -> None:
    leased: list[int] = []

    async def lease(now: float, count: int, _gap_s: float) -> float:
        leased.append(count)
        return now

    async def pause(_until: float) -> None:
        raise AssertionError("nothing was refused")

    outbox = Outbox(lambda: owner.now, BUDGET, spawn=owner.spawn, shared=SharedBudget(lease, pause))
    for number in range(3):
        owner.put(outbox, f"t{number}", "through a token", token=number)
    await owner.until_served(3)
    assert leased == []
    owner.put(outbox, "a", "on the budget")
    await owner.until_served(4)
    assert leased == [1]
