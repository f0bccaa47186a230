"""The turn clock on Discord: its messages in the table's channel.

:class:`ChannelTurnNotifier` is the clock's voice: short messages, each
pinging only the people it concerns. They go out within the REST budget
(the presenter's :class:`~cogs.pacing.Pacer`), from a task of their own: the
clock never waits for a turn of the budget, so a burst of reminders (tables
opened together come due together) holds up no computer player's move.
"""

from __future__ import annotations

import logging

import discord

from bot.app import REDRAW, SpadesApp
from bot.render import clock_text
from bot.render.clock_text import ClockMessage
from bot.tables.model import Table
from cogs.paced_line import PacedLine
from cogs.pacing import Pacer

log = logging.getLogger(__name__)


class ChannelTurnNotifier:
    """Implements the turn clock's notifier with channel messages. The
    application is set once it is built (it needs the notifier first), and
    the pacer once the presenter is (its budget is the one shared by every
    request of the bot).

    The messages wait in one line, sent by one task, one per turn of the
    budget: a burst of them never takes every turn for seconds ahead, so the
    table messages, which people wait for, get theirs in between. A table
    has at most one message in the line: a newer one takes the place of one
    not sent yet (it is the one that still holds)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.app: SpadesApp | None = None
        self.pacer: Pacer | None = None
        # table id -> its message waiting to go out (made with the application)
        self._unsent: PacedLine[int, tuple[Table, ClockMessage]] | None = None

    def _stand_in(self, table: Table) -> bool:
        return self.app is not None and self.app.snapshot(table).stand_in

    async def remind(self, table: Table, seat: int, left_s: float) -> None:
        stand_in = self._stand_in(table)
        await self._say(table, clock_text.reminder(table, seat, left_s, stand_in=stand_in))

    async def claim_open(self, table: Table) -> None:
        await self._say(table, clock_text.claim_opened(table))
        if self.app is not None:
            self.app.publish(table, REDRAW)  # the table message offers the claim now

    async def stood_in(self, table: Table, seat: int) -> None:
        await self._say(table, clock_text.stood_in(table, seat))

    async def lobby_closed(self, table: Table) -> None:
        idle = self.app.settings.clock.lobby_idle_s if self.app is not None else None
        await self._say(table, clock_text.lobby_closed(table, idle))

    async def _say(self, table: Table, message: ClockMessage | None) -> None:
        """Have ``message`` sent soon, in place of the table's unsent one."""
        if message is None or self.app is None:
            return
        if self._unsent is None:
            # The application keeps the sender task, and cancels it when it closes.
            self._unsent = PacedLine(
                self._send,
                spawn=self.app.spawn,
                now=self.app.now,
                name="clock-messages",
                turn=self._budget_turn,
            )
        self._unsent.put(table.id, (table, message))  # a replacement keeps the place in line

    async def _budget_turn(self) -> None:
        if self.pacer is not None:
            await self.pacer.turn()

    async def _send(self, _table_id: int, unsent: tuple[Table, ClockMessage]) -> None:
        table, message = unsent
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in message.ping])
        try:
            await channel.send(message.text, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            # The game state does not depend on this message; the table message
            # still shows whose turn it is.
            log.info("turn clock message at table %d not sent: %s", table.id, exc)
