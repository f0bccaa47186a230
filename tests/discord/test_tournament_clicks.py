"""Clicks on a tournament's components that the bot never drew, and the language
the desk answers in."""

from __future__ import annotations

import discord
import pytest

from tests.discord.harness import World
from tests.discord.test_languages import locales, person  # noqa: F401 (a fixture)
from tests.discord.tournament_harness import Cup

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def crafted(world: World, item: discord.ui.Item[discord.ui.View]) -> discord.Message:
    """A channel message holding ``item``, as if someone had crafted its id."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    channel = world.bot.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    message = await channel.send("a crafted message", view=view)
    view.stop()
    return message


def contents(world: World) -> list[str]:
    return [m.content for m in world.channel.history()]


async def test_a_partner_button_chooses_nobody_and_is_refused(world: World) -> None:
    """The partner menu's id on a button (no user chosen) registers nothing and
    posts nothing: a short answer says to choose a partner."""
    alice, bob = world.user("alice"), world.user("bob")
    cup = Cup(world, alice)
    await cup.open()
    before = cup.state()
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label="forged", custom_id=f"tourney:partner:{cup.id}"
    )
    message = await crafted(world, button)
    posts = contents(world)
    result = await bob.click(message, label="forged")
    await world.env.settle()
    assert result.ephemeral and result.response is not None
    assert result.response.content == "Choose a partner."
    assert cup.state().registrations == before.registrations
    assert cup.state().version == before.version
    assert contents(world) == posts
    assert "<@0>" not in (cup.message().embeds[0].description or "")


async def test_a_partner_menu_of_texts_chooses_nobody_and_is_refused(world: World) -> None:
    """The same id on a menu of texts (even a user's id as text): no user chosen."""
    alice, bob = world.user("alice"), world.user("bob")
    cup = Cup(world, alice)
    await cup.open()
    before = cup.state()
    menu: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"tourney:partner:{cup.id}",
        options=[discord.SelectOption(label="alice", value=str(alice.id))],
    )
    message = await crafted(world, menu)
    posts = contents(world)
    result = await bob.select(message, [str(alice.id)])
    await world.env.settle()
    assert result.ephemeral and result.response is not None
    assert result.response.content == "Choose a partner."
    assert cup.state().registrations == before.registrations
    assert contents(world) == posts


async def test_the_desk_answers_in_the_language_chosen_with_spades_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    """Bob's Discord app is English but he chose French: the desk's answers,
    its refusals included, are French like every other private answer."""
    alice = world.user("alice")
    bob = person(world, locales, "bob", "en-US")
    await bob.slash(world.channel, "spades language", language="fr")
    cup = Cup(world, alice)
    await cup.open()
    texts = []
    for label in ("Register alone", "Register alone", "Register"):
        result = await cup.click(bob, label)
        assert result.ephemeral and result.response is not None
        texts.append(result.response.content)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label="forged", custom_id="tourney:"
    )
    bogus = await bob.click(await crafted(world, button), label="forged")
    assert bogus.response is not None
    texts.append(bogus.response.content)
    assert texts == [
        "Vous êtes inscrit seul.",
        "Vous êtes déjà inscrit à ce tournoi.",
        "Vous êtes déjà inscrit à ce tournoi.",  # the partner menu is not opened
        "Ce tournoi n’est plus en cours.",
    ]
