"""Keeps every table's public message current, and tells players it is their turn.

The service calls :meth:`TablePresenter.on_table_change` after each commit.
That only records the newest snapshot and makes sure one worker task per
table is running; the worker edits the message to the newest version it
knows (several quick changes become one edit, which also keeps the bot under
Discord's rate limits), posts it again if it was deleted, and reports a
missing permission to the host. The game state never depends on any of this
succeeding.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.render.names import computer_label
from bot.render.table import SEAT_NAMES, table_message
from bot.tables.model import Table, TableStatus
from cogs.components import message_fields
from db.store import TurnMention

if TYPE_CHECKING:
    from bot.discord_app import SpadesBot

log = logging.getLogger(__name__)

NEEDED = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
RETRIES = 3
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003


@dataclass
class _Screen:
    """What the presenter knows about one table's message."""

    wanted: Table | None = None
    shown_version: int = 0
    message_id: int | None = None
    check: bool = False  # draw even if the version is already shown
    task: asyncio.Task[Any] | None = None
    problem: str | None = None  # why the message cannot be shown, for the host
    ping_key: tuple[int, int, str, int] | None = None
    ping_message: int | None = None
    ping_loaded: bool = False  # ping_message read from the database (since a restart)
    ping_task: asyncio.Task[Any] | None = None
    # One task at a time replaces the mention; the one doing it is not
    # cancelled, so a mention it posts is always recorded.
    ping_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ping_poster: asyncio.Task[Any] | None = None


