"""Opening a tournament: what ``/spades tournament new`` refuses (long house
rules, a channel the bot cannot post in, a channel with a tournament open),
briefly and privately in the organizer's language, leaving nothing behind;
and Start and the ready checks where the bot can no longer post."""

from __future__ import annotations

import asyncio

import discord
import pytest
import simcord
from simcord import assert_error

from bot.refusals import BadHouseRule
from bot.render.spec import CONTENT
from bot.tournament.events import TournamentRefusal
from bot.tournament.model import Settings
from cogs.errors import InteractionRefused
from tests.discord.harness import World
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)
from tests.discord.tournament_harness import Cup

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


async def test_a_channel_runs_one_tournament_at_a_time(world: World) -> None:
    """/spades tournament cancel, decide and show act on the channel's
    tournament: a second one open there would take them from the first."""
    alice, bob = world.user("alice"), world.user("bob")
    first = Cup(world, alice)
    await first.open(name="First")
    refused = await bob.slash(world.channel, "spades tournament new", name="Second")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "A tournament is already open in this channel: open yours once it is over, or in "
        "another channel."
    )
    assert_error(world.env, TournamentRefusal)
    assert [t.id for t in world.bot.tournaments.loaded()] == [first.id]
    # The first one's organizer still reaches it; once it is over, another may open.
    cancelled = await alice.slash(world.channel, "spades tournament cancel")
    assert cancelled.response is not None
    assert cancelled.response.content == "The tournament is cancelled."
    assert first.state().phase == "cancelled"
    opened = await bob.slash(world.channel, "spades tournament new", name="Second")
    assert opened.response is not None and opened.response.content.startswith("Tournament 2")


async def test_a_second_tournament_is_refused_in_the_organizer_s_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    await Cup(world, world.user("alice")).open()
    hans = world.user("hans")
    locales[hans.id] = "de"
    refused = await hans.slash(world.channel, "spades tournament new", name="Pokal")
    assert refused.response is not None
    assert refused.response.content == (
        "In diesem Kanal ist schon ein Turnier offen: Eröffne deins, wenn es vorbei ist, oder "
        "in einem anderen Kanal."
    )
    assert_error(world.env, TournamentRefusal)


async def test_two_tournaments_opened_at_once_in_a_channel_make_one(world: World) -> None:
    service = world.bot.tournaments
    here = (world.guild.id, world.channel.id)
    opened = await asyncio.gather(
        service.create(*here, world.user("alice").id, Settings(name="First")),
        service.create(*here, world.user("bob").id, Settings(name="Second")),
        return_exceptions=True,
    )
    refusals = [r for r in opened if isinstance(r, TournamentRefusal)]
    assert [r.code for r in refusals] == ["channel_busy"]
    assert len(await service.store.open_ones()) == 1


async def _withdraw(world: World, **permissions: bool) -> None:
    """Take permissions from the bot in the channel, after the tournament's message is up."""
    channel = world.bot.get_channel(world.channel.id)
    me = world.guild.me
    assert isinstance(channel, discord.TextChannel) and me is not None
    await channel.set_permissions(me, overwrite=discord.PermissionOverwrite(**permissions))
    await world.env.settle()


@pytest.mark.parametrize("lost", ["send_messages", "view_channel"])
async def test_start_is_refused_while_the_bot_cannot_post_the_ready_checks(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
    lost: str,
) -> None:
    """Unseen ready checks would lose every team its match by no-show: Start
    waits, and says why in the organizer's language, until the bot may post."""
    olga = world.user("olga")
    locales[olga.id] = "fr"
    cup = Cup(world, olga)
    await cup.open(target=250, ready_minutes=10)
    await cup.pair(world.user("alice"), world.user("bob"))
    await cup.pair(world.user("carol"), world.user("dave"))
    await _withdraw(world, **{lost: False})
    refused = await cup.click(olga, "Start")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content.startswith("Je ne peux pas publier les appels")
    assert cup.state().phase == "registering"
    if lost == "view_channel":
        return  # the bot cannot give itself back what it cannot see
    await _withdraw(world)  # given back
    started = await cup.click(olga, "Start")
    assert started.response is not None and "tableau est tiré" in started.response.content
    assert cup.state().phase == "running"


async def test_the_organizer_hears_of_a_ready_check_the_bot_could_not_post(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    """A permission lost once the tournament runs: the next ready check cannot
    be posted, so the organizer is told by direct message, in their language."""
    olga = world.user("olga")
    locales[olga.id] = "fr"
    await olga.slash(world.channel, "spades language", language="fr")
    cup = Cup(world, olga)
    await cup.open(target=250)
    for pair in (("alice", "bob"), ("carol", "dave"), ("erin", "frank")):
        await cup.pair(world.user(pair[0]), world.user(pair[1]))
    await cup.click(olga, "Start")
    [first] = cup.matches("ready_check")
    await _withdraw(world, send_messages=False)
    decided = await olga.slash(
        world.channel, "spades tournament decide", match=first.number, winner=first.a, reason="x"
    )
    assert decided.response is not None
    [final] = cup.matches("ready_check")
    [told] = olga.user.dm_channel.history()
    assert told.content.startswith(f"Je n’ai pas pu publier l’appel du match {final.number} de Cup")
