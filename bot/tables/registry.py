"""The tables in memory, and their way to and from the store.

:class:`TableRegistry` resumes tables from their stored rows, keeps the open
ones (and recently closed ones) in memory, runs one action at a time per
table under its lock and commits it: the store first, then the live table.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
from collections import OrderedDict
from collections.abc import Callable

from bot import refusals
from bot.game import checkpoint
from bot.game.refusals import IllegalAction
from bot.game.rules import RuleSet
from bot.game.state import Game
from bot.game.types import Action
from bot.tables.checks import is_int
from bot.tables.game_rows import readable_formats
from bot.tables.kinds import ENGINE_KINDS, UNSEEN_KINDS
from bot.tables.live import LiveTable, Write, closing_note
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableOptions, TableStatus
from bot.tables.seat_requests import pending_in
from db.store import (
    Change,
    ChannelTaken,
    DatabaseAway,
    LogEntry,
    Store,
    TableRecord,
    VersionConflict,
)

log = logging.getLogger(__name__)

#: Called under the table's lock, once the action is valid, with the table as
#: the action will leave it (version one on; a new game's ``game_id`` still
#: None) and the planned change; what it returns is written instead, in the
#: same transaction. It adds to the change (e.g. the deadlines that table
#: arms) and keeps the rest; it must not change the table. If it raises,
#: nothing is written. Not called for ``create`` nor ``set_message``.
BeforeCommit = Callable[[Table, Change | None], Change | None]

#: How many finished or cancelled tables stay in memory.
CLOSED_TABLES_KEPT = 1000


#: Whether a server's tables are this process's (see :mod:`bot.shards`).
Owns = Callable[[int | None], bool]


def _every_server(guild_id: int | None) -> bool:
    return True


class TableRegistry:
    """``owns`` says which servers' tables this process holds: the others are
    neither resumed nor read back, and acting on one is refused (OtherShard)."""

    def __init__(self, store: Store, owns: Owns | None = None) -> None:
        self.store = store
        self.before_commit: BeforeCommit | None = None
        self.owns = owns or _every_server
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}  # channel id -> its open table's id
        # Finished and cancelled tables stay in memory for a while (rematches,
        # late clicks), the most recently closed last; older ones are dropped
        # and read back from the store if anyone asks.
        self._closed: OrderedDict[int, None] = OrderedDict()
        self._load_lock = asyncio.Lock()
        # Tables whose last write was cut off with the database: whether it
        # was written is read back before the next action.
        self._unsure: set[int] = set()
        # Tables share a handful of option sets: validate each once.
        self._options: dict[tuple[str, str], TableOptions] = {}

    async def resume(self) -> None:
        """Bring every lobby and playing table back into memory."""
        # Rebuilding games allocates millions of small tuples and lists, none
        # of them garbage: without this the cyclic collector would walk the
        # growing heap again and again (most of the resume time otherwise).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for record in await self.store.load_open_tables(readable_formats()):
                if self.owns(record.guild_id):
                    await self._make_live(record)
        finally:
            if collecting:
                gc.enable()
        # The resumed games live long and hold no reference cycles: keep later
        # full collections from walking them (they are still freed normally).
        gc.freeze()

    def add(self, live: LiveTable) -> None:
        """A table just created in the store."""
        self.tables[live.id] = live
        self.by_channel[live.channel_id] = live.id

    async def live(self, table_id: int) -> LiveTable:
        """The table, read back from the store if it is not in memory."""
        if not is_int(table_id):
            raise refusals.UnknownTable()
        live = self.tables.get(table_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self.tables.get(table_id)
            if live is None:
                record = await self.store.load_table(table_id, readable_formats())
                if record is None:
                    raise refusals.UnknownTable()
                if not self.owns(record.guild_id):
                    raise refusals.OtherShard()
                live = await self._make_live(record)
        return live

    async def run(
        self, table_id: int, version: object, validate: Callable[[LiveTable], Write]
    ) -> tuple[Table, str]:
        """Run ``validate`` under the table's lock and commit it. Returns
        the new table and the log kind written (the caller notifies)."""
        live = await self.live(table_id)
        async with live.lock:
            if live.id in self._unsure:
                await self._resolve_unsure(live)
            if live.visible_version is None and type(version) is int and version < live.version:
                live.visible_version = await self._last_visible_version(live.id)
            step = validate(live)
            await self._commit(live, step)
            return live.table(), step.entry.kind

    async def _commit(self, live: LiveTable, write: Write) -> None:
        """Write the planned action; only then change the live table."""
        after = live.after(write)
        change = write.change
        if self.before_commit is not None:
            change = self.before_commit(after, change)
        try:
            committed = await self.store.commit_action(live.id, live.version, write.entry, change)
        except ChannelTaken:
            raise refusals.ChannelBusy() from None
        except VersionConflict:
            # Another process wrote this table: what we hold is outdated, so
            # it is dropped and read back from the store when next asked for.
            self._drop(live)
            raise refusals.StaleAction() from None
        except DatabaseAway:
            self._unsure.add(live.id)
            raise
        assert committed.version == after.version
        if write.new_game:
            after = dataclasses.replace(after, game_id=committed.game_id)
        was_open = live.status.is_open
        live.apply(write, after, change)
        if was_open and not live.status.is_open:
            self.by_channel.pop(live.channel_id, None)
            self._remember_closed(live)
        elif live.status.is_open and not was_open:
            self.by_channel[live.channel_id] = live.id
            self._closed.pop(live.id, None)

    async def _resolve_unsure(self, live: LiveTable) -> None:
        """After a write cut off with the database: if it was written after
        all, the table is rebuilt from the store and the click refused as
        stale (it was based on the state before); if not, nothing changed."""
        record = await self.store.load_table(live.id, readable_formats())
        self._unsure.discard(live.id)
        if record is not None and record.version != live.version:
            self.by_channel.pop(live.channel_id, None)
            await self._make_live(record)
            raise refusals.StaleAction()

    async def _last_visible_version(self, table_id: int) -> int:
        """From the log: the version of the last change players can see."""
        entries = await self.store.action_log(table_id)
        return max(e.seq for e in entries if e.kind not in UNSEEN_KINDS)

    async def _make_live(self, record: TableRecord) -> LiveTable:
        """Rebuild a table from its stored rows: its current game from the
        stored engine state, or by replaying the game's log."""
        options, rules = self._options_of(record.options_json, record.language)
        seats = [EMPTY_SEAT] * 4
        for row in record.seats:
            seats[row.seat] = Seat(row.user_id, row.computer_level)
        game: Game | None = None
        extent: tuple[int, int] | None = None
        if record.game is not None and record.state is not None:
            try:
                game, extent = checkpoint.decode(rules, record.state.history, record.state.current)
                _replay_onto(game, record.state_tail)
            except (checkpoint.CheckpointError, IllegalAction):
                log.warning("table %d: unusable stored state, replaying its log", record.id)
                game, extent = None, None
                reloaded = await self.store.load_table(record.id, with_log=True)
                assert reloaded is not None
                record = reloaded
        if record.game is not None and game is None:
            actions = [
                Action.from_logged(e.kind, e.payload, e.at)
                for e in record.game_log
                if e.kind in ENGINE_KINDS
            ]
            game = Game.replay(rules, record.game.seed, actions, record.game.started_at)
        live = LiveTable(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            message_id=record.message_id,
            host_id=record.host_id,
            options=options,
            status=TableStatus(record.status),
            version=record.version,
            seats=seats,
            spectators=list(record.spectators),
            game=game,
            game_number=record.game_no,
            game_id=record.game.game_id if record.game else None,
            game_version=record.game_seq,
            visible_version=None,  # read from the log if a click needs it
            created_at=record.created_at,
            updated_at=record.updated_at,
            packed=None if extent is None else checkpoint.Packed.stored(extent),
            thread_id=record.thread_id,
            # The log after the stored state ends with any request still waiting.
            seat_request=pending_in(record.state_tail or record.game_log),
        )
        if live.status is TableStatus.CANCELLED:
            # Closed in its lobby (no game, so no game log was read): whether a
            # moderator closed it, and why, is in its short lobby log.
            entries = await self.store.action_log(record.id)
            live.closing_note = next(filter(None, map(closing_note, reversed(entries))), None)
        self.tables[record.id] = live
        if live.status.is_open:
            self.by_channel[live.channel_id] = live.id
        else:
            self._remember_closed(live)
        return live

    def _drop(self, live: LiveTable) -> None:
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
            self._closed.pop(live.id, None)
            if self.by_channel.get(live.channel_id) == live.id:
                del self.by_channel[live.channel_id]

    def _remember_closed(self, live: LiveTable) -> None:
        self._closed[live.id] = None
        self._closed.move_to_end(live.id)
        while len(self._closed) > CLOSED_TABLES_KEPT:
            oldest = next(iter(self._closed))
            if self.tables[oldest].lock.locked():
                break  # in use right now: try again at the next closing
            del self._closed[oldest]
            del self.tables[oldest]

    def _options_of(self, stored: str, language: str) -> tuple[TableOptions, RuleSet]:
        """The options of a stored table: its ``options`` JSON and its language
        (a column of its own, see :class:`TableOptions`)."""
        options = self._options.get((stored, language))
        if options is None:
            options = TableOptions.model_validate_json(stored).model_copy(
                update={"language": language}
            )
            self._options[stored, language] = options
        return options, options.rules()  # rule sets are shared (TableOptions.rules)


def _replay_onto(game: Game, entries: list[LogEntry]) -> None:
    """The game actions among ``entries`` (logged after the stored state of
    ``game``), applied to it."""
    for entry in entries:
        if entry.kind in ENGINE_KINDS:
            game.apply(Action.from_logged(entry.kind, entry.payload, entry.at))