class TablePresenter:
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self._screens: dict[int, _Screen] = {}
        self._by_message: dict[int, int] = {}  # table message id -> table id
        self.names: dict[int, str] = {}  # user id -> display name, seen in interactions

    # -- scheduling ----------------------------------------------------------------

    async def on_table_change(self, table: Table, event: str) -> None:
        self.show(table)

    def show(self, table: Table, *, check: bool = False) -> None:
        """Make sure the message shows ``table`` (or a newer version) soon."""
        screen = self._screens.get(table.id)
        if screen is None:
            screen = self._screens[table.id] = _Screen(message_id=table.message_id)
            if table.message_id is not None:
                self._by_message[table.message_id] = table.id
        if screen.wanted is None or table.version >= screen.wanted.version:
            screen.wanted = table
        screen.check = screen.check or check
        if screen.task is None or screen.task.done():
            screen.task = self.bot.spawn(self._work(table.id), f"table-message-{table.id}")

    async def settle(self, table_id: int) -> None:
        """Wait until the table's message shows everything committed so far."""
        screen = self._screens.get(table_id)
        while screen is not None and screen.task is not None and not screen.task.done():
            await asyncio.shield(screen.task)

    def problem(self, table_id: int) -> str | None:
        screen = self._screens.get(table_id)
        return screen.problem if screen else None

    def remember_name(self, user: discord.abc.User) -> None:
        self.names[user.id] = user.display_name

    async def on_message_deleted(self, channel_id: int, message_id: int) -> None:
        table_id = self._by_message.pop(message_id, None)
        if table_id is None:
            return
        screen = self._screens[table_id]
        if screen.message_id == message_id:
            screen.message_id = None
            table = await self.bot.service.get(table_id)
            if table.is_open:
                log.info("table %d message was deleted; posting it again", table_id)
                self.show(table, check=True)

    # -- the worker ----------------------------------------------------------------

    async def _work(self, table_id: int) -> None:
        screen = self._screens[table_id]
        while True:
            table = screen.wanted
            if table is None or (table.version <= screen.shown_version and not screen.check):
                screen.wanted = None  # drawn: the snapshot (and its game) can go
                return
            screen.check = False
            await self._draw(table, screen)
            screen.shown_version = max(screen.shown_version, table.version)
            self._schedule_ping(table, screen)
            await self.bot.hands.refresh(table)

    async def _draw(self, table: Table, screen: _Screen) -> None:
        names = await self._partner_names(table)
        turn_clock = getattr(self.bot.get_cog("ClockCog"), "turn_clock", None)
        spec = table_message(
            table,
            claim_open=turn_clock is not None and bool(turn_clock.claim_open(table)),
            stand_in=turn_clock is not None and bool(turn_clock.stand_in(table.id)),
            partner_names=names,
        )
        fields = message_fields(spec)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        for attempt in range(RETRIES):
            try:
                if screen.message_id is not None:
                    try:
                        await channel.get_partial_message(screen.message_id).edit(**fields)
                        screen.problem = None
                        return
                    except discord.NotFound as exc:
                        if exc.code != UNKNOWN_MESSAGE or not table.is_open:
                            raise
                        log.info("table %d message is gone; posting it again", table.id)
                        self._by_message.pop(screen.message_id, None)
                        screen.message_id = None
                message = await channel.send(**fields)
                screen.message_id = message.id
                self._by_message[message.id] = table.id
                screen.problem = None
                await self.bot.service.set_message(table.id, message.id)
                return
            except discord.Forbidden as exc:
                await self._tell_host(table, screen, exc)
                return
            except discord.NotFound:
                log.warning("table %d: its channel %d is gone", table.id, table.channel_id)
                return
            except discord.HTTPException as exc:
                # discord.py already waits out ordinary rate limits; what still
                # arrives here (a 429 it gave up on, Discord's own 5xx errors)
                # is worth a few more tries later.
                retry = exc.status == 429 or exc.status >= 500
                if not retry or attempt == RETRIES - 1:
                    log.warning("table %d message not updated: %s", table.id, exc)
                    return
                await asyncio.sleep(2**attempt)

    async def _tell_host(self, table: Table, screen: _Screen, exc: discord.Forbidden) -> None:
        missing = self._missing_permissions(table.channel_id)
        plural = "s" if len(missing) > 1 else ""
        names = " and ".join([", ".join(missing[:-1]), missing[-1]] if plural else missing)
        screen.problem = (
            f"I cannot show table {table.id} in <#{table.channel_id}>: I need the "
            f"{names} permission{plural} there. Ask a server admin to allow it; the game "
            "itself is safe and goes on as soon as I can post."
        )
        log.warning("table %d: missing permission in channel %d", table.id, table.channel_id)
        try:
            host = self.bot.get_user(table.host_id) or await self.bot.fetch_user(table.host_id)
            await host.send(screen.problem)
        except discord.HTTPException:
            pass  # direct messages closed: the answer to /spades new says it too

    def _missing_permissions(self, channel_id: int) -> list[str]:
        needed = [name for name, on in NEEDED if on]
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel):
            have = channel.permissions_for(channel.guild.me)
            lacking = [name for name in needed if not getattr(have, name)]
            needed = lacking or needed
        return [name.replace("_", " ").title() for name in needed]

    async def _partner_names(self, table: Table) -> list[str] | None:
        """Plain names for the host's partner menu (menus cannot show mentions)."""
        if table.status is not TableStatus.LOBBY or table.seated_count < 4:
            return None
        names = []
        for seat, occupant in enumerate(table.seats):
            if occupant.user_id is None:
                names.append(computer_label(seat, occupant.bot_level))
                continue
            name = self.names.get(occupant.user_id)
            if name is None:
                name = await self._fetch_name(table, occupant.user_id) or SEAT_NAMES[seat]
            names.append(name)
        return names

    async def _fetch_name(self, table: Table, user_id: int) -> str | None:
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        try:
            if guild is not None:
                member = guild.get_member(user_id) or await guild.fetch_member(user_id)
                name = member.display_name
            else:
                name = (await self.bot.fetch_user(user_id)).display_name
        except discord.HTTPException:
            return None
        self.names[user_id] = name
        return name

    # -- turn mentions -------------------------------------------------------------

    def _schedule_ping(self, table: Table, screen: _Screen) -> None:
        """One short mention per turn change, after a delay, replacing the last one."""
        settings = self.bot.settings.tables
        game = table.game
        seat = game.waited_on() if game is not None and table.is_open else None
        occupant = table.seats[seat] if seat is not None else None
        if game is None or seat is None or occupant is None or occupant.user_id is None:
            key = None
        else:
            key = (game.hand_number, seat, game.phase.value, occupant.user_id)
        if key == screen.ping_key:
            return
        screen.ping_key = key
        task = screen.ping_task
        if task is not None and not task.done() and task is not screen.ping_poster:
            task.cancel()  # still waiting: that turn needs no mention any more
        if not settings.turn_ping:
            return
        screen.ping_task = self.bot.spawn(
            self._ping(table, screen, key), f"turn-ping-{table.id}-{table.version}"
        )

    async def _ping(
        self, table: Table, screen: _Screen, key: tuple[int, int, str, int] | None
    ) -> None:
        delay = self.bot.settings.tables.turn_ping_delay_s
        if key is not None and delay > 0:
            await asyncio.sleep(delay)
        async with screen.ping_lock:
            screen.ping_poster = asyncio.current_task()
            try:
                await self._replace_ping(table, screen, key)
            finally:
                screen.ping_poster = None

    async def _replace_ping(
        self, table: Table, screen: _Screen, key: tuple[int, int, str, int] | None
    ) -> None:
        """Delete the table's last mention and post the one for ``key``, if any.
        Right after a restart a stored mention for ``key`` itself is kept
        instead: that person was already told, and a new one would ping again."""
        store = self.bot.store
        if not screen.ping_loaded:
            # A mention posted before a restart is known only to the database.
            stored = await store.turn_mention(table.id)
            screen.ping_loaded = True
            if stored is not None:
                screen.ping_message = stored.message_id
                if key is not None and stored.turn == _turn_text(key):
                    return  # that person was told before the restart: no second mention
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        old, screen.ping_message = screen.ping_message, None
        try:
            if old is not None:
                await channel.get_partial_message(old).delete()
        except discord.HTTPException:
            pass  # already deleted by someone, or no permission: leave it
        new: TurnMention | None = None
        if key is not None:
            _hand, _seat, phase, user_id = key
            verb = "bid" if phase == "bidding" else "play"
            try:
                message = await channel.send(
                    f"<@{user_id}>, your turn to {verb} at table {table.id}.",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )
                screen.ping_message = message.id
                new = TurnMention(message.id, _turn_text(key))
            except discord.HTTPException as exc:
                log.info("turn mention at table %d not sent: %s", table.id, exc)
        if old is not None or new is not None:
            await store.set_turn_mention(table.id, new)


def _turn_text(key: tuple[int, int, str, int]) -> str:
    """The stored form of a turn: "hand:seat:phase:user"."""
    return ":".join(str(part) for part in key)
