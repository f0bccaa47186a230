"""Taking over a computer's seat between hands, clicked as people would: the
watcher's menu, the host's answer, a restart in between, the refusals, and
a game that stays recorded as one with computer players."""

from __future__ import annotations

from typing import Any

import discord

from bot.game.types import Phase
from bot.tables.model import Seat, SeatRequest, Table
from tests.backends import game_results
from tests.discord.harness import World, components_of, embed_text, finished, labels_of
from tests.discord.test_languages import locales, person  # noqa: F401 (locales: a fixture)


def between_hands(table: Table) -> bool:
    return table.game is not None and table.game.phase is Phase.HAND_OVER


def seat_menu(message: discord.Message) -> dict[str, Any]:
    for row in components_of(message):
        for item in row["components"]:
            if item["type"] == 3 and ":seat_ask:" in item["custom_id"]:
                menu: dict[str, Any] = item
                return menu
    raise AssertionError("no seat menu on the table message")


async def ask(world: World, user: Any, seat: int, message: discord.Message | None = None) -> str:
    """``user`` picks ``seat`` in the menu; the private line they get."""
    message = message or world.table_message()
    result = await user.select(message, [str(seat)], custom_id=seat_menu(message)["custom_id"])
    return str(result.followups[0].content)


async def test_a_watcher_takes_a_computer_seat_and_plays_the_next_hand(world: World) -> None:
    alice, carol, dave = (world.user(n) for n in ("alice", "carol", "dave"))
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    await world.click(carol, "Watch")
    assert "seat_ask" not in str(components_of(world.table_message()))  # not during a hand
    await world.play_until(between_hands)

    menu = seat_menu(world.table_message())
    assert [o["label"] for o in menu["options"]] == [
        "West: Wren (random)",
        "North: Nell (random)",
        "East: Ezra (random)",
    ]
    assert await ask(world, alice, 1) == "You already have a seat at this table."
    assert await ask(world, carol, 1) == "You asked the host for the seat of West at table 1."
    assert (await world.table()).seat_request == SeatRequest(carol.id, 1)
    text = embed_text(world.table_message())
    assert f"<@{carol.id}> asks to play West in place of 🤖 Wren (random)" in text
    assert labels_of(world.table_message())[-2:] == ["Accept the request", "Decline the request"]
    pending = "A request for a seat is already waiting for the host's answer."
    assert await ask(world, dave, 3) == pending
    refused = await world.click(carol, "Accept the request")
    assert refused.followups[0].content == "Only the host can do that."

    await world.restart()  # the request waits on
    assert (await world.table()).seat_request == SeatRequest(carol.id, 1)
    done = await world.click(alice, "Accept the request")
    assert done.followups[0].content == f"<@{carol.id}> plays West from the next hand."
    told = f"<@{carol.id}> plays West from the next hand: the host accepted."
    assert told in [m.content for m in world.talk().history()]
    assert "Accept the request" not in labels_of(world.table_message())
    table = await world.table()
    assert table.seats[1] == Seat(user_id=carol.id) and carol.id not in table.spectators
    assert "**West** <@" + str(carol.id) + ">" in embed_text(world.table_message())

    hand = table.game.hand_number if table.game else 0
    await world.click(alice, "Next hand")
    # Carol plays West's cards from her own private hand, like any player.
    table = await world.play_until(lambda t: between_hands(t) or finished(t))
    assert table.game is not None and table.game.hand_number == hand + 1
    log = await world.bot.app.store.action_log(table.id)
    west = [e for e in log if e.kind in ("bid", "play") and e.payload["seat"] == 1]
    assert west[-1].actor == carol.id and "bot" not in west[-1].payload
    assert world.hand_ids.get(carol.id) is not None

    # The game stays one with computer players: unrated, whoever sits now.
    asked_resign = await alice.slash(world.channel, "spades resign")
    assert asked_resign.response is not None
    await alice.click(asked_resign.response, label="Yes, resign")
    [result] = await game_results(world.bot.app.store, table.id)
    assert result["seats"][1]["bot_level"] == "random" and result["seats"][1]["user_id"] is None
    said = [m.content for m in world.talk().history()] + [embed_text(world.table_message())]
    assert any("Not rated (computer players took part)." in text for text in said)


async def test_the_host_declines_and_the_computer_keeps_its_seat(world: World) -> None:
    alice, carol = world.user("alice"), world.user("carol")
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    await world.play_until(between_hands)
    await ask(world, carol, 2)  # asked without watching first: the menu is for anyone
    done = await world.click(alice, "Decline the request")
    assert done.followups[0].content == f"You declined <@{carol.id}>'s request for North."
    told = f"<@{carol.id}>, the host declined your request for North."
    assert told in [m.content for m in world.talk().history()]
    table = await world.table()
    assert table.seats[2].is_computer and table.seat_request is None
    assert "Accept the request" not in labels_of(world.table_message())
    await world.click(alice, "Next hand")  # the deal is not held up
    assert "seat_ask" not in str(components_of(world.table_message()))
    assert (await world.table()).seats[2].is_computer


async def test_refusals_in_the_users_language(
    world: World,
    locales: dict[int, str],  # noqa: F811
) -> None:
    alice, carol = world.user("alice"), person(world, locales, "carol", "fr")
    dave = person(world, locales, "dave", "de")
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    await world.play_until(between_hands)
    await ask(world, carol, 1)
    assert await ask(world, dave, 2) == (
        "Eine Bitte um einen Platz wartet schon auf die Antwort des Gastgebers."
    )
    refused = await world.click(carol, "Accept the request")
    assert refused.followups[0].content == "Seul l’hôte peut faire cela."


async def test_a_table_closed_to_watchers_offers_no_seat(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, watchers=False)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    await world.play_until(between_hands)
    assert "seat_ask" not in str(components_of(world.table_message()))
