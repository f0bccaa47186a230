"""The application core's decisions, seen from Discord: which interaction may
act on which table, what every click is answered, and what a table is owed
after a restart."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord import app_commands
from simcord import assert_error

from bot.refusals import SeveralTables
from bot.render import tournament_text
from bot.render.spec import CONTENT
from bot.tables.model import DEFAULT_TURN_LIMIT_S, TableStatus
from bot.tournament.events import TournamentRefusal
from cogs.presenter import TablePresenter
from tests.discord.harness import World, embed_text, labels_of
from tests.discord.test_access import forged, started

UNKNOWN_TABLE = "That table does not exist any more."
NOT_VALID = "That button is not valid."


async def test_a_button_naming_a_table_of_another_server_seats_nobody(world: World) -> None:
    table = await world.new_table(world.user("alice"))
    other_guild = world.env.create_guild("Other Club")
    other_channel = other_guild.create_text_channel("cards")
    mallory = other_guild.add_member(world.env.create_user("mallory"))
    # A message in the other server carrying this table's Join id.
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Join", custom_id=f"spades:join:{table.id}:1"))
    channel = world.bot.get_partial_messageable(other_channel.id, guild_id=other_guild.id)
    crafted = await channel.send("join us", view=view)
    view.stop()

    answer = await mallory.click(crafted, label="Join")
    private = answer.response or answer.followups[0]
    assert private.ephemeral and private.content == UNKNOWN_TABLE
    after = await world.table()
    assert after.version == table.version and not after.is_seated(mallory.id)
    assert mallory.id not in after.spectators


async def test_every_click_on_an_id_that_is_not_ours_is_answered(world: World) -> None:
    table, people = await started(world)
    ids = [
        f"Spades:play:{table.id}:{table.version}:AS",
        f"spade:play:{table.id}:{table.version}:AS",
        f"spades:play:{table.id}:{table.version}:9H\n",
        f"spades:play:{table.id}:{table.version}:9H\nx",
        f" spades:play:{table.id}:{table.version}:AS",
        f"ｓpades:play:{table.id}:{table.version}:AS",  # a fullwidth letter
        "x",
        "leaderboard:1:1",
    ]
    crafted = await forged(world, *ids)
    for index in range(len(ids)):
        result = await people[0].click(crafted, label=f"forged {index}")
        private = result.response or (result.followups[0] if result.followups else None)
        assert private is not None and private.ephemeral, (ids[index], result)
        assert private.content == NOT_VALID, ids[index]
    assert (await world.table()).version == table.version
    assert world.env.errors == []


async def test_the_table_is_drawn_once_its_channel_allows_it_again(world: World) -> None:
    alice = world.user("alice")
    me = world.guild.me
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    result = await alice.slash(locked, "spades new")
    assert result.response is not None and "Send Messages" in result.response.content
    assert "Embed Links" not in result.response.content  # only what was taken away
    assert locked.history() == []

    # An admin gives the permission back: nobody has to act for the table to show.
    channel = world.bot.get_channel(locked.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.set_permissions(me, overwrite=None)
    await world.env.settle()
    [message] = [m for m in locked.history() if m.embeds]
    assert f"<@{alice.id}>" in embed_text(message)
    table = await world.bot.app.tables.in_channel(locked.id)
    assert table is not None and table.message_id == message.id


def pictures(world: World) -> list[discord.Message]:
    """The end-of-game posts in the channel and its tables' threads."""
    places = [world.channel, *world.channel.threads]
    return [m for place in places for m in place.history() if m.attachments]


