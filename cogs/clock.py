"""``/spades claim``: the turn clock's command.

:class:`ClockCog` adds ``claim`` to the ``/spades`` group; whether a claim
is allowed is the application's decision. What the clock says in the
channels is :class:`cogs.notices.TurnNotices`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpadesApp
from bot.i18n import N_
from bot.render import clock_text


class ClockCog(commands.Cog):
    """``/spades claim``: added to the /spades group (load it after SpadesCog)."""

    def __init__(self, tree: app_commands.CommandTree[Any], app: SpadesApp) -> None:
        self.tree = tree
        self.app = app
        self.command = _claim_command(app)

    async def cog_load(self) -> None:
        group = self.tree.get_command("spades")
        if isinstance(group, app_commands.Group) and group.get_command("claim") is None:
            group.add_command(self.command)

    async def cog_unload(self) -> None:
        group = self.tree.get_command("spades")
        if isinstance(group, app_commands.Group):
            group.remove_command("claim")


def _claim_command(app: SpadesApp) -> app_commands.Command[Any, ..., None]:
    @app_commands.command(
        name="claim",
        description=N_("Win the game: the other team kept the table waiting too long"),
    )
    async def claim(interaction: discord.Interaction[Any]) -> None:
        table = await app.my_table(interaction.user.id, interaction.channel_id)
        done = await app.claim(table, interaction.user.id, table.version)
        await interaction.response.send_message(
            clock_text.claimed(done, interaction.user.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    return claim
