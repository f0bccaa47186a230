"""A table message two hours old, under Discord's cap on edits of old
messages (tests/discord/edit_cap.py), answered with a 429 and with a 400.

One person and three computer players play two hands (and deal a third,
unless the game is over by then). After
every move the table message shows the latest state within 10 s of SimCord's
clock; Next hand is always there to press; and the person's hand is kept
live throughout, so they never press My hand for it again. With the edits
paced (the default) the cap refuses none; with pacing turned off it refuses
some, and each refusal posts the table message again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DiscordSettings, Settings
from bot.game.types import Phase
from tests.discord.conftest import fast_settings
from tests.discord.edit_cap import EditCap, caught_up, play_hands, shown_version, solo_table
from tests.discord.harness import World, buttons_of

# Sleeps longer than half a second wait for advance_time, not for the wall clock.
pytestmark = pytest.mark.simcord(settle_timeout=0.5)

#: The table message shows the latest state within this long of a move.
CATCH_UP_S = 10.0

PACED = DiscordSettings()  # the defaults: old messages' edits paced below the cap
UNPACED_OLD = DiscordSettings(old_message_edits=0)  # the cap meets every burst


@pytest.fixture
def settings(tmp_path: Path, discord_settings: DiscordSettings) -> Settings:
    return fast_settings(tmp_path / "spades.db").model_copy(update={"discord": discord_settings})


@pytest.mark.parametrize("status", [429, 400])
@pytest.mark.parametrize("discord_settings", [PACED, UNPACED_OLD], ids=["paced", "unpaced"])
async def test_a_table_message_past_the_edit_cap_keeps_up_and_every_hand_is_dealt(
    world: World, status: int, discord_settings: DiscordSettings
) -> None:
    cap = EditCap(world.env, status=status)
    with cap.applied():
        table = await solo_table(world)
        play = await play_hands(world, table.id, hands=2, limit_s=CATCH_UP_S)
        await world.env.advance_time(CATCH_UP_S)
    assert None not in play.lags  # each move shown within CATCH_UP_S
    assert not play.stuck and play.hands_dealt >= 2  # two hands, or the whole game
    assert play.extra_hand_presses == 0  # every later hand was kept live
    assert cap.passed > 0  # the two-hour-old message was edited
    if discord_settings.old_message_edits:
        assert cap.refused == 0  # paced below the cap
    else:
        assert cap.refused > 0
        # Each refusal posted the table message again; the old ones are gone.
        tables = [m for m in world.channel.history() if m.embeds]
        assert len(tables) == 1
    world.env.raise_errors()


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
@pytest.mark.parametrize("discord_settings", [PACED])
async def test_a_refused_table_edit_holds_up_neither_the_hand_nor_the_turn_notice(
    world: World,
) -> None:
    alice = world.user("alice")
    table = await solo_table(world)
    assert await caught_up(world, table.id, CATCH_UP_S) is not None
    message = world.table_message()
    await world.my_hand(alice)
    # Every edit of the table message is refused from now on (a rate limit).
    world.env.inject_error("PATCH", f"/channels/*/messages/{message.id}", status=429, times=None)
    await world.act(await world.table())  # alice bids; the computer players follow
    await world.env.advance_time(1)
    table = await world.table()
    assert table.game is not None and table.game.phase is Phase.PLAYING
    assert table.seats[table.game.waited_on() or 0].user_id == alice.id
    assert shown_version(world, table.id) < table.version  # the table message is behind
    # Yet her hand shows her turn, and she is told.
    hand = world.message(world.hand_ids[alice.id])
    assert any(not button.disabled for button in buttons_of(hand))
    notices = [m.content for m in world.talk().history() if f"<@{alice.id}>" in m.content]
    assert notices and "your turn to play" in notices[-1]
    # Refused edits are tried again, with the latest state, until one is taken.
    world.env.backend.faults.clear()
    assert await caught_up(world, table.id, CATCH_UP_S) is not None
    await world.act(table)  # from the hand she already has
    assert world.hands_opened == 1
