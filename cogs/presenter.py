"""Keeps every table's public message current, and tells players it is their turn.

The application calls :meth:`TablePresenter.on_change` after each commit.
That only records the newest snapshot and makes sure one worker task per
table is running; the worker edits the message to the newest version it
knows, posts it again if it was deleted, and reports a missing permission to
the host, and draws again once permissions change. The game state never
depends on any of this succeeding.

Every request here waits for its turn on one :class:`~cogs.pacing.Pacer`
(the ``[discord]`` budgets): writes of table messages in one channel are
spaced out, and all requests together stay under a rate. A worker takes the
newest snapshot only once its turn has come, so the changes made while it
waited become one edit, and the last one is always shown. Once shown, the
turn it waits on goes to :class:`~cogs.mentions.TurnMentions`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Any

import discord

from bot.app import REDRAW, Snapshot, SpadesApp
from bot.i18n import ntr
from bot.render.names import computer_label
from bot.render.table import seat_name, table_message
from bot.tables.model import Table, TableStatus
from cogs.components import message_fields
from cogs.hands import HandScreens
from cogs.mentions import TurnMentions
from cogs.pacing import Pacer

log = logging.getLogger(__name__)

#: What a table message needs, each with the name Discord's settings show. In
#: this order: without View Channel nothing else counts, and without Send
#: Messages discord.py reports Embed Links as missing too.
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
)
RETRIES = 3
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003


class _Drawn(Enum):
    SHOWN = "shown"
    LATER = "later"  # a rate limit or Discord's own error: try again soon
    NOT_SHOWN = "not shown"  # no permission, channel gone: wait for a change


@dataclass
class _Screen:
    """What the presenter knows about one table's message."""

    wanted: Snapshot | None = None
    behind: Snapshot | None = None  # the last snapshot that could not be shown
    shown_version: int = 0
    message_id: int | None = None
    check: bool = False  # draw even if the version is already shown
    task: asyncio.Task[Any] | None = None
    problem: str | None = None  # why the message cannot be shown, for the host


