"""A clock that only moves when a test says so: days of table time in milliseconds."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable

# 2026-01-01T00:00:00Z, the same epoch SimCord's virtual clock starts at.
EPOCH = 1_767_225_600.0


async def _yield_a_few_times() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


class FakeClock:
    """``now`` and ``sleep`` for :class:`bot.clock.scheduler.Scheduler` and the table
    service. :meth:`advance` wakes the sleepers in time order, letting the
    program settle (``settle``) after each one, as real time would."""

    def __init__(
        self, start: float = EPOCH, settle: Callable[[], Awaitable[None]] = _yield_a_few_times
    ) -> None:
        self.t = start
        self.settle = settle
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._sequence = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.t + max(0.0, seconds), next(self._sequence), future))
        await future

    @property
    def sleepers(self) -> int:
        return sum(1 for _, _, future in self._sleepers if not future.done())

    async def advance(self, seconds: float) -> None:
        target = self.t + seconds
        await self.settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            if future.done():
                continue  # a cancelled sleep
            self.t = max(self.t, when)
            future.set_result(None)
            await self.settle()
        self.t = max(self.t, target)
        await self.settle()
