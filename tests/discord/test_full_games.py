"""Whole games, from /spades new to the final score, by clicking buttons only."""

from __future__ import annotations

import logging

import pytest

from bot.game.rules import PRESETS
from bot.game.types import EndReason, Phase
from bot.tables.model import TableStatus
from tests.discord.harness import World, components_of, embed_text, finished, labels_of
from tests.discord.privacy import PrivacyWatch, looks_like_a_card


async def test_four_people_play_a_whole_game_and_no_hand_leaks(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, target=250)
    await world.click(alice, "Start")
    table = await world.play_until(finished)

    game = table.game
    assert game is not None and game.result is not None
    assert game.result.reason in (EndReason.TARGET, EndReason.LOSING_SCORE)
    if game.result.reason is EndReason.TARGET:
        assert max(game.scores) >= 250
    assert len(game.hand_records) >= 2
    message = world.table_message()
    text = embed_text(message)
    assert "win" in text or "Draw" in text
    assert f"{game.scores[0]} to {game.scores[1]}" in text
    assert labels_of(message) == ["Rematch: same teams", "Rematch: swap teams"]
    # Hands stayed live: each player opened theirs once for the whole game.
    assert world.hands_opened == 4
    # Nobody saw a card that was neither theirs nor played.
    assert watch.violations() == []
    assert len(watch.sent()) > 500
    leaks = [r.getMessage() for r in caplog.records if looks_like_a_card(r.getMessage())]
    assert leaks == []


async def test_one_person_and_three_computer_players(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250)
    await world.click(alice, "Add computer players")
    table = await world.table()
    assert [s.is_computer for s in table.seats] == [False, True, True, True]
    menu = [
        item
        for row in components_of(world.table_message())
        for item in row.get("components", [])
        if item.get("type") == 3
    ]
    labels = [option["label"] for option in menu[0]["options"]]
    assert labels == [
        "🤖 Wren (random) (West)",
        "🤖 Nell (random) (North)",
        "🤖 Ezra (random) (East)",
    ]
    await world.click(alice, "Start")
    table = await world.play_until(finished)
    assert table.result is not None
    shown = embed_text(world.table_message())
    # Each computer player has a name of its own, from its seat.
    for name in ("🤖 Wren (random)", "🤖 Nell (random)", "🤖 Ezra (random)"):
        assert name in shown


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_every_preset_plays_to_the_end(world: World, preset: str) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250, preset=preset)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    table = await world.play_until(finished)
    assert table.rules.preset == preset and table.result is not None
    assert f"{preset} rules" in embed_text(world.table_message())


async def test_resignation_ends_the_game(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    asked = await bob.slash(world.channel, "spades resign")
    assert asked.ephemeral and asked.response is not None
    assert labels_of(asked.response) == ["Yes, resign"]
    also = await carol.slash(world.channel, "spades resign")
    assert also.response is not None
    done = await bob.click(asked.response, label="Yes, resign")
    assert done.response is not None and "You resigned" in done.response.content
    table = await world.table_any()
    assert table.status is TableStatus.FINISHED
    assert table.result is not None and table.result.reason is EndReason.RESIGNATION
    assert table.result.winner == 0  # bob sits West: South & North win
    assert f"<@{bob.id}> resigned" in embed_text(world.table_message())
    late = await carol.click(also.response, label="Yes, resign")  # pressed after the end
    assert late.ephemeral and late.response is not None
    assert late.response.content == "There is no game in progress to resign from."
    assert (await world.table_any()).version == table.version


async def test_rematch_with_swapped_teams(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    asked = await bob.slash(world.channel, "spades resign")
    assert asked.response is not None
    await bob.click(asked.response, label="Yes, resign")
    before = await world.table_any()
    await world.click(dave, "Rematch: swap teams")
    after = await world.table()
    assert after.id == before.id and after.game_number == 2
    assert after.status is TableStatus.PLAYING
    # The host's partner (carol, North) and West (bob) trade places.
    assert [s.user_id for s in after.seats] == [alice.id, carol.id, bob.id, dave.id]
    assert after.game is not None and after.game.phase is Phase.BIDDING
    assert "game 2" in (world.table_message().embeds[0].title or "")
