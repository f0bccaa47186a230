"""The Discord client: wires the store, the table service and the cogs together.

Start-up (``setup_hook``) opens the database, resumes every open table,
registers the persistent buttons and the commands. Nothing here knows the
rules; the cogs turn interactions into service calls and the presenter keeps
the public table messages current.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.config import Settings
from bot.tables.service import TableService, random_seed
from db.store import Store, StoreError

if TYPE_CHECKING:
    from cogs.hands import HandScreens
    from cogs.presenter import TablePresenter
    from cogs.table_ui import TableUI

log = logging.getLogger(__name__)


class StartupError(Exception):
    """The bot cannot start; the message says what to fix (one line)."""


def intents() -> discord.Intents:
    """Only what the bot uses; none of them is privileged.

    guilds: channels and permissions, to post and edit table messages;
    guild_messages: to notice a deleted table message and post it again.
    Slash commands and buttons need no intent at all.
    """
    return discord.Intents(guilds=True, guild_messages=True)


class SpadesTree(app_commands.CommandTree["SpadesBot"]):
    async def on_error(
        self, interaction: discord.Interaction[SpadesBot], error: app_commands.AppCommandError
    ) -> None:
        from cogs.errors import on_tree_error

        await on_tree_error(interaction, error)


#: The parts beyond the tables themselves. ``python -m bot`` runs them all:
#: the turn clock (reminders, claims, and the computer players' moves) and the
#: leaderboard. Tests of one part may build the bot with only that one.
FEATURES = ("clock", "leaderboard")


class SpadesBot(commands.Bot):
    """``commands_only`` builds the command tree without opening the database
    (what ``python -m bot sync`` needs); ``seed_source`` deals the games
    (tests pass fixed seeds); ``features`` picks from :data:`FEATURES` (the
    whole bot has them all; without the clock, computer players never move)."""

    store: Store
    service: TableService
    presenter: TablePresenter
    hands: HandScreens
    ui: TableUI

    def __init__(
        self,
        settings: Settings,
        *,
        commands_only: bool = False,
        seed_source: Callable[[], int] = random_seed,
        features: Iterable[str] = (),
    ) -> None:
        # The bot never joins voice: no warnings about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=SpadesTree,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.commands_only = commands_only
        self.seed_source = seed_source
        self.features = frozenset(features)
        unknown = self.features - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)}; known: {FEATURES}")
        self._background: set[asyncio.Task[Any]] = set()
        self._opened = False

    # -- time --------------------------------------------------------------------

    @staticmethod
    def now() -> float:
        """Epoch seconds. discord.utils.utcnow, so a simulated Discord can steer it."""
        return discord.utils.utcnow().timestamp()

    # -- start and stop ----------------------------------------------------------

    async def open_database(self) -> None:
        """Open (creating or migrating) the database; StartupError if it cannot.

        ``run`` calls this before connecting, so a bad database path stops the
        bot before it ever talks to Discord. Publishing commands needs the
        cogs but not the tables: an empty database in memory stands in then.
        """
        if self._opened:
            return
        path = ":memory:" if self.commands_only else self.settings.database.path
        try:
            self.store = await Store.open(path)
        except (OSError, sqlite3.Error, StoreError) as exc:
            raise StartupError(f"cannot open the database {path}: {exc}") from None
        self._opened = True

    async def setup_hook(self) -> None:
        from bot.stats.service import StatsService
        from cogs.clock import ClockCog
        from cogs.components import SpadesComponent
        from cogs.hands import HandScreens
        from cogs.leaderboard import LeaderboardCog
        from cogs.presenter import TablePresenter
        from cogs.spades import SpadesCog
        from cogs.table_ui import TableUI
        from db.stats_store import StatsStore

        await self.open_database()
        self.service = await TableService.open(
            self.store, now=self.now, seed_source=self.seed_source
        )
        self.presenter = TablePresenter(self)
        self.hands = HandScreens(self)
        self.ui = TableUI(self)
        self.service.subscribe(self.presenter.on_table_change)
        self.add_dynamic_items(SpadesComponent)
        await self.add_cog(SpadesCog(self))
        # Both add their commands to the /spades group: after SpadesCog.
        if "clock" in self.features:
            await self.add_cog(ClockCog(self))
        if "leaderboard" in self.features:
            # Added like the other cogs, not as an extension: an extension is a
            # second copy of its module, whose classes fail isinstance checks.
            stats = StatsService(StatsStore(self.store))
            names = self.presenter.names.get
            await self.add_cog(LeaderboardCog(self, stats, self.service, self.spawn, names))
        if not self.commands_only:
            self.heartbeat.change_interval(seconds=self.settings.health.heartbeat_every_s)
            self.heartbeat.start()

    async def on_ready(self) -> None:
        if self.commands_only or not self._opened:
            return
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        # Bring every open table's message up to date: a change may have been
        # committed just before a restart, or a message deleted meanwhile.
        for table in await self.service.unfinished():
            self.presenter.show(table, check=True)

    async def close(self) -> None:
        if self._opened:
            self.heartbeat.cancel()
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await super().close()
        if self._opened:
            self._opened = False
            await self.store.close()

    # -- helpers -----------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; the task is kept and its failure logged."""
        task = asyncio.create_task(coro, name=name)
        self._background.add(task)
        task.add_done_callback(self._background_done)
        return task

    def _background_done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("background task %s failed", task.get_name(), exc_info=exc)

    async def sync_commands(self, guild_id: int | None = None) -> list[str]:
        """Publish the command tree; to one server (copying the global
        commands there, visible at once) or globally."""
        if guild_id is None:
            synced = await self.tree.sync()
        else:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        return [command.name for command in synced]

    async def on_component(
        self, interaction: discord.Interaction[Any], rest: str, values: list[str]
    ) -> None:
        if not self._opened:
            return
        await self.ui.on_component(interaction, rest, values)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if self._opened:
            await self.presenter.on_message_deleted(payload.channel_id, payload.message_id)

    @tasks.loop(seconds=30)
    async def heartbeat(self) -> None:
        """Touch the heartbeat file while connected (``python -m bot health``)."""
        if self.is_ready() and not self.is_closed():
            path = self.settings.heartbeat_path
            try:
                path.touch()
            except OSError as exc:
                log.warning("cannot write the heartbeat file %s: %s", path, exc)