async def test_a_game_ended_just_before_a_restart_is_announced_after_it_once(
    world: World,
) -> None:
    table, people = await started(world)
    # The process dies right after the commit that ends the game: nothing
    # that follows a commit (drawing, counting, the picture) happens.
    world.bot.app._listeners.clear()
    done = await world.bot.app.tables.resign(table.id, people[1].id, table.version)
    assert done.status is TableStatus.FINISHED
    assert "win" not in embed_text(world.table_message())
    assert pictures(world) == []

    await world.restart()
    await world.env.settle()
    await world.bot.app.wait_background()
    text = embed_text(world.table_message())
    assert "win" in text
    assert any("Rematch" in label for label in labels_of(world.table_message()))
    assert len(pictures(world)) == 1

    await world.restart()
    await world.env.settle()
    await world.bot.app.wait_background()
    assert len(pictures(world)) == 1  # owed once, delivered once


async def test_a_game_ended_whose_table_message_a_kill_left_behind_is_shown_after_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game ended and its table message waited for its turn when the
    bot was killed. The end is posted only once the table shows it, so the
    game is still owed its end: the restarted bot draws the final table
    message (no longer offering play) and posts the picture, once."""
    table, people = await started(world)

    async def waiting(*_args: object) -> None:
        await asyncio.sleep(3600)  # its turn never came: the process died first

    monkeypatch.setattr(TablePresenter, "_send", waiting)
    done = await world.bot.app.tables.resign(table.id, people[1].id, table.version)
    assert done.status is TableStatus.FINISHED
    await world.env.settle()
    assert pictures(world) == []  # not before the table message shows the end
    monkeypatch.undo()

    await world.restart()
    await world.env.settle()
    await world.bot.app.wait_background()
    assert "win" in embed_text(world.table_message())
    assert len(pictures(world)) == 1


async def test_a_refusal_listing_many_tables_still_fits_in_one_message(world: World) -> None:
    alice = world.user("alice")
    for number in range(100):
        channel = world.guild.create_text_channel(f"table-{number}")
        await world.bot.app.tables.create(world.guild.id, channel.id, alice.id)
    nowhere = world.guild.create_text_channel("lounge")
    answer = await alice.slash(nowhere, "spades hand")
    assert answer.ephemeral and answer.response is not None
    text = answer.response.content
    assert text.startswith("You play at several tables") and len(text) <= 2000
    assert "more" in text  # what did not fit is counted, not dropped silently
    assert_error(world.env, SeveralTables)  # answered through the command error path


async def test_a_refusal_too_long_for_discord_is_cut_rather_than_lost(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal that quotes what someone typed may be longer than Discord
    takes: it is cut to fit, and the person still gets an answer."""
    long = "There is no tournament here: " + "x" * 3000
    monkeypatch.setitem(tournament_text.REFUSALS, "no_tournament_here", long)
    answer = await world.user("alice").slash(world.channel, "spades tournament show")
    assert answer.ephemeral and answer.response is not None
    text = answer.response.content
    assert text.startswith("There is no tournament here: xxx") and text.endswith("…")
    assert len(text) == CONTENT
    assert_error(world.env, TournamentRefusal)  # answered through the command error path


async def test_the_turn_limit_reads_the_same_where_it_is_offered_and_shown(world: World) -> None:
    commands = {c.name: c for c in world.bot.tree.get_commands()}
    group = commands["spades"]
    assert isinstance(group, app_commands.Group)
    new = group.get_command("new")
    assert isinstance(new, app_commands.Command)
    [limit] = [p for p in new.parameters if p.name == "turn_limit"]
    offered = {choice.value: choice.name for choice in limit.choices}
    await world.new_table(world.user("alice"))
    default = offered[DEFAULT_TURN_LIMIT_S // 60]
    assert default == "48 hours"
    assert f"turn limit {default}" in embed_text(world.table_message())


async def test_a_command_discord_still_shows_but_the_bot_dropped_is_answered(
    world: World,
) -> None:
    alice = world.user("alice")
    # Published, then gone from this version of the bot (a sync is due).
    world.bot.tree.remove_command("revoke")
    answer = await alice.slash(world.channel, "revoke", player=alice.user)
    assert answer.ephemeral and answer.response is not None
    assert "python -m bot sync" in answer.response.content
    assert_error(world.env, app_commands.CommandNotFound)  # answered through the error path
