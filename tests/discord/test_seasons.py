"""Seasons through SimCord: ``/spades-admin season start|show``, the
``season:`` option of ``/spades leaderboard`` and the season in ``/spades
stats``; a closed season's leaderboard stays as it was, and its post reaches
the results channel once, across a restart."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.refusals import Refusal, UnknownSeason
from cogs.admin import SeasonPosts
from cogs.errors import InteractionRefused
from tests.discord.harness import World
from tests.discord.tournament_harness import final_under_way
from tests.stats.games import Clock, Tables, resign_after


def moderator(world: World) -> MemberActor:
    role = world.guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("mod"), roles=[role])


async def play(world: World, names: list[str], loser_seat: int = 1) -> None:
    """A finished game between four people (``loser_seat`` resigns at once),
    counted as the bot counts one, in a channel of its own."""
    channel = world.guild.create_text_channel(f"table-{'-'.join(names)}")
    tables = Tables(world.bot.app.tables, world.bot.app.stats, Clock())
    await tables.play(
        world.guild.id,
        [world.user(n).id for n in names],
        scenario=resign_after(0, seat=loser_seat),
        channel_id=channel.id,
    )
    await world.bot.app.wait_background()
    await world.env.settle()


def private(result: simcord.InteractionResult) -> Any:
    assert result.ephemeral and result.response is not None, result
    return result.response


async def board(world: World, viewer: MemberActor, **options: Any) -> discord.Embed:
    shown = private(await viewer.slash(world.channel, "spades leaderboard", **options))
    embed: discord.Embed = shown.embeds[0]
    return embed


def season_posts(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if "is over" in m.content]


async def test_a_closed_season_keeps_its_leaderboard_while_the_next_starts_afresh(
    world: World,
) -> None:
    mod = moderator(world)
    results = world.guild.create_text_channel("results")
    await mod.slash(world.channel, "spades-admin results-channel", channel=results)
    first_four = ["alice", "bob", "carol", "dave"]
    await play(world, first_four)  # alice and carol win
    await play(world, first_four)
    alice = world.user("alice")
    before = await board(world, alice)
    assert before.title == "Ratings · Card Club"  # no season yet: as ever

    started = private(await mod.slash(world.channel, "spades-admin season start", name=" Spring "))
    assert started.content == ("Season 1 is closed and kept. Spring begins: ratings start afresh.")
    [post] = season_posts(results)
    assert post.content == "**Season 1 is over.** Its final leaderboard:"
    assert post.embeds[0].description == before.description

    # The new season: bob and dave win twice with erin and frank in it.
    await play(world, ["bob", "alice", "dave", "erin"], loser_seat=1)
    await play(world, ["bob", "alice", "dave", "erin"], loser_seat=1)
    closed = await board(world, alice, season="1")
    assert closed.title == "Ratings · Season 1 · Card Club"
    assert closed.description == before.description  # unchanged by the games since
    running = await board(world, alice)
    assert running.title == "Ratings · Spring · Card Club"
    lines = (running.description or "").splitlines()
    assert len(lines) == 4 and "carol" not in (running.description or "")
    assert world.user("carol").mention not in (running.description or "")
    assert lines[0].split()[2] in (world.user("bob").mention, world.user("dave").mention)
    assert "2W 0L" in lines[0]
    named = await board(world, alice, season="spring")
    assert named.description == running.description
    everything = await board(world, alice, season="0")
    assert everything.title == "Ratings · All time · Card Club"
    assert len((everything.description or "").splitlines()) == 5

    # A page button of the closed season's board stays on that season.
    shown = private(await alice.slash(world.channel, "spades leaderboard", season="1"))
    by_wins = await alice.click(shown, label="By wins")
    assert by_wins.response is not None
    assert by_wins.response.embeds[0].title == "Most wins · Season 1 · Card Club"


async def test_stats_show_the_running_season_and_all_time(world: World) -> None:
    mod = moderator(world)
    await play(world, ["alice", "bob", "carol", "dave"])
    await mod.slash(world.channel, "spades-admin season start", name="Summer")
    alice = world.user("alice")
    fields = {
        f.name: f.value
        for f in private(await alice.slash(world.channel, "spades stats")).embeds[0].fields
    }
    assert fields["Summer"] == "no games yet this season"
    assert fields["Rating (all time)"] is not None and "(#1 of 4)" in fields["Rating (all time)"]
    await play(world, ["alice", "bob", "carol", "dave"], loser_seat=0)  # alice loses
    embed = private(await alice.slash(world.channel, "spades stats")).embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Summer"] is not None
    assert fields["Summer"].endswith("· 0W 1L 0D") and "(#3 of 4)" in fields["Summer"]
    assert fields["Games"] == "2 · 1W 1L 0D · 50%"  # all time
    assert [f.name for f in embed.fields][:2] == ["Summer", "Rating (all time)"]


async def test_a_server_without_seasons_sees_what_it_always_saw(world: World) -> None:
    mod = moderator(world)
    await play(world, ["alice", "bob", "carol", "dave"])
    shown = private(await mod.slash(world.channel, "spades-admin season show"))
    assert shown.content.startswith("**Seasons of this server**\n**Season 1** · since <t:")
    board = private(await mod.slash(world.channel, "spades leaderboard"))
    assert board.embeds[0].title == "Ratings · Card Club"
    ids = [item["custom_id"] for row in board.components for item in row["components"]]
    assert ids == [
        "spades-board:rating:0:prev",
        "spades-board:rating:1:next",
        "spades-board:wins:0:sort",
    ]
    stats = private(await world.user("alice").slash(world.channel, "spades stats"))
    assert stats.embeds[0].fields[0].name == "Rating"


async def test_season_show_lists_the_seasons_with_their_dates(world: World) -> None:
    mod = moderator(world)
    await play(world, ["alice", "bob", "carol", "dave"])
    await mod.slash(world.channel, "spades-admin season start", name="Autumn")
    await mod.slash(world.channel, "spades-admin season start", name="Winter")
    lines = private(await mod.slash(world.channel, "spades-admin season show")).content.split("\n")
    assert lines[0] == "**Seasons of this server**"
    assert lines[1].startswith("**Winter** · since <t:") and lines[1].endswith(":d> (running)")
    assert lines[2].startswith("**Autumn** · <t:") and " – <t:" in lines[2]
    assert lines[3].startswith("**Season 1** · <t:")


async def test_a_first_season_closed_before_any_game_shows_its_end(world: World) -> None:
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin season start", name="Autumn")
    lines = private(await mod.slash(world.channel, "spades-admin season show")).content.split("\n")
    assert lines[2].startswith("**Season 1** · until <t:") and lines[2].endswith(":d>")


async def test_the_season_option_offers_the_seasons_by_name(world: World) -> None:
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin season start", name="Spring Cup")
    await mod.slash(world.channel, "spades-admin season start", name="Summer")
    alice = world.user("alice")
    offered = await alice.autocomplete(world.channel, "spades leaderboard", "season", "")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Summer", "3"),
        ("Spring Cup", "2"),
        ("Season 1", "1"),
        ("All time", "0"),
    ]
    typed = await alice.autocomplete(world.channel, "spades leaderboard", "season", "SPR")
    assert [c["value"] for c in typed] == ["2"]
    unknown = await alice.slash(world.channel, "spades leaderboard", season="Winter")
    assert private(unknown).content == "This server has no season called Winter."
    simcord.assert_error(world.env, UnknownSeason)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("   ", "Give the new season a name."),
        ("x" * 41, "A season's name has at most 40 characters."),
        ("SPRING", "This server already had a season called SPRING."),
    ],
)
async def test_a_bad_season_name_is_refused_and_changes_nothing(
    world: World, name: str, why: str
) -> None:
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin season start", name="Spring")
    before = await world.bot.app.stats.seasons(world.guild.id)
    refused = await mod.slash(world.channel, "spades-admin season start", name=name)
    assert private(refused).content == why
    simcord.assert_error(world.env, Refusal)
    assert await world.bot.app.stats.seasons(world.guild.id) == before


async def test_a_refusal_speaks_the_moderators_language(world: World) -> None:
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin season start", name="Spring")
    await mod.slash(world.channel, "spades language", language="de")
    refused = await mod.slash(world.channel, "spades-admin season start", name="spring")
    assert private(refused).content == "Dieser Server hatte schon eine Saison namens spring."
    simcord.assert_error(world.env, Refusal)


async def test_only_members_who_manage_the_server_start_a_season(world: World) -> None:
    alice = world.user("alice")
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await alice.slash(world.channel, "spades-admin season start", name="Mine")
    # A server lets a role use the command; its members still may not manage
    # the server, and the bot refuses.
    helpers = world.guild.create_role("Helpers")
    helper = world.guild.add_member(world.env.create_user("helper"), roles=[helpers])
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "spades-admin")
    world.guild.set_command_permissions(command, {helpers: True})
    for name, options in (
        ("spades-admin season start", {"name": "Mine"}),
        ("spades-admin season show", {}),
    ):
        refused = await helper.slash(world.channel, name, **options)
        assert (
            private(refused).content
            == "Only members who may manage this server change its settings."
        )
        simcord.assert_error(world.env, InteractionRefused)
    seasons = await world.bot.app.stats.seasons(world.guild.id)
    assert [(s.number, s.closed_at) for s in seasons] == [(1, None)]


async def test_a_closing_cut_short_by_a_restart_posts_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    mod = moderator(world)
    results = world.guild.create_text_channel("results")
    await world.bot.app.servers.change(world.guild.id, results_channel=results.id)
    await play(world, ["alice", "bob", "carol", "dave"])

    async def lost(*_args: object) -> None:
        """The process dies after the season's commit, before its post."""

    with monkeypatch.context() as patch:
        patch.setattr(SeasonPosts, "post", lost)
        await mod.slash(world.channel, "spades-admin season start", name="Spring")
    await world.env.settle()
    assert season_posts(results) == []
    await world.restart()
    await world.env.settle()
    [post] = season_posts(results)
    assert post.content == "**Season 1 is over.** Its final leaderboard:"
    await world.restart()
    await world.env.settle()
    assert len(season_posts(results)) == 1
    seasons = await world.bot.app.stats.seasons(world.guild.id)
    assert [(s.number, s.name, s.closed_at is None) for s in seasons] == [
        (1, None, False),
        (2, "Spring", True),
    ]


async def test_a_tournament_game_counts_in_the_season_it_ends_in(world: World) -> None:
    cup, final = await final_under_way(world)
    mod = moderator(world)
    await mod.slash(world.channel, "spades-admin season start", name="Cup season")
    await cup.resign(final, final.b or 0)
    await world.bot.app.wait_background()
    await world.env.settle()
    alice = world.user("alice")
    closed = await board(world, alice, season="1")
    assert closed.description is not None and closed.description.startswith("Nobody has a rating")
    running = await board(world, alice)
    assert running.title == "Ratings · Cup season · Card Club"
    assert len((running.description or "").splitlines()) == 4
