"""What a server's settings mean when a table opens: who, where, defaults, notify role."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import SpadesApp
from bot.i18n import tr
from bot.tables.model import Table, TableOptions
from cogs.components import private_language
from cogs.errors import InteractionRefused
from cogs.guilds import post_to, server_of
from cogs.outbox import POST, Outbox, Route


async def opening_options(
    interaction: discord.Interaction[Any], app: SpadesApp, **chosen: Any
) -> TableOptions:
    """The options of a table the caller opens here (None: the server's default), or a refusal."""
    settings = await app.servers.of(interaction.guild_id)
    limited = bool(settings.channels) or settings.host_role is not None
    guild = server_of(interaction) if limited else interaction.guild
    # Channels deleted since they were listed are left out; none left: anywhere.
    listed = [c for c in settings.channels if guild is None or guild.get_channel(c) is not None]
    # A thread counts as its channel.
    channel = interaction.channel
    here = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
    if listed and here not in listed:
        channels = ", ".join(f"<#{c}>" for c in listed)
        raise InteractionRefused(
            tr(private_language(interaction), "Tables open only in: {channels}", channels=channels)
        )
    role = settings.host_role
    member = interaction.user
    if (
        role is not None
        and isinstance(member, discord.Member)
        and member.get_role(role) is None
        and guild is not None
        and guild.get_role(role) is not None  # a deleted role limits nobody
    ):
        raise InteractionRefused(
            tr(
                private_language(interaction),
                "Only members with <@&{role}> open tables here.",
                role=role,
            )
        )
    return settings.table_options(**chosen)


async def announce_table(app: SpadesApp, outbox: Outbox, bot: discord.Client, table: Table) -> None:
    """Mention the server's notify role once for a new table, and nobody else."""
    settings = await app.servers.of(table.guild_id)
    role = settings.notify_role
    if role is None:
        return
    text = tr(
        table.language,
        "<@&{role}> A new Spades table is open: table {table}.",
        role=role,
        table=table.id,
    )

    async def send() -> Route:
        # The table itself is there: a lost mention is not worth a retry.
        mention = discord.AllowedMentions(roles=[discord.Object(role)])
        what = f"the notice of table {table.id}"
        await post_to(
            bot, table.channel_id, table.guild_id, what, content=text, allowed_mentions=mention
        )
        return POST

    outbox.put(("notify", table.id), send)
