"""A table message two hours old, under Discord's cap on edits of old
messages (tests/discord/edit_cap.py), answered with a 429 and with a 400.

One person and three computer players play two hands and deal a third. After
every move the table message shows the latest state within 10 s of SimCord's
clock; Next hand is always there to press; and the person's hand is kept
live throughout, so they never press My hand for it again. With the edits
paced (the default) the cap refuses none; with pacing turned off it refuses
some, and each refusal posts the table message again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import discord
import pytest

from bot.config import DiscordSettings, Settings
from bot.game.types import Phase
from bot.tables.model import Table
from tests.discord.conftest import fast_settings
from tests.discord.edit_cap import EditCap, posted_earlier
from tests.discord.harness import World, components_of

# Sleeps longer than half a second wait for advance_time, not for the wall clock.
pytestmark = pytest.mark.simcord(settle_timeout=0.5)

TWO_HOURS_S = 2 * 3600.0
#: The table message shows the latest state within this long of a move.
CATCH_UP_S = 10.0
STEP_S = 0.5
VERSION = re.compile(r"spades:[a-z_]+:(\d+):(\d+)")

PACED = DiscordSettings()  # the defaults: old messages' edits paced below the cap
UNPACED_OLD = DiscordSettings(old_message_edits=0)  # the cap meets every burst


@pytest.fixture
def settings(tmp_path: Path, discord_settings: DiscordSettings) -> Settings:
    return fast_settings(tmp_path / "spades.db").model_copy(update={"discord": discord_settings})


def shown_version(world: World, table_id: int) -> int:
    """The table version the newest table message was drawn at (from its buttons)."""
    ids = json.dumps(components_of(world.table_message()))
    return max((int(v) for t, v in VERSION.findall(ids) if int(t) == table_id), default=0)


async def solo_table(world: World) -> Table:
    """alice and three computer players, their table message two hours old."""
    alice = world.user("alice")
    with posted_earlier(world.env, TWO_HOURS_S):
        await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.env.advance_time(2)
    posted = discord.utils.snowflake_time(world.table_message().id).timestamp()
    assert world.env.now().timestamp() - posted > 3600
    await world.click(alice, "Start")
    return await world.table()


async def caught_up(world: World, table_id: int) -> float:
    """Move the clock until the table message shows the table's latest
    version; the seconds it took."""
    waited = 0.0
    while True:
        latest = (await world.table_any()).version
        if shown_version(world, table_id) == latest:
            return waited
        assert waited < CATCH_UP_S, f"table message at {shown_version(world, table_id)} of {latest}"
        await world.env.advance_time(STEP_S)
        waited += STEP_S


async def play_two_hands(world: World, table_id: int) -> list[float]:
    """Play until the third hand is dealt; how long the table message took
    to catch up after each move."""
    alice = world.user("alice")
    lags = [await caught_up(world, table_id)]
    for _ in range(200):
        table = await world.table_any()
        game = table.game
        assert game is not None
        if len(game.hand_records) >= 2 and game.phase is not Phase.HAND_OVER:
            return lags
        if game.phase is Phase.HAND_OVER:
            await world.click(alice, "Next hand")  # on the table message: it must be there
        else:
            await world.act(table)
        lags.append(await caught_up(world, table_id))
    raise AssertionError("two hands were not played")


@pytest.mark.parametrize("status", [429, 400])
@pytest.mark.parametrize("discord_settings", [PACED, UNPACED_OLD], ids=["paced", "unpaced"])
async def test_a_table_message_past_the_edit_cap_keeps_up_and_every_hand_is_dealt(
    world: World, status: int, discord_settings: DiscordSettings
) -> None:
    cap = EditCap(world.env, status=status)
    with cap.applied():
        table = await solo_table(world)
        lags = await play_two_hands(world, table.id)
        await world.env.advance_time(CATCH_UP_S)
    assert max(lags) <= CATCH_UP_S
    assert world.hands_opened == 1  # the first look; every later hand was kept live
    assert cap.passed > 0  # the two-hour-old message was edited
    if discord_settings.old_message_edits:
        assert cap.refused == 0  # paced below the cap
    else:
        assert cap.refused > 0
        # Each refusal posted the table message again; the old ones are gone.
        tables = [m for m in world.channel.history() if m.embeds]
        assert len(tables) == 1
    world.env.raise_errors()
