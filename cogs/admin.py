"""``/spades-admin ...``: a server's own settings and seasons, for its moderators.

A top-level command, because Discord applies a default permission only to one; the
permission is checked again on every use, since a server's grant does not give it.

A closed season's final leaderboard goes to the results channel through the outbox
once: the store marks it posted when Discord answered, so a restart posts only those owed."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import refusals
from bot.app import COMPUTER_LEVELS, Origin, SpadesApp
from bot.i18n import ENGLISH, N_, resolve, tr
from bot.render import leaderboard as screens
from bot.render.refusal_text import house_rule_line
from bot.servers import ServerSettings
from bot.stats.leaderboard import SortKey
from bot.stats.seasons import Season
from bot.tables.model import TableOptions
from cogs.components import private_language, to_embed
from cogs.errors import answer, refused
from cogs.guilds import post_to, server_of
from cogs.outbox import POST, Outbox, Route
from cogs.spades import (
    HOUSE_LENGTH,
    NEW_TABLE_HELP,
    NEW_TABLE_NUMBERS,
    NEW_TABLE_WORDS,
    house_option,
)

log = logging.getLogger(__name__)

#: A role or channel setting is set to the one given, or cleared (none).
CLEAR_CHOICES = [Choice(name=N_("set"), value="set"), Choice(name=N_("clear"), value="clear")]
Channel = discord.TextChannel
#: A moderator's reason, shown on the table message and its end-of-game post.
REASON_LENGTH = 300
ROLE_HELP = N_("The role (leave out with clear)")


def _may_manage(interaction: discord.Interaction[Any]) -> int:
    """The server's id, the caller asked every time if they manage it: a server may
    grant the command to members who cannot."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise refused(
            interaction, N_("Only members who may manage this server change its settings.")
        )
    return interaction.guild_id


def _own_channel(interaction: discord.Interaction[Any], channel: Channel) -> int:
    guild = server_of(interaction)
    if guild is None or channel.guild.id != guild.id:
        raise refused(interaction, N_("That channel is not on this server."))
    if guild.get_channel(channel.id) is None:
        raise refused(interaction, N_("That channel no longer exists."))
    return channel.id


def _own_role(interaction: discord.Interaction[Any], role: discord.Role) -> int:
    guild = server_of(interaction)
    if guild is None or role.guild.id != guild.id:
        raise refused(interaction, N_("That role is not on this server."))
    if guild.get_role(role.id) is None:
        raise refused(interaction, N_("That role no longer exists."))
    if role.is_default():
        raise refused(interaction, N_("Choose a role other than @everyone."))
    return role.id


def _defaults_shown(settings: ServerSettings) -> str:
    """``name=value`` of every default a new table takes, by name."""
    shown = dict(settings.defaults)
    if settings.computer_level:
        shown["computer_level"] = settings.computer_level
    if settings.replays_shared:
        shown["share_replays"] = True
    return ", ".join(f"{k}={v}" for k, v in sorted(shown.items()))


def settings_text(settings: ServerSettings, lang: str) -> str:
    """Every setting of the server, one line each."""
    nobody = tr(lang, "none")
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or tr(lang, "any channel")
    hosts = f"<@&{settings.host_role}>" if settings.host_role else tr(lang, "everyone")
    told = f"<@&{settings.notify_role}>" if settings.notify_role else nobody
    results = f"<#{settings.results_channel}>" if settings.results_channel else nobody
    defaults = _defaults_shown(settings) or nobody
    lines = [
        tr(lang, "**Spades settings of this server**"),
        tr(lang, "Channels for tables: {channels}", channels=channels),
        tr(lang, "Who may open tables: {who}", who=hosts),
        tr(lang, "Role told of new tables: {role}", role=told),
        tr(lang, "Results channel: {channel}", channel=results),
        tr(lang, "Defaults of a new table: {defaults}", defaults=defaults),
    ]
    return "\n".join(lines)


