"""Each user's deck, language and coach choice, kept in memory between clicks.

Every click answers in the clicker's language, and every hand is drawn in
its owner's deck: read from the store, that was two reads per click (and
the coach choice one per player at each hand's end). Here
the first use reads a user's row once, and every change made through this
process updates what is kept, so in a bot of one process what is kept is
always what is stored.

A bot run as several processes (bot/shards.py) shares one store, and a person
may choose a language through one process (a server of its shards) and click
in a server of another. There a kept row is read again once it is
``fresh_s`` old: a change made elsewhere shows within that bound. All three
are matters of display (a deck, a language, a review posted or not), so
one more answer drawn the old way is the whole cost; a read per click is
what it saves.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from db.store import Store

#: How long a process of a sharded bot trusts a kept row (see above).
FRESH_S = 60.0
#: Users kept at most; the least recently seen are dropped first.
KEPT_USERS = 20_000


@dataclass(frozen=True, slots=True)
class _Kept:
    deck: str | None = None
    language: str | None = None
    coach: bool = False
    read_at: float = 0.0


class Preferences:
    """``fresh_s`` None: this process is the bot's only one (nothing changes
    the rows behind its back), so what it keeps never goes stale."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        *,
        fresh_s: float | None,
        kept: int = KEPT_USERS,
    ) -> None:
        self.store = store
        self.now = now
        self.fresh_s = fresh_s
        self.kept = kept
        self._rows: OrderedDict[int, _Kept] = OrderedDict()
        # Bumped by every change: a read that started before one may carry
        # the value it replaced, and is then not kept.
        self._changes = 0

    async def deck(self, user_id: int) -> str | None:
        """The deck design the user chose (None: the default)."""
        return (await self._row(user_id)).deck

    async def language(self, user_id: int) -> str | None:
        """The language the user chose for their private messages (None:
        their Discord app's)."""
        return (await self._row(user_id)).language

    async def coach(self, user_id: int) -> bool:
        """Whether the user asked for a review after each hand (default no)."""
        return (await self._row(user_id)).coach

    async def set_deck(self, user_id: int, design: str) -> None:
        await self.store.set_deck(user_id, design, self.now())
        self._changed(user_id, deck=design)

    async def set_language(self, user_id: int, language: str | None) -> None:
        await self.store.set_language(user_id, language, self.now())
        self._changed(user_id, language=language)

    async def set_coach(self, user_id: int, on: bool) -> None:
        await self.store.set_coach(user_id, on, self.now())
        self._changed(user_id, coach=on)

    async def _row(self, user_id: int) -> _Kept:
        row = self._rows.get(user_id)
        now = self.now()
        if row is not None and (self.fresh_s is None or now - row.read_at < self.fresh_s):
            self._rows.move_to_end(user_id)
            return row
        changes = self._changes
        stored = await self.store.get_user_prefs(user_id)
        row = _Kept(read_at=now)
        if stored is not None:
            row = _Kept(stored.deck, stored.language, stored.coach, now)
        if changes == self._changes:
            self._keep(user_id, row)
        return row

    def _changed(self, user_id: int, **change: Any) -> None:
        self._changes += 1
        row = self._rows.get(user_id)
        if row is not None:
            self._keep(user_id, replace(row, **change))

    def _keep(self, user_id: int, row: _Kept) -> None:
        self._rows[user_id] = row
        self._rows.move_to_end(user_id)
        while len(self._rows) > self.kept:
            self._rows.popitem(last=False)
