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

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.app import SpadesApp, TurnMention
from bot.i18n import N_, tr
from bot.tables.model import Table
from cogs.paced_line import PacedLine
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


class TurnMentions:
    def __init__(self, client: discord.Client, app: SpadesApp, pacer: Callable[[], Pacer]) -> None:
        self.client = client
        self.app = app
        self._pacer = pacer  # the budget in use, which may be replaced
        self._mentions: dict[int, _Mention] = {}
        # table id -> its mention waiting to be brought up to date
        self._line: PacedLine[int, _Mention] = PacedLine(
            self._serve, spawn=app.spawn, now=app.now, name="turn-mentions"
        )

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
        if not settings.turn_ping:
            self._line.withdraw(table.id)  # the turn it was waiting for needs no mention any more
            return
        delay = settings.turn_ping_delay_s if turn is not None else 0.0
        # In place of an older turn's, due at its own instant.
        self._line.put(table.id, mention, self.app.now() + max(0.0, delay))

    async def _serve(self, table_id: int, mention: _Mention) -> None:
        await self._bring_up_to_date(table_id, mention)
        if mention.turn is None and mention.message_id is None and table_id not in self._line:
            del self._mentions[table_id]  # nothing to mention, nothing to delete

    async def _bring_up_to_date(self, table_id: int, mention: _Mention) -> None:
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
