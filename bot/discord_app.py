"""The Discord client: builds the application core and the cogs over it.

Start-up (``setup_hook``) opens the database, builds the application (which
resumes every open table), and registers the persistent buttons and the
commands. Nothing here knows the rules: the cogs turn interactions into
calls on the application, and the presenter keeps the table messages current.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks
from discord.webhook.async_ import async_context

from bot import metrics
from bot.app import (
    REDRAW,
    Change,
    Snapshot,
    SpadesApp,
    Store,
    StoreUnavailable,
    open_store,
)
from bot.config import Settings
from bot.i18n import N_, tr
from bot.refusals import Stopping
from bot.render.replay import PREFIX as REPLAY_PREFIX
from bot.shards import format_shard_ids
from bot.tables.model import Table
from bot.tables.service import random_seed
from bot.tournament.service import TournamentService
from cogs.admin import AdminCog, SeasonGroup, SeasonPosts
from cogs.coach import CoachDesk
from cogs.components import (
    PATTERN,
    ComponentHandler,
    SpadesComponent,
    handle_components,
    learn_language,
    private_language,
)
from cogs.errors import on_tree_error, report, say
from cogs.guilds import KNOWN, GuildGate
from cogs.hands import HandScreens
from cogs.leaderboard import LeaderboardCog
from cogs.notices import TableTokens, TurnNotices
from cogs.outbox import Budget, Outbox, install_fail_fast
from cogs.presenter import TablePresenter
from cogs.replay import ReplayDesk
from cogs.shared_budget import SharedBudget
from cogs.spades import SpadesCog, Subcommand
from cogs.table_ui import TableUI
from cogs.threads import TableThreads
from cogs.tournament_commands import TournamentGroup
from cogs.tournament_desk import MatchThreads, TournamentDesk
from cogs.translator import CatalogTranslator

log = logging.getLogger(__name__)

__all__ = ["ShardedSpadesBot", "SpadesBot", "StartupError", "bot_class", "intents"]

INVALID_BUTTON = N_("That button is not valid.")
#: How long a stopping bot waits for the interactions, commits and table
#: edits under way, before it closes the gateway and the database: well
#: inside the 10 s a container manager allows before it kills the process.
STOP_GRACE_S = 3.0


class StartupError(Exception):
    """The bot cannot start; the message says what to fix (one line)."""


def intents() -> discord.Intents:
    """Only what the bot uses; none of them is privileged.

    guilds: channels and permissions, to post and edit table messages;
    guild_messages: to notice a deleted table message and post it again.
    Slash commands and buttons need no intent at all.
    """
    return discord.Intents(guilds=True, guild_messages=True)


@dataclass
class _Behind:
    """What one server's messages may owe after a stop (see
    :meth:`SpadesBot._redraw_left_behind`)."""

    tables: list[int] = field(default_factory=list)  # open tables
    ended: list[Table] = field(default_factory=list)  # finished games not announced
    tournaments: list[int] = field(default_factory=list)


class SpadesTree(app_commands.CommandTree[discord.Client]):
    async def interaction_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """Take the command unless the bot is stopping, and learn the
        caller's language before any command answers them."""
        client = self.client
        if isinstance(client, SpadesBot):
            if not await client.admit(interaction):
                return False
            if client.built:
                await learn_language(interaction, client.app)
        return True

    async def on_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        await on_tree_error(interaction, error)


