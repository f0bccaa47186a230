"""Who may act, and what a refused click gets: a private answer and no change."""

from __future__ import annotations

import discord
import pytest
from simcord import MemberActor, SetupError, assert_error

from bot.game.cards import card_name, cards_of
from bot.game.types import Phase
from bot.refusals import Spectator
from bot.tables.model import Table
from tests.discord.harness import World, buttons_of, embed_text


async def forged(world: World, *custom_ids: str) -> discord.Message:
    """A channel message with buttons the bot itself would never draw, as if
    someone had crafted the ids: posted through the bot's own client."""
    view = discord.ui.View(timeout=None)
    for index, custom_id in enumerate(custom_ids):
        view.add_item(discord.ui.Button(label=f"forged {index}", custom_id=custom_id))
    channel = world.bot.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    message = await channel.send("a crafted message", view=view)
    view.stop()
    return message


async def started(world: World) -> tuple[Table, list[MemberActor]]:
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people)
    await world.click(people[0], "Start")
    return await world.table(), people


def card_of(table: Table, seat: int) -> str:
    assert table.game is not None
    return card_name(cards_of(table.game.hands[seat])[0])


async def test_fifth_and_sixth_users_watch_and_cannot_act(world: World) -> None:
    table, _ = await started(world)
    erin, frank = world.user("erin"), world.user("frank")
    for watcher in (erin, frank):
        joined = await world.click(watcher, "Watch")
        assert joined.followups[0].ephemeral
        assert f"You are watching table {table.id}" in joined.followups[0].content
    table = await world.table()
    assert table.spectators == (erin.id, frank.id)
    assert f"<@{erin.id}>, <@{frank.id}>" in embed_text(world.table_message())
    version = table.version

    refused = await world.click(erin, "My hand")  # a deferred update, answered privately
    assert refused.followups and refused.followups[0].ephemeral
    assert refused.followups[0].content == "You are watching: only players have a hand."
    slash = await frank.slash(world.channel, "spades hand")
    assert slash.ephemeral and slash.response is not None
    assert "watching" in slash.response.content
    assert_error(world.env, Spectator)  # answered through the command error path
    # A card button of the seat to act, clicked by a spectator.
    seat = table.game.waited_on() if table.game else None
    assert seat is not None
    crafted = await forged(world, f"spades:bid:{table.id}:{version}:3")
    answer = await erin.click(crafted, label="forged 0")
    assert answer.followups and answer.followups[0].ephemeral
    assert "watching" in answer.followups[0].content
    assert (await world.table()).version == version
    # Joining twice is refused too.
    again = await world.click(frank, "Watch")
    assert again.followups[0].content == "You are already at this table."


async def test_a_player_of_another_table_cannot_act_here(world: World) -> None:
    table, _ = await started(world)
    other_channel = world.guild.create_text_channel("other")
    stranger = world.user("stranger")
    await stranger.slash(other_channel, "spades new")
    version = (await world.table()).version

    hand = await world.click(stranger, "My hand")
    assert hand.followups and hand.followups[0].ephemeral
    assert hand.followups[0].content == "You are not seated at this table."
    crafted = await forged(world, f"spades:next:{table.id}:{version}")
    answer = await stranger.click(crafted, label="forged 0")
    # A table-message button on any other message names no table at all.
    private = answer.response or answer.followups[0]
    assert private.ephemeral
    assert private.content == "That table does not exist any more."
    assert (await world.table()).version == version


async def test_someone_elses_turn(world: World) -> None:
    table, people = await started(world)
    game = table.game
    assert game is not None and game.phase is Phase.BIDDING
    to_act = game.waited_on()
    assert to_act is not None
    waiting = people[(to_act + 1) % 4]
    # In the player's own hand every bid is disabled while it is not their turn.
    hand = await world.my_hand(waiting)
    assert all(b.disabled for b in buttons_of(hand))
    with pytest.raises(SetupError, match="disabled"):
        await waiting.click(hand, label="3")
    # A crafted bid button with the current version is refused by the rules.
    crafted = await forged(world, f"spades:bid:{table.id}:{table.version}:3")
    answer = await waiting.click(crafted, label="forged 0")
    [private] = answer.followups
    assert private.ephemeral and private.content.startswith("> It is not your turn.")
    assert (await world.table()).version == table.version


