"""A finished game is counted exactly once, also when the process dies between
the game's end (committed by the table service) and the commit of its counting."""

from __future__ import annotations

import time
from collections.abc import Coroutine, Sequence
from typing import Any, cast

import pytest
from discord.ext import commands

from bot.app import SpadesApp
from bot.config import Settings
from bot.stats.leaderboard import SortKey
from bot.stats.service import StatsService
from cogs.guilds import GuildGate
from cogs.leaderboard import LeaderboardCog
from cogs.outbox import Budget, Outbox
from cogs.threads import TableThreads
from db.sql import Statements
from db.stats_records import GameWrite
from db.stats_store import StatsStore
from db.store import Store
from tests.backends import Backend
from tests.shards.cores import RecordingNotifier
from tests.stats.games import counted_by

from .games import Tables, resign_after

PEOPLE = [10, 11, 12, 13]


class Died(BaseException):
    """The process ending in the middle of a write (no ``except Exception`` stops it)."""


class DyingStatsStore(StatsStore):
    """Writes every row of the counting, then dies before the commit."""

    async def _write_games(self, db: Statements, games: Sequence[GameWrite]) -> None:
        await super()._write_games(db, games)
        raise Died


async def after_a_restart(backend: Backend) -> tuple[Store, StatsService]:
    """The database as a new process finds it, with a new statistics service."""
    store = await backend.open()
    return store, StatsService(StatsStore(store))


async def assert_counted_once(stats: StatsService) -> None:
    assert await stats.catch_up() == 1
    assert await stats.catch_up() == 0  # running it again changes nothing
    found = [await stats.player_stats(1, user) for user in PEOPLE]
    assert all(s is not None and s.tally.games == 1 and s.rated_games == 1 for s in found)
    ratings = [s.rating for s in found if s is not None]
    assert min(ratings[0], ratings[2]) > max(ratings[1], ratings[3])  # seat 1 resigned
    board = await stats.leaderboard(1, SortKey.RATING)
    assert board.total == 4


async def test_a_game_whose_counting_never_ran_is_counted_once_after_a_restart(
    tables: Tables, stats: StatsService, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables.stop_counting()
    spawned: list[tuple[Coroutine[Any, Any, Any], str]] = []
    app = SpadesApp(
        Settings(),
        tables.service.store,
        tables.service,
        now=time.time,
        notifier=RecordingNotifier(),
    )
    monkeypatch.setattr(app, "spawn", lambda coro, name: spawned.append((coro, name)))
    outbox = Outbox(app.now, Budget(0, 0), spawn=app.spawn)
    bot = cast(commands.Bot, object())
    threads = TableThreads(bot, app, outbox, GuildGate(bot))
    cog = LeaderboardCog(bot, app, outbox, threads, table_shown=_no_table_messages)
    app.subscribe(cog.on_change)
    table = await tables.play(1, PEOPLE, scenario=resign_after(0, seat=1))
    # The change that ended the game was answered without waiting for the counting.
    assert [name for _, name in spawned] == [f"count-game-{table.id}"]
    assert await stats.player_stats(1, PEOPLE[0]) is None
    for coro, _ in spawned:
        coro.close()  # the process died before the counting ran
    store, restarted = await after_a_restart(backend)
    try:
        await assert_counted_once(restarted)
    finally:
        await store.close()


async def test_a_counting_cut_off_before_its_commit_is_counted_once_after_a_restart(
    tables: Tables, store: Store, backend: Backend
) -> None:
    tables.stop_counting()
    table = await tables.play(1, PEOPLE, scenario=resign_after(0, seat=1))
    dying = StatsService(DyingStatsStore(store))
    with pytest.raises(Died):
        await counted_by(dying)(table, "resign")
    assert await dying.player_stats(1, PEOPLE[0]) is None  # nothing of it was kept
    restarted_store, restarted = await after_a_restart(backend)
    try:
        await assert_counted_once(restarted)
    finally:
        await restarted_store.close()


async def _no_table_messages(_table_id: int) -> None:
    """No presenter here: no table message to wait for."""