class SpadesBot(commands.Bot):
    """``commands_only`` builds the command tree without opening the database
    (what ``python -m bot sync`` needs); ``seed_source`` deals the games
    (tests pass fixed seeds)."""

    app: SpadesApp
    store: Store  # opened before the application, closed after it
    leaderboard: LeaderboardCog
    presenter: TablePresenter
    hands: HandScreens
    outbox: Outbox  # everything sent to channels, within the REST budget
    tournaments: TournamentService
    desk: TournamentDesk

    def __init__(
        self,
        settings: Settings,
        *,
        commands_only: bool = False,
        seed_source: Callable[[], int] = random_seed,
        **client_options: Any,
    ) -> None:
        # Every answer passes this trace: counted first (with metrics on),
        # then a 429 to a request that must not wait is raised at once.
        trace = aiohttp.TraceConfig()
        if settings.metrics.port:
            metrics.count_rate_limits(trace)
        install_fail_fast(trace, self._paused_by_discord)
        client_options.setdefault("http_trace", trace)
        # The bot never joins voice: no warnings about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=SpadesTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.settings = settings
        self.commands_only = commands_only
        self.seed_source = seed_source
        self._opened = False
        self._built = False
        self._login_began = False
        self._resumed = False
        self._stopping: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self._answering: set[asyncio.Task[Any]] = set()  # interactions being handled
        #: Which servers' channels, roles and permissions are known yet.
        self.guild_gate = GuildGate(self)

    # -- time --------------------------------------------------------------------

    @staticmethod
    def now() -> float:
        """Epoch seconds. discord.utils.utcnow, so a simulated Discord can steer it."""
        return discord.utils.utcnow().timestamp()

    def _paused_by_discord(self, seconds: float) -> None:
        """A global 429: the outbox sends nothing for ``seconds``."""
        if self._built:
            self.outbox.pause(seconds)

    # -- start and stop ----------------------------------------------------------

    async def login(self, token: str) -> None:
        self._login_began = True
        await super().login(token)

    async def open_database(self) -> None:
        """Open (creating or migrating) the database; StartupError if it cannot.

        ``run`` calls this before connecting, so a bad database path stops the
        bot before it ever talks to Discord. Publishing commands needs the
        cogs but not the tables: an empty database in memory stands in then.
        """
        if self._opened:
            return
        path = ":memory:" if self.commands_only else self.settings.database.target
        try:
            store = await open_store(path)
        except StoreUnavailable as exc:
            raise StartupError(str(exc)) from None
        if self.stopping:
            # Stopped while it opened: the stop found nothing open to close.
            await store.close()
            return
        self.store = store
        self._opened = True

    @property
    def built(self) -> bool:
        """Whether the application is built (``setup_hook`` has run)."""
        return self._built

    async def setup_hook(self) -> None:
        # Descriptions and choice names in every language (sent at sync).
        await self.tree.set_translator(CatalogTranslator())
        await self.open_database()
        notices = TurnNotices(self)
        self.app = app = await SpadesApp.open(
            self.settings,
            self.store,
            now=self.now,
            notifier=notices,
            seed_source=self.seed_source,
        )
        self._built = True
        # The processes of a sharded bot share the token's budget (the database's).
        shared = SharedBudget.between(self.settings.discord.shards, self.store)
        budget = Budget.of(self.settings.discord)
        self.outbox = Outbox(app.now, budget, spawn=app.spawn, shared=shared)
        threads = TableThreads(self, app, self.outbox, self.guild_gate)
        notices.attach(app, self.outbox, threads, TableTokens(app.now))
        self.hands = HandScreens(app, self)
        await self.hands.resume()
        self.presenter = TablePresenter(self, app, self.hands, self.outbox, notices, threads)
        app.subscribe(self.presenter.on_change)
        coach = CoachDesk(app, self, self.hands)
        app.subscribe(coach.on_change, Change.HAND_OVER)
        ui = TableUI(app, self.hands, self.presenter, coach)
        handle_components(self, self._admitted(ui.on_component))
        self.add_dynamic_items(SpadesComponent)
        self.leaderboard = LeaderboardCog(
            self,
            app,
            self.outbox,
            threads,
            self.presenter.names.get,
            table_shown=self.presenter.wait_shown,
        )
        await self.add_cog(self.leaderboard)
        channels = MatchThreads(self, self.outbox, self.guild_gate, app.spawn)
        self.tournaments = TournamentService(app, channels)
        presenter = self.presenter
        self.desk = desk = TournamentDesk(
            self,
            self.tournaments,
            self.outbox,
            presenter.names.get,
            presenter.remember_name,
            self.admit,
        )
        replays = ReplayDesk(self, app, self.outbox, presenter.names.get)
        handle_components(self, replays.on_click, REPLAY_PREFIX)
        more: list[Subcommand] = [
            *self.leaderboard.commands,
            replays.command(),
            TournamentGroup(desk),
        ]
        spades = SpadesCog(self.tree, app, self.hands, self.presenter, more)
        await self.add_cog(spades)
        admin = AdminCog(self.tree, app)
        seasons = SeasonPosts(self, app, self.outbox)
        SeasonGroup(admin.group, seasons)
        await self.add_cog(admin)
        if not self.commands_only:
            if self.settings.metrics.port:
                self._serve_metrics()
            await app.start()
            await self.tournaments.start()
            await desk.post_owed_standings()
            await seasons.post_owed()
            self.heartbeat.change_interval(seconds=self.settings.health.heartbeat_every_s)
            self.heartbeat.start()

    def _serve_metrics(self) -> None:
        """The Prometheus endpoint (:mod:`bot.metrics`), when a port is set."""
        database = self.store.db
        shards = self.settings.discord.shards
        self.app.subscribe(_count_action)
        metrics.watch_requests(self.http, async_context.get(), self.now)
        metrics.serve(
            self.settings.metrics.port,
            "all" if shards.every_shard else f"{format_shard_ids(shards.ids)}/{shards.count}",
            address=self.settings.metrics.address,
            open_tables=lambda: len(self.app.tables.open_tables()),
            outbox=lambda: len(self.outbox),
            database_errors=lambda: getattr(database, "failures", 0),
            database_reconnects=lambda: getattr(database, "reconnects", 0),
        )

    async def on_ready(self) -> None:
        if self.commands_only or not self._built or self._resumed:
            return  # on_ready comes again after each reconnection
        self._resumed = True
        log.info(
            "connected as %s to %d servers (%s)",
            self.user,
            len(self.guilds),
            self.settings.discord.shards,
        )
        self.app.spawn(self._redraw_left_behind(), "redraw-at-start")

    async def _redraw_left_behind(self) -> None:
        """Bring every message a stop may have left behind up to date, each
        server's once it is known (:class:`~cogs.guilds.GuildGate`): every
        open table's (a change may have been committed just before the stop,
        or the message deleted meanwhile), every finished game's that still
        owes its channel its end, and every tournament's whose latest state
        was never shown, finished ones included."""
        behind: dict[int | None, _Behind] = defaultdict(_Behind)
        for still_open in self.app.tables.open_tables():
            behind[still_open.guild_id].tables.append(still_open.id)
        for table in await self.app.unannounced():
            behind[table.guild_id].ended.append(table)
        for tournament in self.tournaments.loaded():
            behind[tournament.guild_id].tournaments.append(tournament.id)
        # Every open table is drawn: bring them all into memory in a few reads.
        await self.app.tables.bring_in([t for b in behind.values() for t in b.tables])
        for guild_id, messages in behind.items():
            self.app.spawn(self._redraw_server(guild_id, messages), f"redraw-{guild_id}")

    async def _redraw_server(self, guild_id: int | None, behind: _Behind) -> None:
        await self.guild_gate.wait(guild_id)
        for table_id in behind.tables:
            self.presenter.show(await self.app.current(table_id), check=True)
        for table in behind.ended:
            self.presenter.show(await self.app.current(table.id), check=True)
            self.app.spawn(self.leaderboard.deliver_unannounced(table), f"unannounced-{table.id}")
        for tournament_id in behind.tournaments:
            found = self.tournaments.get(tournament_id)
            if found is not None:
                self.desk.on_change(found)

    async def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether to handle ``interaction``: yes, and its task is waited for
        at a stop, unless the bot is stopping; then it is told to try again."""
        if self.stopping:
            await report(interaction, Stopping())
            return False
        task = asyncio.current_task()
        if task is not None:
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        return True

    def _admitted(self, handler: ComponentHandler) -> ComponentHandler:
        async def handle(
            interaction: discord.Interaction[Any], rest: str, values: list[str]
        ) -> None:
            if await self.admit(interaction):
                await handler(interaction, rest, values)

        return handle

    @property
    def stopping(self) -> bool:
        """Whether a stop has begun (:meth:`stop`)."""
        return self._stopping is not None

    def stop(self) -> None:
        """Begin a clean stop (on SIGTERM or SIGINT); :meth:`close` waits for it."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop(), name="stop")

    async def wait_stopped(self) -> None:
        """Return once a stop has finished (the gateway and database closed)."""
        await self._stopped.wait()

    async def close(self) -> None:
        """Stop cleanly: take no new interaction, give those under way, the
        commits and the table edits :data:`STOP_GRACE_S` to finish, then close
        the gateway and the database."""
        self.stop()
        assert self._stopping is not None
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        try:
            await self._finish_and_close()
        finally:
            self._stopped.set()

    async def _finish_and_close(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_GRACE_S
        if self._opened:
            self.heartbeat.cancel()
        if self._answering:
            _, late = await asyncio.wait(set(self._answering), timeout=STOP_GRACE_S)
            if late:
                log.warning("stopping with %d interactions still under way", len(late))
        if self._built:
            await self.tournaments.stop()
            await self.app.close(grace_s=max(0.0, deadline - loop.time()))
        if self._login_began:
            # A sharded client cannot close before its login set it up (a
            # database that failed to open stops the start before that).
            await super().close()
        if self._opened:
            self._opened = False
            await self.store.close()

    # -- events ------------------------------------------------------------------

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

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer every click on a component that is not exactly one of ours
        (a forged or mistyped id would otherwise fail on the person's screen)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if PATTERN.fullmatch(custom_id):
            return
        log.debug("answered an unknown component id %r", custom_id[:100])
        try:
            await say(interaction, tr(private_language(interaction), INVALID_BUTTON))
        except discord.HTTPException as exc:
            log.debug("could not answer an unknown component: %s", exc)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.dispatch(KNOWN, guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.dispatch(KNOWN, guild)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if self._built:
            await self.presenter.on_message_deleted(payload.channel_id, payload.message_id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        if self._built and before.overwrites != after.overwrites:
            await self.presenter.permissions_changed(after.guild.id, after.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if self._built and before.permissions != after.permissions:
            await self.presenter.permissions_changed(after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        mine = self.user is not None and after.id == self.user.id
        if self._built and mine and before.roles != after.roles:
            await self.presenter.permissions_changed(after.guild.id)

    @tasks.loop(seconds=30)
    async def heartbeat(self) -> None:
        """Touch the heartbeat file while connected (``python -m bot health``)."""
        if self.is_ready() and not self.is_closed():
            path = self.settings.heartbeat_path
            try:
                path.touch()
            except OSError as exc:
                log.warning("cannot write the heartbeat file %s: %s", path, exc)


def _count_action(_: Snapshot, event: str) -> None:
    if event != REDRAW:
        metrics.committed(event)


class ShardedSpadesBot(SpadesBot, commands.AutoShardedBot):
    """The bot as one process of several: it connects the shards its settings
    name ([discord] shard_ids of shard_count) and, through the application
    core, serves the tables of those shards' servers only."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        shards = settings.discord.shards
        ids = sorted(shards.ids)
        super().__init__(settings, shard_count=shards.count, shard_ids=ids, **options)


def bot_class(settings: Settings) -> type[SpadesBot]:
    """The client the settings call for: sharded with shard settings, else plain."""
    return ShardedSpadesBot if settings.discord.sharded else SpadesBot
