"""The leaderboard commands through SimCord: the real bot, a simulated Discord."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image
from simcord import MemberActor

from bot.config import DatabaseSettings, Settings, TableSettings
from bot.discord_app import SpadesBot
from cogs.components import SpadesComponent
from cogs.errors import InteractionRefused
from cogs.leaderboard import LeaderboardCog
from tests.discord.harness import UNPACED
from tests.stats.replay import replay_actions, replay_hands

from .games import Clock, Tables, resign_after


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord=UNPACED,
        database=DatabaseSettings(path=tmp_path / "spades.db"),
        tables=TableSettings(computer_delay_s=0.0, turn_ping_delay_s=0.0),
    )


class Club:
    """A server with channels and members, and games played at its tables."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.guild = env.create_guild("Card Club")
        self.channel = self.guild.create_text_channel("spades")
        self.members: dict[str, MemberActor] = {}
        self.channel_of_game: dict[int, simcord.ChannelHandle] = {}

    @property
    def bot(self) -> SpadesBot:
        assert isinstance(self.env.bot, SpadesBot)
        return self.env.bot

    @property
    def cog(self) -> LeaderboardCog:
        cog = self.bot.get_cog("LeaderboardCog")
        assert isinstance(cog, LeaderboardCog)
        return cog

    def member(self, name: str) -> MemberActor:
        if name not in self.members:
            self.members[name] = self.guild.add_member(self.env.create_user(name))
        return self.members[name]

    async def play(self, names: list[str], loser_seat: int = 1, computers: int = 0) -> int:
        """A game at a table in a channel of its own, lost by ``loser_seat``
        resigning at once; returns the game's id."""
        channel = self.guild.create_text_channel(f"table-{len(self.members)}-{names[0]}")
        users = [self.member(n).id for n in names]
        tables = Tables(self.bot.app.tables, self.cog.stats, Clock())
        table = await tables.play(
            self.guild.id,
            users,
            computers=computers,
            scenario=resign_after(0, seat=loser_seat),
            channel_id=channel.id,
        )
        await self.background_done()
        assert table.game_id is not None
        self.channel_of_game[table.game_id] = channel
        return table.game_id

    async def background_done(self) -> None:
        """Wait for the bot's background work (counting the game, posting its
        picture). ``settle`` joins only the work that Discord events started,
        and these games are played straight through the table service."""
        await self.bot.app.wait_background()
        await self.env.settle()


@pytest.fixture
async def club(simcord_env: simcord.Env) -> Club:
    club = Club(simcord_env)
    await club.bot.sync_commands()
    return club


def refused(club: Club) -> None:
    """The command was refused through the one error path (SimCord records it)."""
    simcord.assert_error(club.env, InteractionRefused)


def buttons(message: Any) -> dict[str, dict[str, Any]]:
    rows = message.components
    items = [item for row in rows for item in row["components"]]
    return {item["label"]: item for item in items}


async def test_the_commands_are_in_the_spades_group(club: Club) -> None:
    alice = club.member("alice")
    available = alice.available_commands(club.channel)
    for name in ("leaderboard", "stats", "history", "rating-settings"):
        assert f"spades {name}" in available
    assert "spades new" in available


async def test_a_server_with_no_games(club: Club) -> None:
    alice = club.member("alice")
    board = await alice.slash(club.channel, "spades leaderboard")
    assert board.ephemeral and board.response is not None
    [embed] = board.response.embeds
    assert "Nobody has a rating" in (embed.description or "")
    assert embed.footer.text == "Page 1/1 · 0 players · by rating"
    found = buttons(board.response)
    assert found["◀ Prev"]["disabled"] and found["Next ▶"]["disabled"]
    wins = await alice.click(board.response, label="By wins")
    assert wins.response is not None
    assert "No finished games" in (wins.response.embeds[0].description or "")
    for command in ("spades stats", "spades history"):
        answer = await alice.slash(club.channel, command)
        assert answer.ephemeral and answer.response is not None
        assert answer.response.content == "You have no finished games on this server yet."
        refused(club)


async def test_the_leaderboard_pages_and_sorts(club: Club) -> None:
    names = [f"p{n:02d}" for n in range(12)]
    for start in (0, 4, 8):
        await club.play(names[start : start + 4])
    await club.play(["p00", "p05", "p02", "p07"])  # p00 and p02 win again
    viewer = club.member("p00")
    board = await viewer.slash(club.channel, "spades leaderboard", share=True)
    assert not board.ephemeral and board.response is not None
    first = board.response.embeds[0]
    lines = (first.description or "").splitlines()
    assert len(lines) == 10 and first.footer.text == "Page 1/2 · 12 players · by rating"
    top = {club.member("p00").mention, club.member("p02").mention}
    assert {line.split()[2] for line in lines[:2]} == top  # two wins each
    second = await viewer.click(board.response, label="Next ▶")
    assert second.response is not None and second.response.id == board.response.id
    page_two = second.response.embeds[0]
    assert len((page_two.description or "").splitlines()) == 2
    assert page_two.footer.text == "Page 2/2 · 12 players · by rating"
    assert buttons(second.response)["Next ▶"]["disabled"]
    back = await viewer.click(second.response, label="◀ Prev")
    assert back.response is not None and back.response.embeds[0].description == first.description
    wins = await viewer.click(back.response, label="By wins")
    assert wins.response is not None
    assert (wins.response.embeds[0].description or "").splitlines()[0].endswith("· 100%")
    by_page = await viewer.slash(club.channel, "spades leaderboard", sort="wins", page=9)
    assert by_page.response is not None
    assert by_page.response.embeds[0].footer.text == "Page 2/2 · 12 players · by wins"


