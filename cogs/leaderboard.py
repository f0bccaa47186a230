"""``/spades leaderboard``, ``/spades stats``, ``/spades history`` and the
end-of-game picture.

Thin glue: the commands ask :class:`~bot.stats.service.StatsService` and
answer with what :mod:`bot.render.leaderboard` and :mod:`bot.render.results`
draw. The subcommands are made here and handed to the ``/spades`` group
of :mod:`cogs.spades`. The cog also subscribes to the table service: when a
game ends it is counted in the background (no click waits for it), and a
picture of the game's scores is posted in the table's channel.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import Change, Snapshot, SpadesApp
from bot.i18n import N_, tr
from bot.render import leaderboard as screens
from bot.render.house_rules import rules_line
from bot.render.replay import replay_button
from bot.render.results import end_of_game_text, game_record_text, side_names
from bot.render.spec import MessageSpec, chunk
from bot.render.tournament_text import placings_text
from bot.stats.chart import chart_png
from bot.stats.history import export_filename
from bot.stats.leaderboard import LeaderboardPage, SortKey
from bot.stats.records import BadRecord, FinishedGame
from bot.stats.seasons import ALL_TIME, Season
from bot.stats.service import StatsService, finished_by, finished_from_table
from bot.tables.model import Table
from bot.tournament.results import placings, tournament_matches
from cogs.components import (
    forget_components,
    handle_components,
    learn_language,
    message_fields,
    private_language,
    to_embed,
    to_view,
)
from cogs.errors import InteractionRefused, refused, report
from cogs.guilds import post_to, server_of
from cogs.outbox import POST, Outbox, Route
from cogs.threads import TableThreads

log = logging.getLogger(__name__)

#: A user's display name if the bot already knows it.
KnownName = Callable[[int], str | None]
TableShown = Callable[[int], Awaitable[None]]


def board_fields(page: LeaderboardPage, guild_name: str, lang: str) -> dict[str, Any]:
    fields = message_fields(screens.board_message(page, guild_name, lang))
    del fields["content"]
    return fields


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    guild = server_of(interaction)  # before the server arrives it has no name to show
    if guild is None:
        text = N_("The leaderboard belongs to a server: use it in a server channel.")
        raise refused(interaction, text)
    return guild


def _no_games(interaction: discord.Interaction[Any], who: discord.abc.User) -> InteractionRefused:
    player = None if who.id == interaction.user.id else who.id
    return InteractionRefused(screens.no_games_text(player, private_language(interaction)))


def _build_commands(cog: LeaderboardCog) -> list[app_commands.Command[Any, ..., None]]:
    """The subcommands, made per cog so that each bot gets its own objects."""

    @app_commands.command(name="leaderboard", description=N_("This server's players ranked"))
    @app_commands.describe(
        sort=N_("Rank by rating (the default) or by wins"),
        page=N_("Page to open at"),
        share=N_("Post it in the channel for everyone (otherwise only you see it)"),
        season=N_("A season (the running one if left out)"),
    )
    @app_commands.choices(
        sort=[Choice(name=N_("rating"), value="rating"), Choice(name=N_("wins"), value="wins")]
    )
    async def leaderboard(
        interaction: discord.Interaction[Any],
        sort: str = "rating",
        page: app_commands.Range[int, 1, screens.MAX_PAGE] = 1,
        share: bool = False,
        season: str | None = None,
    ) -> None:
        guild = guild_of(interaction)
        number = None if season is None else await cog.stats.season_named(guild.id, season)
        found = await cog.stats.leaderboard(guild.id, SortKey(sort), page - 1, number)
        await interaction.response.send_message(
            **board_fields(found, guild.name, private_language(interaction)), ephemeral=not share
        )

    @leaderboard.autocomplete("season")
    async def season_names(interaction: discord.Interaction[Any], typed: str) -> list[Choice[str]]:
        if interaction.guild_id is None:
            return []
        lang = private_language(interaction)
        seasons = await cog.stats.seasons(interaction.guild_id)
        return season_choices(seasons, typed, lang)

    @app_commands.command(name="stats", description=N_("A player's statistics on this server"))
    @app_commands.describe(
        player=N_("Whose statistics (yours if left out)"),
        share=N_("Post them in the channel for everyone (otherwise only you see them)"),
    )
    async def stats(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        share: bool = False,
    ) -> None:
        guild = guild_of(interaction)
        who = player or interaction.user
        found = await cog.stats.player_stats(guild.id, who.id)
        if found is None:
            raise _no_games(interaction, who)
        lang = private_language(interaction)
        embed = to_embed(screens.stats_embed(found, who.display_name, guild.name, lang))
        placed = await placings(cog.app.store, guild.id, who.id)
        if placed:
            embed.add_field(name=tr(lang, "Tournaments"), value=placings_text(placed, lang))
        await interaction.response.send_message(embed=embed, ephemeral=not share)

    @app_commands.command(
        name="history", description=N_("Recent games, or one game's full record as a file")
    )
    @app_commands.describe(
        player=N_("Whose games (yours if left out)"),
        game=N_("A game number from the list: its hand records and score picture"),
    )
    async def history(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        guild = guild_of(interaction)
        if game is not None:
            await cog.send_game(interaction, guild.id, game)
            return
        who = player or interaction.user
        games = await cog.stats.recent_games(guild.id, who.id)
        if not games:
            raise _no_games(interaction, who)
        lang = private_language(interaction)
        matches = await tournament_matches(cog.app.store, [g.game_id for g in games])
        embed = to_embed(screens.history_embed(games, who.display_name, lang, matches))
        buttons = [replay_button(g.game_id, lang, numbered=True) for g in games]
        view = to_view(MessageSpec(rows=tuple(chunk(buttons))))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        view.stop()  # dispatched by the template, not by the view

    @app_commands.command(
        name="rating-settings",
        description=N_(
            "Whether games with computer players or hints change ratings (Manage Server)"
        ),
    )
    @app_commands.describe(
        computer_games=N_("Rate games that had computer players or hints in them")
    )
    async def rating_settings(
        interaction: discord.Interaction[Any], computer_games: bool | None = None
    ) -> None:
        guild = guild_of(interaction)
        lang = private_language(interaction)
        if computer_games is not None:
            if not interaction.permissions.manage_guild:
                raise InteractionRefused(
                    tr(lang, "Only members who can manage the server can change this.")
                )
            await cog.stats.set_rate_computer_games(guild.id, computer_games)
        rated = await cog.stats.rate_computer_games(guild.id)
        text = screens.rating_setting_text(rated, lang)
        await interaction.response.send_message(text, ephemeral=True)

    return [leaderboard, stats, history, rating_settings]


#: Discord shows at most 25 choices.
MAX_CHOICES = 25


def season_choices(seasons: Sequence[Season], typed: str, lang: str) -> list[Choice[str]]:
    """The seasons whose name holds what was typed, newest first, and all time."""
    wanted = typed.casefold().strip()
    shown = [(screens.season_label(s, lang), str(s.number)) for s in reversed(seasons)]
    shown.append((screens.season_label(None, lang), str(ALL_TIME)))
    return [Choice(name=name, value=value) for name, value in shown if wanted in name.casefold()][
        :MAX_CHOICES
    ]


class LeaderboardCog(commands.Cog):
    """:attr:`commands` go to the ``/spades`` group (:class:`cogs.spades.SpadesCog`)."""

    def __init__(
        self,
        bot: commands.Bot,
        app: SpadesApp,
        outbox: Outbox,
        threads: TableThreads,
        known_name: KnownName = lambda user_id: None,
        *,
        table_shown: TableShown,
    ) -> None:
        self.bot = bot
        self.app = app
        self.stats: StatsService = app.stats
        self.outbox = outbox
        self.threads = threads
        self.known_name = known_name
        #: Waits until a table's message shows everything committed so far.
        self.table_shown = table_shown
        #: ``/spades leaderboard``, ``stats``, ``history`` and ``rating-settings``.
        self.commands = _build_commands(self)

    async def cog_load(self) -> None:
        handle_components(self.bot, self._page, screens.BOARD_PREFIX)
        self.app.subscribe(self.on_change, Change.FINISHED)
        self.app.spawn(self._catch_up(), "stats-catch-up")

    async def cog_unload(self) -> None:
        forget_components(self.bot, screens.BOARD_PREFIX, self._page)

    async def _page(self, interaction: discord.Interaction[Any], rest: str, _: list[Any]) -> None:
        """A page button, ``spades-board:<sort>:<page>:<slot>[:<season>]``: it carries its
        whole request, so it works on any leaderboard message after a restart."""
        try:
            lang = await learn_language(interaction, self.app)
            wanted = screens.parse_board_id(rest)
            if wanted is None:
                raise refused(interaction, N_("That button is not valid."))
            guild = guild_of(interaction)
            page = await self.stats.leaderboard(guild.id, *wanted)
            await interaction.response.edit_message(**board_fields(page, guild.name, lang))
        except Exception as exc:
            await report(interaction, exc)

    async def _catch_up(self) -> None:
        counted = await self.stats.catch_up()
        if counted:
            log.info("counted %d finished games missed while the bot was stopped", counted)

    # -- the end of a game ---------------------------------------------------------

    def on_change(self, snapshot: Snapshot, event: str) -> None:
        """When a change finishes a game, count it and show its picture, in the
        background: the click that finished it is answered without waiting."""
        table = snapshot.table
        record = finished_by(table, event)
        if record is not None:
            self.app.spawn(self.deliver(table, record), f"count-game-{table.id}")

    async def deliver_unannounced(self, table: Table) -> None:
        """The end of a game that a restart interrupted: counted (once) and
        its picture posted, if it was not yet."""
        record = finished_from_table(table)
        if record is not None:
            await self.deliver(table, record)

    async def deliver(self, table: Table, game: FinishedGame) -> None:
        """Count the game, then have its picture posted (through the outbox)
        unless that was done before. The picture waits for the table message
        to show the end: a game marked announced has its final table shown,
        so a stop in between leaves it owed, and the restart draws both."""
        outcome = await self.stats.record_game(game)
        if not await self.app.owes_announcement(table):
            return
        await self.table_shown(table.id)
        names = await self._user_names(game)
        lang = table.language
        sides = side_names(game, names.__getitem__, lang=lang)
        text = end_of_game_text(table.id, game, sides, outcome, lang)
        picture = _picture(game, names, lang)
        replay = MessageSpec(rows=((replay_button(game.game_id, lang),),))

        async def post() -> Route:
            try:
                current = await self.app.tables.get(table.id)  # its thread may be gone since
                await self.threads.send(current, content=text, file=picture, view=to_view(replay))
            except discord.Forbidden as exc:
                # The host is told about missing permissions with the table message.
                log.warning("could not post the picture of game %d: %s", game.game_id, exc)
            except discord.HTTPException as exc:
                log.warning("could not post the picture of game %d: %s", game.game_id, exc)
                return POST  # tried again after the next restart
            await self.app.announced(table)
            return POST

        self.outbox.put(("post", game.game_id), post)
        await self._announce_result(table, game, text, names)

    async def _announce_result(
        self, table: Table, game: FinishedGame, text: str, names: dict[int, str]
    ) -> None:
        """The same post in the server's results channel, if it has one."""
        results = (await self.app.servers.of(table.guild_id)).results_channel
        if results is None or results == table.channel_id:
            return

        async def post() -> Route:
            picture = _picture(game, names, table.language)
            what = f"the result of game {game.game_id}"  # the table has its post anyway
            await post_to(self.bot, results, table.guild_id, what, content=text, file=picture)
            return POST

        self.outbox.put(("results", game.game_id), post)

    async def _user_names(self, game: FinishedGame) -> dict[int, str]:
        """The display names of the people who played ``game``."""
        players = [seat.user_id for seat in game.seats if seat.user_id is not None]
        return {u: await display_name(self.bot, self.known_name, u) for u in players}

    # -- one game's record ----------------------------------------------------------

    async def send_game(
        self, interaction: discord.Interaction[Any], guild_id: int, game_id: int
    ) -> None:
        """A game's hand records (JSON) and score picture, privately."""
        lang = private_language(interaction)
        found = await self.stats.finished_game(game_id)
        if found is None or found[0].guild_id != guild_id:
            raise InteractionRefused(
                tr(lang, "There is no finished game {game} on this server.", game=game_id)
            )
        game, _ = found
        data = await self.stats.export_history(guild_id, game_id)
        assert data is not None
        files = [discord.File(io.BytesIO(data), export_filename(game_id))]
        try:
            files.append(_picture(game, await self._user_names(game), lang))
        except BadRecord as exc:  # the file still goes out; the picture cannot
            log.warning("no picture for game %d: %s", game_id, exc)
        text = game_record_text(game, lang)
        await interaction.response.send_message(text, files=files, ephemeral=True)


async def display_name(client: discord.Client, known_name: KnownName, user_id: int) -> str:
    """A user's display name: known to the bot, else asked of Discord, else a number."""
    name = known_name(user_id)
    if name is not None:
        return name
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        return user.display_name
    except discord.HTTPException:
        return f"#{user_id % 10000:04d}"


def _picture(game: FinishedGame, names: dict[int, str], lang: str) -> discord.File:
    """The score picture of a game (some 15 ms to draw), labelled in ``lang``."""
    sides = side_names(game, names.__getitem__, plain=True, lang=lang)
    png = chart_png(game, sides, lang, rules_line(game.rules, lang))
    return discord.File(io.BytesIO(png), f"spades-game-{game.game_id}.png")
