"""The application core: everything the bot does, with no idea Discord exists.

One :class:`SpadesApp` owns the store, the table service, the turn clock, the
statistics, the players' preferences and the turn-mention bookkeeping, and
wires them together. The Discord client builds it from the settings and
hands it to the cogs; a cog parses an interaction, calls one method here,
and renders what comes back.

The decisions live here, so that a slash command and its button behave
alike: whether an interaction may act on a table at all (it must come from
the table's server and channel), that a table where a computer stands in
for late players offers no claim, which table ``/spades hand`` means, and
that a person acting from their hand is back at the table (a seat a
computer plays for its late owner is theirs again).

Every accepted change is published once, after its commit, as an immutable
:class:`Snapshot` (the table plus what the clock knows), to the listeners of
its kind (:class:`Change`). Listeners are plain functions that must not
block: drawing and counting run in background tasks, so a click's answer
waits only on its own commit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot import refusals
from bot.ai.base import current_level, player_levels
from bot.clock import Scheduler, SystemClock
from bot.clock.notifier import TurnNotifier
from bot.clock.turn_clock import TurnClock
from bot.coach.service import CoachService
from bot.config import Settings
from bot.game.rules import PRESETS, RuleSet
from bot.game.types import ActionKind, Phase
from bot.heap import freeze_start_up_heap
from bot.prefs import FRESH_S, Preferences
from bot.refusals import NoTableHere, NotPlaying, SeveralTables, UnknownTable
from bot.replay.service import ReplayService
from bot.servers import ServerSettingsService
from bot.stats.service import StatsService
from bot.store_access import StoreUnavailable, open_store
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService, random_seed
from db.announcements import AnnouncementStore
from db.hand_messages import HandMessageRow, HandMessageStore
from db.stats_store import StatsStore
from db.store import Store, TurnMention

log = logging.getLogger(__name__)

#: The rules presets a host can choose, the default first.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
#: The computer players' levels a server can choose.
COMPUTER_LEVELS: tuple[str, ...] = tuple(player_levels())

__all__ = [
    "COMPUTER_LEVELS",
    "PRESET_NAMES",
    "REDRAW",
    "Change",
    "HandMessageRow",
    "Origin",
    "Snapshot",
    "SpadesApp",
    "Store",
    "StoreUnavailable",
    "TurnMention",
    "open_store",
]

Listener = Callable[["Snapshot", str], None]


class Change(Enum):
    """What a listener hears of: only the kind it subscribed to, so that a
    card play runs no listener it does not concern."""

    EVERY = "every"  # every committed change, and every redraw
    HAND_OVER = "hand over"  # a card play ended a hand (or the game with it)
    FINISHED = "finished"  # a change of a table whose game is over


#: The event of a snapshot at an unchanged version whose clock part changed
#: (a claim opened, the stand-in option set): it must be drawn again.
REDRAW = "redraw"
Now = Callable[[], float]
#: The changes a listener of :data:`Change.HAND_OVER` hears of: a card that ends a hand.
PLAY, HAND_DONE = ActionKind.PLAY.value, (Phase.HAND_OVER, Phase.GAME_OVER)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an interaction comes from. ``message_id`` is the public message
    a button is on, or None for a slash command or a private message."""

    guild_id: int | None
    channel_id: int | None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One table at one version, with what the turn clock knows about it."""

    table: Table
    claim_open: bool = False
    stand_in: bool = False
    away_seats: frozenset[int] = frozenset()


class SpadesApp:
    """Build with :meth:`open`; :meth:`start` once the Discord side listens."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        tables: TableService,
        *,
        now: Now,
        notifier: TurnNotifier,
    ) -> None:
        self.settings = settings
        self.store = store
        self.tables = tables
        self.now = now
        #: The shards whose servers this process serves (all of them unless
        #: the bot runs as several processes, see bot/shards.py).
        self.shards = settings.discord.shards
        self.stats = StatsService(StatsStore(store), owns=self.shards.owns)
        #: Decks, languages and coach choices, read once per user (kept for
        #: good by the bot's only process, for a while by one of several).
        self.prefs = Preferences(store, now, fresh_s=None if self.shards.every_shard else FRESH_S)
        self.coach = CoachService(self.prefs, now)
        self.servers = ServerSettingsService(store, now)
        self.replays = ReplayService(store, self.stats, self.servers, now, self.spawn)
        self._hand_messages = HandMessageStore(store)
        self._listeners: dict[Change, list[Listener]] = {change: [] for change in Change}
        self._background: set[asyncio.Task[Any]] = set()
        tables.subscribe(self._on_commit)
        serves = None if self.shards.every_shard else self.serves_table
        scheduler = Scheduler(store, SystemClock(now), serves=serves)
        archive = settings.tables.thread_archive_after_s
        self.clock = TurnClock(tables, scheduler, notifier, settings.clock, archive_after_s=archive)

    @classmethod
    async def open(
        cls,
        settings: Settings,
        store: Store,
        *,
        now: Now,
        notifier: TurnNotifier,
        seed_source: Callable[[], int] = random_seed,
    ) -> SpadesApp:
        """Resume every open table over an opened ``store``."""
        owns = settings.discord.shards.owns
        tables = await TableService.open(store, now=now, seed_source=seed_source, owns=owns)
        return cls(settings, store, tables, now=now, notifier=notifier)

    async def start(self) -> None:
        """Start the turn clock (deadlines that passed while stopped fire now)."""
        await self.clock.start()
        freeze_start_up_heap()

    async def close(self, grace_s: float = 0.0) -> None:
        """Stop the clock, give the background work under way (table messages
        being drawn, a computer's move) ``grace_s`` seconds to finish, and
        cancel what is left."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace_s
        await self.clock.stop(grace_s)
        # Work finishing may start more (a drawn message refreshes the hands).
        while (running := [t for t in self._background if not t.done()]) and (
            left := deadline - loop.time()
        ) > 0:
            await asyncio.wait(running, timeout=left)
        if grace_s and (late := [t for t in self._background if not t.done()]):
            log.warning("cancelling %d background tasks still running", len(late))
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    # -- publishing -------------------------------------------------------------

    def subscribe(self, listener: Listener, change: Change = Change.EVERY) -> None:
        """Call ``listener(snapshot, event)`` after each committed change of the
        kind ``change``; it must return at once (long work goes into :meth:`spawn`)."""
        self._listeners[change].append(listener)

    def snapshot(self, table: Table) -> Snapshot:
        view = self.clock.view(table)
        return Snapshot(table, view.claim_open, view.stand_in, view.away_seats)

    async def current(self, table_id: int) -> Snapshot:
        return self.snapshot(await self.tables.get(table_id))

    def publish(self, table: Table, event: str) -> None:
        """Tell the listeners of its kinds of change about ``table`` (or redraw it)."""
        snapshot = self.snapshot(table)
        self._tell(Change.EVERY, snapshot, event)
        game = table.game
        if event == PLAY and game is not None and game.phase in HAND_DONE:
            self._tell(Change.HAND_OVER, snapshot, event)
        if table.status is TableStatus.FINISHED:
            self._tell(Change.FINISHED, snapshot, event)

    def _tell(self, change: Change, snapshot: Snapshot, event: str) -> None:
        for listener in list(self._listeners[change]):
            try:
                listener(snapshot, event)
            except Exception:
                log.exception("a listener failed on %s at table %d", event, snapshot.table.id)

    async def _on_commit(self, table: Table, event: str) -> None:
        self.publish(table, event)

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; the task is kept and its failure logged."""
        task = asyncio.create_task(coro, name=name)
        self._background.add(task)
        task.add_done_callback(self._background_done)
        return task

    async def wait_background(self) -> None:
        """Wait until every background task (drawing, counting) has finished."""
        while running := [task for task in self._background if not task.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    def _background_done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("background task %s failed", task.get_name(), exc_info=exc)

    # -- which table --------------------------------------------------------------

    async def serves_table(self, table_id: int) -> bool:
        """Whether the table belongs to a server of this process's shards."""
        return await self.tables.serves(table_id)

    async def table_for(
        self, table_id: int, origin: Origin, *, on_table_message: bool = False
    ) -> Table:
        """The table an interaction names, if it may act on it at all.

        A button names its table by id, and ids can be forged. Any interaction
        from another server, and a button of the table message clicked
        anywhere but on that message (``on_table_message``), gets the same
        answer as a table that does not exist. Hand buttons live on private
        messages, which ``/spades hand`` may open in any channel of the server.
        """
        table = await self.tables.get(table_id)
        if table.guild_id is not None and origin.guild_id != table.guild_id:
            raise UnknownTable()
        if on_table_message and (
            origin.channel_id != table.channel_id
            or origin.message_id is None
            or (table.message_id is not None and origin.message_id != table.message_id)
        ):
            raise UnknownTable()
        return table

    async def channel_table(self, channel_id: int | None) -> Table:
        """The open table of the channel; NoTableHere if there is none."""
        table = await self.tables.in_channel(channel_id or 0)
        if table is None:
            raise NoTableHere()
        return table

    async def my_table(self, user_id: int, channel_id: int | None) -> Table:
        """The table in this channel if the user plays there, else their only table."""
        here = await self.tables.in_channel(channel_id or 0)
        if here is not None and here.is_seated(user_id):
            return here
        mine = await self.tables.tables_of_user(user_id)
        if len(mine) == 1:
            return mine[0]
        if here is not None:
            return here  # the service answers "you are watching" / "not seated"
        if not mine:
            raise NotPlaying()
        raise SeveralTables([t.channel_id for t in mine])

    async def my_games(self, user_id: int, guild_id: int | None) -> list[Table]:
        """The user's open tables on this server: those waiting on them
        first, then the newest first."""
        mine = [t for t in await self.tables.tables_of_user(user_id) if t.guild_id == guild_id]
        return sorted(mine, key=lambda t: (not t.waits_on(user_id), -t.created_at, -t.id))

    async def rules_in(self, channel_id: int | None) -> RuleSet:
        """The rules of the channel's table, or the default preset's."""
        table = await self.tables.in_channel(channel_id or 0)
        return table.rules if table is not None else PRESETS[PRESET_NAMES[0]]

    # -- the lobby ----------------------------------------------------------------

    async def create(self, origin: Origin, host_id: int, options: TableOptions) -> Snapshot:
        """Open a table with the host's ``options``."""
        if origin.channel_id is None:
            raise refusals.Malformed("tables are opened in a channel")
        table = await self.tables.create(origin.guild_id, origin.channel_id, host_id, options)
        if options.stand_in is not None:
            await self.clock.set_stand_in(table.id, options.stand_in)
            self.publish(table, REDRAW)
        return self.snapshot(table)

    async def join(self, table: Table, user_id: int) -> Table:
        return await self.tables.join(table.id, user_id, table.version)

    async def leave(self, table: Table, user_id: int) -> Table:
        return await self.tables.leave(table.id, user_id, table.version)

    async def choose_partner(self, table: Table, user_id: int, version: int, seat: int) -> Table:
        return await self.tables.choose_partner(table.id, user_id, version, seat)

    async def add_computers(self, table: Table, user_id: int, version: int) -> Table:
        chosen = (await self.servers.of(table.guild_id)).computer_level
        level = current_level(chosen) if chosen else self.settings.tables.computer_level
        return await self.tables.add_computers(table.id, user_id, version, level)

    def check_house_rules(self, table: Table, user_id: int) -> None:
        """Only the host sets the house rules, and only before the start."""
        if user_id != table.host_id:
            raise refusals.HostOnly()
        if table.status is not TableStatus.LOBBY:
            raise refusals.AlreadyStarted()

    async def house_rule(
        self, table: Table, user_id: int, version: int, key: str, value: str
    ) -> Table:
        return await self.tables.house_rule(table.id, user_id, version, key, value)

    async def start_game(self, table: Table, user_id: int, version: int) -> Table:
        return await self.tables.start(table.id, user_id, version)

    async def cancel(self, table: Table, user_id: int) -> Table:
        return await self.tables.cancel(table.id, user_id, table.version)

    # -- the game -----------------------------------------------------------------

    async def open_hand(self, table: Table, user_id: int) -> Snapshot:
        await self.clock.take_back(table, user_id)
        return await self.current(table.id)

    async def look(self, table: Table, user_id: int, version: int) -> Table:
        await self.clock.take_back(table, user_id)
        return await self.tables.look(table.id, user_id, version)

    async def bid(self, table: Table, user_id: int, version: int, bid: int) -> Table:
        await self.clock.take_back(table, user_id)
        return await self.tables.bid(table.id, user_id, bid, version)

    async def play(self, table: Table, user_id: int, version: int, card: str) -> Table:
        await self.clock.take_back(table, user_id)
        return await self.tables.play(table.id, user_id, card, version)

    async def pass_cards(
        self, table: Table, user: int, version: int, cards: int, hand: int
    ) -> Table:
        await self.clock.take_back(table, user)
        return await self.tables.pass_cards(table.id, user, cards, version, hand)

    async def next_hand(self, table: Table, user_id: int, version: int) -> Table:
        return await self.tables.next_hand(table.id, user_id, version)

    async def rematch(self, table: Table, user_id: int, version: int, *, swap: bool) -> Table:
        return await self.tables.rematch(table.id, user_id, version, swap_teams=swap)

    async def resign(self, table: Table, user_id: int, version: int) -> Table:
        return await self.tables.resign(table.id, user_id, version)

    async def end_by_moderator(
        self, origin: Origin, table_id: int, moderator_id: int, note: str
    ) -> Table:
        """A moderator of the interaction's server ends one of its tables (the
        caller checked that they moderate it). A table of another server is
        UnknownTable; one no longer open, TableClosed."""
        table = await self.tables.get(table_id)
        if origin.guild_id is None or table.guild_id != origin.guild_id:
            raise UnknownTable()
        if not table.is_open:
            raise refusals.TableClosed()
        return await self.tables.end_by_moderator(table.id, moderator_id, note)

    async def claim(self, table: Table, user_id: int, version: int) -> Table:
        """Win because the other team kept the table waiting past the limit.
        There is no claim where a computer plays for late players."""
        stand_in = self.clock.stand_in(table.id)
        return await self.tables.claim_timeout(table.id, user_id, version, stand_in=stand_in)

    async def claim_rest(self, table: Table, user_id: int, version: int) -> Table:
        """Claim the rest of the hand's tricks (not the turn clock's :meth:`claim`)."""
        await self.clock.take_back(table, user_id)
        return await self.tables.claim_rest(table.id, user_id, version)

    async def answer_rest(self, table: Table, user_id: int, version: int, accept: bool) -> Table:
        await self.clock.take_back(table, user_id)
        return await self.tables.answer_rest(table.id, user_id, version, accept)

    async def ask_seat(self, table: Table, user_id: int, version: int, seat: int) -> Table:
        """Ask, between hands, for a seat a computer holds, by the clock's
        word on which seats it plays for their late owners."""
        away = self.clock.view(table).away_seats
        return await self.tables.ask_seat(table.id, user_id, version, seat, away)

    async def answer_seat(self, table: Table, user_id: int, version: int, accept: bool) -> Table:
        """The host's answer. A seat given that a computer played for its late
        owner is the new player's from now on, their turn clock afresh."""
        current = await self.tables.get(table.id)
        away = self.clock.view(current).away_seats
        answered = await self.tables.answer_seat(table.id, user_id, version, accept, away)
        request = current.seat_request
        if accept and request is not None and request.seat in away:
            await self.clock.take_back(answered, request.user_id)
        return answered

    async def challenge(self, table: Table, user_id: int, accused_id: int) -> Table:
        return await self.tables.challenge(table.id, user_id, accused_id, table.version)

    # -- preferences and bookkeeping --------------------------------------------

    async def deck_of(self, user_id: int) -> str | None:
        """The deck design the user chose (None: the default)."""
        return await self.prefs.deck(user_id)

    async def set_deck(self, user_id: int, design: str) -> None:
        await self.prefs.set_deck(user_id, design)

    async def language_of(self, user_id: int) -> str | None:
        """The language the user chose for their private messages (None:
        their Discord app's)."""
        return await self.prefs.language(user_id)

    async def set_language(self, user_id: int, language: str | None) -> None:
        await self.prefs.set_language(user_id, language)

    async def set_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember which public message shows the table (not an action)."""
        return await self.tables.set_message(table_id, message_id)

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        return await self.tables.set_thread(table_id, thread_id)

    async def turn_mention(self, table_id: int) -> TurnMention | None:
        """The table's current "your turn" mention, as last recorded."""
        return await self.store.turn_mention(table_id)

    async def set_turn_mention(self, table_id: int, mention: TurnMention | None) -> None:
        await self.store.set_turn_mention(table_id, mention)

    # -- what a finished game owes its channel ------------------------------------

    async def unannounced(self) -> list[Table]:
        """Finished tables whose end was never announced (the process stopped
        right after the last card): their table message and picture are due."""
        announcements = AnnouncementStore(self.store)
        due = []
        for table_id, game_id in await announcements.unannounced():
            if not await self.serves_table(table_id):
                continue  # another shard's process announces it
            table = await self.tables.get(table_id)
            if table.game_id == game_id and table.status is TableStatus.FINISHED:
                due.append(table)
            else:  # a newer game is on: the old one's end is long out of view
                await announcements.mark_announced(game_id, self.now())
        return due

    async def owes_announcement(self, table: Table) -> bool:
        game_id = table.game_id
        return game_id is not None and await AnnouncementStore(self.store).is_unannounced(game_id)

    async def announced(self, table: Table) -> None:
        """The end of the table's game has been shown in its channel."""
        if table.game_id is not None:
            await AnnouncementStore(self.store).mark_announced(table.game_id, self.now())

    # -- editable hand messages (db/hand_messages.py) --------------------------------

    async def hand_messages(self) -> list[HandMessageRow]:
        """The private hands kept editable by an earlier run (at the tables this
        process serves), still editable now; the expired ones are deleted."""
        rows = await self._hand_messages.load(self.now())
        if self.shards.every_shard:
            return rows
        return [row for row in rows if await self.serves_table(row.table_id)]

    async def keep_hand_message(self, row: HandMessageRow) -> None:
        """Write down a hand message to keep editable (expired ones go meanwhile)."""
        await self._hand_messages.save(row, self.now())

    async def forget_hand_message(self, table_id: int, user_id: int, token: str) -> None:
        await self._hand_messages.drop(table_id, user_id, token)
