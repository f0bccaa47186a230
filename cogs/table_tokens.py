"""Interaction tokens that bring table messages up to date off the bot's budget.

Discord's global limit (about 50 requests a second) belongs to the bot's
token; interaction routes are outside it. A press on a table message answered
as a deferred update (type 6) makes that message its token's ``@original``,
editable through the token until the token is 15 minutes old; follow-ups of
the token (turn notices) can be posted and deleted through it too. Every such
press offers its token here; the newest one of a table serves that table's
edits and notices while it is younger than :data:`LIVE_FOR_S`, after which
the bot's own budget serves them again, as before any press.

Each token has limits of its own (one report: about 5 requests in 2 s); the
outbox spaces a token's requests apart (``Budget.per_token_s``). A request an
expired token makes is answered 401, which Discord counts as an invalid
request: a token is never used in its last minute.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.tables.model import Table
from cogs.outbox import Clock

#: Discord accepts a token for 15 minutes; none is used in its last minute.
LIVE_FOR_S = 14 * 60
#: Above this many tables known, the expired tokens are dropped at the next offer.
PRUNE_ABOVE = 1024

DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update

WEBHOOK_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/@original"
WEBHOOK_POST = "POST /webhooks/{application_id}/{token}"
WEBHOOK_DELETE = "DELETE /webhooks/{application_id}/{token}/messages/{message_id}"


@dataclass(frozen=True, slots=True)
class TableToken:
    """One press's token, good for its table message and its channel."""

    interaction_id: int  # names the token in the outbox (its spacing) and logs
    application_id: int
    token: str = field(repr=False)  # edits a public message: never in a log line
    message_id: int  # the table message, the token's @original
    channel_id: int  # where its follow-ups go
    expires_at: float  # not used from then on

    def webhook(self, client: discord.Client) -> discord.Webhook:
        return discord.Webhook.partial(self.application_id, self.token, client=client)


class TableTokens:
    def __init__(self, now: Clock) -> None:
        self._now = now
        self._by_table: dict[int, TableToken] = {}

    def offer(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """Keep the token of a press on ``table``'s message, if the press was
        answered as a deferred update (so ``@original`` is that message) and
        it outlives the token kept."""
        message = interaction.message
        if (
            message is None
            or message.flags.ephemeral
            or message.id != table.message_id
            or interaction.channel_id is None
            or interaction.response.type is not DEFERRED_UPDATE
        ):
            return
        offered = TableToken(
            interaction.id,
            interaction.application_id,
            interaction.token,
            message.id,
            interaction.channel_id,
            interaction.created_at.timestamp() + LIVE_FOR_S,
        )
        kept = self._by_table.get(table.id)
        if kept is None or kept.expires_at <= offered.expires_at or kept.message_id != message.id:
            self._by_table[table.id] = offered
        if len(self._by_table) > PRUNE_ABOVE:
            now = self._now()
            self._by_table = {t: k for t, k in self._by_table.items() if k.expires_at > now}

    def fresh(
        self, table_id: int, *, message_id: int | None = None, channel_id: int | None = None
    ) -> TableToken | None:
        """The table's token if it may still be used (for that message, in
        that channel, when they are given)."""
        kept = self._by_table.get(table_id)
        if kept is None:
            return None
        if kept.expires_at <= self._now():
            del self._by_table[table_id]
            return None
        if message_id is not None and kept.message_id != message_id:
            return None
        if channel_id is not None and kept.channel_id != channel_id:
            return None
        return kept

    def still_fresh(self, token: TableToken) -> bool:
        return token.expires_at > self._now()

    def usable(self, table_id: int, token: TableToken) -> bool:
        """Whether ``token``, chosen for the table a moment ago, may still be
        used: not expired, and the table not left to the bot's budget since
        (by a refusal) unless a newer press has come."""
        return self.still_fresh(token) and self.fresh(table_id) is not None

    def drop(self, table_id: int, token: TableToken) -> None:
        """A request through ``token`` failed: the bot's budget serves the table."""
        if self._by_table.get(table_id) == token:
            del self._by_table[table_id]
