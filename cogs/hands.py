"""Private hand messages: drawn for their owner only, and kept live while possible.

A hand is always sent as a fresh ephemeral answer ("My hand", /spades hand)
or redrawn in answer to a click on it; nothing depends on an old message.
While the interaction that showed a hand is younger than Discord's
15-minute token life, the hand is also redrawn after every change at the
table, so the owner's buttons come alive when it is their turn. Each redraw
reads the table's current state under a per-hand lock, so the last edit
always shows the newest state.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.app import SpadesApp
from bot.refusals import TableError
from bot.render.decks import Deck, deck
from bot.render.hand_screen import hand_moment, hand_screen
from bot.render.spec import MessageSpec
from bot.tables.model import Table
from cogs.components import message_fields, send_private

log = logging.getLogger(__name__)

#: Discord accepts edits through an interaction token for 15 minutes; stop a
#: little earlier so an edit never races the expiry.
LIVE_FOR_S = 14 * 60
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class _LiveHand:
    interaction: discord.Interaction[Any]
    expires_at: float
    version: int
    moment: tuple[object, ...] = ()  # what the owner could do when it was drawn
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class HandScreens:
    def __init__(self, app: SpadesApp) -> None:
        self.app = app
        self._live: dict[tuple[int, int], _LiveHand] = {}

    # -- drawing ---------------------------------------------------------------------

    async def deck_of(self, user_id: int) -> Deck:
        return deck(await self.app.deck_of(user_id))

    async def set_deck(self, user_id: int, design: Deck) -> None:
        await self.app.set_deck(user_id, design.name.value)

    async def spec(self, table: Table, user_id: int, note: str | None = None) -> MessageSpec:
        """The private hand message of ``user_id`` at ``table``."""
        return hand_screen(table, user_id, await self.deck_of(user_id), note)

    async def open(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer with a fresh private hand, and keep it live."""
        user = interaction.user.id
        table = (await self.app.open_hand(table, user)).table
        await send_private(interaction, await self.spec(table, user))
        live = self._track(interaction, table.id)
        live.version, live.moment = table.version, hand_moment(table, user)

    async def redraw(
        self, interaction: discord.Interaction[Any], table_id: int, note: str | None = None
    ) -> None:
        """Redraw the hand message the (deferred) click came from, at the current state.

        Hand buttons only ever live on their owner's private messages. Should
        one arrive from any other message (a forged one), the hand is sent in
        a new private message instead: a hand never goes into a shared one.
        """
        source = interaction.message
        if source is None or not source.flags.ephemeral:
            table = await self.app.tables.get(table_id)
            spec = await self.spec(table, interaction.user.id, note)
            await interaction.followup.send(
                **message_fields(spec), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        live = self._track(interaction, table_id)
        async with live.lock:
            table = await self.app.tables.get(table_id)
            spec = await self.spec(table, interaction.user.id, note)
            await interaction.edit_original_response(
                **message_fields(spec), allowed_mentions=NO_MENTIONS
            )
            live.version = table.version
            live.moment = hand_moment(table, interaction.user.id)

    def _track(self, interaction: discord.Interaction[Any], table_id: int) -> _LiveHand:
        """Keep the hand message of this interaction live: the owner's most
        recently used hand message is the one kept current."""
        key = (table_id, interaction.user.id)
        expires = interaction.created_at.timestamp() + LIVE_FOR_S
        live = self._live.get(key)
        if live is None:
            live = self._live[key] = _LiveHand(interaction, expires, 0)
        elif expires >= live.expires_at:
            live.interaction, live.expires_at, live.version = interaction, expires, 0
            live.moment = ()
        return live

    # -- keeping hands live ----------------------------------------------------------

    async def refresh(self, table: Table) -> None:
        """Redraw the live hands of the table whose owner's moment changed."""
        now = self.app.now()
        for key in [k for k in self._live if k[0] == table.id]:
            live = self._live[key]
            if live.expires_at <= now or not table.is_seated(key[1]):
                self._live.pop(key, None)
                continue
            if live.version < table.version and live.moment != hand_moment(table, key[1]):
                await self._refresh_one(key, live)
            if not table.is_open:
                # The game is over: its hands are drawn for the last time.
                self._live.pop(key, None)

    async def _refresh_one(self, key: tuple[int, int], live: _LiveHand) -> None:
        async with live.lock:
            table = await self.app.tables.get(key[0])
            if live.version >= table.version or live.moment == hand_moment(table, key[1]):
                return
            try:
                spec = await self.spec(table, key[1])
                await live.interaction.edit_original_response(
                    **message_fields(spec), allowed_mentions=NO_MENTIONS
                )
            except (discord.HTTPException, TableError) as exc:
                # Expired or deleted: the owner opens a fresh hand next time.
                log.debug("live hand of table %d dropped: %s", key[0], exc)
                if self._live.get(key) is live:
                    self._live.pop(key, None)
                return
            live.version = table.version
            live.moment = hand_moment(table, key[1])
