"""``benchmarks.bot --processes N``: the outboxes of N processes sharing one token.

SimCord runs one bot against its simulated Discord, on a fake clock of its
own, so N real processes cannot share its Discord nor its clock. What the
budget's sharing depends on is the outboxes: here the one simulated bot has
N of them, each what one process of a sharded bot runs (its own lanes, its
own sender, its own leased slots of the token's budget from the one store,
:mod:`cogs.shared_budget`), every table's items going to one of them by the
table's id. The core, the store and the CPU stay one process's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import bot.discord_app
from cogs.outbox import Budget, Clock, Key, Outbox, Send, Sleep, Spawn
from cogs.shared_budget import Ledger, SharedBudget


class OutboxPerProcess:
    """N outboxes leasing one budget, standing in for the bot's one outbox."""

    def __init__(self, now: Clock, budget: Budget, spawn: Spawn, ledger: Ledger, n: int) -> None:
        self.outboxes = [
            Outbox(now, budget, spawn=spawn, shared=SharedBudget.of(ledger)) for _ in range(n)
        ]

    def _of(self, key: Key) -> Outbox:
        return self.outboxes[key[1] % len(self.outboxes)]

    def __len__(self) -> int:
        return sum(len(outbox) for outbox in self.outboxes)

    def __contains__(self, key: Key) -> bool:
        return key in self._of(key)

    def put(self, key: Key, send: Send, **options: Any) -> None:
        self._of(key).put(key, send, **options)

    def withdraw(self, key: Key) -> None:
        self._of(key).withdraw(key)

    async def wait_sent(self, key: Key) -> None:
        await self._of(key).wait_sent(key)

    def pause(self, retry_after_s: float) -> None:
        for outbox in self.outboxes:
            outbox.pause(retry_after_s)

    @property
    def requests(self) -> Counter[str]:
        return sum((outbox.requests for outbox in self.outboxes), Counter())

    @property
    def budget(self) -> Budget:
        return self.outboxes[0].budget

    @budget.setter
    def budget(self, budget: Budget) -> None:
        for outbox in self.outboxes:
            outbox.budget = budget

    @property
    def sleep(self) -> Sleep:
        return self.outboxes[0].sleep

    @sleep.setter
    def sleep(self, sleep: Sleep) -> None:
        for outbox in self.outboxes:
            outbox.sleep = sleep


@contextmanager
def outboxes_per_process(client: bot.discord_app.SpadesBot, n: int) -> Iterator[None]:
    """While inside, the bot's set-up builds ``n`` outboxes sharing its
    store's budget in place of its one outbox (``n`` = 1: as it is)."""
    if n <= 1:
        yield
        return

    def build(now: Clock, budget: Budget, *, spawn: Spawn, shared: Any) -> OutboxPerProcess:
        return OutboxPerProcess(now, budget, spawn, client.store, n)

    with patch.object(bot.discord_app, "Outbox", build):
        yield
