"""Requests between the players of a table, answered with buttons: a claim of the rest
(**Claim the rest**, the opponents' Accept and Refuse) and taking over a computer's seat
between hands (the request menu, the host's Accept and Decline)."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import SpadesApp
from bot.i18n import tr
from bot.refusals import InvalidButton
from bot.render.seat_request import ACCEPT, DECLINE, answer_notice
from bot.render.spec import ComponentId, seat_name
from bot.render.table import ACCEPT as ACCEPT_REST
from bot.render.table import REFUSE
from bot.tables.model import Table
from cogs.components import private_language
from cogs.errors import say
from cogs.notices import TurnNotices


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
        if cid.arg not in (ACCEPT_REST, REFUSE):
            raise InvalidButton()
        await interaction.response.defer()
        await self.app.answer_rest(table, interaction.user.id, cid.version, cid.arg == ACCEPT_REST)


class SeatRequestButtons:
    def __init__(self, app: SpadesApp, notices: TurnNotices) -> None:
        self.app = app
        self.notices = notices

    async def ask(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        cid: ComponentId,
        values: list[str],
    ) -> None:
        if len(values) != 1 or values[0] not in ("0", "1", "2", "3"):
            raise InvalidButton()
        seat = int(values[0])
        await interaction.response.defer()
        await self.app.ask_seat(table, interaction.user.id, cid.version, seat)
        lang = private_language(interaction)
        text = tr(
            lang,
            "You asked the host for the seat of {seat} at table {table}.",
            seat=seat_name(seat, lang),
            table=table.id,
        )
        await say(interaction, text)

    async def answer(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        if cid.arg not in (ACCEPT, DECLINE):
            raise InvalidButton()
        await interaction.response.defer()
        request = table.seat_request
        accept = cid.arg == ACCEPT
        answered = await self.app.answer_seat(table, interaction.user.id, cid.version, accept)
        if request is None:  # a request made as this click was answered: nothing to say
            return
        where = seat_name(request.seat, answered.language)
        self.notices.tell(answered, answer_notice(request, accept, where, answered.language))
        lang = private_language(interaction)
        words = {"seat": seat_name(request.seat, lang), "player": f"<@{request.user_id}>"}
        if accept:
            text = tr(lang, "{player} plays {seat} from the next hand.", **words)
        else:
            text = tr(lang, "You declined {player}'s request for {seat}.", **words)
        await say(interaction, text)
