"""Turn notices, and the turn clock's other messages, in the tables' channels.

A turn notice tells the person a table waits on that it is their turn,
pinging only them (in the Nil pass: every person still choosing, each on a
line, told once for the whole pass). The first comes ``[clock]
first_notice_s`` after the table message shows the turn (a quick player is
not pinged), in place of the table's last one: one such notice per table in
the channel at a time, recorded in the database so a restart neither repeats
it nor forgets to delete it. The later ones come from the turn clock, at
the points ``[clock] notice_*`` name, and say how long is left. The clock's
other messages (the claim opening, a stand-in taking over, an idle lobby
closed) go out the same way.

:class:`TurnNotices` is the turn clock's notifier (``TurnNotifier``). Every
message waits in the :class:`~cogs.outbox.Outbox`'s line: each table has at
most one first notice and one clock message waiting, a newer one taking the
place of one not sent yet, and none of them holds up a table message for
more than one request.

While a press on the table message has left a fresh interaction token
(cogs/table_tokens.py) and the table talks in that message's channel, a
first notice is posted as a follow-up of that token, and deleted through
the token that posted it while it is fresh: off the bot's global budget. A
refused token is dropped and the same request goes the bot's way at once.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.app import REDRAW, SpadesApp, TurnMention
from bot.i18n import N_, tr
from bot.render import clock_text
from bot.render.clock_text import ClockMessage
from bot.tables.model import Table
from cogs.outbox import DELETE, POST, Outbox, Route
from cogs.table_tokens import WEBHOOK_DELETE, WEBHOOK_POST, TableToken, TableTokens
from cogs.threads import TableThreads

log = logging.getLogger(__name__)

#: Whose turn it is: hand number, seat, phase, and the users told (one, or
#: in the Nil pass every person choosing).
Turn = tuple[int, int, str, tuple[int, ...]]


@dataclass
class _Notice:
    """What is known about one table's first notice. Not the table itself:
    that would keep every table's game in memory."""

    table_id: int
    channel_id: int
    guild_id: int | None
    language: str
    turn: Turn | None = None  # the turn to tell (None: nobody to tell)
    message_id: int | None = None  # the notice in the channel
    loaded: bool = False  # message_id read from the database (since a restart)
    posted_with: TableToken | None = None  # the token that posted the notice, if one did


