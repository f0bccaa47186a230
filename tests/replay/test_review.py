"""The coach's review of a game: computed once in the background, stored,
then read back by every later viewer (another process too)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from typing import Any

from benchmarks.leaderboard import fill, make_servers, play_pool
from bot.coach.review import MIN_COST, review_hand
from bot.replay.frames import replay_of
from bot.replay.review import GameReview, review_game, review_json, review_of
from bot.replay.service import ReplayService
from bot.servers import ServerSettingsService
from bot.stats.service import StatsService
from db.stats_store import StatsStore
from db.store import Store
from tests.backends import Backend
from tests.replay.games import finished, played_game


class Spawned:
    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []

    def __call__(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self.tasks.append(task)
        return task


def service(store: Store, spawned: Spawned) -> ReplayService:
    stats = StatsService(StatsStore(store))
    return ReplayService(
        store, stats, ServerSettingsService(store, lambda: 0.0), lambda: 5.0, spawned
    )


def test_the_marks_are_each_seats_costliest_card_of_each_hand() -> None:
    game = played_game("standard", seed=3)
    replay = replay_of(finished(game))
    review = review_game(replay.rules, replay.records)
    marks = review.cards
    expected = [
        (record.hand, seat, mistake.trick, mistake.played, mistake.better, mistake.points)
        for record in game.hand_records
        for seat in range(4)
        if (mistake := review_hand(game.rules, record, seat).mistake) is not None
    ]
    assert [(m.hand, m.seat, m.trick, m.played, m.better, m.points) for m in marks] == expected
    assert marks and all(m.points > 0 for m in marks)
    assert review.bids and all(m.points >= MIN_COST for m in review.bids)
    assert review_of(review_json(review)) == review
    assert review_of('{"version": 99, "marks": [], "bids": []}') is None
    assert review_of('{"version": 1, "marks": []}') is None  # before bids were reviewed
    assert review_of("not json") is None


async def test_a_review_is_computed_once_and_stored(backend: Backend) -> None:
    replay = replay_of(finished(played_game("standard", seed=3)))
    store = await backend.open()
    try:
        assert await store.game_place(replay.game_id) is None  # no such game
        assert await store.game_review(replay.game_id) is None
        spawned = Spawned()
        first = service(store, spawned)
        assert await first.review(replay) is None  # under way
        assert await first.review(replay) is None  # still: not started twice
        assert len(spawned.tasks) == 1
        await asyncio.gather(*spawned.tasks)
        review = await first.review(replay)
        assert review is not None and review == review_game(replay.rules, replay.records)
        stored = await store.game_review(replay.game_id)
        assert stored is not None and review_of(stored) == review
        # A second writer (another process) leaves the first review in place.
        await store.set_game_review(replay.game_id, review_json(GameReview([], [])), 9.0)
        assert await store.game_review(replay.game_id) == stored
        # Another process (or a restart) reads it from the store.
        again = Spawned()
        assert await service(store, again).review(replay) == review
        assert again.tasks == []
    finally:
        await store.close()


async def test_a_game_is_placed_on_its_server_and_known_over_or_not(backend: Backend) -> None:
    rng = random.Random(1)
    store = await backend.open()
    try:
        servers = make_servers(1, rng)
        await fill(store, servers, play_pool(1, 0), 1, rng)
        guild = servers[0].guild_id
        assert await store.game_place(1) == (guild, True)
        async with store.transaction() as db:
            await db.execute("UPDATE games SET ended_at = NULL WHERE id = ?", (1,))
        assert await store.game_place(1) == (guild, False)
        assert await store.game_place(2) is None
    finally:
        await store.close()


async def test_a_review_of_an_older_shape_is_redone_and_replaced(backend: Backend) -> None:
    replay = replay_of(finished(played_game("standard", seed=3)))
    old = '{"version": 1, "marks": []}'  # stored before bids were reviewed
    store = await backend.open()
    try:
        await store.set_game_review(replay.game_id, old, 1.0)
        spawned = Spawned()
        first = service(store, spawned)
        assert await first.review(replay) is None  # redone, in the background
        await asyncio.gather(*spawned.tasks)
        review = await first.review(replay)
        assert review is not None and review.bids
        stored = await store.game_review(replay.game_id)
        assert stored is not None and review_of(stored) == review
        # A writer that read the old document too finds it replaced: the first stays.
        await store.set_game_review(replay.game_id, review_json(GameReview([], [])), 9.0, old)
        assert await store.game_review(replay.game_id) == stored
    finally:
        await store.close()
