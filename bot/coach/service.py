"""The coach's hints and reviews, run in worker threads, with a per-person cooldown
(one answer every few seconds)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

from bot import refusals
from bot.ai.base import Player
from bot.coach.hint import Hint, can_hint, decision_stamp, hint_for, hint_player
from bot.coach.review import Review, review_hand
from bot.game.record import HandRecord
from bot.game.types import ActionKind, Phase
from bot.game.view import view_of
from bot.prefs import Preferences
from bot.refusals import CoachBusy, HintsOff, NoHintNow
from bot.tables.model import Table

HINT_COOLDOWN_S = 5.0
REVIEW_COOLDOWN_S = 10.0
WORKERS = 2
#: A hand to review: its record, as the engine keeps it.
EndedHand = HandRecord
_REMEMBERED_HANDS = 512


class Cooldown:
    """One use per key per ``seconds``; idle keys are forgotten."""

    def __init__(self, seconds: float, now: Callable[[], float]) -> None:
        self.seconds = seconds
        self.now = now
        self._last: dict[int, float] = {}

    def take(self, key: int) -> float:
        """Use the key's turn if it has one: 0.0, else the seconds left (unused)."""
        now = self.now()
        last = self._last.get(key)
        if last is not None and last + self.seconds > now:
            return last + self.seconds - now
        self._last[key] = now
        if len(self._last) > 1024:
            cutoff = now - self.seconds
            self._last = {k: t for k, t in self._last.items() if t > cutoff}
        return 0.0


class CoachService:
    def __init__(
        self,
        prefs: Preferences,
        now: Callable[[], float],
        *,
        player: Callable[[], Player] = hint_player,
    ) -> None:
        self.prefs = prefs
        self.now = now
        self.player = player
        self.hint_cooldown = Cooldown(HINT_COOLDOWN_S, now)
        self.review_cooldown = Cooldown(REVIEW_COOLDOWN_S, now)
        self._workers = asyncio.Semaphore(WORKERS)
        self._reviewed: dict[tuple[int, int | None, int], None] = {}

    # -- hints --------------------------------------------------------------------

    async def hint(self, table: Table, user_id: int, version: int, stamp: int | None) -> Hint:
        """The hint for the user's seat, only if ``version`` and ``stamp`` still match the game."""
        if not table.options.hints:
            raise HintsOff()
        seat = table.seat_of(user_id)
        if seat is None:
            if table.is_spectator(user_id):
                raise refusals.Spectator()
            raise refusals.NotSeated()
        game = table.game
        if game is None:
            raise refusals.NotStarted()
        if version > table.version:
            raise refusals.StaleAction()
        if stamp is None and version != table.version:
            raise refusals.StaleAction()
        if stamp is not None and stamp != decision_stamp(game):
            raise refusals.StaleAction()
        view = view_of(game, seat)
        if not can_hint(view):
            raise NoHintNow()
        wait = self.hint_cooldown.take(user_id)
        if wait:
            raise CoachBusy(max(1, math.ceil(wait)))
        async with self._workers:
            return await asyncio.to_thread(hint_for, view, self.player())

    # -- the coach preference -------------------------------------------------------

    async def coach_on(self, user_id: int) -> bool:
        return await self.prefs.coach(user_id)

    async def set_coach(self, user_id: int, on: bool) -> None:
        await self.prefs.set_coach(user_id, on)

    # -- reviews --------------------------------------------------------------------

    def hand_ended(self, table: Table, event: str) -> HandRecord | None:
        """The hand ``event`` finished at ``table``, the first time seen; else None. Quick."""
        game = table.game
        if event != ActionKind.PLAY.value or game is None or not game.hand_records:
            return None
        record = game.hand_records[-1]
        if game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or record.hand != game.hand_number:
            return None
        key = (table.id, table.game_id, record.hand)
        if key in self._reviewed:
            return None
        self._reviewed[key] = None
        if len(self._reviewed) > _REMEMBERED_HANDS:
            del self._reviewed[next(iter(self._reviewed))]
        return record

    async def reviews(self, table: Table, record: HandRecord) -> list[tuple[int, Review]]:
        """``(user, review)`` for each person with the coach on, outside the review cooldown."""
        due = []
        for seat, occupant in enumerate(table.seats):
            user = occupant.user_id
            if user is None or not await self.coach_on(user):
                continue
            if self.review_cooldown.take(user):
                continue
            due.append((seat, user))
        found = []
        for seat, user in due:
            async with self._workers:
                review = await asyncio.to_thread(review_hand, table.rules, record, seat)
            found.append((user, review))
        return found
