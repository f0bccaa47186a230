"""Keeps every table's public message current.

The application calls :meth:`TablePresenter.on_change` after each commit.
That only records the newest snapshot and puts the table's message in the
:class:`~cogs.outbox.Outbox`, which spaces table messages out per channel and
keeps every request within the REST budget. When its turn comes the message
is edited to the newest version known then (so the changes made while it
waited become one edit, and the last one is always shown), posted again if
it was deleted, and a missing permission is reported to the host; it is
drawn again once permissions change. The game state never depends on any
of this succeeding. After each try, shown or not, the turn it waits on
goes to :class:`~cogs.notices.TurnNotices` and the editable hands are redrawn;
while the message's edits are refused or paced (below), that happens at
each change already: a person is never kept waiting on the table message.

Discord caps the edits of messages older than an hour (code 30046, answered
as a 429 or a 400, about 3 edits per 6 s in a channel), and a table message
of a game played over days is always that old. Its edits are paced below the
cap (``[discord] old_message_edits`` in ``old_message_edits_window_s``; the
outbox shows the changes made meanwhile together). An edit refused anyway
(a 429 of any kind, raised at once rather than waited out by discord.py, or
Discord's own 5xx error) is tried again, with the state current then, after
a short wait; never given up. An edit refused by the cap re-posts the table
message instead, and deletes the old one once the new one is up: a new
message is outside the cap, so the table catches up at once and stays
current for the next hour, and everything only the table message offers
(Next hand, a rematch, a claim's answers, a seat request's) is where people
look for it again. That was chosen over copying those buttons into every
private hand: a hand is kept editable for 15 minutes of its token only, and the
table message is the one place every player, watcher and a restarted bot
know.

While a press on the table message has left a fresh interaction token
(cogs/notices.py), the message is edited through that token, off the
bot's global budget; a refusal of the token (expired, unknown) drops it and
the latest state goes out through the bot's budget at once.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from enum import Enum

import discord

from bot.app import REDRAW, Snapshot, SpadesApp
from bot.i18n import ntr, resolve
from bot.render.spec import MessageSpec, computer_label, seat_name
from bot.render.table import table_message
from bot.tables.model import Table, TableStatus
from cogs.components import message_fields
from cogs.guilds import first_missing
from cogs.hands import HandScreens, edit_answer
from cogs.notices import WEBHOOK_EDIT, TableToken, TableTokens, TurnNotices
from cogs.outbox import DELETE, EDIT, POST, Key, Outbox, Route, TooManyRequests, refusing_fast
from cogs.threads import TableThreads

log = logging.getLogger(__name__)

#: What a table message needs, each with the name Discord's settings show. In
#: this order: without View Channel nothing else counts, and without Send
#: Messages discord.py reports Embed Links as missing too.
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
)
UNKNOWN_MESSAGE = 10008
#: Discord's answer to an edit of an old message beyond its cap (a 429 or a 400).
OLD_MESSAGE_CAP = 30046
#: Edits of a message this old are paced (Discord caps them from an hour on;
#: a minute's margin covers the wait for the edit's turn).
OLD_AFTER_S = 3600.0 - 60.0
#: The longest wait before another try of a refused edit (doubling from 1 s).
MOST_BACKOFF_S = 8.0


class _Drawn(Enum):
    SHOWN = "shown"
    LATER = "later"  # a rate limit or Discord's own error: try again soon
    GONE = "gone"  # the message was deleted (or is past the edit cap): post it again
    NOT_SHOWN = "not shown"  # no permission, channel gone: wait for a change
    TOKEN_REFUSED = "token refused"  # the interaction token failed: the budget's route, now


@dataclass
class _Screen:
    """What the presenter knows about one table's message."""

    channel_id: int
    wanted: Snapshot | None = None
    behind: Snapshot | None = None  # the last snapshot that could not be shown
    shown_version: int = 0
    message_id: int | None = None
    check: bool = False  # draw even if the version is already shown
    failures: int = 0  # tries in a row answered with a rate limit or an error of Discord's
    retry_in: float = 0.0  # seconds to wait before the next try, after such an answer
    retired: int | None = None  # a message past the edit cap, deleted once the new one is up
    #: The permissions the message lacks, told to the host in their own language.
    problem: tuple[str, ...] | None = None


class _TokenRefused(Exception):
    """An interaction token's request was refused (401 expired, 404 unknown,
    a per-token 429): the status and Discord's code."""

    def __init__(self, status: int, code: int) -> None:
        super().__init__(f"{status} ({code})")


def _key(table_id: int) -> Key:
    return ("table", table_id)


