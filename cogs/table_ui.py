"""What each button and menu does: parse, call the application, answer.

Buttons on the public table message are acknowledged at once and answered
privately if refused; the table message itself is redrawn by the presenter.
Buttons on a private hand message redraw that same message: with the new
hand after an accepted bid or card, or with the current hand and a note
when the click was refused (an outdated hand is never applied to a newer
state: the service checks the version in the button).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.app import Origin, SpadesApp
from bot.i18n import tr
from bot.refusals import IllegalAction, InvalidButton, StaleAction
from bot.render.hand import read_pass_arg, still_choosing
from bot.render.refusal_text import NO_GAME_TO_RESIGN, joined_text
from bot.render.spec import Act, BadComponentId, ComponentId, parse, read_number
from bot.tables.model import Table
from cogs.coach import CoachDesk
from cogs.components import learn_language, private_language
from cogs.errors import InteractionRefused, explain, report, say
from cogs.hands import HandScreens
from cogs.house_ui import HouseRulesDesk
from cogs.presenter import TablePresenter
from cogs.table_requests import RestClaimButtons, SeatRequestButtons

#: An action on the table at a version, by a user: ``act(table, user, version)``.
PlainAct = Callable[[Table, int, int], Awaitable[Table]]
Handler = Callable[[discord.Interaction[Any], Table, ComponentId, list[str]], Awaitable[None]]
#: Buttons and menus drawn on the public table message only.
ON_TABLE_MESSAGE = frozenset(
    {
        Act.JOIN,
        Act.LEAVE,
        Act.PARTNER,
        Act.COMPUTERS,
        Act.START,
        Act.HAND,
        Act.NEXT_HAND,
        Act.REMATCH,
        Act.CLAIM,
        Act.CLAIM_REST,
        Act.ANSWER_REST,
        Act.SEAT_ASK,
        Act.SEAT_ANSWER,
    }
)


def origin_of(interaction: discord.Interaction[Any]) -> Origin:
    """Where a click comes from; the message only if it is a public one."""
    message = interaction.message
    public = message is not None and not message.flags.ephemeral
    return Origin(
        interaction.guild_id, interaction.channel_id, message.id if public and message else None
    )


class TableUI:
    def __init__(
        self, app: SpadesApp, hands: HandScreens, presenter: TablePresenter, coach: CoachDesk
    ) -> None:
        self.app = app
        self.hands = hands
        self.presenter = presenter
        house = HouseRulesDesk(app)
        rest_claim = RestClaimButtons(app)
        seat_requests = SeatRequestButtons(app, presenter.notices)
        #: The buttons of :meth:`_plain`, and what each asks of the application.
        self._plain_acts: dict[Act, PlainAct] = {
            Act.COMPUTERS: app.add_computers,
            Act.START: app.start_game,
            Act.NEXT_HAND: app.next_hand,
            Act.CLAIM: app.claim,
        }
        self._handlers: dict[Act, Handler] = {
            Act.JOIN: self._join,
            Act.LEAVE: self._leave,
            Act.PARTNER: self._partner,
            Act.COMPUTERS: self._plain,
            Act.START: self._plain,
            Act.HAND: self._hand,
            Act.LOOK: self._hand_action,
            Act.BID: self._hand_action,
            Act.PLAY: self._hand_action,
            Act.PASS_PICK: self._pass_pick,
            Act.PASS: self._hand_action,
            Act.NEXT_HAND: self._plain,
            Act.REMATCH: self._rematch,
            Act.RESIGN: self._resign,
            Act.CLAIM: self._plain,
            Act.HINT: coach.hint,
            Act.HOUSE: house.open,
            Act.HOUSE_RULE: house.choose,
            Act.CLAIM_REST: rest_claim.claim,
            Act.ANSWER_REST: rest_claim.answer,
            Act.SEAT_ASK: seat_requests.ask,
            Act.SEAT_ANSWER: seat_requests.answer,
        }

    async def on_component(
        self, interaction: discord.Interaction[Any], rest: str, values: list[str]
    ) -> None:
        self.presenter.remember_name(interaction.user)
        table: Table | None = None
        try:
            await learn_language(interaction, self.app)
            try:
                cid = parse(rest)
            except BadComponentId:
                raise InvalidButton() from None
            _check_arg(cid)
            table = await self.app.table_for(
                cid.table, origin_of(interaction), on_table_message=cid.action in ON_TABLE_MESSAGE
            )
            await self._handlers[cid.action](interaction, table, cid, values)
        except Exception as exc:
            await report(interaction, exc)
        if table is not None:
            # A press on the table message answered as a deferred update: its
            # token can edit that message off the bot's budget from now on.
            self.presenter.tokens.offer(table, interaction)

    # -- hands -----------------------------------------------------------------------

    async def _hand(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        # A deferred update changes nothing the table shows and leaves the
        # press's token able to edit the table message; the hand follows as
        # an ephemeral follow-up (a refusal too, as to any deferred press).
        await interaction.response.defer()
        await self.hands.open(interaction, table)

    async def _hand_action(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        user = interaction.user.id
        await interaction.response.defer()
        note, selection = None, 0
        try:
            if cid.action is Act.LOOK:
                table = await self.app.look(table, user, cid.version)
            elif cid.action is Act.BID:
                table = await self.app.bid(table, user, cid.version, _int_arg(cid))
            elif cid.action is Act.PASS:
                selection, hand = _pass_arg(cid)  # kept should the pass be refused
                table = await self.app.pass_cards(table, user, cid.version, selection, hand)
            else:
                table = await self.app.play(table, user, cid.version, cid.arg or "")
        except StaleAction:
            note = tr(
                private_language(interaction),
                "That hand was out of date, so nothing was done. Here is your hand now.",
            )
        except IllegalAction as exc:
            note = explain(exc, private_language(interaction))
        await self.hands.redraw(interaction, table, note, selection if note else 0)

    async def _pass_pick(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        """A card of the Nil pass toggled: the hand is redrawn at the table as
        it is now with the selection the button carries, if it still chooses
        in that hand (else as it is, saying so). Nothing is written."""
        await interaction.response.defer()
        selection, hand = _pass_arg(cid)
        note = None
        if not still_choosing(table, interaction.user.id, hand):
            note = tr(private_language(interaction), "That choice is over: here is your hand now.")
        await self.hands.redraw(interaction, table, note, 0 if note else selection)

    # -- the table message -----------------------------------------------------------

    async def _join(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        await interaction.response.defer()
        user = interaction.user.id
        table = await self.app.join(table, user)
        seat = table.seat_of(user)
        if seat is not None:
            await say(interaction, joined_text(private_language(interaction), seat, table.id))
        else:
            text = tr(
                private_language(interaction),
                "You are watching table {table}: the seats are taken or the game has begun.",
                table=table.id,
            )
            await say(interaction, text)

    async def _leave(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.app.leave(table, interaction.user.id)
        await say(
            interaction,
            tr(private_language(interaction), "You left table {table}.", table=cid.table),
        )

    async def _partner(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        cid: ComponentId,
        values: list[str],
    ) -> None:
        await interaction.response.defer()
        if len(values) != 1 or values[0] not in ("1", "2", "3"):
            lang = private_language(interaction)
            raise InteractionRefused(tr(lang, "Pick one of the three other players."))
        await self.app.choose_partner(table, interaction.user.id, cid.version, int(values[0]))

    async def _plain(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        """A button whose action needs nothing but the table's version."""
        await interaction.response.defer()
        await self._plain_acts[cid.action](table, interaction.user.id, cid.version)

    async def _rematch(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        await interaction.response.defer()
        await self.app.rematch(table, interaction.user.id, cid.version, swap=cid.arg == "swap")

    async def _resign(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        if table.game is None or table.game.over:  # a confirmation pressed after the end
            raise InteractionRefused(tr(private_language(interaction), NO_GAME_TO_RESIGN))
        await interaction.response.defer()
        await self.app.resign(table, interaction.user.id, cid.version)
        await interaction.edit_original_response(
            content=tr(private_language(interaction), "You resigned: your team loses this game."),
            view=None,
        )


def _check_arg(cid: ComponentId) -> None:
    """Refuse an id whose argument this kind of button never carries."""
    if cid.action is Act.REMATCH and cid.arg not in ("same", "swap"):
        raise InvalidButton()


def _pass_arg(cid: ComponentId) -> tuple[int, int]:
    try:
        return read_pass_arg(cid.arg)
    except ValueError:
        raise InvalidButton() from None


def _int_arg(cid: ComponentId) -> int:
    """A bid as the bot writes it (``-1`` Blind Nil), nothing int() also reads."""
    number = read_number(cid.arg, negative=True)
    if number is None:
        raise InvalidButton()
    return number