class TablePresenter:
    def __init__(self, client: discord.Client, app: SpadesApp, hands: HandScreens) -> None:
        self.client = client
        self.app = app
        self.hands = hands
        self._screens: dict[int, _Screen] = {}
        self._by_message: dict[int, int] = {}  # table message id -> table id
        self.names: dict[int, str] = {}  # user id -> display name, seen in interactions
        budget = app.settings.discord
        self.pacer = Pacer(
            app.now, per_s=budget.rest_per_s, interval_s=budget.table_edits_per_channel_s
        )
        self.mentions = TurnMentions(client, app, lambda: self.pacer)

    # -- scheduling ----------------------------------------------------------------

    def on_change(self, snapshot: Snapshot, event: str) -> None:
        self.show(snapshot, check=event == REDRAW)

    def show(self, snapshot: Snapshot, *, check: bool = False) -> None:
        """Make sure the message shows ``snapshot`` (or a newer version) soon."""
        table = snapshot.table
        screen = self._screens.get(table.id)
        if screen is None:
            screen = self._screens[table.id] = _Screen(message_id=table.message_id)
            if table.message_id is not None:
                self._by_message[table.message_id] = table.id
        if screen.wanted is None or table.version >= screen.wanted.table.version:
            screen.wanted = snapshot
        screen.check = screen.check or check
        if screen.problem is not None and not check:
            # Refused for a permission: another try would only be refused
            # again (and count against the bot) until permissions change.
            return
        if screen.task is None or screen.task.done():
            screen.task = self.app.spawn(self._work(table.id), f"table-message-{table.id}")

    async def settle(self, table_id: int) -> None:
        """Wait until the table's message shows everything committed so far."""
        screen = self._screens.get(table_id)
        while screen is not None and screen.task is not None and not screen.task.done():
            await asyncio.shield(screen.task)

    def pending(self) -> int:
        """How many table messages wait to be drawn (the metrics' outbox length)."""
        return sum(1 for s in self._screens.values() if s.task is not None and not s.task.done())

    def problem(self, table_id: int) -> str | None:
        screen = self._screens.get(table_id)
        return screen.problem if screen else None

    def remember_name(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

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

    # -- the worker ----------------------------------------------------------------

    async def _work(self, table_id: int) -> None:
        screen = self._screens[table_id]
        failures = 0
        while True:
            if not self._to_draw(screen):
                screen.wanted = None  # drawn: the snapshot (and its game) can go
                return
            assert screen.wanted is not None
            await self.pacer.turn(screen.wanted.table.channel_id)
            # Changes that came while waiting are drawn by this same edit.
            snapshot, check = screen.wanted, screen.check
            table = snapshot.table
            screen.check = False
            drawn = await self._draw(snapshot, screen)
            if drawn is _Drawn.LATER and failures < RETRIES - 1:
                screen.check = screen.check or check
                await asyncio.sleep(2**failures)
                failures += 1
                continue
            failures = 0
            if drawn is not _Drawn.SHOWN:
                # Not shown (no permission, channel gone, Discord failing):
                # drawn again at the next change (for a missing permission:
                # once permissions change), or when a message is deleted.
                screen.wanted = screen.wanted if screen.wanted is not snapshot else None
                screen.behind = snapshot
                if screen.wanted is None or screen.problem is not None:
                    return
                continue
            screen.behind = None
            screen.shown_version = max(screen.shown_version, table.version)
            self.mentions.turn_shown(table)
            await self.hands.refresh(table)

    @staticmethod
    def _to_draw(screen: _Screen) -> bool:
        wanted = screen.wanted
        return wanted is not None and (wanted.table.version > screen.shown_version or screen.check)

    async def _draw(self, snapshot: Snapshot, screen: _Screen) -> _Drawn:
        """Edit (or post) the table message, once its turn has come."""
        table = snapshot.table
        names = await self._partner_names(table)
        spec = table_message(
            table,
            claim_open=snapshot.claim_open,
            stand_in=snapshot.stand_in,
            partner_names=names,
        )
        fields = message_fields(spec)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            if screen.message_id is not None:
                try:
                    await channel.get_partial_message(screen.message_id).edit(**fields)
                    screen.problem = None
                    return _Drawn.SHOWN
                except discord.NotFound as exc:
                    if exc.code != UNKNOWN_MESSAGE or not table.is_open:
                        raise
                    log.info("table %d message is gone; posting it again", table.id)
                    self._by_message.pop(screen.message_id, None)
                    screen.message_id = None
                await self.pacer.turn(table.channel_id)
            message = await channel.send(**fields)
            screen.message_id = message.id
            self._by_message[message.id] = table.id
            screen.problem = None
            await self.app.set_message(table.id, message.id)
            return _Drawn.SHOWN
        except discord.Forbidden as exc:
            await self._tell_host(table, screen, exc)
            return _Drawn.NOT_SHOWN
        except discord.NotFound:
            log.warning("table %d: its channel %d is gone", table.id, table.channel_id)
            return _Drawn.NOT_SHOWN
        except discord.HTTPException as exc:
            # discord.py already waits out ordinary rate limits; what still
            # arrives here (a 429 it gave up on, Discord's own 5xx errors)
            # is worth a few more tries later.
            log.warning("table %d message not updated: %s", table.id, exc)
            return _Drawn.LATER if exc.status == 429 or exc.status >= 500 else _Drawn.NOT_SHOWN

    async def _tell_host(self, table: Table, screen: _Screen, exc: discord.Forbidden) -> None:
        missing = self._missing_permissions(table.channel_id)
        # Discord's own names of the permissions, as its settings show them.
        names = ", ".join(missing)
        screen.problem = ntr(
            table.language,
            "I cannot show table {table} in {channel}: I need the {permissions} permission "
            "there. Ask a server admin to allow it; the game itself is safe and goes on as "
            "soon as I can post.",
            "I cannot show table {table} in {channel}: I need the {permissions} permissions "
            "there. Ask a server admin to allow it; the game itself is safe and goes on as "
            "soon as I can post.",
            len(missing),
            table=table.id,
            channel="<#" + str(table.channel_id) + ">",
            permissions=names,
        )
        log.warning("table %d: missing permission in channel %d", table.id, table.channel_id)
        try:
            host = self.client.get_user(table.host_id) or await self.client.fetch_user(
                table.host_id
            )
            await host.send(screen.problem)
        except discord.HTTPException:
            pass  # direct messages closed: the answer to /spades new says it too

    def _missing_permissions(self, channel_id: int) -> list[str]:
        """The permissions to ask for, as Discord's settings name them: the
        first one missing in :data:`NEEDED` order (the others may only look
        missing because of it); all of them when the channel is unknown."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel):
            have = channel.permissions_for(channel.guild.me)
            for flag, name in NEEDED:
                if not getattr(have, flag):
                    return [name]
        return [name for _flag, name in NEEDED]

    async def _partner_names(self, table: Table) -> list[str] | None:
        """Plain names for the host's partner menu (menus cannot show mentions)."""
        if table.status is not TableStatus.LOBBY or table.seated_count < 4:
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
