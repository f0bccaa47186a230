"""The tables in memory, and their way to and from the store.

:class:`TableRegistry` knows every open table from its stored rows at the
start, and brings each into memory when it is first asked for (a click, a
deadline, a message to redraw): its game rebuilt by replaying the game's
log, the one stored form of a game. It keeps the newest value of each table
it brought in (and of recently closed ones), runs one action at a time per
table under its lock and commits it: the store first, then the new value.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from bot import refusals
from bot.game.rules import RuleSet
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.tables.kinds import ENGINE_KINDS, UNSEEN_KINDS
from bot.tables.model import EMPTY_SEAT, OpenTable, Seat, Table, TableOptions, TableStatus
from bot.tables.seat_requests import pending_in
from bot.tables.step import Act, Step, closing_note, is_int, last_claim, step
from db.sql import Deadline
from db.store import (
    ChannelTaken,
    DatabaseAway,
    GameInfo,
    LogEntry,
    Store,
    TableRecord,
    VersionConflict,
)

log = logging.getLogger(__name__)

MODERATOR_END = ActionKind.MODERATOR_END.value


class Planner(Protocol):
    """Where a table's deadlines come from (the turn clock): planned in each
    action's step, under the table's lock, and handed back once the store
    has written them with the action."""

    def deadlines_for(self, table: Table, now: float) -> tuple[Deadline, ...]: ...

    def adopt(self, owner: int, deadlines: tuple[Deadline, ...]) -> None: ...


#: How many finished or cancelled tables stay in memory.
CLOSED_TABLES_KEPT = 1000


#: Whether a server's tables are this process's (see :mod:`bot.shards`).
Owns = Callable[[int | None], bool]


def _every_server(guild_id: int | None) -> bool:
    return True


class Held:
    """A table in memory: its newest value, and the lock its actions take."""

    __slots__ = ("lock", "table")

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = asyncio.Lock()


class TableRegistry:
    """``owns`` says which servers' tables this process holds: the others are
    neither resumed nor read back, and acting on one is refused (OtherShard)."""

    def __init__(self, store: Store, owns: Owns | None = None) -> None:
        self.store = store
        self.planner: Planner | None = None
        self.owns = owns or _every_server
        self.tables: dict[int, Held] = {}  # in memory
        # The open tables not in memory yet: their stored rows, without the log.
        self._resting: dict[int, TableRecord] = {}
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
        """Learn every open (lobby or playing) table from its stored rows; each
        comes into memory when it is first asked for."""
        for record in await self.store.load_open_tables():
            if self.owns(record.guild_id) and record.id not in self.tables:
                self._resting[record.id] = record
                self.by_channel[record.channel_id] = record.id

    async def bring_in(self, table_ids: list[int]) -> None:
        """Bring those of the tables not in memory yet in at once: a few reads
        for all of them (a restart's redraw touches every open table)."""
        async with self._load_lock:
            wanted = [i for i in table_ids if is_int(i) and i not in self.tables]
            for record in await self.store.load_tables(wanted) if wanted else ():
                if self.owns(record.guild_id):
                    await self._from_record(record)

    async def serves(self, table_id: int) -> bool:
        """Whether the table is this process's to serve (or there is no such
        table), without bringing it into memory."""
        if table_id in self.tables or table_id in self._resting:
            return True  # only this process's tables are held
        found, guild_id = await self.store.table_server(table_id)
        return not found or self.owns(guild_id)

    def open_tables(self) -> list[OpenTable]:
        """Every open table, in memory or not, as far as its rows say."""
        found = [
            OpenTable(
                table.id,
                table.guild_id,
                table.thread_id,
                tuple(seat.user_id for seat in table.seats),
                table.game_number,
            )
            for table in (held.table for held in self.tables.values())
            if table.status.is_open
        ]
        found.extend(
            OpenTable(
                record.id,
                record.guild_id,
                record.thread_id,
                tuple(row.user_id for row in record.seats),
                record.game_no,
            )
            for record in self._resting.values()
        )
        return found

    def add(self, table: Table) -> None:
        """A table just created in the store."""
        self.tables[table.id] = Held(table)
        self.by_channel[table.channel_id] = table.id

    async def held(self, table_id: int) -> Held:
        """The table, read back from the store if it is not in memory."""
        if not is_int(table_id):
            raise refusals.UnknownTable()
        held = self.tables.get(table_id)
        if held is not None:
            return held
        async with self._load_lock:
            held = self.tables.get(table_id)
            if held is None:
                record = await self.store.load_table(table_id)
                if record is None:
                    raise refusals.UnknownTable()
                if not self.owns(record.guild_id):
                    raise refusals.OtherShard()
                held = await self._from_record(record)
        return held

    async def run(
        self, table_id: int, version: object, act: Act, now: Callable[[], float]
    ) -> tuple[Table, str]:
        """Make the step of ``act`` under the table's lock, at the time
        ``now`` tells there, and commit it. Returns the new table and the log
        kind written (the caller notifies)."""
        held = await self.held(table_id)
        async with held.lock:
            if table_id in self._unsure:
                await self._resolve_unsure(held.table)
            table = held.table
            if table.visible_version is None and type(version) is int and version < table.version:
                visible = await self._last_visible_version(table_id)
                table = held.table = dataclasses.replace(table, visible_version=visible)
            planner = self.planner
            made = step(table, act, now(), None if planner is None else planner.deadlines_for)
            held.table = await self._commit(held, made)
            if planner is not None and made.deadlines is not None:
                planner.adopt(table_id, made.deadlines)
            return held.table, made.entry.kind

    async def _commit(self, held: Held, made: Step) -> Table:
        """Write the step ``made`` from the table ``held`` holds; returns its
        table as written (a new game's stored id filled in)."""
        before, after = held.table, made.table
        try:
            committed = await self.store.commit_action(
                before.id, before.version, made.entry, made.change
            )
        except ChannelTaken:
            raise refusals.ChannelBusy() from None
        except VersionConflict:
            # Another process wrote this table: what we hold is outdated, so
            # it is dropped and read back from the store when next asked for.
            self._drop(held)
            raise refusals.StaleAction() from None
        except DatabaseAway:
            self._unsure.add(before.id)
            raise
        assert committed.version == after.version
        if made.new_game:
            after = dataclasses.replace(after, game_id=committed.game_id)
        if before.is_open and not after.is_open:
            self.by_channel.pop(after.channel_id, None)
            self._remember_closed(after.id)
        elif after.is_open and not before.is_open:
            self.by_channel[after.channel_id] = after.id
            self._closed.pop(after.id, None)
        return after

    async def _resolve_unsure(self, table: Table) -> None:
        """After a write cut off with the database: if it was written after
        all, the table is rebuilt from the store and the click refused as
        stale (it was based on the state before); if not, nothing changed."""
        record = await self.store.load_table(table.id)
        self._unsure.discard(table.id)
        if record is not None and record.version != table.version:
            self.by_channel.pop(table.channel_id, None)
            await self._from_record(record)
            raise refusals.StaleAction()

    async def _last_visible_version(self, table_id: int) -> int:
        """From the log: the version of the last change players can see."""
        entries = await self.store.action_log(table_id)
        return max(e.seq for e in entries if e.kind not in UNSEEN_KINDS)

    async def _from_record(self, record: TableRecord) -> Held:
        """Rebuild a table from its stored rows, its current game by replaying
        that game's log."""
        self._resting.pop(record.id, None)
        options, rules = self._options_of(record.options_json, record.language)
        seats = [EMPTY_SEAT] * 4
        for row in record.seats:
            seats[row.seat] = Seat(row.user_id, row.computer_level)
        status = TableStatus(record.status)
        note = None
        if status is TableStatus.CANCELLED:
            # Closed in its lobby (no game, so no game log was read): whether a
            # moderator closed it, and why, is in its short lobby log.
            entries = await self.store.action_log(record.id)
            note = next(filter(None, map(closing_note, reversed(entries))), None)
        table = Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            message_id=record.message_id,
            host_id=record.host_id,
            options=options,
            status=status,
            version=record.version,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            spectators=tuple(record.spectators),
            game=None if record.game is None else _replayed(rules, record.game, record.game_log),
            game_number=record.game_no,
            game_id=record.game.game_id if record.game else None,
            created_at=record.created_at,
            updated_at=record.updated_at,
            thread_id=record.thread_id,
            # The game's log ends with any request still waiting.
            seat_request=pending_in(record.game_log),
            closing_note=note,
            game_version=record.game_seq,
            visible_version=None,  # read from the log if a click needs it
            claim_version=last_claim(record.game_log),
        )
        held = self.tables[record.id] = Held(table)
        if table.is_open:
            self.by_channel[table.channel_id] = table.id
        else:
            self._remember_closed(table.id)
        return held

    def _drop(self, held: Held) -> None:
        table = held.table
        if self.tables.get(table.id) is held:
            del self.tables[table.id]
            self._closed.pop(table.id, None)
            if self.by_channel.get(table.channel_id) == table.id:
                del self.by_channel[table.channel_id]

    def _remember_closed(self, table_id: int) -> None:
        self._closed[table_id] = None
        self._closed.move_to_end(table_id)
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


def _replayed(rules: RuleSet, stored: GameInfo, log: list[LogEntry]) -> Game:
    """The game replayed from its log. A moderator's end is applied with its
    logged reason, which the action itself does not carry."""
    entries = [e for e in log if e.kind in ENGINE_KINDS]
    ending = entries[-1] if entries and entries[-1].kind == MODERATOR_END else None
    if ending is not None:
        entries.pop()
    actions = [Action.from_logged(e.kind, e.payload, e.at) for e in entries]
    game = Game.replay(rules, stored.seed, actions, stored.started_at)
    if ending is not None:
        note = ending.payload.get("note")
        game.end_by_moderator(note if isinstance(note, str) else None, ending.at)
    return game
