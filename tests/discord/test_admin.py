"""``/spades-admin``: a server's settings, kept by its moderators, and what
they do to the tables opened there. Every refusal is one private line and
changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from simcord import MemberActor, SetupError, assert_error

from bot.refusals import ServerNotKnown
from bot.servers import ServerSettings
from cogs import admin
from cogs.errors import InteractionRefused
from tests.discord.harness import World, embed_text, labels_of
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)

NOT_A_MODERATOR = "Only members who may manage this server change its settings."


def moderator(world: World, name: str = "mod") -> MemberActor:
    role = world.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user(name), roles=[role])


def answer(result: simcord.InteractionResult) -> str:
    assert result.ephemeral and result.response is not None, result
    return result.response.content


def refusal(world: World, result: simcord.InteractionResult) -> str:
    """The private line of a refused command, answered by the error path."""
    assert_error(world.env, InteractionRefused)
    return answer(result)


async def settings(world: World) -> ServerSettings:
    return await world.bot.app.servers.of(world.guild.id)


async def started(world: World) -> list[MemberActor]:
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people)
    await world.click(people[0], "Start")
    return people


async def test_moderators_set_everything_and_it_survives_a_restart(world: World) -> None:
    mod = moderator(world)
    results = world.guild.create_text_channel("results")
    players = world.guild.create_role("Players")
    news = world.guild.create_role("Spades news")
    added = await mod.slash(world.channel, "spades-admin channels add", channel=world.channel)
    assert answer(added) == f"Tables may open in <#{world.channel.id}>."
    await mod.slash(world.channel, "spades-admin host-role", role=players)
    await mod.slash(world.channel, "spades-admin notify-role", role=news)
    await mod.slash(world.channel, "spades-admin results-channel", channel=results)
    defaults = await mod.slash(world.channel, "spades-admin defaults", target=250, hints=True)
    assert answer(defaults) == "Defaults of a new table: hints=True, target=250"

    await world.restart()
    shown = answer(await mod.slash(world.channel, "spades-admin show"))
    assert f"Channels for tables: <#{world.channel.id}>" in shown
    assert f"Who may open tables: <@&{players.id}>" in shown
    assert f"Role told of new tables: <@&{news.id}>" in shown
    assert f"Results channel: <#{results.id}>" in shown
    assert "Defaults of a new table: hints=True, target=250" in shown
    listed = answer(await mod.slash(world.channel, "spades-admin channels list"))
    assert listed == f"Tables may open only in: <#{world.channel.id}>"

    await mod.slash(world.channel, "spades-admin channels remove", channel=world.channel)
    await mod.slash(world.channel, "spades-admin host-role", action="clear")
    await mod.slash(world.channel, "spades-admin notify-role", action="clear")
    await mod.slash(world.channel, "spades-admin results-channel", action="clear")
    await mod.slash(world.channel, "spades-admin defaults", reset=True)
    assert await settings(world) == ServerSettings()
    listed = answer(await mod.slash(world.channel, "spades-admin channels list"))
    assert listed == "Tables may open in any channel."


async def test_the_command_is_hidden_from_others_and_checked_again(world: World) -> None:
    alice = world.user("alice")
    assert not any(c.startswith("spades-admin") for c in alice.available_commands(world.channel))
    with pytest.raises(SetupError, match="default-member-permissions"):
        await alice.slash(world.channel, "spades-admin show")
    # The server lets a role use the command, but its members still may not
    # manage the server: the bot refuses.
    helpers = world.guild.create_role("Helpers")
    helper = world.guild.add_member(world.env.create_user("helper"), roles=[helpers])
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "spades-admin")
    world.guild.set_command_permissions(command, {helpers: True})
    tries: list[tuple[str, dict[str, object]]] = [
        ("spades-admin show", {}),
        ("spades-admin channels add", {"channel": world.channel}),
        ("spades-admin host-role", {"role": helpers}),
        ("spades-admin defaults", {"target": 250}),
    ]
    for name, options in tries:
        refused = await helper.slash(world.channel, name, **options)
        assert refusal(world, refused) == NOT_A_MODERATOR
    assert await settings(world) == ServerSettings()


async def test_bad_values_are_refused_and_change_nothing(world: World) -> None:
    mod = moderator(world)
    other = world.guild.create_text_channel("other")
    refused = await mod.slash(world.channel, "spades-admin channels remove", channel=other)
    assert refusal(world, refused) == f"<#{other.id}> is not in the list."
    refused = await mod.slash(world.channel, "spades-admin host-role")
    assert refusal(world, refused) == "Choose a role, or clear."
    everyone = world.guild.default_role
    refused = await mod.slash(world.channel, "spades-admin notify-role", role=everyone)
    assert refusal(world, refused) == "Choose a role other than @everyone."
    refused = await mod.slash(world.channel, "spades-admin results-channel")
    assert refusal(world, refused) == "Choose a channel, or clear."
    # Out of range: Discord itself refuses (the bounds are on the option).
    with pytest.raises(simcord.OptionError):
        await mod.slash(world.channel, "spades-admin defaults", turn_limit=0)
    assert await settings(world) == ServerSettings()


async def test_the_channel_list_refuses_new_tables_elsewhere(world: World) -> None:
    mod = moderator(world)
    games = world.guild.create_text_channel("games")
    await mod.slash(world.channel, "spades-admin channels add", channel=games)
    alice = world.user("alice")
    refused = await alice.slash(world.channel, "spades new")
    assert refusal(world, refused) == f"Tables open only in: <#{games.id}>"
    assert await world.bot.app.tables.in_channel(world.channel.id) is None
    opened = await alice.slash(games, "spades new")
    assert opened.ephemeral
    assert await world.bot.app.tables.in_channel(games.id) is not None
    # A thread counts as its parent channel.
    parent = world.bot.get_channel(games.id)
    assert isinstance(parent, discord.TextChannel)
    await parent.create_thread(name="side game", type=discord.ChannelType.public_thread)
    thread = games.threads[0]
    assert answer(await world.user("bob").slash(thread, "spades new")).startswith("Table ")


async def test_a_host_role_refuses_others(world: World) -> None:
    mod = moderator(world)
    hosts = world.guild.create_role("Hosts")
    await mod.slash(world.channel, "spades-admin host-role", role=hosts)
    refused = await world.user("alice").slash(world.channel, "spades new")
    assert refusal(world, refused) == f"Only members with <@&{hosts.id}> open tables here."
    assert await world.bot.app.tables.in_channel(world.channel.id) is None
    host = world.guild.add_member(world.env.create_user("host"), roles=[hosts])
    await world.new_table(host)


async def test_a_server_not_known_yet_limits_nobody_by_accident(world: World) -> None:
    """Just after a restart, before the server's roles and channels reached
    the bot, its limits cannot be checked: a new table and a moderator's
    setting are answered "try again" (not "that role no longer exists",
    which would let everyone open tables), and nothing changes; once the
    server is known, the limits hold again."""
    mod = moderator(world)
    hosts = world.guild.create_role("Hosts")
    lounge = world.guild.create_text_channel("lounge")
    await mod.slash(world.channel, "spades-admin host-role", role=hosts)
    servers = await world.restart_without_servers()
    await world.sync()
    alice = world.user("alice")
    early = await alice.slash(world.channel, "spades new")
    assert answer(early) == "The bot is restarting: try again in a moment."
    assert await world.bot.app.tables.in_channel(world.channel.id) is None
    added = await mod.slash(world.channel, "spades-admin channels add", channel=lounge)
    assert answer(added) == "The bot is restarting: try again in a moment."
    assert (await settings(world)).channels == ()
    posts = len(world.channel.history())
    board = await alice.slash(world.channel, "spades leaderboard", share=True)
    assert answer(board) == "The bot is restarting: try again in a moment."
    assert len(world.channel.history()) == posts  # no board without the server's name
    assert_error(world.env, ServerNotKnown)
    assert_error(world.env, app_commands.TransformerError)

    await servers.arrive()
    refused = await alice.slash(world.channel, "spades new")
    assert refusal(world, refused) == f"Only members with <@&{hosts.id}> open tables here."


async def test_defaults_apply_under_the_hosts_choices(world: World) -> None:
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin defaults", target=250, revokes="blocked")
    table = await world.new_table(world.user("alice"), revokes="allowed")
    assert table.options.target == 250  # the server's default
    assert table.options.revokes == "allowed"  # the host's choice wins


async def test_the_servers_computer_level_plays_at_its_tables(world: World) -> None:
    mod = moderator(world)
    done = await mod.slash(world.channel, "spades-admin defaults", computer_level="heuristic")
    assert answer(done) == "Defaults of a new table: computer_level=heuristic"
    alice = world.user("alice")
    await world.new_table(alice)
    await world.click(alice, "Add computer players")
    table = await world.table()
    assert [s.computer_level for s in table.seats[1:]] == ["heuristic"] * 3


async def test_house_rules_by_default_read_as_the_simulators(world: World) -> None:
    mod = moderator(world)
    refused = await mod.slash(world.channel, "spades-admin defaults", house="deck=foo")
    assert refusal(world, refused) == (
        "Those defaults do not fit together: bad value deck=foo: "
        "expected standard|jokers|jokers-deuce|jjdd"
    )
    assert await settings(world) == ServerSettings()
    done = await mod.slash(world.channel, "spades-admin defaults", house="bidding=whiz")
    assert answer(done) == "Defaults of a new table: house=bidding=whiz"
    table = await world.new_table(world.user("alice"))
    assert table.options.house.text == "bidding=whiz"
    await mod.slash(world.channel, "spades-admin defaults", house="-")
    assert await settings(world) == ServerSettings()


async def test_house_rules_that_conflict_are_refused_in_the_moderator_s_language(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    mod = moderator(world)
    locales[mod.id] = "fr"
    house = "teams=solo,bidding=suicide"
    refused = await mod.slash(world.channel, "spades-admin defaults", house=house)
    assert refusal(world, refused) == (
        "Ces réglages par défaut ne vont pas ensemble : les enchères suicide demandent des "
        "partenaires : elles ne se jouent pas en solo"
    )
    assert await settings(world) == ServerSettings()


async def test_a_new_table_mentions_the_notify_role_only(world: World) -> None:
    mod = moderator(world)
    news = world.guild.create_role("Spades news")
    await mod.slash(world.channel, "spades-admin notify-role", role=news)
    table = await world.new_table(world.user("alice"))
    mentions = [m for m in world.channel.history() if f"<@&{news.id}>" in m.content]
    assert len(mentions) == 1
    assert f"table {table.id}" in mentions[0].content
    assert mentions[0].role_mentions and mentions[0].role_mentions[0].id == news.id
    assert not mentions[0].mentions  # no person is pinged


async def test_a_finished_game_is_announced_in_the_results_channel(world: World) -> None:
    mod = moderator(world)
    results = world.guild.create_text_channel("results")
    await mod.slash(world.channel, "spades-admin results-channel", channel=results)
    people = await started(world)
    asked = await people[1].slash(world.channel, "spades resign")
    assert asked.response is not None
    await people[1].click(asked.response, label="Yes, resign")
    await world.bot.app.wait_background()
    await world.env.settle()
    posted = [m for m in results.history() if m.attachments]
    assert len(posted) == 1
    assert posted[0].attachments[0].filename.endswith(".png")
    at_table = [m for m in world.talk().history() if m.attachments]
    assert at_table and at_table[-1].content == posted[0].content


async def test_a_moderator_ends_a_game_in_progress(world: World) -> None:
    mod = moderator(world)
    people = await started(world)
    table = await world.table()
    done = await mod.slash(
        world.channel, "spades-admin end", table=table.id, reason="stuck for a week"
    )
    assert answer(done) == f"Table {table.id} is ended."
    await world.bot.app.wait_background()
    await world.env.settle()
    ended = await world.table(table.id)
    assert ended.result is not None and ended.result.winner is None
    assert ended.result.note == "stuck for a week"
    shown = embed_text(world.table_message())
    assert "Ended by a moderator" in shown and "stuck for a week" in shown
    post = [m for m in world.talk().history() if m.attachments][-1]
    assert "ended by a moderator" in post.content and "stuck for a week" in post.content
    assert "Not rated." in post.content
    # Nothing rated, nobody's result changed; the history says how it ended.
    stats = await world.bot.app.stats.player_stats(world.guild.id, people[0].id)
    assert stats is not None
    assert (stats.tally.wins, stats.tally.losses, stats.tally.draws) == (0, 0, 0)
    assert stats.rated_games == 0
    history = await people[0].slash(world.channel, "spades history")
    assert history.response is not None
    listed = embed_text(history.response)
    assert "**No winner**" in listed and "(ended by a moderator: stuck for a week)" in listed
    for person in people:
        shown_stats = await person.slash(world.channel, "spades stats")
        assert shown_stats.response is not None
        assert "(ended by a moderator: stuck for a week)" in embed_text(shown_stats.response)
    # Over now: a second end is refused.
    again = await mod.slash(world.channel, "spades-admin end", table=table.id, reason="again")
    assert refusal(world, again) == f"Table {table.id} is already over."


async def test_ending_a_table_of_another_server_is_refused(world: World) -> None:
    other = world.env.create_guild("Other Club")
    elsewhere = other.create_text_channel("cards")
    alice = other.add_member(world.env.create_user("alice"))
    await alice.slash(elsewhere, "spades new")
    foreign = await world.bot.app.tables.in_channel(elsewhere.id)
    assert foreign is not None
    mod = moderator(world)
    refused = await mod.slash(world.channel, "spades-admin end", table=foreign.id, reason="x")
    assert refusal(world, refused) == f"There is no table {foreign.id} on this server."
    assert (await world.bot.app.tables.get(foreign.id)).is_open
    refused = await mod.slash(world.channel, "spades-admin end", table=999, reason="x")
    assert refusal(world, refused) == "There is no table 999 on this server."


async def test_a_moderator_closes_a_table_still_in_its_lobby(world: World) -> None:
    mod = moderator(world)
    table = await world.new_table(world.user("alice"))
    done = await mod.slash(world.channel, "spades-admin end", table=table.id, reason="spam")
    assert answer(done) == f"Table {table.id} is ended."
    assert not (await world.table(table.id)).is_open
    await world.bot.app.wait_background()
    await world.env.settle()

    def says_a_moderator_ended_it() -> None:
        shown = embed_text(world.table_message())
        assert "**Ended by a moderator** before the game began. spam" in shown
        assert "The host closed this table." not in shown
        assert "Join" not in labels_of(world.table_message())

    says_a_moderator_ended_it()
    # The reason is stored with the close: a restart draws it again the same.
    await world.restart()
    reloaded = await world.table(table.id)
    assert reloaded.closing_note == "spam"
    world.bot.presenter.show(world.bot.app.snapshot(reloaded), check=True)
    await world.bot.presenter.wait_shown(table.id)
    await world.env.settle()
    says_a_moderator_ended_it()
    again = await mod.slash(world.channel, "spades-admin end", table=table.id, reason="again")
    assert refusal(world, again) == f"Table {table.id} is already over."


async def test_a_deleted_role_or_channel_limits_nobody(world: World) -> None:
    mod = moderator(world)
    hosts = world.guild.create_role("Hosts")
    games = world.guild.create_text_channel("games")
    await mod.slash(world.channel, "spades-admin host-role", role=hosts)
    await mod.slash(world.channel, "spades-admin channels add", channel=games)
    world.env.backend.delete_role(world.guild.id, hosts.id)
    world.env.backend.delete_channel(games.id)
    await world.env.settle()
    table = await world.new_table(world.user("alice"))
    assert table.channel_id == world.channel.id


def _interaction(guild: object) -> Any:
    return SimpleNamespace(guild=guild, extras={}, locale=discord.Locale.american_english)


def test_a_role_or_channel_of_another_server_or_deleted_is_refused() -> None:
    """What Discord would not normally offer, but a stale client may send."""
    here = SimpleNamespace(
        id=1, unavailable=False, get_channel=lambda _: None, get_role=lambda _: None
    )
    elsewhere = SimpleNamespace(id=2)
    interaction = _interaction(here)
    foreign_channel: Any = SimpleNamespace(id=5, guild=elsewhere)
    foreign_role: Any = SimpleNamespace(id=6, guild=elsewhere)
    gone_channel: Any = SimpleNamespace(id=7, guild=here)
    gone_role: Any = SimpleNamespace(id=8, guild=here)
    cases: list[tuple[Callable[[], int], str]] = [
        (
            lambda: admin._own_channel(interaction, foreign_channel),
            "That channel is not on this server.",
        ),
        (lambda: admin._own_channel(interaction, gone_channel), "That channel no longer exists."),
        (lambda: admin._own_role(interaction, foreign_role), "That role is not on this server."),
        (lambda: admin._own_role(interaction, gone_role), "That role no longer exists."),
    ]
    for check, line in cases:
        with pytest.raises(InteractionRefused) as refused:
            check()
        assert refused.value.message == line


async def test_thread_and_watchers_by_default_and_the_host_overrides(world: World) -> None:
    mod = moderator(world)
    done = await mod.slash(world.channel, "spades-admin defaults", thread=False, watchers=False)
    assert answer(done) == "Defaults of a new table: thread=False, watchers=False"
    shown = answer(await mod.slash(world.channel, "spades-admin show"))
    assert "Defaults of a new table: thread=False, watchers=False" in shown

    alice, bob, carol, dave, eve = (world.user(n) for n in ("alice", "bob", "carol", "dave", "eve"))
    table = await world.seat_four(alice, bob, carol, dave)
    assert not table.options.thread and not table.options.watchers
    assert table.thread_id is None and world.channel.threads == []
    closed = await world.click(eve, "Join")
    assert [m.content for m in closed.followups] == ["This table is closed to watchers."]

    # A host chooses otherwise at their table.
    games = world.guild.create_text_channel("games")
    await eve.slash(games, "spades new", thread=True, watchers=True)
    own = await world.bot.app.tables.in_channel(games.id)
    assert own is not None and own.options.thread and own.options.watchers
    assert own.thread_id is not None and len(games.threads) == 1
