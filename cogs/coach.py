"""The coach on Discord: the Hint button and the reviews (``/spades coach`` is in cogs.spades).

A hint answers the click privately (a deferred ephemeral answer, since the
search may take most of a second). A review goes to the person as a private
follow-up of their latest interaction with the bot while Discord still
accepts one (15 minutes; at the end of a hand a player has just clicked a
card, so this nearly always holds), in the channel where they play; else as
a direct message, which they may have closed, and then it is dropped.
Reviews are computed and sent in background tasks: the table never waits.
Every answer is in the reader's own language (see :mod:`cogs.languages`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.app import Snapshot, SpadesApp
from bot.coach.service import EndedHand
from bot.i18n import resolve
from bot.refusals import InvalidButton
from bot.render.coach_text import hint_text, review_text
from bot.render.names import seat_labels
from bot.render.spec import ComponentId
from bot.tables.model import Table
from cogs.languages import private_language

log = logging.getLogger(__name__)

#: Follow-ups are accepted for 15 minutes after an interaction; stop earlier.
FOLLOW_UP_FOR_S = 14 * 60
#: Past this many people, the expired interactions are let go.
KEPT_INTERACTIONS = 1000
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class _Latest:
    interaction: discord.Interaction[Any]
    expires_at: float


class CoachDesk:
    def __init__(self, app: SpadesApp, client: discord.Client) -> None:
        self.app = app
        self.client = client
        self._latest: dict[int, _Latest] = {}

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

    async def remember(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction: the person's latest one carries their review."""
        expires = interaction.created_at.timestamp() + FOLLOW_UP_FOR_S
        self._latest[interaction.user.id] = _Latest(interaction, expires)
        if len(self._latest) > KEPT_INTERACTIONS:
            now = self.app.now()
            self._latest = {u: kept for u, kept in self._latest.items() if kept.expires_at > now}

    def on_change(self, snapshot: Snapshot, event: str) -> None:
        record = self.app.coach.hand_ended(snapshot.table, event)
        if record is not None:
            table = snapshot.table
            self.app.spawn(self.deliver(table, record), f"coach-reviews-{table.id}")

    async def deliver(self, table: Table, record: EndedHand) -> None:
        for user_id, review in await self.app.coach.reviews(table, record):
            lang = await self._language_of(user_id, table)
            await self._send(user_id, review_text(review, table.id, lang))

    async def _language_of(self, user_id: int, table: Table) -> str:
        """The language of a review sent after the fact: the one the person
        chose, else their Discord app's as their latest interaction told,
        else (not heard from since a restart) the table's."""
        chosen = await self.app.language_of(user_id)
        if chosen:
            return resolve(chosen)
        latest = self._latest.get(user_id)
        return resolve(latest.interaction.locale) if latest is not None else table.language

    async def _send(self, user_id: int, text: str) -> None:
        latest = self._latest.get(user_id)
        if latest is not None and latest.expires_at > self.app.now():
            try:
                await latest.interaction.followup.send(
                    text, ephemeral=True, allowed_mentions=NO_MENTIONS
                )
                return
            except discord.HTTPException as exc:
                log.debug("review for user %d not sent as a follow-up: %s", user_id, exc)
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("review for user %d not delivered: %s", user_id, exc)


def _stamp(cid: ComponentId) -> int | None:
    """The decision a Hint button was drawn for (absent: the version decides)."""
    if cid.arg is None:
        return None
    if not cid.arg.isdigit():
        raise InvalidButton()
    return int(cid.arg)