async def test_double_click_and_outdated_hand(world: World) -> None:
    table, people = await started(world)
    game = table.game
    assert game is not None
    to_act = game.waited_on()
    assert to_act is not None
    player = people[to_act]
    first = await world.my_hand(player)
    second = await world.my_hand(player)
    # The same bid button twice (its id is the same in both messages).
    await player.click(second, label="4")
    after = await world.table()
    assert after.game is not None and after.game.bids[to_act] == 4
    again = await player.click(first, label="4")
    assert again.response is not None and again.response.id == first.id
    assert again.response.content.startswith("> That hand was out of date")
    now = await world.table()
    assert now.version == after.version and now.game is not None
    assert now.game.bids[to_act] == 4


async def test_outdated_hand_during_play(world: World) -> None:
    await started(world)
    table = await world.play_until(lambda t: t.game is not None and t.game.phase is Phase.PLAYING)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    player = world.by_id(table.seats[seat].user_id or 0)
    old = await world.my_hand(player)
    new = await world.my_hand(player)
    playable = [b for b in buttons_of(new) if not b.disabled]
    await player.click(new, custom_id=playable[0].custom_id)
    played = await world.table()
    stale = await player.click(old, custom_id=playable[-1].custom_id)
    assert stale.response is not None and stale.response.id == old.id
    assert stale.response.content.startswith("> That hand was out of date")
    # The redrawn hand is the current one: the played card is gone.
    assert playable[0].custom_id.split(":")[-1] not in {
        b.custom_id.split(":")[-1] for b in buttons_of(stale.response)
    }
    assert (await world.table()).version == played.version


async def test_forged_custom_ids(world: World) -> None:
    table, people = await started(world)
    version = table.version
    game = table.game
    assert game is not None and game.waited_on() is not None
    player = people[game.waited_on() or 0]
    ids = [
        "spades:",
        "spades:dance:1:1",
        f"spades:play:{table.id}:{version}",
        f"spades:play:{table.id}:{version}:ZZ",
        f"spades:bid:{table.id}:{version}:99",
        f"spades:bid:{table.id}:{version}:x",
        f"spades:play:999:{version}:AS",
        f"spades:rematch:{table.id}:{version}:maybe",
        f"spades:start:{table.id}:{version}",
        f"spades:play:{table.id}:{version}:{card_of(table, (game.waited_on() or 0) + 1 & 3)}",
    ]
    crafted = await forged(world, *ids[:5])
    crafted_more = await forged(world, *ids[5:])
    answers = []
    for index in range(5):
        result = await player.click(crafted, label=f"forged {index}")
        answers.append(result)
    for index in range(len(ids) - 5):
        answers.append(await player.click(crafted_more, label=f"forged {index}"))
    texts = []
    for result in answers:
        assert result.acknowledged
        private = result.followups[0] if result.followups else result.response
        assert private is not None and private.ephemeral, result
        texts.append(private.content.splitlines()[0])
    assert texts[0] == "That button is not valid."
    assert texts[1] == "That button is not valid."
    assert texts[2] == "That button is not valid."
    assert texts[3] == "That button is not valid."
    assert texts[4] == "> Bid from 1 to 13 tricks, or Nil."
    assert texts[5] == "That button is not valid."
    assert texts[6] == "That table does not exist any more."
    assert texts[7] == "That button is not valid."
    assert texts[8] == "That table does not exist any more."  # not on the table message
    assert texts[9].startswith("> ")  # bidding is not over: the rules refuse the card
    assert (await world.table()).version == version
    assert world.env.errors == []


async def test_numbers_written_otherwise_than_the_bot_writes_them_are_not_valid(
    world: World,
) -> None:
    """The player to bid presses bids the bot never draws: ``1_0`` and ``0_3``
    (int() reads 10 and 3), ``-0`` (Nil) and ``03``, and a valid bid at the
    table and version in Arabic-Indic digits: none is taken."""
    table, people = await started(world)
    game = table.game
    assert game is not None and game.waited_on() is not None
    player = people[game.waited_on() or 0]
    arabic = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
    where = f"{str(table.id).translate(arabic)}:{str(table.version).translate(arabic)}"
    ids = [f"spades:bid:{table.id}:{table.version}:{arg}" for arg in ("1_0", "0_3", "-0", "03")]
    crafted = await forged(world, *ids, f"spades:bid:{where}:3")
    for index in range(len(ids) + 1):
        result = await player.click(crafted, label=f"forged {index}")
        private = result.followups[0] if result.followups else result.response
        assert private is not None and private.ephemeral, result
        assert private.content == "That button is not valid.", index
    assert (await world.table()).version == table.version
    assert world.env.errors == []
