"""Opening a tournament: what ``/spades tournament new`` refuses, briefly and
privately in the organizer's language, leaving nothing behind."""

from __future__ import annotations

import discord
import pytest
import simcord
from simcord import assert_error

from bot.refusals import BadHouseRule
from bot.render.spec import CONTENT
from cogs.errors import InteractionRefused
from tests.discord.harness import World
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def test_house_rules_are_as_long_as_a_table_s_at_most(world: World) -> None:
    """Discord itself refuses longer text (the bound is on the option), as it
    does for /spades new; the longest allowed is answered in one message."""
    alice = world.user("alice")
    with pytest.raises(simcord.OptionError):
        await alice.slash(world.channel, "spades tournament new", name="Cup", house="x" * 301)
    refused = await alice.slash(world.channel, "spades tournament new", name="Cup", house="x" * 300)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content.startswith("That house rule cannot be played")
    assert len(refused.response.content) <= CONTENT
    assert_error(world.env, BadHouseRule)  # answered through the command error path
    assert world.bot.tournaments.in_channel(world.channel.id) is None


@pytest.mark.parametrize(
    ("missing", "name"),
    [
        ("view_channel", "View Channel"),
        ("send_messages", "Send Messages"),
        ("embed_links", "Embed Links"),
        ("attach_files", "Attach Files"),
    ],
)
async def test_a_tournament_is_refused_where_the_bot_cannot_post_its_message(
    world: World, missing: str, name: str
) -> None:
    """Registration is only through the tournament message's buttons: without
    it the tournament could never be played, so none is opened."""
    alice = world.user("alice")
    me = world.guild.me
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(**{missing: False})}
    )
    refused = await alice.slash(locked, "spades tournament new", name="Cup")
    await world.env.settle()
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        f"I cannot post a tournament in this channel: I need the {name} permission here. "
        "Ask a server admin to allow it, or open the tournament in another channel."
    )
    assert_error(world.env, InteractionRefused)  # answered through the command error path
    assert world.bot.tournaments.in_channel(locked.id) is None
    assert await world.bot.tournaments.latest_in_channel(locked.id) is None
    assert locked.history() == []


async def test_the_organizer_is_told_what_the_bot_lacks_in_their_own_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    amelie = world.user("amelie")
    locales[amelie.id] = "fr"
    me = world.guild.me
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    refused = await amelie.slash(locked, "spades tournament new", name="Coupe")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "Je ne peux pas publier de tournoi dans ce salon : il me faut la permission Send "
        "Messages ici. Demande à un admin du serveur de l’accorder, ou ouvre le tournoi dans "
        "un autre salon."
    )
    assert_error(world.env, InteractionRefused)
    assert world.bot.tournaments.in_channel(locked.id) is None


async def test_in_a_thread_the_bot_needs_to_send_messages_in_threads(world: World) -> None:
    me = world.guild.me
    assert me is not None
    hall = world.guild.create_text_channel(
        "hall", overwrites={me: discord.PermissionOverwrite(send_messages_in_threads=False)}
    )
    parent = world.bot.get_channel(hall.id)
    assert isinstance(parent, discord.TextChannel)
    await parent.create_thread(name="cup", type=discord.ChannelType.public_thread)
    [side] = hall.threads
    refused = await world.user("alice").slash(side, "spades tournament new", name="Cup")
    assert refused.response is not None
    assert "I need the Send Messages in Threads permission here" in refused.response.content
    assert_error(world.env, InteractionRefused)
    assert world.bot.tournaments.in_channel(side.id) is None
