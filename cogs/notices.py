"""Turn notices, and the turn clock's other messages, in the tables' channels; the
interaction tokens that post them, and edit table messages, off the bot's budget.

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
(:class:`TableTokens`) and the table talks in that message's channel, a
first notice is posted as a follow-up of that token, and deleted through
the token that posted it while it is fresh: off the bot's global budget. A
refused token is dropped and the same request goes the bot's way at once.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.app import REDRAW, SpadesApp, TurnMention
from bot.i18n import N_, tr
from bot.render import clock_text
from bot.render.clock_text import ClockMessage
from bot.tables.model import Table
from cogs.outbox import DELETE, POST, Clock, Outbox, Route
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


# -- interaction tokens: table messages kept current off the bot's budget --
# Discord's global limit (about 50 requests a second) belongs to the bot's
# token; interaction routes are outside it. A press on a table message answered
# as a deferred update (type 6) makes that message its token's ``@original``,
# editable through the token until the token is 15 minutes old; follow-ups of
# the token (turn notices) can be posted and deleted through it too. Every such
# press offers its token here; the newest one of a table serves that table's
# edits and notices while it is younger than :data:`LIVE_FOR_S`, after which
# the bot's own budget serves them again, as before any press.
#
# Each token has limits of its own (one report: about 5 requests in 2 s); the
# outbox spaces a token's requests apart (``Budget.per_token_s``). A request an
# expired token makes is answered 401, which Discord counts as an invalid
# request: a token is never used in its last minute.

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
