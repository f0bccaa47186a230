"""The buttons of a claim of the rest: **Claim the rest**, and the opponents' Accept and Refuse."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import SpadesApp
from bot.refusals import InvalidButton
from bot.render.spec import ComponentId
from bot.render.table import ACCEPT, REFUSE
from bot.tables.model import Table


class RestClaimButtons:
    def __init__(self, app: SpadesApp) -> None:
        self.app = app

    async def claim(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.app.claim_rest(table, interaction.user.id, cid.version)

    async def answer(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        if cid.arg not in (ACCEPT, REFUSE):
            raise InvalidButton()
        await interaction.response.defer()
        await self.app.answer_rest(table, interaction.user.id, cid.version, cid.arg == ACCEPT)
