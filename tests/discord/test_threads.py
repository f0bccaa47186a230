"""A thread per table: the table message in the channel, everything else the
table says in a thread started from it; and the channel when threads are not
to be had."""

from __future__ import annotations

import discord
import pytest

from bot.tables.model import Table
from tests.discord.harness import World, embed_text, finished
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)

# A generous wall-clock bound: a loaded 2-core machine needs more than half
# a second for the busiest step (a thread started while a game is dealt).
pytestmark = pytest.mark.simcord(settle_timeout=5.0)


@pytest.fixture
def table_settings() -> dict[str, object]:
    return {"thread_archive_after_s": 0.0}


def posts_in(world: World, channel_id: int) -> list[str]:
    """The content of every message the bot posted in the channel or thread,
    deleted ones included: through its own token or as the public follow-up
    of an interaction token (Discord's line saying a thread was started aside)."""
    bot_id = world.bot.user.id if world.bot.user else None
    return [
        str(payload.get("content") or "")
        for kind, event, payload in world.env.backend.transcript
        if kind == "GATEWAY"
        and event == "MESSAGE_CREATE"
        and payload["channel_id"] == str(channel_id)
        and payload["author"]["id"] == str(bot_id)
        and payload["type"] != discord.MessageType.thread_created.value
    ]


def archived(world: World, thread_id: int) -> bool:
    metadata = world.env.backend.get_channel(thread_id).thread_metadata
    return bool(metadata and metadata.archived)


async def ended(world: World) -> None:
    """Let the end of the game be posted, and the thread archived after it
    (which waits for the post a second at a time)."""
    for _second in range(3):
        await world.env.advance_time(1)