class ChannelsGroup(app_commands.Group, name="channels", description=N_("Where tables may open")):
    def __init__(self, admin: AdminGroup) -> None:
        super().__init__(parent=admin)
        self.admin = admin

    @app_commands.command(name="add", description=N_("Allow tables in a channel"))
    @app_commands.describe(channel=N_("A text channel of this server"))
    async def add(self, interaction: discord.Interaction[Any], channel: Channel) -> None:
        settings = await self.admin.settings(interaction)
        added = _own_channel(interaction, channel)
        if added not in settings.channels:
            await self.admin.change(interaction, channels=(*settings.channels, added))
        await answer(interaction, N_("Tables may open in {channel}."), channel=channel.mention)

    @app_commands.command(name="remove", description=N_("No longer allow tables in a channel"))
    @app_commands.describe(channel=N_("A text channel of this server"))
    async def remove(self, interaction: discord.Interaction[Any], channel: Channel) -> None:
        settings = await self.admin.settings(interaction)
        removed = _own_channel(interaction, channel)
        if removed not in settings.channels:
            raise refused(interaction, N_("{channel} is not in the list."), channel=channel.mention)
        kept = tuple(c for c in settings.channels if c != removed)
        await self.admin.change(interaction, channels=kept)
        await answer(interaction, N_("{channel} left the list."), channel=channel.mention)

    @app_commands.command(name="list", description=N_("The channels where tables may open"))
    async def list_channels(self, interaction: discord.Interaction[Any]) -> None:
        settings = await self.admin.settings(interaction)
        if not settings.channels:
            await answer(interaction, N_("Tables may open in any channel."))
            return
        channels = ", ".join(f"<#{c}>" for c in settings.channels)
        await answer(interaction, N_("Tables may open only in: {channels}"), channels=channels)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminGroup(
    app_commands.Group, name="spades-admin", description=N_("This server's Spades settings")
):
    def __init__(self, app: SpadesApp) -> None:
        super().__init__()
        self.app = app
        self.channels = ChannelsGroup(self)

    async def settings(self, interaction: discord.Interaction[Any]) -> ServerSettings:
        """The server's settings, once the caller is known to manage it."""
        return await self.app.servers.of(_may_manage(interaction))

    async def change(self, interaction: discord.Interaction[Any], **changes: Any) -> ServerSettings:
        assert interaction.guild_id is not None  # checked by settings()
        return await self.app.servers.change(interaction.guild_id, **changes)

    async def set_role(
        self,
        interaction: discord.Interaction[Any],
        setting: str,
        role: discord.Role | None,
        action: str,
        texts: tuple[str, str],
    ) -> None:
        """Set or clear one role setting, and answer with ``texts`` (set, cleared)."""
        await self.settings(interaction)
        if action == "clear":
            await self.change(interaction, **{setting: None})
            await answer(interaction, texts[1])
            return
        if role is None:
            raise refused(interaction, N_("Choose a role, or clear."))
        await self.change(interaction, **{setting: _own_role(interaction, role)})
        await answer(interaction, texts[0], role=role.mention)

    @app_commands.command(name="host-role", description=N_("Only members with a role open tables"))
    @app_commands.describe(role=ROLE_HELP, action=N_("set, or clear for everyone"))
    @app_commands.choices(action=CLEAR_CHOICES)
    async def host_role(
        self,
        interaction: discord.Interaction[Any],
        role: discord.Role | None = None,
        action: str = "set",
    ) -> None:
        texts = (
            N_("Only members with {role} may open tables."),
            N_("Everyone may open tables again."),
        )
        await self.set_role(interaction, "host_role", role, action, texts)

    @app_commands.command(name="notify-role", description=N_("A role mentioned by each new table"))
    @app_commands.describe(role=ROLE_HELP, action=N_("set, or clear for nobody"))
    @app_commands.choices(action=CLEAR_CHOICES)
    async def notify_role(
        self,
        interaction: discord.Interaction[Any],
        role: discord.Role | None = None,
        action: str = "set",
    ) -> None:
        texts = (N_("New tables mention {role}."), N_("New tables mention nobody."))
        await self.set_role(interaction, "notify_role", role, action, texts)

    @app_commands.command(
        name="results-channel", description=N_("A channel where every finished game is announced")
    )
    @app_commands.describe(
        channel=N_("A text channel of this server (leave out with clear)"),
        action=N_("set, or clear for none"),
    )
    @app_commands.choices(action=CLEAR_CHOICES)
    async def results_channel(
        self,
        interaction: discord.Interaction[Any],
        channel: Channel | None = None,
        action: str = "set",
    ) -> None:
        await self.settings(interaction)
        if action == "clear":
            await self.change(interaction, results_channel=None)
            await answer(interaction, N_("Finished games are announced only at their table."))
            return
        if channel is None:
            raise refused(interaction, N_("Choose a channel, or clear."))
        await self.change(interaction, results_channel=_own_channel(interaction, channel))
        await answer(
            interaction, N_("Finished games are announced in {channel}."), channel=channel.mention
        )

    @app_commands.command(name="defaults", description=N_("The defaults of a new table here"))
    @app_commands.describe(
        **NEW_TABLE_HELP,
        computer_level=N_("How well the computer players play"),
        share_replays=N_("Anyone may share any game's replay (else only its players)"),
        reset=N_("Forget every default first"),
    )
    @app_commands.choices(**NEW_TABLE_NUMBERS)
    @app_commands.choices(
        **NEW_TABLE_WORDS,
        computer_level=[Choice(name=level, value=level) for level in COMPUTER_LEVELS],
    )
    async def defaults(
        self,
        interaction: discord.Interaction[Any],
        target: int | None = None,
        revokes: str | None = None,
        preset: str | None = None,
        turn_limit: int | None = None,
        stand_in: bool | None = None,
        hints: bool | None = None,
        language: str | None = None,
        house: app_commands.Range[str, 1, HOUSE_LENGTH] | None = None,
        thread: bool | None = None,
        watchers: bool | None = None,
        computer_level: str | None = None,
        share_replays: bool | None = None,
        reset: bool = False,
    ) -> None:
        settings = await self.settings(interaction)
        chosen = {
            "target": target,
            "revokes": revokes,
            "preset": preset,
            "turn_limit_s": None if turn_limit is None else turn_limit * 60,
            "stand_in": stand_in,
            "hints": hints,
            "language": language,
            "house": house_option(house),
            "thread": thread,
            "watchers": watchers,
        }
        base = {} if reset else settings.defaults
        defaults = {**base, **{k: v for k, v in chosen.items() if v is not None}}
        if not defaults.get("house", True):
            del defaults["house"]  # "-": no house rules
        try:
            TableOptions.chosen(**defaults)
        except (refusals.Malformed, refusals.BadHouseRule) as exc:
            why = str(exc)
            if isinstance(exc, refusals.BadHouseRule):
                # A conflict in the moderator's words, as /spades new says it.
                why = house_rule_line(exc, private_language(interaction))
            raise refused(
                interaction, N_("Those defaults do not fit together: {why}"), why=why
            ) from None
        level = computer_level or (None if reset else settings.computer_level)
        if share_replays is None:
            share_replays = False if reset else settings.replays_shared
        updated = await self.change(
            interaction, defaults=defaults, computer_level=level, replays_shared=share_replays
        )
        shown = _defaults_shown(updated) or tr(private_language(interaction), "none")
        await answer(interaction, N_("Defaults of a new table: {defaults}"), defaults=shown)

    @app_commands.command(name="end", description=N_("End any table of this server"))
    @app_commands.describe(
        table=N_("The table's number"), reason=N_("Why: shown on the table and in its history")
    )
    async def end(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1],
        reason: app_commands.Range[str, 1, REASON_LENGTH],
    ) -> None:
        _may_manage(interaction)
        origin = Origin(interaction.guild_id, interaction.channel_id)
        try:
            ended = await self.app.end_by_moderator(origin, table, interaction.user.id, reason)
        except refusals.UnknownTable:
            raise refused(
                interaction, N_("There is no table {table} on this server."), table=table
            ) from None
        except refusals.TableClosed:
            raise refused(interaction, N_("Table {table} is already over."), table=table) from None
        await answer(interaction, N_("Table {table} is ended."), table=ended.id)

    @app_commands.command(name="show", description=N_("Every Spades setting of this server"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        settings = await self.settings(interaction)
        text = settings_text(settings, private_language(interaction))
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


class AdminCog(commands.Cog):
    def __init__(self, tree: app_commands.CommandTree[Any], app: SpadesApp) -> None:
        self.tree = tree
        self.group = AdminGroup(app)

    async def cog_load(self) -> None:
        self.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.tree.remove_command(self.group.name)


class SeasonPosts:
    """Posts a closed season's final leaderboard to the results channel, once."""

    def __init__(self, client: discord.Client, app: SpadesApp, outbox: Outbox) -> None:
        self.client = client
        self.app = app
        self.outbox = outbox

    async def post_owed(self) -> None:
        """The posts a stop left unmade (after a restart)."""
        for season in await self.app.stats.seasons_owed():
            await self.post(season)

    async def post(self, season: Season) -> None:
        settings = await self.app.servers.of(season.guild_id)
        channel_id = settings.results_channel
        if channel_id is None:
            await self.app.stats.season_posted(season, self.app.now())
            return
        lang = resolve(settings.defaults.get("language") or ENGLISH)
        key = ("season", season.guild_id, season.number)

        async def send() -> Route:
            stats = self.app.stats
            if not await stats.owes_season_post(season):
                return None  # posted already (found owed twice)
            page = await stats.leaderboard(season.guild_id, SortKey.RATING, 0, season.number)
            guild = self.client.get_guild(season.guild_id)
            spec = screens.season_closed_message(season, page, guild.name if guild else "", lang)
            assert spec.embed is not None
            await post_to(
                self.client,
                channel_id,
                season.guild_id,
                f"season {season.number} of {season.guild_id}",
                content=spec.content,
                embed=to_embed(spec.embed),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await stats.season_posted(season, self.app.now())
            return POST

        self.outbox.put(key, send)


class SeasonGroup(
    app_commands.Group, name="season", description=N_("Seasons of this server's leaderboard")
):
    def __init__(self, admin: AdminGroup, posts: SeasonPosts) -> None:
        super().__init__(parent=admin)
        self.app = admin.app
        self.posts = posts

    @app_commands.command(name="start", description=N_("Close this season and start a new one"))
    @app_commands.describe(name=N_("The new season's name (up to 40 characters)"))
    async def start(self, interaction: discord.Interaction[Any], name: str) -> None:
        guild_id = _may_manage(interaction)
        closed, started = await self.app.stats.start_season(guild_id, name, self.app.now())
        await self.posts.post(closed)
        label = screens.season_label(closed, private_language(interaction))
        text = N_("{closed} is closed and kept. {name} begins: ratings start afresh.")
        await answer(interaction, text, closed=label, name=started)

    @app_commands.command(name="show", description=N_("This server's seasons and their dates"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        seasons = await self.app.stats.seasons(_may_manage(interaction))
        text = screens.seasons_text(seasons, private_language(interaction))
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
