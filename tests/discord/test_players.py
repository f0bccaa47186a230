"""For players: ``/spades mygames``, tables closed to watchers, and why a
game of four people was not rated."""

from __future__ import annotations

import pytest
import simcord
from simcord import assert_error

from bot.refusals import ClosedToWatchers
from bot.tables.model import Table
from tests.discord.harness import World, finished


async def open_table_in(
    world: World, name: str, host_name: str, *guests: str
) -> tuple[Table, simcord.ChannelHandle]:
    channel = world.guild.create_text_channel(name)
    await world.user(host_name).slash(channel, "spades new", target=250)
    for guest in guests:
        await world.click(world.user(guest), "Join", world.table_message(channel))
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None
    return table, channel


async def test_mygames_lists_the_callers_tables_with_their_turn_first(world: World) -> None:
    alice = world.user("alice")
    # The oldest: alice and three computer players, started: it waits on her.
    solo, here = await open_table_in(world, "solo", "alice")
    await world.click(alice, "Add computer players", world.table_message(here))
    await world.click(alice, "Start", world.table_message(here))
    # Then a table still in its lobby, and the newest, where someone else bids.
    lobby, _ = await open_table_in(world, "lobby", "bob", "alice")
    four, there = await open_table_in(world, "four", "carol", "dave", "alice", "erin")
    await world.click(world.user("carol"), "Start", world.table_message(there))
    four = await world.bot.app.tables.get(four.id)
    if four.waits_on(alice.id):
        await world.act(four)  # alice bids: now it is someone else's turn
    # A table on which alice does not sit is not hers.
    await open_table_in(world, "other", "frank")

    result = await alice.slash(world.channel, "spades mygames")
    assert result.ephemeral and result.response is not None
    head, *lines = result.response.content.splitlines()
    assert head == "Your open tables here:"
    assert [line.split(" in ")[0] for line in lines] == [
        f"- Table {solo.id}",
        f"- Table {four.id}",
        f"- Table {lobby.id}",
    ]
    solo = await world.bot.app.tables.get(solo.id)
    assert f"<#{solo.talk_channel_id}>" in lines[0] and "**your turn**" in lines[0]
    assert "bidding" in lines[0] or "playing" in lines[0]
    link = f"https://discord.com/channels/{world.guild.id}/{solo.channel_id}/{solo.message_id}"
    assert f"[table message]({link})" in lines[0]
    four = await world.bot.app.tables.get(four.id)
    waited = four.waited_on
    assert waited is not None
    assert f"<@{four.seats[waited].user_id}>'s turn" in lines[1]
    assert "waiting for players" in lines[2]

    nobody = await world.user("gina").slash(world.channel, "spades mygames")
    assert nobody.response is not None
    assert nobody.response.content == "You have no open table on this server."


async def test_a_table_closed_to_watchers_turns_later_arrivals_away(world: World) -> None:
    alice, bob, carol, dave, erin = (
        world.user(n) for n in ("alice", "bob", "carol", "dave", "erin")
    )
    await world.seat_four(alice, bob, carol, dave, watchers=False)
    refused = await world.click(erin, "Join")
    [answer] = refused.followups
    assert answer.ephemeral and answer.content == "This table is closed to watchers."
    by_command = await erin.slash(world.channel, "spades join")
    assert by_command.response is not None
    assert by_command.response.content == "This table is closed to watchers."
    assert_error(world.env, ClosedToWatchers)  # the command's refusal, answered as one
    assert (await world.table()).spectators == ()


async def test_watchers_are_welcome_by_default(world: World) -> None:
    alice, bob, carol, dave, erin = (
        world.user(n) for n in ("alice", "bob", "carol", "dave", "erin")
    )
    await world.seat_four(alice, bob, carol, dave)
    await world.click(erin, "Join")
    assert (await world.table()).spectators == (erin.id,)


@pytest.mark.parametrize("hints", [True, False])
async def test_a_game_of_four_people_says_why_it_was_not_rated(world: World, hints: bool) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, target=250, hints=hints, thread=False)
    await world.click(alice, "Start")
    table = await world.play_until(finished)
    await world.env.settle()
    [post] = [m for m in world.channel.history() if m.attachments]
    assert post.content.startswith(f"Table {table.id}:")
    assert "computer players" not in post.content
    if hints:
        assert post.content.endswith("Not rated (the table had hints on).")
    else:
        assert "Ratings:" in post.content
