"""The turn clock's messages within the [discord] REST budget: reminders of
tables that come due together are spaced out like every other request, a
table's newer message replaces one still waiting, and the computer players
move on time while reminders wait.

Every table here starts in the same fake instant, so their reminders (one a
minute into the turn, one a second later) come due together.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import simcord
from simcord import MemberActor

from bot.clock import ClockSettings
from bot.config import DiscordSettings, Settings
from bot.game.types import Phase
from bot.tables.model import Table
from tests.discord.conftest import fast_settings
from tests.discord.harness import World
from tests.discord.test_coalescing import EPSILON, StampedRequests, stamp, table_writes

# Sleeps longer than half a second wait for advance_time, not for the wall clock.
pytestmark = pytest.mark.simcord(settle_timeout=0.5)

BUDGET = DiscordSettings(table_edits_per_channel_s=1, rest_per_s=0.5)  # a request every 2 s
GAP_S = 1 / BUDGET.rest_per_s
REMINDERS_S = (60.0, 61.0)
WAITING = "is waiting for you to"
TABLES = 5


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    clock = ClockSettings(
        computer_delay_s=1.0,
        notice_after_s=REMINDERS_S,
        notice_at_fractions=(),
        notice_before_s=(),
        min_notice_gap_s=0,
    )
    return fast_settings(tmp_path / "spades.db", computer_delay_s=1.0).model_copy(
        update={"discord": BUDGET, "clock": clock}
    )


async def step(world: World, seconds: int) -> None:
    """A second at a time: each step must settle within the settle timeout."""
    for _second in range(seconds):
        await world.env.advance_time(1)


async def table_in(world: World, channel: simcord.ChannelHandle) -> Table:
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None
    return table


async def posted(world: World, channel: simcord.ChannelHandle) -> None:
    """Move on until the channel has its table message."""
    for _second in range(60):
        if any(m.embeds for m in channel.history()):
            return
        await world.env.advance_time(1)
    raise AssertionError("the table message was never posted")


async def started_together(world: World, *, solo: bool = False) -> list[simcord.ChannelHandle]:
    """Tables of four people in channels of their own (and, with ``solo``,
    one person with three computer players in the world's channel), all
    started in one instant."""
    channels = [world.guild.create_text_channel(f"spades-{n}") for n in range(TABLES)]
    hosts: dict[int, MemberActor] = {}
    for channel in channels:
        people = [world.user(f"p{channel.id}-{seat}") for seat in range(4)]
        hosts[channel.id] = people[0]
        # In the channel, where reminders() looks (tests/discord/test_threads.py
        # has tables talking in threads).
        await people[0].slash(channel, "spades new", turn_limit=5, thread=False)
        await posted(world, channel)
        for person in people[1:]:
            await world.click(person, "Join", world.table_message(channel))
    if solo:
        await world.new_table(world.user("solo"), turn_limit=5, thread=False)
        await posted(world, world.channel)
        await world.click(world.user("solo"), "Add computer players")
    await step(world, 30)  # every change shown
    for channel in channels:
        await world.click(hosts[channel.id], "Start", world.table_message(channel))
    if solo:
        await world.click(world.user("solo"), "Start")
    return channels


def reminders(log: StampedRequests, since: int, channel_id: int) -> list[tuple[float, str]]:
    """The reminders posted in a channel: when, and their text."""
    path = f"/channels/{channel_id}/messages"
    posted = [
        (at, str((entry.json or {}).get("content")))
        for entry, at in zip(log[since:], log.at[since:], strict=True)
        if entry.method == "POST" and entry.path == path
    ]
    return [(at, text) for at, text in posted if WAITING in text]


async def test_reminders_due_together_go_out_within_the_budget_newest_first(
    world: World,
) -> None:
    log = stamp(world)
    channels = await started_together(world)
    started = world.env.now().timestamp()
    since = len(log)
    await step(world, int(REMINDERS_S[0]) - 1)
    assert all(reminders(log, since, c.id) == [] for c in channels)
    await step(world, 30)

    sent = {c.id: reminders(log, since, c.id) for c in channels}
    # The first reminder that came due went out at once; before its
    # replacement came due a second later, the others were still waiting
    # for their turn: each of those tables got the newer one only.
    twice = [c for c, said in sent.items() if len(said) == 2]
    assert len(twice) == 1
    assert all(len(said) == 1 for c, said in sent.items() if c not in twice)
    first = sent[twice[0]][0]
    assert first[0] == pytest.approx(started + REMINDERS_S[0], abs=0.5)
    assert "4 minutes left" in first[1]
    assert all("3 minutes left" in said[-1][1] for said in sent.values())
    # Every request of the bot, reminders too, kept to the budget.
    writes = table_writes(log, since)
    assert all(b - a >= GAP_S - EPSILON for a, b in itertools.pairwise(sorted(writes)))
    # The budget held some back: one reminder every 2 s at most.
    instants = sorted(at for said in sent.values() for at, _text in said)
    assert instants[-1] - instants[0] >= (len(instants) - 1) * GAP_S - EPSILON


async def test_computer_players_move_on_time_while_reminders_wait(world: World) -> None:
    log = stamp(world)
    channels = await started_together(world, solo=True)
    # The solo table's person keeps it waiting past the reminders' instants
    # (the computer players bidding before them moved a second apart).
    await step(world, int(REMINDERS_S[1]) + 1)
    table = await world.table()
    assert table.game is not None and table.game.phase is Phase.BIDDING
    seat = table.game.waited_on()
    assert seat is not None and table.seats[seat].user_id == world.user("solo").id
    moves_before = len(table.game.actions)
    await world.act(table)
    await step(world, 4)  # the computer players after them move, a second each
    table = await world.table()
    assert table.game is not None
    computer_moves = len(table.game.actions) - moves_before - 1
    assert computer_moves == 3  # all of them, the person waited on again
    assert table.seats[table.game.waited_on() or 0].user_id == world.user("solo").id
    # Meanwhile the reminders of the other tables were still going out.
    out = sum(len(reminders(log, 0, c.id)) for c in channels)
    assert 0 < out < TABLES
    await step(world, 20)
    assert sum(len(reminders(log, 0, c.id)) for c in channels) >= TABLES
