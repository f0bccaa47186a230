"""Two processes with disjoint shards over one store: each resumes, plays and
counts the tables of its own shards' servers, and refuses the others'."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import Origin
from bot.refusals import OtherShard
from bot.stats.leaderboard import SortKey
from bot.tables.model import TableStatus
from tests.service.driver import GUESTS, HOST, Chooser

from .cores import GUILDS, Now, open_core, play_to_end, started_table


async def test_each_process_resumes_and_plays_its_own_shards_tables(store_location: str) -> None:
    now = Now()
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        mine = await started_table(first.tables, GUILDS[0], 100)
        theirs = await started_table(second.tables, GUILDS[1], 200)
        movers = [Chooser(1), Chooser(2)]
        for _ in range(30):  # both tables part-way into their game
            mine = await movers[0].step(first.tables, mine)
            theirs = await movers[1].step(second.tables, theirs)
    finally:
        await first.close()
        await second.close()

    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        assert [(t.id, t.version) for t in await first.tables.unfinished()] == [
            (mine.id, mine.version)
        ]
        assert [(t.id, t.version) for t in await second.tables.unfinished()] == [
            (theirs.id, theirs.version)
        ]
        ended = await asyncio.gather(
            play_to_end(first.tables, mine, 3), play_to_end(second.tables, theirs, 4)
        )
        assert [t.status for t in ended] == [TableStatus.FINISHED] * 2
        for core, table in ((first, ended[0]), (second, ended[1])):
            log = await core.store.action_log(table.id)
            assert [e.seq for e in log] == list(range(1, table.version + 1))
    finally:
        await first.close()
        await second.close()


async def test_another_shards_table_is_refused_and_nothing_changes(store_location: str) -> None:
    now = Now()
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        theirs = await started_table(second.tables, GUILDS[1], 200)
        before = await first.store.load_open_tables()
        with pytest.raises(OtherShard):
            await first.tables.create(GUILDS[1], 201, HOST)
        with pytest.raises(OtherShard):
            await first.app.table_for(theirs.id, Origin(GUILDS[1], 200))
        assert theirs.game is not None
        seat = theirs.game.waited_on()
        assert seat is not None
        user = theirs.seats[seat].user_id
        assert user is not None
        with pytest.raises(OtherShard):
            await first.tables.bid(theirs.id, user, 3, theirs.version)
        with pytest.raises(OtherShard):
            await first.tables.join(theirs.id, GUESTS[0] + 50, theirs.version)
        # Nothing was written, and the owner's table is as it was.
        after = await first.store.load_open_tables()
        assert [(r.id, r.version) for r in after] == [(r.id, r.version) for r in before]
        assert (await second.tables.get(theirs.id)).version == theirs.version
        assert await first.tables.unfinished() == []
        assert not await first.app.serves_table(theirs.id)
        assert await second.app.serves_table(theirs.id)
    finally:
        await first.close()
        await second.close()


async def test_finished_games_are_counted_by_their_shards_process_once(
    store_location: str,
) -> None:
    """Games that ended uncounted (the processes ran without statistics)
    are each counted by their own shard's process, and every process then
    reads the same ratings and leaderboards of every server."""
    now = Now()
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        await asyncio.gather(
            play_to_end(first.tables, await started_table(first.tables, GUILDS[0], 100), 5),
            play_to_end(second.tables, await started_table(second.tables, GUILDS[1], 200), 6),
        )
    finally:
        await first.close()
        await second.close()

    first = await open_core(store_location, "0", now)
    second = await open_core(store_location, "1", now)
    try:
        assert await first.app.stats.catch_up() == 1
        assert await second.app.stats.catch_up() == 1
        assert await first.app.stats.catch_up() == 0
        assert await second.app.stats.catch_up() == 0
        for guild in GUILDS:
            boards = [
                await core.app.stats.leaderboard(guild, SortKey.RATING) for core in (first, second)
            ]
            assert boards[0] == boards[1]
            assert boards[0].total == 4
            players = [await core.app.stats.player_stats(guild, HOST) for core in (first, second)]
            assert players[0] == players[1] and players[0] is not None
            assert players[0].tally.games == 1
    finally:
        await first.close()
        await second.close()