class TurnNotices:
    """Built before the application (which needs its notifier first); the
    application and the outbox are attached once they exist."""

    app: SpadesApp
    outbox: Outbox
    threads: TableThreads
    tokens: TableTokens

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._notices: dict[int, _Notice] = {}
        self._clock_unsent: dict[int, tuple[Table, ClockMessage]] = {}

    def attach(
        self, app: SpadesApp, outbox: Outbox, threads: TableThreads, tokens: TableTokens
    ) -> None:
        self.app, self.outbox, self.threads, self.tokens = app, outbox, threads, tokens

    # -- the first notice of a turn ------------------------------------------------

    def turn_shown(self, table: Table) -> None:
        """The table message shows ``table``: tell whoever it waits on, soon."""
        settings = self.app.settings.clock
        turn = _turn_of(table)
        notice = self._notices.get(table.id)
        if notice is None:
            if turn is None:
                return  # nothing told, nobody to tell
            notice = _Notice(table.id, table.talk_channel_id, table.guild_id, table.language)
            self._notices[table.id] = notice
        elif _told(notice.turn, turn):
            if notice.message_id is None:
                notice.turn = turn  # not posted yet: it names only those still choosing
            return
        notice.language, notice.turn = table.language, turn
        if notice.message_id is None:
            notice.channel_id = table.talk_channel_id  # else: where the one to delete is
        key = ("notice", table.id)
        if not settings.first_notice:
            self.outbox.withdraw(key)  # the turn it was waiting for needs none any more
            return
        delay = settings.first_notice_s if turn is not None else 0.0
        # In place of an older turn's, due at its own instant.
        self._put(notice, due=self.app.now() + max(0.0, delay))

    def _put(self, notice: _Notice, due: float | None = None) -> None:
        via = self._via(notice)
        self.outbox.put(
            ("notice", notice.table_id),
            lambda: self._send_notice(notice, via),
            due=due,
            token=via.interaction_id if via is not None else None,
        )

    def _via(self, notice: _Notice) -> TableToken | None:
        """The token the notice's next request goes through, if any: the one
        that posted the notice to delete, or for a new notice the table's, if
        the table talks where that token's follow-ups go."""
        if notice.message_id is not None or not notice.loaded:
            posted = notice.posted_with
            return posted if posted is not None and self.tokens.still_fresh(posted) else None
        if notice.turn is None:
            return None
        return self.tokens.fresh(notice.table_id, channel_id=notice.channel_id)

    async def _send_notice(self, notice: _Notice, via: TableToken | None) -> Route:
        """One request bringing the table's notice up to date: delete the last
        one, or post the one for the turn now (the next one after a delete)."""
        if not notice.loaded:
            # A notice posted before a restart is known only to the database.
            stored = await self.app.turn_mention(notice.table_id)
            notice.loaded = True
            if stored is not None:
                notice.message_id = stored.message_id
                if notice.turn is not None and _told(_stored_turn(stored.turn), notice.turn):
                    return None  # those people were told before the restart: not again
        chosen = self._via(notice)
        if (chosen is None) != (via is None) or (
            via is not None and not self.tokens.still_fresh(via)
        ):
            self._put(notice)  # its token expired meanwhile, or a delete comes first
            return None
        via = via if notice.message_id is None else chosen  # a delete: the poster's token
        if notice.message_id is not None:
            return await self._delete_notice(notice, via)
        turn = notice.turn
        if turn is None:
            self._forget(notice)
            return None
        if via is not None:
            return await self._post_through(notice, turn, via)
        try:
            table = await self.app.tables.get(notice.table_id)
            message = await self.threads.send(table, **_notice_fields(notice, turn))
        except discord.HTTPException as exc:
            log.info("turn notice at table %d not sent: %s", notice.table_id, exc)
            return POST
        notice.message_id, notice.channel_id = message.id, message.channel.id
        notice.posted_with = None
        await self.app.set_turn_mention(notice.table_id, TurnMention(message.id, _turn_text(turn)))
        return POST

    async def _delete_notice(self, notice: _Notice, via: TableToken | None) -> Route:
        """Delete the table's last notice (through the token that posted it,
        while fresh); the new one, if any, is put to go next."""
        assert notice.message_id is not None
        old = notice.message_id
        if via is not None:
            try:
                await via.webhook(self.client).delete_message(old)
            except discord.NotFound:
                pass  # already deleted by someone
            except discord.HTTPException as exc:
                log.info("table %d: a notice's token was refused: %s", notice.table_id, exc)
                self.tokens.drop(notice.table_id, via)
                notice.posted_with = None
                self._put(notice)  # the bot's way, at once
                return WEBHOOK_DELETE
        else:
            channel = self.client.get_partial_messageable(
                notice.channel_id, guild_id=notice.guild_id
            )
            # Already deleted by someone, or no permission: leave it.
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
        notice.message_id, notice.posted_with = None, None
        await self.app.set_turn_mention(notice.table_id, None)
        if notice.turn is not None:
            self._put(notice)  # the new one, next
        else:
            self._forget(notice)
        return DELETE if via is None else WEBHOOK_DELETE

    async def _post_through(self, notice: _Notice, turn: Turn, via: TableToken) -> Route:
        """Post the turn's notice as a follow-up of the table's token."""
        try:
            message = await via.webhook(self.client).send(**_notice_fields(notice, turn), wait=True)
        except discord.HTTPException as exc:
            log.info("table %d: a notice's token was refused: %s", notice.table_id, exc)
            self.tokens.drop(notice.table_id, via)
            self._put(notice)  # the bot's way, at once
            return WEBHOOK_POST
        notice.message_id, notice.channel_id, notice.posted_with = message.id, via.channel_id, via
        await self.app.set_turn_mention(notice.table_id, TurnMention(message.id, _turn_text(turn)))
        return WEBHOOK_POST

    def _forget(self, notice: _Notice) -> None:
        """Nothing told, nobody to tell: the table needs no memory of it."""
        if ("notice", notice.table_id) not in self.outbox:
            del self._notices[notice.table_id]

    # -- the turn clock's messages (TurnNotifier) ------------------------------------

    async def remind(self, table: Table, seats: tuple[int, ...], left_s: float) -> None:
        """A later turn notice: the seats are still awaited, ``left_s`` remain."""
        stand_in = self.app.snapshot(table).stand_in
        told = [clock_text.reminder(table, seat, left_s, stand_in=stand_in) for seat in seats]
        self._say(table, clock_text.together(told))

    async def claim_open(self, table: Table) -> None:
        self._say(table, clock_text.claim_opened(table))
        self.app.publish(table, REDRAW)  # the table message offers the claim now

    async def stood_in(self, table: Table, seats: tuple[int, ...]) -> None:
        self._say(table, clock_text.together([clock_text.stood_in(table, s) for s in seats]))

    async def lobby_closed(self, table: Table) -> None:
        idle = self.app.settings.clock.lobby_idle_s
        self._say(table, clock_text.lobby_closed(table, idle))

    async def archive_thread(self, table: Table, wait: bool) -> bool:
        return await self.threads.archive(table, wait)

    def tell(self, table: Table, message: ClockMessage) -> None:
        """A line of the table's own, like the host's answer to a request for
        a seat: said where the table talks, with the clock's messages."""
        self._say(table, message)

    def _say(self, table: Table, message: ClockMessage | None) -> None:
        """Have ``message`` sent soon, in place of the table's unsent one (a
        replacement keeps the place in the line)."""
        if message is None:
            return
        self._clock_unsent[table.id] = (table, message)
        self.outbox.put(("clock", table.id), lambda: self._send_clock(table.id))

    async def _send_clock(self, table_id: int) -> Route:
        table, message = self._clock_unsent.pop(table_id)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in message.ping])
        try:
            # The snapshot the clock held may be older than the thread's fate.
            current = await self.app.tables.get(table_id)
            await self.threads.send(current, content=message.text, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            # The game state does not depend on this message; the table message
            # still shows whose turn it is.
            log.info("turn clock message at table %d not sent: %s", table.id, exc)
        return POST


def _turn_of(table: Table) -> Turn | None:
    """The turn ``table`` waits on, if a person is to be told of it."""
    game = table.game
    seat = game.waited_on() if game is not None and table.is_open else None
    if game is None or seat is None:
        return None
    phase = "claim" if game.rest.waiting else game.phase.value  # (an answer is due)
    # Partners choose their passes at once: each is told at the pass's start.
    seats = game.exchange.choosing() if phase == "passing" else (seat,)
    users = tuple(user for n in seats if (user := table.seats[n].user_id) is not None)
    return (game.hand_number, seat, phase, users) if users else None


def _told(told: Turn | None, turn: Turn | None) -> bool:
    """Whether the notice of ``told`` already tells of ``turn``: the same
    turn, or the same pass with fewer still choosing (no second ping)."""
    if told is None or turn is None or told == turn:
        return told == turn
    hand, _seat, phase, users = turn
    told_hand, _told_seat, told_phase, told_users = told
    same_pass = phase == told_phase == "passing" and hand == told_hand
    return same_pass and set(users) <= set(told_users)


def _notice_fields(notice: _Notice, turn: Turn) -> dict[str, Any]:
    """The notice's text, pinging only the people whose turn it is (a line each)."""
    _hand, _seat, phase, users = turn
    if phase == "bidding":
        text = N_("<@{user}>, your turn to bid at table {table}.")
    elif phase == "passing":
        text = N_("<@{user}>, choose the cards you pass at table {table}.")
    elif phase == "claim":
        text = N_("<@{user}>, a claim of the rest waits for your answer at table {table}.")
    else:
        text = N_("<@{user}>, your turn to play at table {table}.")
    lines = [tr(notice.language, text, user=user, table=notice.table_id) for user in users]
    return {
        "content": "\n".join(lines),
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users]),
    }


def _turn_text(turn: Turn) -> str:
    """The stored form of a turn: "hand:seat:phase:user" (users joined by
    commas in the Nil pass)."""
    hand, seat, phase, users = turn
    return f"{hand}:{seat}:{phase}:{','.join(map(str, users))}"


def _stored_turn(text: str | None) -> Turn | None:
    """A turn in its stored form (None if unreadable)."""
    try:
        hand, seat, phase, users = (text or "").split(":")
        return int(hand), int(seat), phase, tuple(int(u) for u in users.split(","))
    except ValueError:
        return None
