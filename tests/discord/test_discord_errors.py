"""Discord failing under the bot: deleted messages, missing permissions, rate limits."""

from __future__ import annotations

import discord
import pytest

from tests.discord.harness import World, embed_text


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
