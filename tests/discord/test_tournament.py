"""A tournament run by clicks through SimCord: registration with partners,
the draw, ready checks, tables in threads, winners advancing, a no-show, an
organizer's decision, the final standings, and restarts on the way."""

from __future__ import annotations

import pytest

from tests.discord.harness import World
from tests.discord.tournament_harness import Cup

pytestmark = pytest.mark.simcord(settle_timeout=2.0)


async def test_two_teams_play_a_final(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    cup = Cup(world, alice)
    await cup.open(target=250)
    await cup.pair(alice, bob)
    await cup.pair(carol, dave)
    await cup.click(alice, "Start")
    [final] = cup.matches("ready_check")
    await cup.ready(final, final.a or 0, final.b or 0)
    [playing] = cup.matches("playing")
    table = await world.bot.app.tables.get(playing.table_id or 0)
    assert table.status.value == "playing"
    await cup.resign(playing, playing.b or 0)
    state = cup.state()
    assert state.phase == "over"
    assert state.champion == playing.a
