"""``/spades leaderboard``, ``/spades stats``, ``/spades history`` and the
end-of-game picture.

Thin glue: the commands ask :class:`~bot.stats.service.StatsService` and
render what it returns. The subcommands join the ``/spades`` group that
:mod:`cogs.spades` registers, so this cog loads after that one. It also
subscribes to the table service: when a game ends it is counted at once,
and a picture of the game's scores is posted in the table's channel.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands
from discord.ui import DynamicItem, Item

from bot.game.types import ENGINE_KINDS
from bot.stats.counting import RecordOutcome
from bot.stats.history import export_filename
from bot.stats.leaderboard import LeaderboardPage, SortKey, page_footer, page_text
from bot.stats.records import BadRecord, FinishedGame
from bot.stats.service import StatsService, chart_png, finished_from_table
from bot.stats.summary import history_line, stats_fields
from bot.tables.model import Table
from cogs.errors import Refusal, report
from db.stats_store import StatsStore

if TYPE_CHECKING:
    from bot.discord_app import SpadesBot

log = logging.getLogger(__name__)

BOARD_PREFIX = "spades-board"
# The sort, the page the button leads to, and which button (ids must differ).
BOARD_TEMPLATE = rf"{BOARD_PREFIX}:(?P<rest>.*)"
_BOARD_SHAPE = re.compile(r"(?P<sort>rating|wins):(?P<page>\d{1,6}):(?P<slot>prev|next|sort)")
COLOUR = 0x2B6CB0
MAX_PAGE = 999_999


def board_id(sort: SortKey, page: int, slot: str) -> str:
    return f"{BOARD_PREFIX}:{sort.value}:{page}:{slot}"


def board_message(page: LeaderboardPage, guild_name: str) -> dict[str, Any]:
    """The embed and buttons of one leaderboard page."""
    title = "Ratings" if page.sort is SortKey.RATING else "Most wins"
    embed = discord.Embed(
        title=f"{title} · {guild_name}", description=page_text(page), colour=COLOUR
    )
    embed.set_footer(text=page_footer(page))
    view = discord.ui.View(timeout=None)
    at = page.span.page
    other = SortKey.WINS if page.sort is SortKey.RATING else SortKey.RATING
    buttons = (
        ("◀ Prev", board_id(page.sort, max(at - 1, 0), "prev"), not page.has_previous),
        ("Next ▶", board_id(page.sort, at + 1, "next"), not page.has_next),
        (f"By {other.value}", board_id(other, 0, "sort"), False),
    )
    for label, custom_id, disabled in buttons:
        view.add_item(
            BoardButton(
                discord.ui.Button(
                    label=label,
                    custom_id=custom_id,
                    disabled=disabled,
                    style=discord.ButtonStyle.secondary,
                )
            )
        )
    return {"embed": embed, "view": view}


class BoardButton(DynamicItem[Item[Any]], template=BOARD_TEMPLATE):
    """A leaderboard page button; it works on any leaderboard message, after
    any restart. The id is checked in the callback, where a bad one can be
    answered (an exception in ``from_custom_id`` would leave it unanswered)."""

    def __init__(self, item: Item[Any], rest: str = "") -> None:
        super().__init__(item)
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        return cls(item, match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            cog = _cog(interaction)
            shape = _BOARD_SHAPE.fullmatch(self.rest)
            if shape is None:
                raise Refusal("That button is not valid.")
            guild = _guild_of(interaction)
            page = await cog.stats.leaderboard(
                guild.id, SortKey(shape["sort"]), min(int(shape["page"]), MAX_PAGE)
            )
            await interaction.response.edit_message(**board_message(page, guild.name))
        except Exception as exc:
            await report(interaction, exc)


def _cog(interaction: discord.Interaction[Any]) -> LeaderboardCog:
    cog = interaction.client.get_cog(LeaderboardCog.__cog_name__)
    if not isinstance(cog, LeaderboardCog):  # pragma: no cover - loaded with the commands
        raise RuntimeError("the leaderboard is not loaded")
    return cog


def _guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:
        raise Refusal("The leaderboard belongs to a server: use it in a server channel.")
    return interaction.guild


def _build_commands(cog: LeaderboardCog) -> list[app_commands.Command[Any, ..., None]]:
    """The subcommands, made per cog so that each bot gets its own objects."""

    @app_commands.command(name="leaderboard", description="This server's players ranked")
    @app_commands.describe(
        sort="Rank by rating (the default) or by wins",
        page="Page to open at",
        share="Post it in the channel for everyone (otherwise only you see it)",
    )
    @app_commands.choices(
        sort=[Choice(name="rating", value="rating"), Choice(name="wins", value="wins")]
    )
    async def leaderboard(
        interaction: discord.Interaction[Any],
        sort: str = "rating",
        page: app_commands.Range[int, 1, MAX_PAGE] = 1,
        share: bool = False,
    ) -> None:
        guild = _guild_of(interaction)
        found = await cog.stats.leaderboard(guild.id, SortKey(sort), page - 1)
        await interaction.response.send_message(
            **board_message(found, guild.name), ephemeral=not share
        )

    @app_commands.command(name="stats", description="A player's statistics on this server")
    @app_commands.describe(
        player="Whose statistics (yours if left out)",
        share="Post them in the channel for everyone (otherwise only you see them)",
    )
    async def stats(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        share: bool = False,
    ) -> None:
        guild = _guild_of(interaction)
        who = player or interaction.user
        found = await cog.stats.player_stats(guild.id, who.id)
        if found is None:
            raise Refusal(f"{_whose(interaction, who)} no finished games on this server yet.")
        embed = discord.Embed(title=f"{who.display_name} · {guild.name}", colour=COLOUR)
        for name, value in stats_fields(found):
            embed.add_field(name=name, value=value, inline=name not in _WIDE_FIELDS)
        await interaction.response.send_message(embed=embed, ephemeral=not share)

    @app_commands.command(
        name="history", description="Recent games, or one game's full record as a file"
    )
    @app_commands.describe(
        player="Whose games (yours if left out)",
        game="A game number from the list: its hand records and score picture",
    )
    async def history(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        guild = _guild_of(interaction)
        if game is not None:
            await cog.send_game(interaction, guild.id, game)
            return
        who = player or interaction.user
        games = await cog.stats.recent_games(guild.id, who.id)
        if not games:
            raise Refusal(f"{_whose(interaction, who)} no finished games on this server yet.")
        embed = discord.Embed(
            title=f"Recent games of {who.display_name}",
            description="\n".join(history_line(g) for g in games),
            colour=COLOUR,
        )
        embed.set_footer(text="/spades history game:<number> gives a game's full record")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="rating-settings",
        description="Whether games with computer players change ratings here (Manage Server)",
    )
    @app_commands.describe(computer_games="Rate games that had computer players in them")
    async def rating_settings(
        interaction: discord.Interaction[Any], computer_games: bool | None = None
    ) -> None:
        guild = _guild_of(interaction)
        if computer_games is not None:
            if not interaction.permissions.manage_guild:
                raise Refusal("Only members who can manage the server can change this.")
            await cog.stats.set_rate_computer_games(guild.id, computer_games)
        rated = await cog.stats.rate_computer_games(guild.id)
        text = (
            "Games with computer players change ratings on this server."
            if rated
            else "Games with computer players count in statistics but leave ratings alone."
        )
        await interaction.response.send_message(text, ephemeral=True)

    return [leaderboard, stats, history, rating_settings]


_WIDE_FIELDS = {"Revokes", "Best partners", "Games", "Points per hand"}


def _whose(interaction: discord.Interaction[Any], who: discord.abc.User) -> str:
    return "You have" if who.id == interaction.user.id else f"{who.mention} has"


class LeaderboardCog(commands.Cog):
    """Load after :class:`cogs.spades.SpadesCog`, once the store and the
    table service are open."""

    def __init__(self, bot: SpadesBot, *, names: Callable[[int], str | None] | None = None) -> None:
        self.bot = bot
        self.stats = StatsService(StatsStore(bot.store))
        self._names = names
        self._commands = _build_commands(self)
        self._unsubscribe: Callable[[], None] | None = None

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("spades")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /spades group must be registered before the leaderboard")
        for command in self._commands:
            group.add_command(command, override=True)
        self.bot.add_dynamic_items(BoardButton)
        self._unsubscribe = self.bot.service.subscribe(self.on_table_change)
        self.bot.spawn(self._catch_up(), "stats-catch-up")

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("spades")
        if isinstance(group, app_commands.Group):
            for command in self._commands:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(BoardButton)
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def _catch_up(self) -> None:
        counted = await self.stats.catch_up()
        if counted:
            log.info("counted %d finished games missed while the bot was stopped", counted)

    # -- the end of a game ---------------------------------------------------------

    async def on_table_change(self, table: Table, event: str) -> None:
        """Count a game as soon as it ends, then show its picture."""
        record = finished_from_table(table)
        if record is None or event not in ENGINE_KINDS:
            return
        outcome = await self.stats.record_game(record)
        if outcome is not None:  # counted just now: the picture is posted once
            self.bot.spawn(self._post_picture(table, record, outcome), f"game-picture-{table.id}")

    async def _post_picture(self, table: Table, game: FinishedGame, outcome: RecordOutcome) -> None:
        names = (await self._team_name(game, 0), await self._team_name(game, 1))
        png = chart_png(game, names)  # some 15 ms, once per game
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(
                content=end_text(table.id, game, names, outcome),
                file=discord.File(io.BytesIO(png), f"spades-game-{game.game_id}.png"),
            )
        except discord.HTTPException as exc:
            log.warning("could not post the picture of game %d: %s", game.game_id, exc)

    async def _team_name(self, game: FinishedGame, team: int) -> str:
        return " & ".join([await self._seat_name(game, seat) for seat in (team, team + 2)])

    async def _seat_name(self, game: FinishedGame, seat: int) -> str:
        player = game.seats[seat]
        if player.user_id is None:
            return f"{player.computer_level} computer"
        if self._names is not None and (name := self._names(player.user_id)):
            return name
        presenter_names: dict[int, str] = getattr(getattr(self.bot, "presenter", None), "names", {})
        if player.user_id in presenter_names:
            return presenter_names[player.user_id]
        user = self.bot.get_user(player.user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(player.user_id)
            except discord.HTTPException:
                return f"player {player.user_id % 10000:04d}"
        return user.display_name

    # -- one game's record ----------------------------------------------------------

    async def send_game(
        self, interaction: discord.Interaction[Any], guild_id: int, game_id: int
    ) -> None:
        """A game's hand records (JSON) and score picture, privately."""
        found = await self.stats.finished_game(game_id)
        if found is None or found[0].guild_id != guild_id:
            raise Refusal(f"There is no finished game {game_id} on this server.")
        game, _ = found
        data = await self.stats.export_history(guild_id, game_id)
        assert data is not None
        files = [discord.File(io.BytesIO(data), export_filename(game_id))]
        try:
            names = (await self._team_name(game, 0), await self._team_name(game, 1))
            png = chart_png(game, names)
            files.append(discord.File(io.BytesIO(png), f"spades-game-{game_id}.png"))
        except BadRecord as exc:  # the file still goes out; the picture cannot
            log.warning("no picture for game %d: %s", game_id, exc)
        await interaction.response.send_message(
            f"Game {game_id}: {len(game.hand_records)} hands, final score "
            f"{game.final_scores[0]}–{game.final_scores[1]}.",
            files=files,
            ephemeral=True,
        )


def end_text(
    table_id: int, game: FinishedGame, names: tuple[str, str], outcome: RecordOutcome
) -> str:
    """The words posted with the end-of-game picture."""
    s0, s1 = game.final_scores
    if game.winner is None:
        head = f"Table {table_id}: a draw at {s0}–{s1}."
    else:
        head = (
            f"Table {table_id}: {names[game.winner]} win "
            f"{game.final_scores[game.winner]}–{game.final_scores[1 - game.winner]}."
        )
    if not outcome.rated:
        return head + " Not rated (computer players took part)."
    moves = ", ".join(
        f"<@{c.user_id}> {c.after} ({c.after - c.before:+d})" for c in outcome.changes
    )
    return f"{head} Ratings: {moves}."


async def setup(bot: SpadesBot) -> None:
    """Extension entry point, for ``bot.load_extension("cogs.leaderboard")``
    after the store, the table service and :class:`cogs.spades.SpadesCog` are
    in place (the bot itself adds the cog directly)."""
    await bot.add_cog(LeaderboardCog(bot))
