"""What each button and menu does: parse, call the service, answer.

Buttons on the public table message are acknowledged at once and answered
privately if refused; the table message itself is redrawn by the presenter.
Buttons on a private hand message redraw that same message: with the new
hand after an accepted bid or card, or with the current hand and a note
when the click was refused (an outdated hand is never applied to a newer
state: the service checks the version in the button).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.game.errors import IllegalAction
from bot.render.ids import Act, BadComponentId, ComponentId, parse
from bot.render.table import SEAT_NAMES
from bot.tables import errors as table_errors
from bot.tables.errors import StaleAction
from bot.tables.service import TableService
from cogs.errors import Refusal, explain, report, say

if TYPE_CHECKING:
    from bot.discord_app import SpadesBot

Handler = Callable[[discord.Interaction[Any], ComponentId, list[str]], Awaitable[None]]


class TableUI:
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self._handlers: dict[Act, Handler] = {
            Act.JOIN: self._join,
            Act.LEAVE: self._leave,
            Act.PARTNER: self._partner,
            Act.COMPUTERS: self._computers,
            Act.START: self._start,
            Act.HAND: self._hand,
            Act.LOOK: self._hand_action,
            Act.BID: self._hand_action,
            Act.PLAY: self._hand_action,
            Act.NEXT_HAND: self._next_hand,
            Act.REMATCH: self._rematch,
            Act.RESIGN: self._resign,
            Act.CLAIM: self._claim,
        }

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def on_component(
        self, interaction: discord.Interaction[Any], rest: str, values: list[str]
    ) -> None:
        self.bot.presenter.remember_name(interaction.user)
        try:
            try:
                cid = parse(rest)
            except BadComponentId:
                raise Refusal("That button is not valid.") from None
            await self._handlers[cid.action](interaction, cid, values)
        except Exception as exc:
            await report(interaction, exc)

    # -- hands -----------------------------------------------------------------------

    async def _hand(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await self.bot.hands.open(interaction, await self.service.get(cid.table))

    async def _hand_action(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        user = interaction.user.id
        await interaction.response.defer()
        note = None
        try:
            if cid.action is Act.LOOK:
                await self.service.look(cid.table, user, cid.version)
            elif cid.action is Act.BID:
                await self.service.bid(cid.table, user, _int_arg(cid), cid.version)
            else:
                await self.service.play(cid.table, user, cid.arg or "", cid.version)
        except StaleAction:
            note = "That hand was out of date, so nothing was done. Here is your hand now."
        except IllegalAction as exc:
            note = explain(exc)
        await self.bot.hands.redraw(interaction, cid.table, note)

    # -- the table message -----------------------------------------------------------

    async def _join(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        user = interaction.user.id
        table = await self.service.join(cid.table, user, cid.version)
        seat = table.seat_of(user)
        if seat is not None:
            await say(interaction, f"You sit {SEAT_NAMES[seat]} at table {table.id}.")
        else:
            await say(
                interaction,
                f"You are watching table {table.id}: the seats are taken or the game has begun.",
            )

    async def _leave(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        user = interaction.user.id
        await self.service.leave(cid.table, user, cid.version)
        await say(interaction, f"You left table {cid.table}.")

    async def _partner(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        if len(values) != 1 or values[0] not in ("1", "2", "3"):
            raise Refusal("Pick one of the three other players.")
        seat = int(values[0])
        await self.service.choose_partner(
            cid.table, interaction.user.id, None, cid.version, partner_seat=seat
        )

    async def _computers(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        level = self.bot.settings.tables.computer_level
        await self.service.add_bots(cid.table, interaction.user.id, cid.version, level)

    async def _start(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.service.start(cid.table, interaction.user.id, cid.version)

    async def _next_hand(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.service.next_hand(cid.table, interaction.user.id, cid.version)

    async def _rematch(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        if cid.arg not in ("same", "swap"):
            raise Refusal("That button is not valid.")
        await self.service.rematch(
            cid.table, interaction.user.id, cid.version, swap_teams=cid.arg == "swap"
        )

    async def _resign(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.service.resign(cid.table, interaction.user.id, cid.version)
        await interaction.edit_original_response(
            content="You resigned: your team loses this game.", view=None
        )

    async def _claim(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
    ) -> None:
        await interaction.response.defer()
        clock = self.bot.get_cog("ClockCog")
        turn_clock = getattr(clock, "turn_clock", None)
        stand_in = turn_clock is not None and bool(turn_clock.stand_in(cid.table))
        await self.service.claim_timeout(
            cid.table, interaction.user.id, cid.version, stand_in=stand_in
        )


def _int_arg(cid: ComponentId) -> int:
    try:
        return int(cid.arg or "")
    except ValueError:
        raise table_errors.Malformed() from None
