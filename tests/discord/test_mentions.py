"""First turn notices at many tables: behind the table messages in the REST
budget, yet all sent, and after a restart one line for every table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import simcord

from bot.config import DiscordSettings, Settings
from bot.tables.model import Table
from tests.discord.conftest import fast_settings
from tests.discord.harness import World
from tests.discord.test_coalescing import most_within, stamp

# Sleeps longer than half a second wait for advance_time, not for the wall clock.
# No press leaves a token here: every request rides the bot's budget, whose
# order this file is about.
pytestmark = [pytest.mark.simcord(settle_timeout=2.0), pytest.mark.usefixtures("no_fresh_tokens")]

PING_DELAY = 30.0
TABLES = 6
#: One request a second, and no spacing per channel: the shared budget alone
#: decides which request goes first.
BUDGET = DiscordSettings(rest_per_s=1.0, table_edits_per_channel_s=0)


@pytest.fixture
def table_settings() -> dict[str, object]:
    return {"turn_ping_delay_s": PING_DELAY}


@pytest.fixture
def settings(tmp_path: Path, table_settings: dict[str, object]) -> Settings:
    paced = fast_settings(tmp_path / "spades.db", **table_settings)
    return paced.model_copy(update={"discord": BUDGET})


async def advance(world: World, seconds: int) -> None:
    for _second in range(seconds):  # a second at a time: each must settle in 0.5 s
        await world.env.advance_time(1)


async def table_in(world: World, channel: simcord.ChannelHandle) -> Table:
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None and table.game is not None
    return table


async def bidding_tables(world: World) -> list[simcord.ChannelHandle]:
    """Tables in their own channels, bidding begun, each with its mention."""
    channels = [world.guild.create_text_channel(f"spades-{n}") for n in range(TABLES)]
    for channel in channels:
        people = [world.user(f"p{channel.id}-{seat}") for seat in range(4)]
        # In the channel, where these tests count the mentions.
        await people[0].slash(channel, "spades new", thread=False)
        await advance(world, 2)
        for person in people[1:]:
            await world.click(person, "Join", world.table_message(channel))
            await advance(world, 2)
        await world.click(people[0], "Start", world.table_message(channel))
        await advance(world, 2)
    await advance(world, int(PING_DELAY) + 2 * TABLES)
    for channel in channels:
        assert len(mentions_in(channel)) == 1
    return channels


async def bid(world: World, channel: simcord.ChannelHandle) -> None:
    table = await table_in(world, channel)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    person = world.by_id(table.seats[seat].user_id or 0)
    # /spades hand, not My hand: a press on the table message would leave a
    # token serving its edits and notices off the budget this file is about.
    opened = await person.slash(channel, "spades hand")
    assert opened.ephemeral and opened.response is not None
    await person.click(opened.response, label="3")


def mentions_in(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.history() if "your turn" in m.content]


async def test_table_edits_go_ahead_of_turn_mentions_which_still_all_go_out(
    world: World,
) -> None:
    channels = await bidding_tables(world)
    log = stamp(world)
    for channel in channels:  # one bid each, shown a second apart
        await bid(world, channel)
    # The next bidders' mentions came due a second apart too, but each is
    # two requests (delete the last one, post the new one): now they are
    # behind. While they wait for their turns, everyone bids again.
    await advance(world, int(PING_DELAY) + TABLES - 1)
    since = len(log)
    burst = world.env.now().timestamp()
    for channel in channels:
        await bid(world, channel)
    await advance(world, int(PING_DELAY) + 4 * TABLES)

    edits = [
        at
        for entry, at in zip(log[since:], log.at[since:], strict=True)
        if entry.method == "PATCH" and entry.path.startswith("/channels/")
    ]
    assert len(edits) == TABLES
    # The edits waited behind one mention request at most: a second each,
    # the first at the second turn from now (old code: behind every table's).
    assert max(edits) - burst <= TABLES + 1
    # The mentions all went out in the end: one per table, for the person it waits on.
    for channel in channels:
        table = await table_in(world, channel)
        assert table.game is not None
        waited_on = table.seats[table.game.waited_on() or 0].user_id
        assert mentions_in(channel) == [f"<@{waited_on}>, your turn to bid at table {table.id}."]
    channel_writes = [
        at
        for entry, at in zip(log, log.at, strict=True)
        if entry.method in ("POST", "PATCH", "DELETE") and entry.path.startswith("/channels/")
    ]
    assert most_within(channel_writes, 1 / BUDGET.rest_per_s) == 1


async def test_after_a_restart_the_tables_mentions_wait_in_one_line(world: World) -> None:
    channels = await bidding_tables(world)
    told = {channel.id: mentions_in(channel) for channel in channels}
    await bid(world, channels[0])  # at once: the old bot stops before mentioning
    await world.restart()

    # One task waits for every table's notice, however many tables there are:
    # the outbox's sender (each request in flight has a task only while it is sent).
    waiting = [t for t in asyncio.all_tasks() if t.get_name().startswith("outbox")]
    assert [t.get_name() for t in waiting] in ([], ["outbox"]), [t.get_name() for t in waiting]
    assert len(world.bot.outbox) >= len(channels) - 1  # they wait in it
    await advance(world, int(PING_DELAY) + 2 * TABLES)
    # People told before the restart are not told again; the table whose
    # turn moved on mentions the next person instead.
    for channel in channels[1:]:
        assert mentions_in(channel) == told[channel.id]
    moved = await table_in(world, channels[0])
    assert moved.game is not None
    waited_on = moved.seats[moved.game.waited_on() or 0].user_id
    assert mentions_in(channels[0]) == [f"<@{waited_on}>, your turn to bid at table {moved.id}."]
