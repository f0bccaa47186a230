"""A sharded bot in a simulated Discord: it connects its shards only, and its
games there play to the end by clicking.

SimCord runs one live client per event loop ("Only one live Env is supported
per event loop"), so two bots of disjoint shards take turns here over one
database; tests/shards runs them at once (application cores in one process,
and real processes).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import discord
import simcord

from bot.config import Settings
from bot.discord_app import ShardedSpadesBot, SpadesBot, bot_class
from bot.shards import shard_of
from bot.tables.model import TableStatus
from tests.discord.conftest import fast_settings
from tests.discord.harness import UNPACED, World, finished


def shard_settings(db: Path, shard: int) -> Settings:
    discord_settings = UNPACED.model_copy(update={"shard_count": 2, "shard_ids": (shard,)})
    return fast_settings(db).model_copy(update={"discord": discord_settings})


def bot_maker(db: Path, shard: int, made: list[SpadesBot]) -> Callable[[], SpadesBot]:
    settings = shard_settings(db, shard)
    seeds = itertools.count(1 + 1000 * shard)

    def make() -> SpadesBot:
        bot = bot_class(settings)(settings, seed_source=lambda: next(seeds))
        made.append(bot)
        return bot

    return make


async def world_on_shard(env: simcord.Env, make: Callable[[], SpadesBot], shard: int) -> World:
    """A world whose server and channel are on ``shard``; the bot is in a
    server of the other shard too."""
    world = World(env, make)
    world.guild = env.create_guild(f"Shard {shard} club", shard_id=shard)
    world.channel = world.guild.create_text_channel("spades")
    env.create_guild("Across the hall", shard_id=1 - shard)
    await world.sync()
    return world


async def test_each_shards_bot_serves_its_servers_and_plays_there(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    made: list[SpadesBot] = []
    try:
        make_first = bot_maker(db, 0, made)
        async with simcord.run(make_first()) as env:
            world = await world_on_shard(env, make_first, 0)
            bot = world.bot
            assert isinstance(bot, ShardedSpadesBot)
            assert isinstance(bot, discord.AutoShardedClient)
            assert (bot.shard_count, bot.shard_ids) == (2, [0])
            assert {shard_of(g.id, 2) for g in bot.guilds} == {0}
            alice = world.user("alice")
            await world.new_table(alice, target=250)
            await world.click(alice, "Add computer players")
            await world.click(alice, "Start")
            ended = await world.play_until(finished)
            assert ended.result is not None
            # A second game stays unfinished when this process stops.
            await world.click(alice, "Rematch: same teams")
            left = await world.play_until(lambda t: t.version >= ended.version + 20)
            assert left.status is TableStatus.PLAYING

        make_second = bot_maker(db, 1, made)
        async with simcord.run(make_second()) as env:
            world = await world_on_shard(env, make_second, 1)
            app = world.bot.app
            # The other shard's table is not this process's to resume.
            assert await app.tables.unfinished() == []
            bob = world.user("bob")
            await world.new_table(bob, target=250)
            await world.click(bob, "Add computer players")
            await world.click(bob, "Start")
            theirs = await world.play_until(finished)
            assert theirs.result is not None and theirs.guild_id == world.guild.id
            assert [t.id for t in await app.tables.unfinished()] == []
            stored = await world.bot.store.load_table(left.id)
            assert stored is not None and stored.version == left.version  # untouched
    finally:
        for bot in made:
            if hasattr(bot, "store"):
                await bot.store.close()