async def test_stats_of_a_player_and_of_one_without_games(club: Club) -> None:
    await club.play(["alice", "bob", "carol", "dave"])
    await club.play(["alice", "bob", "carol", "dave"], loser_seat=0)
    alice = club.member("alice")
    mine = await alice.slash(club.channel, "spades stats")
    assert mine.ephemeral and mine.response is not None
    fields = {f.name: f.value for f in mine.response.embeds[0].fields}
    assert fields["Games"] == "2 · 1W 1L 0D · 50%"
    assert club.member("carol").mention in (fields["Best partners"] or "")
    assert fields["Rating"] is not None and "(#" in fields["Rating"]
    carol = await alice.slash(club.channel, "spades stats", player=club.member("carol"))
    assert carol.response is not None
    assert carol.response.embeds[0].title == "carol · Card Club"
    erin = club.member("erin")
    none = await alice.slash(club.channel, "spades stats", player=erin)
    assert none.response is not None
    assert none.response.content == f"{erin.mention} has no finished games on this server yet."
    refused(club)


async def test_history_lists_games_and_sends_a_game_as_files(club: Club) -> None:
    first = await club.play(["alice", "bob", "carol", "dave"])
    second = await club.play(["alice", "bob"], computers=2)
    alice = club.member("alice")
    listing = await alice.slash(club.channel, "spades history")
    assert listing.ephemeral and listing.response is not None
    lines = (listing.response.embeds[0].description or "").splitlines()
    assert [line.split()[0] for line in lines] == [f"`#{second}`", f"`#{first}`"]
    # alice sits South: her partner is North's computer player, named by its seat.
    assert "with 🤖 Nell (random)" in lines[0] and "**Won**" in lines[1]

    record = await alice.slash(club.channel, "spades history", game=first)
    assert record.ephemeral and record.response is not None
    files = {a.filename: a for a in record.response.attachments}
    document = json.loads(await files[f"spades-game-{first}.json"].read())
    table_game = await club.cog.stats.finished_game(first)
    assert table_game is not None
    assert replay_hands(document) == table_game[0].final_scores
    assert tuple(replay_actions(document).scores) == table_game[0].final_scores
    picture = Image.open(io.BytesIO(await files[f"spades-game-{first}.png"].read()))
    assert picture.format == "PNG"

    missing = await alice.slash(club.channel, "spades history", game=first + 100)
    assert missing.response is not None
    assert missing.response.content == f"There is no finished game {first + 100} on this server."
    refused(club)


async def test_the_end_of_a_game_posts_its_picture(club: Club) -> None:
    game_id = await club.play(["alice", "bob", "carol", "dave"])
    posted = [
        m
        for m in club.channel_of_game[game_id].history()
        if any(a.filename == f"spades-game-{game_id}.png" for a in m.attachments)
    ]
    assert len(posted) == 1
    message = posted[0]
    assert "alice & carol win" in message.content and "Ratings:" in message.content
    assert "(+" in message.content and "(-" in message.content
    data = await message.attachments[0].read()
    assert Image.open(io.BytesIO(data)).format == "PNG"


async def test_only_server_managers_change_the_rating_setting(club: Club) -> None:
    bob = club.member("bob")
    shown = await bob.slash(club.channel, "spades rating-settings")
    assert shown.response is not None and "leave ratings alone" in shown.response.content
    denied = await bob.slash(club.channel, "spades rating-settings", computer_games=True)
    assert denied.response is not None
    assert denied.response.content == "Only members who can manage the server can change this."
    refused(club)
    boss_role = club.guild.create_role("boss", permissions=discord.Permissions(manage_guild=True))
    boss = club.guild.add_member(club.env.create_user("boss"), roles=[boss_role])
    changed = await boss.slash(club.channel, "spades rating-settings", computer_games=True)
    assert changed.response is not None and "change ratings" in changed.response.content
    await club.play(["alice", "bob"], computers=2)
    alice = await club.cog.stats.player_stats(club.guild.id, club.member("alice").id)
    assert alice is not None and alice.rated_games == 1


async def test_forged_and_stale_page_buttons(club: Club) -> None:
    await club.play(["alice", "bob", "carol", "dave"])
    alice = club.member("alice")
    forged = "spades-board:rating:lots:next"
    stale = "spades-board:wins:40:next"  # a page that no longer exists
    view = discord.ui.View(timeout=None)
    for custom_id in (forged, stale):
        button: discord.ui.Button[Any] = discord.ui.Button(label=custom_id, custom_id=custom_id)
        view.add_item(SpadesComponent.of(button, custom_id))
    channel = club.bot.get_partial_messageable(club.channel.id, guild_id=club.guild.id)
    message = await channel.send("old buttons", view=view)
    await club.env.settle()
    bad = await alice.click(message, custom_id=forged)
    assert bad.ephemeral and bad.response is not None
    assert bad.response.content == "That button is not valid."
    old = await alice.click(message, custom_id=stale)
    assert old.response is not None
    assert old.response.embeds[0].footer.text == "Page 1/1 · 4 players · by wins"


async def test_page_buttons_work_after_a_restart(
    club: Club, make_bot: Callable[[], SpadesBot]
) -> None:
    names = [f"p{n:02d}" for n in range(12)]
    for start in (0, 4, 8):
        await club.play(names[start : start + 4])
    viewer = club.member("p03")
    board = await viewer.slash(club.channel, "spades leaderboard", share=True)
    assert board.response is not None
    await club.env.restart_bot(make_bot())
    second = await viewer.click(board.response, label="Next ▶")
    assert second.response is not None
    assert second.response.embeds[0].footer.text == "Page 2/2 · 12 players · by rating"
    mine = await club.cog.stats.player_stats(club.guild.id, viewer.id)
    assert mine is not None and mine.tally.games == 1  # counted once, before the restart
