"""Discord failing under the bot: deleted messages, missing permissions, rate limits."""

from __future__ import annotations

import discord
import pytest

from tests.discord.harness import World, embed_text
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)


async def test_a_deleted_table_message_is_posted_again(world: World) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    moderator_role = world.guild.create_role(
        "moderator", permissions=discord.Permissions(manage_messages=True)
    )
    moderator = world.guild.add_member(world.env.create_user("mod"), roles=[moderator_role])
    table = await world.new_table(alice)
    first = world.table_message()
    await moderator.delete(first)

    second = world.table_message()
    assert second.id != first.id
    assert (await world.table()).message_id == second.id
    await world.click(bob, "Join", second)
    table = await world.table()
    assert table.seat_of(bob.id) == 1
    assert f"<@{bob.id}>" in embed_text(world.table_message())


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
async def test_an_edit_of_a_vanished_message_posts_it_again(world: World) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)
    first = world.table_message()
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=404, code=10008)
    await world.click(bob, "Join", first)
    second = world.table_message()
    assert second.id != first.id
    assert f"<@{bob.id}>" in embed_text(second)
    assert (await world.table()).message_id == second.id


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
async def test_missing_permissions_are_told_to_the_host(world: World) -> None:
    alice = world.user("alice")
    me = world.guild.me
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    result = await alice.slash(locked, "spades new")
    assert result.ephemeral and result.response is not None
    text = result.response.content
    assert "I need the Send Messages" in text and f"<#{locked.id}>" in text
    # The host also gets the news in a direct message, where it lasts.
    [direct] = alice.user.dm_channel.history()
    assert "Send Messages" in direct.content
    # The table itself is safe: it exists and waits for its message.
    table = await world.bot.app.tables.in_channel(locked.id)
    assert table is not None and table.message_id is None
    assert locked.history() == []


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
@pytest.mark.parametrize("missing", ["send_messages", "view_channel"])
async def test_the_host_hears_of_missing_permissions_in_their_own_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
    missing: str,
) -> None:
    """A Spanish app on an English server: the answer and the direct message
    are in Spanish, though the table speaks English."""
    lucia = world.user("lucia")
    locales[lucia.id] = "es-ES"
    me = world.guild.me
    assert me is not None
    locked = world.guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(**{missing: False})}
    )
    result = await lucia.slash(locked, "spades new")
    assert result.ephemeral and result.response is not None
    name = {"send_messages": "Send Messages", "view_channel": "View Channel"}[missing]
    told = (
        f"No puedo mostrar la mesa 1 en <#{locked.id}>: necesito allí el permiso {name}. "
        "Pide a un admin del servidor que lo conceda; la partida está a salvo y sigue en "
        "cuanto pueda publicar."
    )
    assert result.response.content == told
    [direct] = lucia.user.dm_channel.history()
    assert direct.content == told
    table = await world.bot.app.tables.in_channel(locked.id)
    assert table is not None and table.language == "en"


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
async def test_a_permission_lost_later_is_told_in_the_host_s_chosen_language(
    world: World,
) -> None:
    """The host chose Portuguese with /spades language: the direct message
    sent when the table message can no longer be edited, outside any
    interaction of theirs, is in Portuguese, though the table speaks English."""
    alice = world.user("alice")
    await alice.slash(world.channel, "spades language", language="pt_BR")
    await world.new_table(alice)
    me = world.guild.me
    channel = world.bot.get_channel(world.channel.id)
    assert me is not None and isinstance(channel, discord.TextChannel)
    await channel.set_permissions(me, view_channel=False)
    await world.click(world.user("bob"), "Join")
    await world.env.settle()
    [direct] = alice.user.dm_channel.history()
    assert direct.content.startswith("Não consigo mostrar a mesa 1 em"), direct.content


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
@pytest.mark.simcord(settle_timeout=0.5)
@pytest.mark.parametrize("status", [429, 503])
async def test_rate_limits_and_server_errors_are_retried(world: World, status: int) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=status, times=2)
    joined = await world.click(bob, "Join")
    assert joined.followups[0].content.startswith("You sit West")
    assert f"<@{bob.id}>" not in embed_text(world.table_message())
    await world.env.advance_time(1)
    assert f"<@{bob.id}>" not in embed_text(world.table_message())
    await world.env.advance_time(2)
    assert f"<@{bob.id}>" in embed_text(world.table_message())
