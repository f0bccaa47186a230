"""Private hand messages: drawn for their owner only, and kept editable while possible.

A hand is always sent as a fresh ephemeral message or redrawn in answer to
a click on it; nothing depends on an old message. /spades hand answers with
it; My hand on the table message is answered as a deferred update (so its
token can edit the table message, see cogs/notices.py) and the hand
follows as an ephemeral follow-up, edited by its message id.
While the interaction that showed a hand is younger than Discord's
15-minute token life, the hand is also redrawn after every change at the
table, so the owner's buttons come alive when it is their turn. Each redraw
reads the table's current state under a per-hand lock, so the last edit
always shows the newest state.

An editable hand is edited through a webhook built from the application id and
the interaction's token, which outlive the interaction object: both are
written to the database when a hand is opened, and again when clicks on it
have brought a token five minutes newer (not at every click: a card play
stays one write), so a restarted bot keeps the same messages editable. What
a hand last showed stays in memory; after a restart a hand is redrawn once
if its table moved on since it was opened.

A hand is drawn in its owner's language: the one of the interaction that
showed it; after a restart, until the owner clicks again, the language they
chose with ``/spades language``, else the table's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.app import HandMessageRow, SpadesApp
from bot.refusals import Refusal
from bot.render.decks import Deck, deck
from bot.render.hand import drawn_in_exchange, hand_moment, hand_screen
from bot.render.spec import MessageSpec
from bot.tables.model import Table
from cogs.components import message_fields, private_language, send_private

log = logging.getLogger(__name__)

#: Discord accepts edits through an interaction token for 15 minutes; stop a
#: little earlier so an edit never races the expiry.
LIVE_FOR_S = 14 * 60
#: Each click on a hand brings a fresh token; the database gets it only once
#: the one it holds is this much older, so a card play stays one write and a
#: restart still finds a token good for at least 9 minutes of an active hand.
REWRITE_AFTER_S = 5 * 60
NO_MENTIONS = discord.AllowedMentions.none()

_Key = tuple[int, int]  # (table id, owner's user id)


@dataclass
class _HandMessage:
    application_id: int
    token: str = field(repr=False)  # edits the message; never in a log line
    expires_at: float  # no edit is tried from then on
    version: int = 0  # the table version it was last drawn at
    moment: tuple[object, ...] = ()  # what the owner could do then; () if unknown
    stored_token: str | None = field(default=None, repr=False)  # what the database holds
    stored_expires_at: float | None = None  # and when that token expires
    stored_version: int = 0  # and the version it was drawn at
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    language: str | None = None  # the owner's, when an interaction told it
    message_id: int | None = None  # a follow-up's id; None: the token's @original


class HandScreens:
    def __init__(self, app: SpadesApp, client: discord.Client) -> None:
        self.app = app
        self.client = client
        self._messages: dict[_Key, _HandMessage] = {}

    async def resume(self) -> None:
        """Keep editable the hands an earlier run of the bot kept editable (at start-up).
        The database knows the version a hand was opened at, not what it last
        showed: one whose table moved on since is redrawn once, when the
        table is next drawn (at once after a restart)."""
        for row in await self.app.hand_messages():
            hand = _HandMessage(
                row.application_id,
                row.token,
                row.expires_at,
                row.version,
                stored_token=row.token,
                stored_expires_at=row.expires_at,
                stored_version=row.version,
                message_id=row.message_id,
            )
            self._messages.setdefault((row.table_id, row.user_id), hand)

    # -- drawing ---------------------------------------------------------------------

    async def deck_of(self, user_id: int) -> Deck:
        return deck(await self.app.deck_of(user_id))

    async def set_deck(self, user_id: int, design: Deck) -> None:
        await self.app.set_deck(user_id, design.name.value)

    async def spec(
        self,
        table: Table,
        user_id: int,
        note: str | None = None,
        lang: str | None = None,
        selection: int = 0,
    ) -> MessageSpec:
        """The private hand message of ``user_id`` at ``table`` in ``lang``
        (None: the one they chose, else the table's); ``selection``: the
        cards chosen so far to pass."""
        if lang is None:
            lang = await self.app.language_of(user_id) or table.language
        return hand_screen(table, user_id, await self.deck_of(user_id), note, lang, selection)

    async def open(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer with a fresh private hand, and keep it editable: the answer
        itself, or an ephemeral follow-up of an interaction already deferred."""
        user = interaction.user.id
        table = (await self.app.open_hand(table, user)).table
        lang = private_language(interaction)
        spec = await self.spec(table, user, lang=lang)
        follow_up: int | None = None
        if interaction.response.is_done():
            fields = message_fields(spec)
            sent = await interaction.followup.send(
                **fields, ephemeral=True, allowed_mentions=NO_MENTIONS, wait=True
            )
            fields["view"].stop()  # dispatched by its DynamicItem template, not the view
            follow_up = sent.id
        else:
            await send_private(interaction, spec)
        key, message = self._track(interaction, table.id, follow_up)
        async with message.lock:
            await self._drawn(key, message, table)

    async def redraw(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        note: str | None = None,
        selection: int = 0,
    ) -> None:
        """Redraw the hand message the (deferred) click came from, at ``table``:
        the table the click's action left (or, refused, the one it was judged
        against). Should the message show a newer one already, drawn meanwhile
        by a later change, the table is read again: a hand never goes back.

        Hand buttons only ever live on their owner's private messages. Should
        one arrive from any other message (a forged one), the hand is sent in
        a new private message instead: a hand never goes into a shared one.
        """
        source = interaction.message
        if source is None or not source.flags.ephemeral:
            lang = private_language(interaction)
            spec = await self.spec(table, interaction.user.id, note, lang, selection)
            await interaction.followup.send(
                **message_fields(spec), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        key, message = self._track(interaction, table.id)
        async with message.lock:
            if message.version > table.version:
                table = await self.app.tables.get(table.id)
            spec = await self.spec(table, interaction.user.id, note, message.language, selection)
            await interaction.edit_original_response(
                **message_fields(spec), allowed_mentions=NO_MENTIONS
            )
            await self._drawn(key, message, table)

    def _track(
        self, interaction: discord.Interaction[Any], table_id: int, message_id: int | None = None
    ) -> tuple[_Key, _HandMessage]:
        """Keep the hand message of this interaction editable: the owner's most
        recently used hand message is the one kept current."""
        key = (table_id, interaction.user.id)
        expires = interaction.created_at.timestamp() + LIVE_FOR_S
        message = self._messages.get(key)
        if message is not None:
            message.language = private_language(interaction)
        if message is None or expires >= message.expires_at:
            # A newer token for the same owner: the lock is shared, so edits
            # through the old and the new one never interleave.
            lock = message.lock if message is not None else asyncio.Lock()
            token, application = interaction.token, interaction.application_id
            fresh = _HandMessage(application, token, expires, lock=lock, message_id=message_id)
            fresh.language = private_language(interaction)
            if message is not None:
                fresh.stored_token, fresh.stored_expires_at, fresh.stored_version = (
                    message.stored_token,
                    message.stored_expires_at,
                    message.stored_version,
                )
            message = self._messages[key] = fresh
        return key, message

    async def _drawn(self, key: _Key, message: _HandMessage, table: Table) -> None:
        """``message`` now shows ``table``. If it is still the owner's
        editable hand, remember that, and write it down the first time (and
        once in a Nil pass the owner chooses in: a restart then leaves the
        choice its buttons carry alone, see :meth:`refresh`)."""
        if self._messages.get(key) is not message:
            return  # a newer hand of the owner's is the editable one
        message.version, message.moment = table.version, hand_moment(table, key[1])
        stored = message.stored_expires_at
        choosing = drawn_in_exchange(table, key[1], table.version)
        if (
            stored is None
            or message.expires_at - stored >= REWRITE_AFTER_S
            or (choosing and not drawn_in_exchange(table, key[1], message.stored_version))
        ):
            message.stored_token, message.stored_expires_at = message.token, message.expires_at
            message.stored_version = table.version
            row = HandMessageRow(
                *key,
                message.application_id,
                message.token,
                message.expires_at,
                table.version,
                message.message_id,
            )
            await self.app.keep_hand_message(row)

    # -- reaching a hand's owner ------------------------------------------------------

    def language(self, table_id: int, user_id: int) -> str | None:
        """The language of the owner's editable hand at the table, if one is kept."""
        message = self._messages.get((table_id, user_id))
        return None if message is None else message.language

    async def follow_up(self, table_id: int, user_id: int, text: str) -> bool:
        """Say ``text`` privately to the owner of the table's editable hand, as
        a follow-up of the interaction it was last drawn for (in the channel
        where they play); False when no hand is kept or Discord refused."""
        message = self._messages.get((table_id, user_id))
        if message is None or message.expires_at <= self.app.now():
            return False
        try:
            await _send_follow_up(self.client, message.application_id, message.token, text)
        except discord.HTTPException as exc:
            log.debug("no follow-up through the hand of user %d: %s", user_id, exc)
            return False
        return True

    # -- keeping hands editable -------------------------------------------------------

    async def refresh(self, table: Table) -> None:
        """Redraw the editable hands of the table whose owner's moment changed."""
        now = self.app.now()
        for key in [k for k in self._messages if k[0] == table.id]:
            message = self._messages.get(key)
            if message is None:
                continue
            if message.expires_at <= now or not table.is_seated(key[1]):
                await self._forget(key, message)
                continue
            if not message.moment and drawn_in_exchange(table, key[1], message.version):
                # Known from before a restart, drawn in the exchange going on:
                # its buttons hold the owner's choice, which a redraw would drop.
                message.moment = hand_moment(table, key[1])
            if message.version < table.version and message.moment != hand_moment(table, key[1]):
                await self._refresh_one(key, message, table)
            if not table.is_open:
                # The game is over: its hands are drawn for the last time.
                await self._forget(key, message)

    async def _refresh_one(self, key: _Key, message: _HandMessage, table: Table) -> None:
        """Redraw one editable hand at ``table``, the newest table published
        to the presenter (a later one comes with its own refresh)."""
        async with message.lock:
            if self._messages.get(key) is not message:
                return  # replaced meanwhile by a newer hand, drawn just now
            if message.expires_at <= self.app.now():
                # It expired while waiting for the lock: Discord would refuse the edit.
                await self._forget(key, message)
                return
            if message.version >= table.version or message.moment == hand_moment(table, key[1]):
                return
            try:
                spec = await self.spec(table, key[1], lang=message.language)
                await edit_answer(
                    self.client, message.application_id, message.token, spec, message.message_id
                )
            except (discord.HTTPException, Refusal) as exc:
                # Deleted (or refused): the owner opens a fresh hand next time.
                log.debug("editable hand of table %d dropped: %s", key[0], exc)
                await self._forget(key, message)
                return
            message.version = table.version
            message.moment = hand_moment(table, key[1])

    async def _forget(self, key: _Key, message: _HandMessage) -> None:
        """Stop keeping this hand message, unless a newer one took its place."""
        if self._messages.get(key) is not message:
            return
        del self._messages[key]
        if message.stored_token is not None:
            await self.app.forget_hand_message(key[0], key[1], message.stored_token)


async def _send_follow_up(
    client: discord.Client, application_id: int, token: str, text: str
) -> None:
    """Send an ephemeral follow-up of an interaction known by its application
    id and token alone (``POST /webhooks/{application}/{token}``), as
    ``Interaction.followup.send(text, ephemeral=True)`` would."""
    ephemeral = discord.MessageFlags(ephemeral=True)
    with _token_request(client, application_id, token, content=text, flags=ephemeral) as common:
        await async_context.get().execute_webhook(application_id, token, **common)


async def edit_answer(
    client: discord.Client,
    application_id: int,
    token: str,
    spec: MessageSpec,
    message_id: int | None = None,
) -> None:
    """Edit the answer to an interaction known by its application id and token
    alone (``PATCH /webhooks/{application}/{token}/messages/@original``), or
    its follow-up ``message_id`` (``.../messages/{message_id}``).

    This sends what ``Interaction.edit_original_response`` sends, through the
    same adapter, without the interaction object, which a restart loses.
    discord.py has no public call for it: ``Webhook.edit_message("@original")``
    would send the "@" percent-encoded.
    """
    adapter = async_context.get()
    with _token_request(client, application_id, token, **message_fields(spec)) as common:
        if message_id is None:
            await adapter.edit_original_interaction_response(application_id, token, **common)
        else:
            await adapter.edit_webhook_message(application_id, token, message_id, **common)


@contextmanager
def _token_request(
    client: discord.Client, application_id: int, token: str, **fields: Any
) -> Iterator[dict[str, Any]]:
    """The arguments of a request through an interaction's token, made of the
    message ``fields`` as discord.py's own calls make them (no mentions)."""
    session = discord.Webhook.partial(application_id, token, client=client).session
    with handle_message_parameters(
        **fields, allowed_mentions=NO_MENTIONS, previous_allowed_mentions=client.allowed_mentions
    ) as params:
        yield {
            "session": session,
            "proxy": client.http.proxy,
            "proxy_auth": client.http.proxy_auth,
            "payload": params.payload,
            "multipart": params.multipart,
            "files": params.files,
        }
