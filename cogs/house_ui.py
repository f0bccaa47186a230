"""The host's house rules: private menus, one per rule, redrawn with the rules now in play."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import SpadesApp
from bot.i18n import tr
from bot.refusals import InvalidButton, Refusal, StaleAction
from bot.render.house_rules import PAGES, house_panel, page_of
from bot.render.spec import ComponentId, MessageSpec, read_number
from bot.tables.model import Table
from cogs.components import message_fields, private_language, send_private
from cogs.errors import explain


class HouseRulesDesk:
    def __init__(self, app: SpadesApp) -> None:
        self.app = app

    async def open(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        """The lobby's button (page 0) or a page button of the menus."""
        page = _page(cid)
        self.app.check_house_rules(table, interaction.user.id)
        spec = house_panel(table, page, private_language(interaction))
        if _on_private_message(interaction):
            fields = message_fields(spec)
            await interaction.response.edit_message(**fields)
            fields["view"].stop()  # the ids dispatch the clicks (see send_private)
        else:
            await send_private(interaction, spec)

    async def choose(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        cid: ComponentId,
        values: list[str],
    ) -> None:
        """One rule's menu: set the value chosen, then redraw the menus."""
        key = cid.arg or ""
        page = page_of(key)
        if page is None or len(values) != 1:
            raise InvalidButton()
        lang = private_language(interaction)
        await interaction.response.defer()
        note = ""
        user = interaction.user.id
        try:
            table = await self.app.house_rule(table, user, cid.version, key, values[0])
        except StaleAction:
            note = tr(
                lang,
                "The table changed since these menus were drawn, so nothing was set. "
                "Here are its rules now.",
            )
            table = await self.app.tables.get(table.id)
        except Refusal as refused:
            if refused.code != "bad_house_rule":
                raise
            note = explain(refused, lang) or ""
            table = await self.app.tables.get(table.id)
        await _redraw(interaction, house_panel(table, page, lang, note))


def _page(cid: ComponentId) -> int:
    if cid.arg is None:
        return 0
    page = read_number(cid.arg)
    if page is None or page >= len(PAGES):
        raise InvalidButton()
    return page


def _on_private_message(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _redraw(interaction: discord.Interaction[Any], spec: MessageSpec) -> None:
    """The menus the deferred click came from, redrawn (a click from elsewhere gets new ones)."""
    fields = message_fields(spec)
    if _on_private_message(interaction):
        await interaction.edit_original_response(**fields)
    else:
        await interaction.followup.send(**fields, ephemeral=True)
    fields["view"].stop()
