"""When a server is known: start-up is a phase with a rule.

Discord sends a server's channels and roles after the connection is up, one server at a
time; a choice made on that empty cache would be wrong for good. So whatever needs it asks
the :class:`GuildGate` and waits; after :data:`WAIT_S` it goes on over REST, or chooses nothing."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.refusals import ServerNotKnown

log = logging.getLogger(__name__)

#: How long to wait for a server's GUILD_CREATE (thousands of servers take minutes).
WAIT_S = 120.0
#: What discord.py's fetch_channel may return.
Channel = discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread
#: The event a client dispatches when a server becomes known (available or joined).
KNOWN = "guild_known"


class GuildGate:
    """Which servers the client knows, and waiting for one (at most :attr:`wait_s`)."""

    def __init__(self, client: discord.Client, wait_s: float = WAIT_S) -> None:
        self.client = client
        self.wait_s = wait_s

    def known(self, guild_id: int | None) -> discord.Guild | None:
        """The server, if its channels, roles and permissions are cached."""
        guild = self.client.get_guild(guild_id) if guild_id else None
        return guild if guild is not None and not guild.unavailable else None

    async def wait(self, guild_id: int | None) -> discord.Guild | None:
        """The server once known; None after :attr:`wait_s` or outside a server."""
        if not guild_id:
            return None
        guild = self.known(guild_id)
        if guild is not None:
            return guild
        try:
            await self.client.wait_for(
                KNOWN, check=lambda arrived: arrived.id == guild_id, timeout=self.wait_s
            )
        except TimeoutError:
            return None
        return self.known(guild_id)

    async def channel(self, guild_id: int | None, channel_id: int) -> Channel | None:
        """A server's channel or thread, from the cache once known, else Discord; None if gone."""
        guild = self.known(guild_id)
        cached = guild.get_channel_or_thread(channel_id) if guild is not None else None
        if cached is not None:
            return cached
        try:
            return await self.client.fetch_channel(channel_id)
        except discord.NotFound:
            return None

    def permissions(self, channel: discord.abc.GuildChannel) -> discord.Permissions | None:
        """The bot's permissions in ``channel``; None while its server is not known."""
        guild = self.known(channel.guild.id)
        return channel.permissions_for(guild.me) if guild is not None else None


async def post_to(
    client: discord.Client, channel_id: int, guild_id: int | None, what: str, **fields: Any
) -> bool:
    """Post ``what`` in a channel; False (logged) if Discord refused, as for a channel
    deleted or closed to the bot since, where there is nobody to tell."""
    channel = client.get_partial_messageable(channel_id, guild_id=guild_id or None)
    try:
        await channel.send(**fields)
    except discord.HTTPException as exc:
        log.warning("%s not posted in %d: %s", what, channel_id, exc)
        return False
    return True


def first_missing(have: discord.Permissions, needed: Sequence[tuple[str, str]]) -> str | None:
    """The first of ``needed`` (a flag, and its name as Discord's settings show it)
    that ``have`` lacks: the later ones may only look missing because of it."""
    return next((name for flag, name in needed if not getattr(have, flag)), None)


def server_of(interaction: discord.Interaction[Any]) -> discord.Guild | None:
    """The interaction's server once known (None outside one); ServerNotKnown before."""
    guild = interaction.guild
    if guild is not None and guild.unavailable:
        raise ServerNotKnown()
    return guild
