"""The turn limit: once it passes, the table message offers the other team the win."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DatabaseSettings, HealthSettings, Settings, TableSettings
from bot.game.types import EndReason
from tests.discord.harness import UNPACED, World, embed_text, labels_of

HOUR = 3600
pytestmark = pytest.mark.simcord(settle_timeout=5.0)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # A heartbeat every 30 virtual seconds would make half a day slow to pass.
    return Settings(
        discord=UNPACED,
        database=DatabaseSettings(path=tmp_path / "spades.db"),
        tables=TableSettings(computer_delay_s=0.0, turn_ping_delay_s=0.0),
        health=HealthSettings(heartbeat_every_s=30 * 24 * HOUR, stale_after_s=60 * 24 * HOUR),
    )


async def test_claim_the_win_after_the_turn_limit(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, turn_limit=720)
    await world.click(alice, "Start")
    assert "Claim the win" not in labels_of(world.table_message())

    await world.env.advance_time(12 * HOUR + 5)  # bob never bids
    assert "Claim the win" in labels_of(world.table_message())
    assert "South & North may claim the game" in embed_text(world.table_message())
    refused = await world.click(dave, "Claim the win")  # bob's partner
    assert refused.followups[0].content == "Only the other team can claim the win."
    await world.click(alice, "Claim the win")
    table = await world.table_any()
    assert table.result is not None and table.result.reason is EndReason.TIMEOUT
    assert table.result.winner == 0 and table.result.seat == 1
    assert f"<@{bob.id}> let the turn limit pass" in embed_text(world.table_message())


async def test_with_a_stand_in_a_computer_plays_for_the_late_player(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.new_table(alice, turn_limit=720, stand_in=True)
    assert "then a computer plays for the late player" in embed_text(world.table_message())
    for user in (bob, carol, dave):
        await world.click(user, "Join")
    await world.click(alice, "Start")
    await world.env.advance_time(12 * HOUR + 5)  # bob never bids
    table = await world.table()
    assert table.game is not None and table.game.bids[1] is not None  # bid for him
    assert "Claim the win" not in labels_of(world.table_message())
