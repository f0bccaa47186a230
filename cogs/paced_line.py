"""A line of waiting work served by one task: the turn clock's messages and
the turn mentions each wait in one.

Each key (a table) has at most one item waiting, and a newer one replaces
it. Items are served one at a time in order of their due instants (then of
their arrival), by a callback of the owner's that takes its own turns of the
REST budget. Serving one at a time is what keeps a line from booking the
budget ahead: a table message, which people are looking at, waits behind one
of the line's requests at most. The one task naps until the first item is
due, so a line has one timer however many keys are waiting.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cogs.pacing import Clock

log = logging.getLogger(__name__)

Key = TypeVar("Key", bound=Hashable)
Item = TypeVar("Item")

#: Runs a coroutine as a task of its own: the application's ``spawn``, which
#: keeps the task, logs its failure and cancels it when the application closes.
Spawn = Callable[[Coroutine[Any, Any, None], str], asyncio.Task[Any]]


@dataclass
class _Waiting(Generic[Item]):
    item: Item
    due: float
    place: int  # the order of arrival, which settles equal due instants


class PacedLine(Generic[Key, Item]):
    def __init__(
        self,
        serve: Callable[[Key, Item], Awaitable[None]],
        *,
        spawn: Spawn,
        now: Clock,
        name: str,
        turn: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """``serve`` is awaited for each item when it is due; ``name`` names
        the sender task. ``turn``, if given, is awaited once an item is due,
        before it is taken: the one served is whichever is first then, so a
        replacement put meanwhile is served in the waiting one's place (for a
        line that spends one turn of the budget on each item)."""
        self._serve = serve
        self._spawn = spawn
        self._now = now
        self._name = name
        self._turn = turn
        self._waiting: dict[Key, _Waiting[Item]] = {}
        # (due, place, key), a heap; an entry whose place is no longer the
        # key's waiting one was replaced or withdrawn, and is skipped.
        self._heap: list[tuple[float, int, Key]] = []
        self._places = itertools.count()
        self._sender: asyncio.Task[Any] | None = None
        self._napping_until: float | None = None  # while the sender waits for the first due

    def __contains__(self, key: Key) -> bool:
        """Whether ``key`` has an item waiting."""
        return key in self._waiting

    def __len__(self) -> int:
        return len(self._waiting)

    def put(self, key: Key, item: Item, due: float | None = None) -> None:
        """Have ``item`` served at ``due`` (or as soon as may be), in place of
        the key's waiting item. Without ``due`` the replacement keeps the
        waiting one's place (it is a newer version of the same thing); with
        one it is a new appointment, placed by that instant."""
        waiting = self._waiting.get(key)
        if waiting is not None and due is None:
            waiting.item = item
            return
        waiting = _Waiting(item, self._now() if due is None else due, next(self._places))
        self._waiting[key] = waiting
        heapq.heappush(self._heap, (waiting.due, waiting.place, key))
        self._wake_for(waiting.due)

    def withdraw(self, key: Key) -> None:
        """Forget the key's waiting item, if any: it is not served."""
        self._waiting.pop(key, None)

    def _wake_for(self, due: float) -> None:
        """Make sure a sender serves an item due at ``due`` in time."""
        sender = self._sender
        if sender is not None and not sender.done():
            napping_until = self._napping_until
            if napping_until is None or due >= napping_until:
                return  # it comes to this one in time
            sender.cancel()  # it naps until a later instant
        self._napping_until = None
        self._sender = self._spawn(self._serve_due(), self._name)

    def _first(self) -> tuple[float, Key] | None:
        """The first waiting item's due instant and key (dropping the heap
        entries of items replaced or withdrawn)."""
        while self._heap:
            due, place, key = self._heap[0]
            waiting = self._waiting.get(key)
            if waiting is not None and waiting.place == place:
                return due, key
            heapq.heappop(self._heap)
        return None

    async def _serve_due(self) -> None:
        # The instant slept until counts as come even if the owner's clock
        # says otherwise: a simulated one may stand still while the event
        # loop's runs. The nap is a plain asyncio sleep, which a simulated
        # Discord knows how to move on.
        slept_to = float("-inf")
        turn_taken = False
        while (first := self._first()) is not None:
            due, key = first
            delay = due - max(self._now(), slept_to)
            if delay > 0:
                self._napping_until = due
                await asyncio.sleep(delay)
                self._napping_until, slept_to = None, due
                turn_taken = False  # a turn is for now, not for after a nap
                continue
            if self._turn is not None and not turn_taken:
                await self._turn()
                turn_taken = True
                continue  # the first in line now: whatever replaced it meanwhile
            turn_taken = False
            heapq.heappop(self._heap)
            item = self._waiting.pop(key).item
            try:
                await self._serve(key, item)
            except Exception:
                # One item's failure (a database error, say) must not leave
                # every other key waiting until the next put.
                log.exception("%s: serving %r failed", self._name, key)
