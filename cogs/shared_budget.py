"""One REST budget for every process of the bot: slots leased from the store.

The global limit belongs to the token, shared by a sharded bot's processes. Requests go out
in slots on the common clock, ``1 / (rest_per_s - 1)`` apart, each used within its gap or
not at all; a process leases a tenth of a second's worth at a time, so the database sees
about ten statements a second at most and an unused lease wastes little.

A global 429 is written to the store (no slot is leased before it ends) and this
process's unused slots are dropped. Without the database, a process paces itself alone."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.shards import Shards

log = logging.getLogger(__name__)

Clock = Callable[[], float]
#: ``(now, count, gap_s)`` -> the first leased slot's instant.
Lease = Callable[[float, int, float], Awaitable[float]]
#: ``until``: no slot is leased before it any more.
Pause = Callable[[float], Awaitable[None]]


class Ledger(Protocol):
    """Where the slots are leased: the store (:mod:`db.rest_budget`)."""

    async def lease_rest_slots(self, now: float, count: int, gap_s: float) -> float: ...

    async def pause_rest(self, until: float) -> None: ...


#: A lease covers at most this many seconds of the budget.
LEASE_S = 0.1


class SharedBudget:
    """This process's leased slots of the token's budget."""

    def __init__(self, lease: Lease, pause: Pause) -> None:
        self._lease = lease
        self._pause = pause
        self._slots: deque[float] = deque()
        self._round_trip_s = 0.0  # of the last lease

    @classmethod
    def of(cls, ledger: Ledger) -> SharedBudget:
        """The budget shared through ``ledger`` (the store)."""
        return cls(ledger.lease_rest_slots, ledger.pause_rest)

    @classmethod
    def between(cls, shards: Shards, ledger: Ledger) -> SharedBudget | None:
        """The budget shared through ``ledger``; None for a bot's only process."""
        return None if shards.every_shard else cls.of(ledger)

    def held(self, now: float, gap_s: float) -> float | None:
        """This process's next slot, None if none (a slot whose gap is over is dropped)."""
        while self._slots and self._slots[0] + gap_s <= now:
            self._slots.popleft()
        return self._slots[0] if self._slots else None

    async def lease(self, clock: Clock, gap_s: float, wanted: int) -> None:
        """Lease up to ``wanted`` slots ``gap_s`` apart, from when the answer is expected."""
        count = max(1, min(wanted, int(LEASE_S / gap_s)))
        asked = clock()
        try:
            first = await self._lease(asked + self._round_trip_s, count, gap_s)
        except Exception:
            log.warning("the shared REST budget is unreachable: pacing alone", exc_info=True)
            self._slots.append(clock())  # one request, paced by this process alone
            return
        self._round_trip_s = max(0.0, clock() - asked)
        self._slots.extend(first + n * gap_s for n in range(count))

    def take(self) -> None:
        """A request goes in the next slot (its instant has come)."""
        if self._slots:
            self._slots.popleft()

    async def pause(self, until: float, gap_s: float) -> None:
        """Discord paused the token until ``until``: drop earlier slots, tell other processes."""
        self._slots = deque(s for s in self._slots if s >= until + gap_s)
        try:
            await self._pause(until + gap_s)
        except Exception:
            log.warning("could not share a global rate limit's pause", exc_info=True)