async def test_a_table_plays_to_its_end_in_its_thread(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    result = await alice.slash(world.channel, "spades new", target=250)
    assert result.response is not None
    assert "thread" not in result.response.content  # nothing to tell the host
    table = await world.table()
    [thread] = world.channel.threads
    assert table.thread_id == thread.id and thread.name == f"Spades table {table.id}"
    for person in (bob, carol, dave):
        await world.click(person, "Join")
    await world.click(alice, "Start")
    table = await world.play_until(finished)
    await ended(world)

    # The channel shows the table message only; it kept being updated.
    # Besides Discord's own line saying the thread was started.
    shown = world.channel.history()
    assert [m.type for m in shown] == [
        discord.MessageType.default,
        discord.MessageType.thread_created,
    ]
    assert shown[0].id == table.message_id
    assert "win" in embed_text(world.table_message())
    in_thread = posts_in(world, thread.id)
    assert any("your turn to bid" in text for text in in_thread)
    assert any("your turn to play" in text for text in in_thread)
    assert f"Table {table.id}:" in in_thread[-1] and "win" in in_thread[-1]
    assert posts_in(world, world.channel.id) == [""]  # the table message (an embed)
    assert archived(world, thread.id)


async def resigned(world: World) -> Table:
    """Four people start a game and the host resigns it: the table, over,
    with the end of the game posted in its thread."""
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    await world.click(alice, "Start")
    asked = await alice.slash(world.channel, "spades resign")
    assert asked.response is not None
    await alice.click(asked.response, label="Yes, resign")
    await ended(world)
    table = await world.table_any()
    assert table.thread_id is not None and table.result is not None
    assert f"Table {table.id}:" in posts_in(world, table.thread_id)[-1]
    return table


async def test_a_rematch_keeps_its_thread_open(world: World) -> None:
    table = await resigned(world)
    assert table.thread_id is not None
    assert archived(world, table.thread_id)
    await world.click(world.user("bob"), "Rematch: same teams")
    await world.env.settle()
    table = await world.table()
    assert table.thread_id is not None and table.game_number == 2
    assert "your turn to bid" in posts_in(world, table.thread_id)[-1]


async def test_without_the_thread_permission_the_table_plays_in_the_channel(
    world: World,
) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    me = world.guild.me
    assert me is not None
    channel = world.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    result = await alice.slash(channel, "spades new")
    assert result.response is not None
    told = result.response.content.splitlines()
    assert told[-1] == (
        "The table plays in this channel: give me the Create Public Threads permission "
        "for a thread per table."
    )
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None and table.thread_id is None
    assert channel.threads == []
    await world.click(bob, "Join", world.table_message(channel))
    assert (await world.bot.app.tables.get(table.id)).seat_of(bob.id) == 1


async def test_the_host_hears_why_there_is_no_thread_in_their_own_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    """A French app on an English server: the table speaks English, the
    host's private answer French, its line about the thread included."""
    amelie = world.user("amelie")
    locales[amelie.id] = "fr"
    me = world.guild.me
    assert me is not None
    channel = world.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    result = await amelie.slash(channel, "spades new")
    assert result.ephemeral and result.response is not None
    opened, no_thread = result.response.content.splitlines()
    assert opened.startswith("La table 1 est ouverte")
    assert no_thread == (
        "La table se joue dans ce salon : donne-moi la permission Create Public Threads pour "
        "avoir un fil par table."
    )
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None and table.language == "en"


async def test_a_table_opened_in_a_thread_tells_the_host_in_their_own_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    hans = world.user("hans")
    locales[hans.id] = "de"
    parent = world.bot.get_channel(world.channel.id)
    assert isinstance(parent, discord.TextChannel)
    await parent.create_thread(name="side", type=discord.ChannelType.public_thread)
    [side] = world.channel.threads
    result = await hans.slash(side, "spades new")
    assert result.ephemeral and result.response is not None
    assert result.response.content.splitlines()[-1] == (
        "In diesem Kanal sind keine Threads möglich: Der Tisch spielt hier."
    )


async def test_a_table_opened_without_a_thread_talks_in_its_channel(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, thread=False)
    await world.click(alice, "Start")
    await world.env.settle()
    assert world.channel.threads == []
    assert any("your turn to bid" in text for text in posts_in(world, world.channel.id))


async def test_a_thread_deleted_mid_game_loses_nothing(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave, target=250)
    await world.click(alice, "Start")
    table = await world.table()
    thread_id = table.thread_id
    assert thread_id is not None
    world.env.backend.delete_channel(thread_id)
    await world.env.settle()
    table = await world.play_until(finished)
    await world.env.settle()
    assert table.result is not None
    # Notices, then the end of the game, came to the channel instead.
    in_channel = posts_in(world, world.channel.id)
    assert any("your turn to" in text for text in in_channel)
    assert f"Table {table.id}:" in in_channel[-1]
    assert (await world.bot.app.tables.get(table.id)).thread_id is None


async def test_the_thread_survives_a_restart(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.seat_four(alice, bob, carol, dave)
    table = await world.table()
    await world.restart()
    again: Table = await world.table()
    assert again.thread_id == table.thread_id is not None
    # A command typed in the thread finds its table.
    thread = world.channel.threads[0]
    result = await bob.slash(thread, "spades rules")
    assert result.response is not None and result.ephemeral
    await world.click(alice, "Start")
    await world.env.settle()
    assert any("your turn to bid" in text for text in posts_in(world, thread.id))


@pytest.mark.parametrize("table_settings", [{"thread_archive_after_s": 600.0}])
async def test_a_restart_before_the_rematch_window_closes_still_archives(world: World) -> None:
    table = await resigned(world)
    assert table.thread_id is not None
    assert not archived(world, table.thread_id)

    await world.restart()  # the rematch window is still open: the thread too
    await world.env.advance_time(300)
    assert not archived(world, table.thread_id)
    await world.env.advance_time(300)
    assert archived(world, table.thread_id)


async def test_a_table_opened_before_its_server_is_known_gets_its_thread(world: World) -> None:
    """Just after a restart, before the server's channels reached the bot, a
    host opens a table: its thread is started once the server is known,
    instead of the table playing in the channel for want of a cache."""
    alice = world.user("alice")
    servers = await world.restart_without_servers()
    await world.sync()
    result = await alice.slash(world.channel, "spades new", target=250)
    assert world.channel.threads == []
    # Deferred: the host's answer waits for the thread, which waits for the server.
    assert result.response is not None and result.response.content == ""
    await servers.arrive()
    table = await world.table()
    [thread] = world.channel.threads
    assert table.thread_id == thread.id
    assert result.response is not None and "thread" not in result.response.content
