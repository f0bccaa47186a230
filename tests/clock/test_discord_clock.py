"""The turn clock inside the real bot, on SimCord's virtual clock: mentions at
the reminder points, the claim announcement, ``/spades claim`` and a restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.clock.turn_clock import TurnClock
from bot.config import DatabaseSettings, HealthSettings, Settings, TableSettings
from bot.discord_app import SpadesBot
from bot.game.refusals import ClaimRefused
from bot.game.types import Phase
from tests.clock.world import pending_of
from tests.discord.harness import UNPACED, World

HOUR = 3600

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord=UNPACED,
        database=DatabaseSettings(path=tmp_path / "spades.db"),
        tables=TableSettings(computer_delay_s=0.0, turn_ping=False),
        # A heartbeat every 30 virtual seconds would make days of time slow to pass.
        health=HealthSettings(heartbeat_every_s=30 * 24 * HOUR, stale_after_s=60 * 24 * HOUR),
    )


@pytest.fixture
async def world(simcord_env: simcord.Env, make_bot: Callable[[], SpadesBot]) -> World:
    """The SimCord world (tests/clock's own ``world`` fixture is the table
    service without Discord)."""
    world = World(simcord_env, make_bot)
    await world.sync()
    return world


def clock_messages(world: World) -> list[discord.Message]:
    return [m for m in world.talk().history() if not m.embeds and "table" in m.content]


async def started_table(world: World) -> tuple[list[simcord.MemberActor], int]:
    users = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(users[0], *users[1:], turn_limit=2880)
    await world.click(users[0], "Start")
    table = await world.table()
    assert table.game is not None
    late = table.game.waited_on()
    assert late is not None
    return users, late


async def test_reminders_claim_announcement_and_claim(world: World) -> None:
    users, late = await started_table(world)
    late_user, partner = users[late], users[(late + 2) & 3]
    opponent = users[(late + 1) & 3]
    await world.env.advance_time(24 * HOUR - 1)
    assert clock_messages(world) == []
    await world.env.advance_time(1)
    [reminder] = clock_messages(world)
    assert reminder.content.startswith(f"{late_user.mention}, table ")
    assert "24 h" in reminder.content or "24 hours" in reminder.content
    assert [u.id for u in reminder.mentions] == [late_user.id]

    early = await opponent.slash(world.channel, "spades claim")
    assert early.ephemeral and early.response is not None
    assert "has not passed yet" in early.response.content
    simcord.assert_error(world.env, ClaimRefused, contains="has not passed yet")

    await world.env.advance_time(24 * HOUR + 1)
    announcement = clock_messages(world)[-1]
    assert late_user.mention in announcement.content
    assert opponent.mention in announcement.content and "/spades claim" in announcement.content

    refused = await partner.slash(world.channel, "spades claim")
    assert refused.ephemeral and refused.response is not None
    assert "other team" in refused.response.content
    simcord.assert_error(world.env, ClaimRefused, contains="other team")
    claimed = await opponent.slash(world.channel, "spades claim")
    assert not claimed.ephemeral and claimed.response is not None
    assert "claimed the win" in claimed.response.content
    table = await world.table_any()
    assert table.status.value == "finished"
    assert table.result is not None and table.result.reason.value == "timeout"


async def test_restart_between_arming_and_firing(world: World) -> None:
    users, late = await started_table(world)
    await world.env.advance_time(12 * HOUR)
    # SimCord detaches the old client without closing it: close its database
    # connection as the end of the process would, or the new one cannot open.
    await world.bot.store.close()
    await world.restart()
    await world.env.advance_time(12 * HOUR)
    [reminder] = clock_messages(world)
    assert reminder.content.startswith(f"{users[late].mention}, table ")


def turn_clock(world: World) -> TurnClock:
    return world.bot.app.clock


async def test_computer_players_move_through_the_turn_clock(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    await world.env.advance_time(1)
    table = await world.table()
    assert table.game is not None and table.game.waited_on() == 0
    assert [a.seat for a in table.game.actions] == [1, 2, 3]
    # They were moved by the scheduler's deadlines (the interim driver stepped aside).
    assert turn_clock(world).scheduler.fired_count == 3
    table = await world.play_until(lambda t: t.game is not None and t.game.phase is Phase.HAND_OVER)
    assert table.game is not None and len(table.game.hand_records) == 1
    assert pending_of(turn_clock(world).scheduler, table.id) == []


async def test_a_computer_stands_in_until_the_late_player_opens_their_hand(world: World) -> None:
    users, late = await started_table(world)
    table = await world.table()
    await turn_clock(world).set_stand_in(table.id, True)
    await world.env.advance_time(48 * HOUR + 1)
    stood = clock_messages(world)[-1]
    assert stood.content.startswith(f"{users[late].mention} is past the turn limit")
    table = await world.table()
    assert table.game is not None and [a.seat for a in table.game.actions] == [late]
    assert turn_clock(world).view(await world.table()).away_seats == {late}
    await world.my_hand(users[late])
    assert turn_clock(world).view(await world.table()).away_seats == frozenset()
