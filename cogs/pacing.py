"""Pacing of REST calls, so the bot stays under Discord's rate limits instead
of being answered with 429s.

A :class:`Pacer` gives out turns: calls that share a key (a channel) are at
least ``interval_s`` apart, and all calls together at most ``per_s`` a
second, evenly spaced. A turn is reserved when it is asked for, so callers
never race for the same instant; the caller then sleeps until it comes.

Time comes from the clock it is given (the application's), and waiting is
``asyncio.sleep``, so a simulated Discord that moves the clock also moves the
turns.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Awaitable, Callable, Hashable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

#: Keys whose next turn has passed are forgotten once there are this many.
_PRUNE_AT = 1024


class Pacer:
    def __init__(self, clock: Clock, *, per_s: float, interval_s: float) -> None:
        """``per_s`` (calls a second, all keys together) or ``interval_s``
        (seconds between calls with the same key) of 0 means no limit."""
        self._clock = clock
        #: How a caller waits for its turn: ``asyncio.sleep``, or a wait the
        #: simulated Discord of the benchmarks knows to be on its own clock.
        self.sleep: Sleep = asyncio.sleep
        self._gap = 1.0 / per_s if per_s > 0 else 0.0
        self._interval = interval_s
        self._taken: list[float] = []  # reserved instants of the shared budget, sorted
        self._next_for: dict[Hashable, float] = {}  # key -> its earliest next turn

    def reserve(self, key: Hashable | None = None) -> float:
        """Reserve the earliest turn for a call (with ``key``); its instant."""
        now = self._clock()
        when = max(now, self._next_for.get(key, now)) if key is not None else now
        if self._gap:
            when = self._free_slot(when, now)
        if key is not None and self._interval:
            if len(self._next_for) >= _PRUNE_AT:
                self._next_for = {k: t for k, t in self._next_for.items() if t > now}
            self._next_for[key] = when + self._interval
        return when

    async def turn(self, key: Hashable | None = None) -> None:
        """Wait for this call's turn."""
        delay = self.reserve(key) - self._clock()
        if delay > 0:
            await self.sleep(delay)

    def _free_slot(self, earliest: float, now: float) -> float:
        """The first instant from ``earliest`` at least one gap away from every
        reserved one, now reserved too."""
        gap = self._gap
        del self._taken[: bisect.bisect_right(self._taken, now - gap)]  # past: no longer in the way
        when = earliest
        for start in range(bisect.bisect_right(self._taken, when - gap), len(self._taken)):
            taken = self._taken[start]
            if taken >= when + gap:
                break
            when = taken + gap
        bisect.insort(self._taken, when)
        return when
