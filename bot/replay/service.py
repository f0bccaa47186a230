"""Replays of finished games (never one in play), cached, with the coach's marks."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from bot.refusals import GameNotOver, NoFinishedGame, ShareRefused
from bot.replay.frames import Replay, replay_of
from bot.replay.review import GameReview, review_game, review_json, review_of
from bot.servers import ServerSettingsService
from bot.stats.records import BadRecord
from bot.stats.service import StatsService
from db.store import Store

log = logging.getLogger(__name__)

#: Replays kept in memory (a few hundred kilobytes each at most).
CACHED = 64

Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]


class ReplayService:
    def __init__(
        self,
        store: Store,
        stats: StatsService,
        servers: ServerSettingsService,
        now: Callable[[], float],
        spawn: Spawn,
    ) -> None:
        self.store = store
        self.stats = stats
        self.servers = servers
        self.now = now
        self.spawn = spawn
        self._replays: OrderedDict[int, Replay] = OrderedDict()
        self._reviews: dict[int, GameReview] = {}
        self._reviewing: set[int] = set()
        # One review at a time: they are seconds of CPU each.
        self._worker = asyncio.Semaphore(1)

    async def replay(self, guild_id: int | None, game_id: int) -> Replay:
        """The replay of a finished game of this server; refused otherwise."""
        cached = self._replays.get(game_id)
        if cached is None:
            cached = await self._load(game_id)
        if cached.guild_id != guild_id:
            raise NoFinishedGame(game=game_id)
        self._replays.move_to_end(game_id)
        return cached

    async def _load(self, game_id: int) -> Replay:
        place = await self.store.game_place(game_id)
        if place is None or place[0] is None:
            raise NoFinishedGame(game=game_id)
        if not place[1]:
            raise GameNotOver(game=game_id)
        found = await self.stats.finished_game(game_id)
        if found is None:
            raise NoFinishedGame(game=game_id)
        try:
            replay = replay_of(found[0])
        except BadRecord as exc:
            log.warning("game %d cannot be replayed: %s", game_id, exc)
            raise NoFinishedGame(game=game_id) from None
        self._replays[game_id] = replay
        while len(self._replays) > CACHED:
            dropped, _ = self._replays.popitem(last=False)
            self._reviews.pop(dropped, None)
        return replay

    async def may_share(self, replay: Replay, user_id: int) -> None:
        """Refused unless the user played the game or the server lets anyone share."""
        if replay.played_in(user_id):
            return
        if not (await self.servers.of(replay.guild_id)).replays_shared:
            raise ShareRefused(game=replay.game_id)

    async def review(self, replay: Replay) -> GameReview | None:
        """The coach's review of the game; None while it is made in the background."""
        known = self._reviews.get(replay.game_id)
        if known is not None:
            return known
        document = await self.store.game_review(replay.game_id)
        found = None if document is None else review_of(document)
        if found is not None:
            self._reviews[replay.game_id] = found
            return found
        if replay.game_id not in self._reviewing:
            self._reviewing.add(replay.game_id)
            # An older shape's document is replaced by the new review.
            self.spawn(self._review(replay, document), f"replay-review-{replay.game_id}")
        return None

    async def _review(self, replay: Replay, stale: str | None) -> None:
        try:
            async with self._worker:
                review = await asyncio.to_thread(review_game, replay.rules, replay.records)
            await self.store.set_game_review(replay.game_id, review_json(review), self.now(), stale)
            self._reviews[replay.game_id] = review
        finally:
            self._reviewing.discard(replay.game_id)
