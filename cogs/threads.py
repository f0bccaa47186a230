"""A thread per table: the table message stays in the channel and its thread carries the rest.

Started once, when the table opens, if the host asked and the bot may; otherwise the host
is told what would give it one. A deleted or closed thread sends everything after to the
channel. The clock archives the thread once the rematch window has passed."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord

from bot.app import SpadesApp
from bot.i18n import ntr, tr
from bot.tables.model import Table
from cogs.guilds import GuildGate
from cogs.outbox import Outbox, Route

log = logging.getLogger(__name__)

#: What a thread per table needs, with the names Discord's settings show.
NEEDED = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)
START = "POST /channels/{channel_id}/messages/{message_id}/threads"
ARCHIVE = "PATCH /channels/{channel_id}"
#: Discord's answer to a message sent into an archived (locked) thread.
THREAD_ARCHIVED = 50083
#: A week idle before Discord archives a thread, so a game over days keeps it.
AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080


class TableThreads:
    def __init__(
        self, client: discord.Client, app: SpadesApp, outbox: Outbox, guilds: GuildGate
    ) -> None:
        self.client = client
        self.app = app
        self.outbox = outbox
        self.guilds = guilds
        self._problems: dict[int, str] = {}  # table id -> why it has no thread
        self._lost: set[int] = set()  # threads found deleted or closed

    # -- starting ----------------------------------------------------------------------

    async def start(self, table: Table, lang: str) -> str | None:
        """Start the table's thread; None once it exists, else the host's line
        saying why not, in ``lang`` (the host's: it is their private answer)."""
        key = ("thread", table.id)
        # Asked once the server is known, not guessed on a just-started bot's empty cache.
        await self.guilds.wait(table.guild_id)
        self.outbox.put(key, lambda: self._start(table.id, lang))
        await self.outbox.wait_sent(key)
        return self._problems.pop(table.id, None)

    async def _start(self, table_id: int, lang: str) -> Route:
        table = await self.app.tables.get(table_id)  # with its message, posted since
        try:
            channel = await self.guilds.channel(table.guild_id, table.channel_id)
        except discord.HTTPException as exc:
            log.warning("table %d: no thread: %s", table.id, exc)
            channel = None
        if not isinstance(channel, discord.TextChannel) or table.message_id is None:
            self._problems[table.id] = tr(
                lang, "Threads are not possible in this channel: the table plays here."
            )
            return None
        have = self.guilds.permissions(channel)
        missing = [name for flag, name in NEEDED if have is not None and not getattr(have, flag)]
        if missing:
            self._problems[table.id] = _permission_line(lang, missing)
            return None
        # The thread's name is public: in the table's language, as its message.
        name = tr(table.language, "Spades table {table}", table=table.id)
        try:
            thread = await channel.get_partial_message(table.message_id).create_thread(
                name=name, auto_archive_duration=AUTO_ARCHIVE_MINUTES
            )
        except discord.Forbidden:
            self._problems[table.id] = _permission_line(lang, [name for _f, name in NEEDED])
            return START
        except discord.HTTPException as exc:
            log.warning("table %d: no thread: %s", table.id, exc)
            self._problems[table.id] = tr(
                lang, "Discord did not start a thread for this table: it plays in the channel."
            )
            return START
        await self.app.set_thread(table.id, thread.id)
        return START

    # -- talking ---------------------------------------------------------------------

    async def send(self, table: Table, **fields: Any) -> discord.Message:
        """Send where ``table`` talks; a thread gone or closed falls back to the channel."""
        thread_id = table.thread_id
        if thread_id is not None and thread_id not in self._lost:
            thread = self.client.get_partial_messageable(thread_id, guild_id=table.guild_id)
            try:
                return await thread.send(**fields)
            except discord.HTTPException as exc:
                if exc.status not in (403, 404) and exc.code != THREAD_ARCHIVED:
                    raise
                log.info("table %d: thread %d unusable: %s", table.id, thread_id, exc)
                await self._lose(table, thread_id)
                file = fields.get("file")
                if isinstance(file, discord.File):
                    file.reset()  # read once by the request that failed
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        return await channel.send(**fields)

    async def _lose(self, table: Table, thread_id: int) -> None:
        self._lost.add(thread_id)
        current = await self.app.tables.get(table.id)
        if current.thread_id == thread_id:
            await self.app.set_thread(table.id, None)

    # -- archiving -------------------------------------------------------------------

    async def archive(self, table: Table, wait: bool) -> bool:
        """Archive the finished ``table``'s thread; with ``wait``, False until its end is posted."""
        if table.thread_id is None or table.thread_id in self._lost:
            return True
        if wait and await self.app.owes_announcement(table):
            return False
        key = ("archive", table.id)
        self.outbox.put(key, lambda: self._archive(table.id))
        await self.outbox.wait_sent(key)
        return True

    async def _archive(self, table_id: int) -> Route:
        table = await self.app.tables.get(table_id)  # a rematch may have started since
        thread_id = table.thread_id
        if table.is_open or thread_id is None or thread_id in self._lost:
            return None
        try:
            thread = await self.guilds.channel(table.guild_id, thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.info("table %d: thread %d not archived: %s", table_id, thread_id, exc)
        return ARCHIVE


def _permission_line(lang: str, missing: list[str]) -> str:
    return ntr(
        lang,
        "The table plays in this channel: give me the {permissions} permission for a "
        "thread per table.",
        "The table plays in this channel: give me the {permissions} permissions for a "
        "thread per table.",
        len(missing),
        permissions=", ".join(missing),
    )
