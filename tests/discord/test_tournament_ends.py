"""What a tournament's decisions and end do to its tables and its results
channel: a decided or cancelled match's table ends, a match table offers no
rematch, the final standings reach the results channel once across a restart."""

from __future__ import annotations

import pytest
from simcord import assert_error

from bot.game import EndReason
from cogs.errors import InteractionRefused
from tests.discord.harness import World
from tests.discord.tournament_harness import final_under_way

pytestmark = pytest.mark.simcord(settle_timeout=2.0)


async def test_a_decision_ends_the_match_table_in_play(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    answer = await cup.organizer.slash(
        world.channel,
        "spades tournament decide",
        match=playing.number,
        winner=playing.b,
        reason="their table lost its connection",
    )
    assert answer.response is not None and "goes to team" in answer.response.content
    state = cup.state()
    assert state.phase == "over" and state.champion == playing.b
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "finished" and table.result is not None
    assert table.result.reason is EndReason.MODERATOR
    assert table.result.note == "their table lost its connection"
    assert table.result.winner is None


async def test_a_refused_decision_leaves_the_table_playing(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    outsider = world.user("erin")
    answer = await outsider.slash(
        world.channel,
        "spades tournament decide",
        match=playing.number,
        winner=playing.b,
        reason="I say so",
    )
    assert answer.response is not None and answer.ephemeral
    assert answer.response.content.startswith("Only the organizer")
    assert_error(world.env, InteractionRefused)  # answered by the one error path
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "playing"
    assert cup.matches("playing")


async def test_cancelling_ends_the_tables_in_play(world: World) -> None:
    cup, playing = await final_under_way(world)
    table_id = playing.table_id or 0
    answer = await cup.organizer.slash(
        world.channel, "spades tournament cancel", reason="the server closes tonight"
    )
    assert answer.response is not None
    assert cup.state().phase == "cancelled"
    table = await world.bot.app.tables.get(table_id)
    assert table.status.value == "finished" and table.result is not None
    assert table.result.reason is EndReason.MODERATOR
    assert table.result.note == "the server closes tonight"
