"""Turn mentions: a short message pinging the person a table waits on.

One per turn change, a while after it (a quick player is not pinged), in
place of the table's last one: at most one mention per table in the
channel. They come from one line served by one task, one request at a time
within the REST budget. So mentions never book the budget ahead: a table
message, which people are looking at, waits behind one mention request at
most, and a burst of mentions is spread over the turns the edits leave.
Each table has one place in the line, and a newer turn takes the place of
an older one not mentioned yet. The one task also means one timer for all
tables, however many are waiting on someone.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.app import SpadesApp, TurnMention
from bot.i18n import N_, tr
from bot.tables.model import Table
from cogs.pacing import Pacer

log = logging.getLogger(__name__)

#: Whose turn it is: hand number, seat, phase, user id.
Turn = tuple[int, int, str, int]


@dataclass
class _Mention:
    """What is known about one table's mention. Not the table itself: that
    would keep every table's game in memory."""

    table_id: int
    channel_id: int
    guild_id: int | None
    language: str
    turn: Turn | None = None  # the turn to mention (None: no one to mention)
    message_id: int | None = None  # the mention in the channel
    loaded: bool = False  # message_id read from the database (since a restart)
    place: int | None = None  # its place in the line, if it is in it


class TurnMentions:
    def __init__(self, client: discord.Client, app: SpadesApp, pacer: Callable[[], Pacer]) -> None:
        self.client = client
        self.app = app
        self._pacer = pacer  # the budget in use, which may be replaced
        self._mentions: dict[int, _Mention] = {}
        self._line: list[tuple[float, int, int]] = []  # (due, place, table id), a heap
        self._places = itertools.count()
        self._sender: asyncio.Task[Any] | None = None
        self._napping_until: float | None = None  # while the sender waits for the first due

    def turn_shown(self, table: Table) -> None:
        """The table message shows ``table``: mention whoever it waits on, soon."""
        settings = self.app.settings.tables
        game = table.game
        seat = game.waited_on() if game is not None and table.is_open else None
        occupant = table.seats[seat] if seat is not None else None
        turn: Turn | None = None
        if game is not None and seat is not None and occupant and occupant.user_id is not None:
            turn = (game.hand_number, seat, game.phase.value, occupant.user_id)
        mention = self._mentions.get(table.id)
        if mention is None:
            if turn is None:
                return  # nothing mentioned, nothing to mention
            mention = _Mention(table.id, table.channel_id, table.guild_id, table.language)
            self._mentions[table.id] = mention
        elif turn == mention.turn:
            return
        mention.channel_id, mention.language, mention.turn = table.channel_id, table.language, turn
        mention.place = None  # the turn it was waiting for needs no mention any more
        if not settings.turn_ping:
            return
        delay = settings.turn_ping_delay_s if turn is not None else 0.0
        self._enqueue(table.id, mention, self.app.now() + max(0.0, delay))

    def _enqueue(self, table_id: int, mention: _Mention, at: float) -> None:
        mention.place = next(self._places)
        heapq.heappush(self._line, (at, mention.place, table_id))
        sender = self._sender
        if sender is not None and not sender.done():
            napping_until = self._napping_until
            if napping_until is None or at >= napping_until:
                return  # it comes to this one in time
            sender.cancel()  # it sleeps for a later instant
        self._napping_until = None
        self._sender = self.app.spawn(self._send_due(), "turn-mentions")

    async def _send_due(self) -> None:
        # The instant slept until counts as come even if the application's
        # clock says otherwise: a simulated one may stand still while the
        # event loop's runs (as the old per-table sleeps did, the wait is
        # asyncio's).
        slept_to = float("-inf")
        while self._line:
            at, place, table_id = self._line[0]
            mention = self._mentions.get(table_id)
            if mention is None or mention.place != place:
                heapq.heappop(self._line)  # replaced by a newer turn, or not wanted
                continue
            delay = at - max(self.app.now(), slept_to)
            if delay > 0:
                self._napping_until = at
                await asyncio.sleep(delay)
                self._napping_until, slept_to = None, at
                continue
            heapq.heappop(self._line)
            mention.place = None
            await self._serve(table_id, mention)
            if mention.turn is None and mention.message_id is None and mention.place is None:
                del self._mentions[table_id]  # nothing to mention, nothing to delete

    async def _serve(self, table_id: int, mention: _Mention) -> None:
        if not mention.loaded:
            # A mention posted before a restart is known only to the database.
            stored = await self.app.turn_mention(table_id)
            mention.loaded = True
            if stored is not None:
                mention.message_id = stored.message_id
                if mention.turn is not None and stored.turn == _turn_text(mention.turn):
                    return  # that person was told before the restart: no second mention
        await self._replace(mention)

    async def _replace(self, mention: _Mention) -> None:
        """Delete the table's last mention and post the one for its turn, if any."""
        turn = mention.turn
        channel = self.client.get_partial_messageable(mention.channel_id, guild_id=mention.guild_id)
        old, mention.message_id = mention.message_id, None
        if old is not None:
            await self._pacer().turn()
            # Already deleted by someone, or no permission: leave it.
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
        new: TurnMention | None = None
        if turn is not None and await self._still(mention, turn):
            _hand, _seat, phase, user_id = turn
            if phase == "bidding":
                text = N_("<@{user}>, your turn to bid at table {table}.")
            else:
                text = N_("<@{user}>, your turn to play at table {table}.")
            try:
                message = await channel.send(
                    tr(mention.language, text, user=user_id, table=mention.table_id),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )
                mention.message_id = message.id
                new = TurnMention(message.id, _turn_text(turn))
            except discord.HTTPException as exc:
                log.info("turn mention at table %d not sent: %s", mention.table_id, exc)
        if old is not None or new is not None:
            await self.app.set_turn_mention(mention.table_id, new)

    async def _still(self, mention: _Mention, turn: Turn) -> bool:
        """Wait for a turn of the budget; whether ``turn`` is still the one to
        mention then (if not, its successor has its place in the line)."""
        await self._pacer().turn()
        return mention.turn == turn


def _turn_text(turn: Turn) -> str:
    """The stored form of a turn: "hand:seat:phase:user"."""
    return ":".join(str(part) for part in turn)
