"""Whole games, from /spades new to the final score, by clicking buttons only."""

from __future__ import annotations

import time

from bot.tables.model import TableStatus
from tests.discord.harness import World, embed_text, finished, labels_of


async def test_four_people_play_a_whole_game_by_clicking(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    t0 = time.monotonic()
    table = await world.seat_four(alice, bob, carol, dave, target=250)
    await world.click(alice, "Start")
    table = await world.play_until(finished)
    print("elapsed", time.monotonic() - t0, world.hands_opened, len(world.env.http_requests))
    assert table.status is TableStatus.FINISHED
    message = world.table_message()
    text = embed_text(message)
    assert "win" in text or "Draw" in text
    assert labels_of(message) == ["Rematch: same teams", "Rematch: swap teams"]
