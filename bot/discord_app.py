"""The Discord client: builds the application core and the cogs over it.

Start-up (``setup_hook``) opens the database, builds the application (which
resumes every open table), and registers the persistent buttons and the
commands. Nothing here knows the rules: the cogs turn interactions into
calls on the application, and the presenter keeps the table messages current.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import (
    FEATURES,
    SpadesApp,
    Store,
    StoreUnavailable,
    known_features,
    open_store,
)
from bot.config import Settings
from bot.i18n import N_, tr
from bot.render.leaderboard import BOARD_PATTERN
from bot.tables.service import random_seed
from cogs.clock import ClockCog
from cogs.coach import CoachCog, CoachDesk
from cogs.components import PATTERN, SpadesComponent, handle_components
from cogs.errors import on_tree_error, say
from cogs.hands import HandScreens
from cogs.languages import learn_language, private_language
from cogs.leaderboard import LeaderboardCog
from cogs.notices import TurnNotices
from cogs.outbox import Budget, Outbox
from cogs.presenter import TablePresenter
from cogs.spades import SpadesCog
from cogs.table_ui import TableUI
from cogs.translator import CatalogTranslator

log = logging.getLogger(__name__)

__all__ = ["FEATURES", "ShardedSpadesBot", "SpadesBot", "StartupError", "bot_class", "intents"]

#: Every component id the bot answers through a DynamicItem; any other click
#: is answered "not valid" by :meth:`SpadesBot.on_interaction`.
OUR_COMPONENTS = (PATTERN, BOARD_PATTERN)
INVALID_BUTTON = N_("That button is not valid.")


class StartupError(Exception):
    """The bot cannot start; the message says what to fix (one line)."""


def intents() -> discord.Intents:
    """Only what the bot uses; none of them is privileged.

    guilds: channels and permissions, to post and edit table messages;
    guild_messages: to notice a deleted table message and post it again.
    Slash commands and buttons need no intent at all.
    """
    return discord.Intents(guilds=True, guild_messages=True)


class SpadesTree(app_commands.CommandTree[discord.Client]):
    async def interaction_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """Learn the caller's language before any command answers them."""
        client = self.client
        if isinstance(client, SpadesBot) and client.built:
            await learn_language(interaction, client.app)
        return True

    async def on_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        await on_tree_error(interaction, error)


class SpadesBot(commands.Bot):
    """``commands_only`` builds the command tree without opening the database
    (what ``python -m bot sync`` needs); ``seed_source`` deals the games
    (tests pass fixed seeds); ``features`` picks from :data:`FEATURES` (the
    whole bot has them all; without the clock, computer players never move)."""

    app: SpadesApp
    store: Store  # opened before the application, closed after it
    leaderboard: LeaderboardCog | None = None
    presenter: TablePresenter
    hands: HandScreens
    outbox: Outbox  # everything sent to channels, within the REST budget

    def __init__(
        self,
        settings: Settings,
        *,
        commands_only: bool = False,
        seed_source: Callable[[], int] = random_seed,
        features: Iterable[str] = (),
        **client_options: Any,
    ) -> None:
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
        self.features = known_features(features)
        self._opened = False
        self._built = False
        self._resumed = False

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
        path = ":memory:" if self.commands_only else self.settings.database.target
        try:
            self.store = await open_store(path)
        except StoreUnavailable as exc:
            raise StartupError(str(exc)) from None
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
            features=self.features,
        )
        self._built = True
        self.outbox = Outbox(app.now, Budget.of(self.settings.discord), spawn=app.spawn)
        notices.attach(app, self.outbox)
        self.hands = HandScreens(app, self)
        await self.hands.resume()
        self.presenter = TablePresenter(self, app, self.hands, self.outbox, notices)
        app.subscribe(self.presenter.on_change)
        coach = CoachDesk(app, self)
        app.subscribe(coach.on_change)
        self.add_listener(coach.remember, "on_interaction")
        ui = TableUI(app, self.hands, self.presenter, coach)
        handle_components(self, ui.on_component)
        self.add_dynamic_items(SpadesComponent)
        await self.add_cog(SpadesCog(self.tree, app, self.hands, self.presenter))
        # Both add their commands to the /spades group: after SpadesCog.
        await self.add_cog(CoachCog(self.tree, app))
        if "clock" in self.features:
            await self.add_cog(ClockCog(self.tree, app))
        if "leaderboard" in self.features:
            self.leaderboard = LeaderboardCog(self, app, self.outbox, self.presenter.names.get)
            await self.add_cog(self.leaderboard)
        if not self.commands_only:
            await app.start()
            self.heartbeat.change_interval(seconds=self.settings.health.heartbeat_every_s)
            self.heartbeat.start()

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
        # Bring every open table's message up to date: a change may have been
        # committed just before a restart, or a message deleted meanwhile.
        for table in await self.app.tables.unfinished():
            self.presenter.show(self.app.snapshot(table), check=True)
        # A game that ended just before the restart still owes its channel the
        # final table message and its picture.
        for table in await self.app.owed():
            self.presenter.show(self.app.snapshot(table), check=True)
            if self.leaderboard is not None:
                self.app.spawn(self.leaderboard.deliver_owed(table), f"owed-{table.id}")

    async def close(self) -> None:
        if self._opened:
            self.heartbeat.cancel()
        if self._built:
            await self.app.close()
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
        if any(pattern.fullmatch(custom_id) for pattern in OUR_COMPONENTS):
            return
        log.debug("answered an unknown component id %r", custom_id[:100])
        try:
            await say(interaction, tr(private_language(interaction), INVALID_BUTTON))
        except discord.HTTPException as exc:
            log.debug("could not answer an unknown component: %s", exc)

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
