"""The coach on Discord: the Hint button and the reviews (``/spades coach`` is in cogs.spades).

A hint answers the click privately (a deferred ephemeral answer, since the
search may take most of a second). A review goes to the person as a private
follow-up of the interaction their editable hand was last drawn for, while
Discord still accepts one (15 minutes; at the end of a hand a player has
just clicked a card, so this nearly always holds), in the channel where they
play; else as a direct message, which they may have closed, and then it is
dropped.
Reviews are computed and sent in background tasks: the table never waits.
Every answer is in the reader's own language (see :mod:`cogs.components`).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.app import Snapshot, SpadesApp
from bot.coach.service import EndedHand
from bot.i18n import resolve
from bot.refusals import InvalidButton
from bot.render.coach_text import hint_text, review_text
from bot.render.spec import ComponentId, read_number, seat_labels
from bot.tables.model import Table
from cogs.components import private_language
from cogs.hands import HandScreens

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


class CoachDesk:
    def __init__(self, app: SpadesApp, client: discord.Client, hands: HandScreens) -> None:
        self.app = app
        self.client = client
        self.hands = hands

    # -- the Hint button ----------------------------------------------------------

    async def hint(
        self, interaction: discord.Interaction[Any], table: Table, cid: ComponentId, _: list[str]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.app.coach.hint(table, interaction.user.id, cid.version, _stamp(cid))
        lang = private_language(interaction)
        await interaction.followup.send(
            hint_text(hint.reason, seat_labels(table, lang), lang),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    # -- reviews --------------------------------------------------------------------

    def on_change(self, snapshot: Snapshot, event: str) -> None:
        record = self.app.coach.hand_ended(snapshot.table, event)
        if record is not None:
            table = snapshot.table
            self.app.spawn(self.deliver(table, record), f"coach-reviews-{table.id}")

    async def deliver(self, table: Table, record: EndedHand) -> None:
        for user_id, review in await self.app.coach.reviews(table, record):
            lang = await self._language_of(user_id, table)
            await self._send(table, user_id, review_text(review, table.id, lang))

    async def _language_of(self, user_id: int, table: Table) -> str:
        """The language of a review sent after the fact: the one the person
        chose, else their Discord app's as the interaction of their editable
        hand told, else (not heard from since a restart) the table's."""
        chosen = await self.app.language_of(user_id)
        if chosen:
            return resolve(chosen)
        return self.hands.language(table.id, user_id) or table.language

    async def _send(self, table: Table, user_id: int, text: str) -> None:
        if await self.hands.follow_up(table.id, user_id, text):
            return
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("review for user %d not delivered: %s", user_id, exc)


def _stamp(cid: ComponentId) -> int | None:
    """The decision a Hint button was drawn for (absent: the version decides)."""
    if cid.arg is None:
        return None
    stamp = read_number(cid.arg)
    if stamp is None:
        raise InvalidButton()
    return stamp