class TablePresenter:
    def __init__(
        self,
        client: discord.Client,
        app: SpadesApp,
        hands: HandScreens,
        outbox: Outbox,
        notices: TurnNotices,
        threads: TableThreads,
    ) -> None:
        self.client = client
        # The notices' tokens: a press's token serves both the table message and its notices.
        self.tokens: TableTokens = notices.tokens
        self.app = app
        self.hands = hands
        self.outbox = outbox
        self.notices = notices
        self.threads = threads
        self._screens: dict[int, _Screen] = {}
        self._by_message: dict[int, int] = {}  # table message id -> table id
        self.names: dict[int, str] = {}  # user id -> display name, seen in interactions
        self.languages: dict[int, str] = {}  # host's user id -> language, seen at /spades new

    # -- scheduling ----------------------------------------------------------------

    def on_change(self, snapshot: Snapshot, event: str) -> None:
        self.show(snapshot, check=event == REDRAW)

    def show(self, snapshot: Snapshot, *, check: bool = False) -> None:
        """Make sure the message shows ``snapshot`` (or a newer version) soon."""
        table = snapshot.table
        screen = self._screens.get(table.id)
        if screen is None:
            screen = _Screen(table.channel_id, message_id=table.message_id)
            self._screens[table.id] = screen
            if table.message_id is not None:
                self._by_message[table.message_id] = table.id
        if screen.wanted is None or table.version >= screen.wanted.table.version:
            screen.wanted = snapshot
        screen.check = screen.check or check
        if screen.problem is not None and not check:
            # Refused for a permission: another try would only be refused
            # again (and count against the bot) until permissions change.
            return
        if self._to_draw(screen):
            self._put(table.id, screen)
        if screen.failures or (screen.message_id is not None and self._is_old(screen.message_id)):
            # Its message is refused for now, or paced below the cap on old
            # messages: whoever the table waits on is told and gets their
            # buttons now, not seconds later with the message.
            self.notices.turn_shown(table)
            self.app.spawn(self.hands.refresh(table), f"hands-{table.id}")

    def _put(self, table_id: int, screen: _Screen, due: float | None = None) -> None:
        old = screen.message_id is not None and self._is_old(screen.message_id)
        via = self._token(table_id, screen)
        self.outbox.put(
            _key(table_id),
            lambda: self._send(table_id, via),
            due=due,
            channel_id=screen.channel_id,
            old=old,
            token=via.interaction_id if via is not None else None,
        )

    def _token(self, table_id: int, screen: _Screen) -> TableToken | None:
        """The fresh token whose @original is the table's message, if any."""
        if screen.message_id is None:
            return None  # a post: only the bot posts the table message
        return self.tokens.fresh(table_id, message_id=screen.message_id)

    def _is_old(self, message_id: int) -> bool:
        """Whether Discord caps the message's edits (by its age, read from its id)."""
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return self.app.now() - posted >= OLD_AFTER_S

    async def wait_shown(self, table_id: int) -> None:
        """Wait until the table's message shows everything committed so far."""
        await self.outbox.wait_sent(_key(table_id))

    def problem(self, table_id: int, lang: str) -> str | None:
        """Why the table's message cannot be shown, in ``lang``; None if it can."""
        screen = self._screens.get(table_id)
        if screen is None or screen.problem is None:
            return None
        return _problem_text(table_id, screen.channel_id, screen.problem, lang)

    def remember_name(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    def remember_language(self, user_id: int, lang: str) -> None:
        """The language ``user_id`` reads their private answers in, as an
        interaction just told: a direct message sent outside it uses it."""
        self.languages[user_id] = lang

    async def permissions_changed(self, guild_id: int, channel_id: int | None = None) -> None:
        """Permissions changed in a server (or one channel of it): table
        messages that could not be shown are drawn now, not at the next action."""
        for table_id, screen in list(self._screens.items()):
            if screen.behind is None:
                continue
            table = await self.app.tables.get(table_id)
            if table.guild_id != guild_id or channel_id not in (None, table.channel_id):
                continue
            log.info("permissions changed: drawing table %d again", table_id)
            self.show(self.app.snapshot(table), check=True)

    async def on_message_deleted(self, channel_id: int, message_id: int) -> None:
        table_id = self._by_message.pop(message_id, None)
        if table_id is None:
            return
        screen = self._screens[table_id]
        if screen.message_id == message_id:
            screen.message_id = None
            table = await self.app.tables.get(table_id)
            if table.is_open:
                log.info("table %d message was deleted; posting it again", table_id)
                self.show(self.app.snapshot(table), check=True)

    # -- sending -------------------------------------------------------------------

    async def _send(self, table_id: int, via: TableToken | None) -> Route:
        """The table's turn in the outbox: one request bringing its message up
        to date (an edit, or a post, through ``via`` or the bot's budget),
        and what follows a successful one."""
        screen = self._screens[table_id]
        if not self._to_draw(screen):
            screen.wanted = None  # drawn: the snapshot (and its game) can go
            return None
        if via is not None and (
            via.message_id != screen.message_id or not self.tokens.usable(table_id, via)
        ):
            # The token expired (or the message changed) while it waited: the
            # edit goes in the budget's lane instead.
            self._put(table_id, screen)
            return None
        # A press that came after the item was put may have left a token:
        # the budget's turn is then spared (the press's own change, mostly).
        via = via or self._token(table_id, screen)
        assert screen.wanted is not None
        snapshot, check = screen.wanted, screen.check
        table = snapshot.table
        screen.check = False
        route = POST if screen.message_id is None else EDIT if via is None else WEBHOOK_EDIT
        drawn = await self._draw(snapshot, screen, via)
        if drawn is _Drawn.TOKEN_REFUSED:
            assert via is not None
            self.tokens.drop(table_id, via)
            screen.check = screen.check or check
            self._put(table_id, screen)  # the budget's route, with the latest state
            return route
        if drawn is _Drawn.LATER:
            # Refused for now: tried again after a while, with whatever is
            # the latest state then; never given up.
            screen.check = screen.check or check
            self._put(table_id, screen, due=self.app.now() + screen.retry_in)
        else:
            screen.failures = 0
        if drawn is _Drawn.GONE:
            screen.check = True
            self._put(table_id, screen)  # posted at the channel's next turn
        elif drawn is _Drawn.NOT_SHOWN:
            # Not shown (no permission, channel gone, a request Discord
            # refuses): drawn again at the next change (for a missing
            # permission: once permissions change), or when a message is deleted.
            screen.behind = snapshot
            if screen.wanted is snapshot:
                screen.wanted = None
            if screen.problem is not None:
                self.outbox.withdraw(_key(table_id))
            return route
        elif drawn is _Drawn.SHOWN:
            screen.behind = None
            screen.shown_version = max(screen.shown_version, table.version)
        # Shown, or on its way: the person the table waits on hears of it
        # and gets their buttons now, not after the table message's next try.
        self.notices.turn_shown(table)
        await self.hands.refresh(table)
        return route

    @staticmethod
    def _to_draw(screen: _Screen) -> bool:
        wanted = screen.wanted
        return wanted is not None and (wanted.table.version > screen.shown_version or screen.check)

    async def _draw(self, snapshot: Snapshot, screen: _Screen, via: TableToken | None) -> _Drawn:
        """Edit (or post) the table message, once its turn has come."""
        table = snapshot.table
        names = await self._partner_names(table)
        spec = table_message(
            table,
            claim_open=snapshot.claim_open,
            stand_in=snapshot.stand_in,
            partner_names=names,
            away_seats=snapshot.away_seats,
        )
        fields = message_fields(spec)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            if screen.message_id is not None:
                try:
                    with refusing_fast():
                        if via is None:
                            await channel.get_partial_message(screen.message_id).edit(**fields)
                        else:
                            await self._edit_through(via, spec)
                    screen.problem = None
                    return _Drawn.SHOWN
                except _TokenRefused as exc:
                    log.info("table %d: its interaction token was refused: %s", table.id, exc)
                    return _Drawn.TOKEN_REFUSED
                except discord.NotFound as exc:
                    if exc.code != UNKNOWN_MESSAGE or not table.is_open:
                        raise
                    log.info("table %d message is gone; posting it again", table.id)
                    self._by_message.pop(screen.message_id, None)
                    screen.message_id = None
                    return _Drawn.GONE
                except discord.HTTPException as exc:
                    if exc.code != OLD_MESSAGE_CAP:
                        raise
                    log.info("table %d message is past the edit cap; posting it again", table.id)
                    self._by_message.pop(screen.message_id, None)
                    screen.retired, screen.message_id = screen.message_id, None
                    return _Drawn.GONE
            with refusing_fast():
                message = await channel.send(**fields)
            screen.message_id = message.id
            self._by_message[message.id] = table.id
            screen.problem = None
            await self.app.set_message(table.id, message.id)
            if screen.retired is not None:
                self._delete(table, screen.retired)
                screen.retired = None
            return _Drawn.SHOWN
        except discord.Forbidden as exc:
            await self._tell_host(table, screen, exc)
            return _Drawn.NOT_SHOWN
        except discord.NotFound:
            log.warning("table %d: its channel %d is gone", table.id, table.channel_id)
            return _Drawn.NOT_SHOWN
        except discord.HTTPException as exc:
            log.warning("table %d message not updated: %s", table.id, exc)
            if exc.status != 429 and exc.status < 500:
                return _Drawn.NOT_SHOWN  # the same request would be refused again
            # A rate limit or Discord's own error: worth another try soon.
            backoff = min(2.0**screen.failures, MOST_BACKOFF_S)
            screen.failures += 1
            retry_after = exc.retry_after if isinstance(exc, TooManyRequests) else None
            screen.retry_in = max(backoff, retry_after or 0.0)
            return _Drawn.LATER

    async def _edit_through(self, via: TableToken, spec: MessageSpec) -> None:
        """Edit the table message as ``via``'s @original. The cap on old
        messages raises as from the bot's route; any other refusal raises
        :class:`_TokenRefused` (the bot's route is tried at once)."""
        try:
            await edit_answer(self.client, via.application_id, via.token, spec)
        except discord.HTTPException as exc:
            if exc.code == OLD_MESSAGE_CAP:
                raise
            raise _TokenRefused(exc.status, exc.code) from exc

    def _delete(self, table: Table, message_id: int) -> None:
        """Delete a table message replaced by a new one, in the outbox's line."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

        async def delete() -> Route:
            # Already deleted by someone, or no permission: it only shows an older state.
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).delete()
            return DELETE

        self.outbox.put(("retired", message_id), delete)

    async def _tell_host(self, table: Table, screen: _Screen, exc: discord.Forbidden) -> None:
        screen.problem = tuple(self._missing_permissions(table.channel_id))
        log.warning("table %d: missing permission in channel %d", table.id, table.channel_id)
        lang = await self._host_language(table)
        text = _problem_text(table.id, table.channel_id, screen.problem, lang)
        try:
            host = self.client.get_user(table.host_id) or await self.client.fetch_user(
                table.host_id
            )
            await host.send(text)
        except discord.HTTPException:
            pass  # direct messages closed: the answer to /spades new says it too

    async def _host_language(self, table: Table) -> str:
        """The language of a direct message to the host, sent outside any
        interaction of theirs: the one they chose, else their Discord app's
        as an interaction told (/spades new, their hand), else the table's."""
        chosen = await self.app.language_of(table.host_id)
        if chosen:
            return resolve(chosen)
        told = self.hands.language(table.id, table.host_id) or self.languages.get(table.host_id)
        return told or table.language

    def _missing_permissions(self, channel_id: int) -> list[str]:
        """The permissions to ask for, as Discord's settings name them: the
        first one missing in :data:`NEEDED` order (the others may only look
        missing because of it); all of them when the channel is unknown."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel):
            missing = first_missing(channel.permissions_for(channel.guild.me), NEEDED)
            if missing is not None:
                return [missing]
        return [name for _flag, name in NEEDED]

    async def _partner_names(self, table: Table) -> list[str] | None:
        """Plain names for the host's partner menu (menus cannot show mentions)."""
        if table.status is not TableStatus.LOBBY or table.seated_count < 4 or table.solo:
            return None
        names = []
        for seat, occupant in enumerate(table.seats):
            if occupant.user_id is None:
                names.append(computer_label(seat, occupant.computer_level, table.language))
                continue
            name = self.names.get(occupant.user_id)
            if name is None:
                name = await self._fetch_name(table, occupant.user_id) or seat_name(
                    seat, table.language
                )
            names.append(name)
        return names

    async def _fetch_name(self, table: Table, user_id: int) -> str | None:
        guild = self.client.get_guild(table.guild_id) if table.guild_id else None
        try:
            if guild is not None:
                member = guild.get_member(user_id) or await guild.fetch_member(user_id)
                name = member.display_name
            else:
                name = (await self.client.fetch_user(user_id)).display_name
        except discord.HTTPException:
            return None
        self.names[user_id] = name
        return name


def _problem_text(table_id: int, channel_id: int, missing: tuple[str, ...], lang: str) -> str:
    # Discord's own names of the permissions, as its settings show them.
    return ntr(
        lang,
        "I cannot show table {table} in {channel}: I need the {permissions} permission "
        "there. Ask a server admin to allow it; the game itself is safe and goes on as "
        "soon as I can post.",
        "I cannot show table {table} in {channel}: I need the {permissions} permissions "
        "there. Ask a server admin to allow it; the game itself is safe and goes on as "
        "soon as I can post.",
        len(missing),
        table=table_id,
        channel="<#" + str(channel_id) + ">",
        permissions=", ".join(missing),
    )
