"""``/spades-admin season start|show`` and the post of a closed season.

The closed season's final leaderboard goes to the results channel through the outbox
once: the store marks it posted when Discord answered, so a restart posts only those owed."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.app import SpadesApp
from bot.i18n import ENGLISH, N_, resolve, tr
from bot.render import leaderboard as screens
from bot.stats.leaderboard import SortKey
from bot.stats.seasons import Season
from cogs.admin import AdminGroup
from cogs.admin import _may_manage as may_manage  # as every /spades-admin command
from cogs.components import private_language, to_embed
from cogs.outbox import POST, Outbox, Route

log = logging.getLogger(__name__)


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
            channel = self.client.get_partial_messageable(channel_id, guild_id=season.guild_id)
            try:
                await channel.send(
                    content=spec.content,
                    embed=to_embed(spec.embed),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                # A results channel deleted or closed to the bot: nowhere to post.
                log.warning("season %d of %d not posted: %s", season.number, season.guild_id, exc)
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
        may_manage(interaction)
        assert interaction.guild_id is not None  # checked by may_manage
        closed, started = await self.app.stats.start_season(
            interaction.guild_id, name, self.app.now()
        )
        await self.posts.post(closed)
        lang = private_language(interaction)
        text = tr(
            lang,
            "{closed} is closed and kept. {name} begins: ratings start afresh.",
            closed=screens.season_label(closed, lang),
            name=started,
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="show", description=N_("This server's seasons and their dates"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        may_manage(interaction)
        assert interaction.guild_id is not None
        seasons = await self.app.stats.seasons(interaction.guild_id)
        text = screens.seasons_text(seasons, private_language(interaction))
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
