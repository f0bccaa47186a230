"""The table service: every table's lifecycle, from the lobby to the rematch.

Each public action takes the acting user's id and the table ``version`` the
click was made against, and either commits exactly one log row (plus the
version bump and whatever rows the action derives) before returning the new
:class:`~bot.tables.model.Table`, or raises and writes nothing:

* :class:`~bot.tables.errors.TableError` subclasses for table-level refusals
  (unknown table, not seated, spectator, host only, wrong phase, stale
  version, malformed input, ...);
* the engine's :class:`~bot.game.errors.IllegalAction` for rules refusals.

Checks run in this order: who is acting (seated, spectator, host), then the
version (a stale or repeated click), then the phase and the rules.

Actions on one table run one at a time (a lock per table); different tables
proceed concurrently. The engine state is copied before each action, so a
refused action or a failed commit leaves the in-memory table untouched and
a published snapshot never changes.

After each commit, outside the table lock, every subscriber is awaited with
``(table, event)``; ``event`` is the log kind of the action (see
:data:`EVENTS`). A subscriber's exception is logged and never undoes the
action. Two actions on one table may notify in either order: subscribers
compare ``table.version``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from pydantic import ValidationError

from bot.ai.base import player_levels
from bot.game import checkpoint
from bot.game.cards import parse_card
from bot.game.rules import RuleSet
from bot.game.state import Game
from bot.game.types import ENGINE_KINDS, Action, ActionKind, team_of
from bot.tables import errors
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableOptions, TableStatus
from db.store import (
    Change,
    ChannelTaken,
    GameEnd,
    GameStart,
    LogEntry,
    SeatOutcome,
    SeatRow,
    StateWrite,
    Store,
    TableRecord,
    VersionConflict,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
SeedSource = Callable[[], int]
Listener = Callable[[Table, str], Awaitable[None]]

#: Log kinds (and subscriber events) of the lobby and table actions.
CREATE = "create"
JOIN = "join"  # took a free seat
WATCH = "watch"  # joined as a spectator
LEAVE = "leave"  # left a seat before the start
UNWATCH = "unwatch"  # a spectator left
PARTNER = "partner"
BOTS = "bots"
START = "start"
REMATCH = "rematch"
CANCEL = "cancel"
EVENTS = frozenset(
    {CREATE, JOIN, WATCH, LEAVE, UNWATCH, PARTNER, BOTS, START, REMATCH, CANCEL} | ENGINE_KINDS
)
#: What computer players may do through :meth:`TableService.bot_act`: they
#: never call a revoke and never resign.
BOT_KINDS = frozenset(
    {
        ActionKind.LOOK,
        ActionKind.BID,
        ActionKind.PLAY,
        ActionKind.NEXT_HAND,
        ActionKind.CLAIM_TIMEOUT,
    }
)


#: How many finished or cancelled tables stay in memory.
CLOSED_TABLES_KEPT = 1000


def random_seed() -> int:
    """A fresh game seed (fits SQLite's signed 64-bit integers)."""
    return secrets.randbits(62)


def copy_game(game: Game) -> Game:
    """An independent copy of an engine state: the engine changes its lists in
    place (never the objects in them), so copying every list field suffices."""
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(game):
        value = getattr(game, spec.name)
        values[spec.name] = list(value) if isinstance(value, list) else value
    return Game(**values)


class _Live:
    """The service's mutable record of one table (guarded by ``lock``)."""

    __slots__ = (
        "channel_id",
        "created_at",
        "game",
        "game_id",
        "game_number",
        "guild_id",
        "host_id",
        "id",
        "lock",
        "marks",
        "message_id",
        "options",
        "seats",
        "snapshot",
        "spectators",
        "status",
        "updated_at",
        "version",
    )

    def __init__(
        self,
        *,
        table_id: int,
        guild_id: int | None,
        channel_id: int,
        message_id: int | None,
        host_id: int,
        options: TableOptions,
        status: TableStatus,
        version: int,
        seats: list[Seat],
        spectators: list[int],
        game: Game | None,
        game_number: int,
        game_id: int | None,
        created_at: float,
        updated_at: float,
    ) -> None:
        self.id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.message_id = message_id
        self.host_id = host_id
        self.options = options
        self.status = status
        self.version = version
        self.seats = seats
        self.spectators = spectators
        self.game = game
        self.game_number = game_number
        self.game_id = game_id
        self.created_at = created_at
        self.updated_at = updated_at
        self.lock = asyncio.Lock()
        self.snapshot: Table | None = None
        #: How much of the game the stored history checkpoint holds; None when
        #: no usable checkpoint is stored (the next write stores a full one).
        self.marks: tuple[int, int] | None = None

    def table(self) -> Table:
        if self.snapshot is None:
            s = self.seats
            self.snapshot = Table(
                id=self.id,
                guild_id=self.guild_id,
                channel_id=self.channel_id,
                message_id=self.message_id,
                host_id=self.host_id,
                options=self.options,
                status=self.status,
                version=self.version,
                seats=(s[0], s[1], s[2], s[3]),
                spectators=tuple(self.spectators),
                game=self.game,
                game_number=self.game_number,
                game_id=self.game_id,
                created_at=self.created_at,
                updated_at=self.updated_at,
            )
        return self.snapshot

    def seat_of(self, user_id: int) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return number
        return None


@dataclasses.dataclass(slots=True)
class _Plan:
    """A validated action: what to write, and how the live table changes once
    it is written."""

    entry: LogEntry
    change: Change | None = None
    status: TableStatus | None = None
    seats: list[Seat] | None = None
    spectators: list[int] | None = None
    game: Game | None = None
    new_game: bool = False  # a start or rematch: the game number moves on
    marks: tuple[int, int] | None = None  # the history marks once ``change.state`` is written


class TableService:
    """Create with ``await TableService.open(store)``: it resumes every open table."""

    def __init__(
        self,
        store: Store,
        *,
        now: Clock = time.time,
        seed_source: SeedSource = random_seed,
    ) -> None:
        self.store = store
        self.now = now
        self.seed_source = seed_source
        self._tables: dict[int, _Live] = {}
        self._by_channel: dict[int, int] = {}  # channel id -> its open table's id
        # Finished and cancelled tables stay in memory for a while (rematches,
        # late clicks), the most recently closed last; older ones are dropped
        # and read back from the store if anyone asks.
        self._closed: OrderedDict[int, None] = OrderedDict()
        self._listeners: list[Listener] = []
        self._load_lock = asyncio.Lock()
        # Tables share a handful of option sets: validate each once.
        self._options: dict[str, tuple[TableOptions, RuleSet]] = {}
        self._state_format = checkpoint.FINGERPRINT if checkpoint.USABLE else None

    @classmethod
    async def open(
        cls,
        store: Store,
        *,
        now: Clock = time.time,
        seed_source: SeedSource = random_seed,
    ) -> TableService:
        """A service over ``store`` with every lobby and playing table resumed:
        the same seats, spectators, version and engine state as before."""
        service = cls(store, now=now, seed_source=seed_source)
        # Rebuilding games allocates millions of small tuples and lists, none
        # of them garbage: without this the cyclic collector would walk the
        # growing heap again and again (most of the resume time otherwise).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for record in await store.load_open_tables(service._state_format):
                await service._adopt(record)
        finally:
            if collecting:
                gc.enable()
        # The resumed games live long and hold no reference cycles: keep later
        # full collections from walking them (they are still freed normally).
        gc.freeze()
        return service

    # -- subscription ----------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Await ``listener(table, event)`` after every committed action.
        Returns a function that unsubscribes it."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    async def _notify(self, table: Table, event: str) -> None:
        for listener in list(self._listeners):
            try:
                await listener(table, event)
            except Exception:
                log.exception("a table listener failed on %s at table %d", event, table.id)

    # -- lookups ---------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table's current snapshot (any status). Raises UnknownTable."""
        return (await self._live(table_id)).table()

    async def in_channel(self, channel_id: int) -> Table | None:
        """The open (lobby or playing) table of the channel, if any."""
        table_id = self._by_channel.get(channel_id)
        return self._tables[table_id].table() if table_id is not None else None

    async def tables_of_user(self, user_id: int) -> list[Table]:
        """Open tables where the user has a seat."""
        return [
            live.table()
            for live in self._tables.values()
            if live.status.is_open and live.seat_of(user_id) is not None
        ]

    async def unfinished(self) -> list[Table]:
        """Every open (lobby or playing) table."""
        return [live.table() for live in self._tables.values() if live.status.is_open]

    def open_count(self) -> int:
        return len(self._by_channel)

    # -- lobby -----------------------------------------------------------------

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        *,
        target: int = 500,
        revokes: str = "allowed",
        preset: str = "standard",
        turn_limit_s: int = 172800,
    ) -> Table:
        """Open a table in the channel with the host in seat 0 (version 1).
        Raises ChannelBusy if the channel already has an open table."""
        _check_id(channel_id, "channel")
        _check_id(host_id, "user")
        if guild_id is not None:
            _check_id(guild_id, "server")
        try:
            options = TableOptions(
                target=target, revokes=revokes, preset=preset, turn_limit_s=turn_limit_s
            )
            options.rules()
        except (ValidationError, ValueError) as exc:
            raise errors.Malformed(_validation_message(exc)) from None
        if channel_id in self._by_channel:
            raise errors.ChannelBusy()
        at = self.now()
        seats = [Seat(user_id=host_id), EMPTY_SEAT, EMPTY_SEAT, EMPTY_SEAT]
        entry = LogEntry(
            CREATE,
            host_id,
            {"guild_id": guild_id, "channel_id": channel_id, "options": options.model_dump()},
            at,
        )
        try:
            table_id = await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options.model_dump(),
                seats=_seat_rows(seats),
                entry=entry,
            )
        except ChannelTaken:
            raise errors.ChannelBusy() from None
        live = _Live(
            table_id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            message_id=None,
            host_id=host_id,
            options=options,
            status=TableStatus.LOBBY,
            version=1,
            seats=seats,
            spectators=[],
            game=None,
            game_number=0,
            game_id=None,
            created_at=at,
            updated_at=at,
        )
        self._tables[table_id] = live
        self._by_channel[channel_id] = table_id
        table = live.table()
        await self._notify(table, CREATE)
        return table

    async def set_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the Discord message showing the table. Not an action: the
        version stays, so buttons already rendered remain valid; no event."""
        if message_id is not None:
            _check_id(message_id, "message")
        live = await self._live(table_id)
        async with live.lock:
            await self.store.set_message(table_id, message_id)
            live.message_id = message_id
            live.snapshot = None
            return live.table()

    async def join(self, table_id: int, user_id: int, version: int) -> Table:
        """Take the lowest free seat in the lobby; once the seats are full (or
        the game has started) become a spectator instead."""

        def plan(live: _Live) -> _Plan:
            if not live.status.is_open:
                raise errors.TableClosed()
            if live.seat_of(user_id) is not None or user_id in live.spectators:
                raise errors.AlreadyJoined()
            _check_version(live, version)
            at = self.now()
            free = [n for n, seat in enumerate(live.seats) if seat.is_empty]
            if live.status is TableStatus.LOBBY and free:
                seats = list(live.seats)
                seats[free[0]] = Seat(user_id=user_id)
                return _Plan(
                    LogEntry(JOIN, user_id, {"seat": free[0]}, at),
                    Change(seats=_seat_rows(seats)),
                    seats=seats,
                )
            return _Plan(
                LogEntry(WATCH, user_id, {}, at),
                Change(add_spectator=user_id),
                spectators=[*live.spectators, user_id],
            )

        return await self._act(table_id, user_id, plan)

    async def leave(self, table_id: int, user_id: int, version: int) -> Table:
        """Give up a seat before the start, or stop watching. The host cannot
        leave (they cancel); once the game started a player resigns instead."""

        def plan(live: _Live) -> _Plan:
            seat = live.seat_of(user_id)
            if seat is None and user_id not in live.spectators:
                raise errors.NotSeated()
            if seat is not None and user_id == live.host_id:
                raise errors.HostCannotLeave()
            if seat is not None and live.status is not TableStatus.LOBBY:
                if live.status is TableStatus.PLAYING:
                    raise errors.AlreadyStarted("the game has started: resign to leave it")
                raise errors.TableClosed()
            _check_version(live, version)
            at = self.now()
            if seat is None:
                return _Plan(
                    LogEntry(UNWATCH, user_id, {}, at),
                    Change(remove_spectator=user_id),
                    spectators=[u for u in live.spectators if u != user_id],
                )
            seats = list(live.seats)
            seats[seat] = EMPTY_SEAT
            return _Plan(
                LogEntry(LEAVE, user_id, {"seat": seat}, at),
                Change(seats=_seat_rows(seats)),
                seats=seats,
            )

        return await self._act(table_id, user_id, plan)

    async def choose_partner(
        self,
        table_id: int,
        user_id: int,
        partner_id: int | None,
        version: int,
        *,
        partner_seat: int | None = None,
    ) -> Table:
        """The host picks the partner who will sit across (seat 2), by user id
        or, for a computer player, by ``partner_seat``; the other two form the
        other team in their current order. Host only, lobby, four seated."""

        def plan(live: _Live) -> _Plan:
            _check_host(live, user_id)
            _check_lobby(live)
            if any(seat.is_empty for seat in live.seats):
                raise errors.NotEnoughPlayers(
                    "all four seats must be taken before you pick a partner"
                )
            if partner_id is not None:
                _check_id(partner_id, "user")
                chosen = live.seat_of(partner_id)
            else:
                chosen = partner_seat if _is_int(partner_seat) else None
            if chosen is None or not 1 <= chosen <= 3:
                raise errors.BadPartner()
            _check_version(live, version)
            others = [n for n in (1, 2, 3) if n != chosen]
            old = live.seats
            seats = [old[0], old[others[0]], old[chosen], old[others[1]]]
            return _Plan(
                LogEntry(PARTNER, user_id, {"partner_seat": chosen}, self.now()),
                Change(seats=_seat_rows(seats)),
                seats=seats,
            )

        return await self._act(table_id, user_id, plan)

    async def add_bots(
        self, table_id: int, user_id: int, version: int, level: str = "heuristic"
    ) -> Table:
        """Fill every empty seat with a computer player of ``level``. Host only,
        before the start."""

        def plan(live: _Live) -> _Plan:
            _check_host(live, user_id)
            _check_lobby(live)
            if not isinstance(level, str) or level not in player_levels():
                raise errors.Malformed(
                    f"unknown computer player level {level!r}: "
                    f"choose one of {', '.join(player_levels())}"
                )
            empty = [n for n, seat in enumerate(live.seats) if seat.is_empty]
            if not empty:
                raise errors.TableFull()
            _check_version(live, version)
            seats = [Seat(bot_level=level) if seat.is_empty else seat for seat in live.seats]
            return _Plan(
                LogEntry(BOTS, user_id, {"level": level, "seats": empty}, self.now()),
                Change(seats=_seat_rows(seats)),
                seats=seats,
            )

        return await self._act(table_id, user_id, plan)

    async def start(self, table_id: int, user_id: int, version: int) -> Table:
        """Deal the first hand. Host only, four seated."""

        def plan(live: _Live) -> _Plan:
            _check_host(live, user_id)
            _check_lobby(live)
            if any(seat.is_empty for seat in live.seats):
                raise errors.NotEnoughPlayers("four players must be seated to start")
            _check_version(live, version)
            return self._new_game_plan(live, START, user_id, list(live.seats))

        return await self._act(table_id, user_id, plan)

    async def rematch(
        self, table_id: int, user_id: int, version: int, swap_teams: bool = False
    ) -> Table:
        """Start the next game at a finished table, by any seated player. With
        ``swap_teams`` the host's partner and the player at seat 1 trade places."""

        def plan(live: _Live) -> _Plan:
            _check_member(live, user_id)
            if live.status is not TableStatus.FINISHED:
                if live.status is TableStatus.CANCELLED:
                    raise errors.TableClosed()
                raise errors.NotOver("the game is not over yet: a rematch comes after it")
            if not isinstance(swap_teams, bool):
                raise errors.Malformed("swap_teams must be true or false")
            _check_version(live, version)
            if live.channel_id in self._by_channel:
                raise errors.ChannelBusy()
            old = live.seats
            seats = [old[0], old[2], old[1], old[3]] if swap_teams else list(old)
            return self._new_game_plan(live, REMATCH, user_id, seats, swap_teams=swap_teams)

        return await self._act(table_id, user_id, plan)

    async def cancel(self, table_id: int, user_id: int, version: int) -> Table:
        """Close a table that has not started. Host only."""

        def plan(live: _Live) -> _Plan:
            _check_host(live, user_id)
            _check_lobby(live)
            _check_version(live, version)
            return _Plan(
                LogEntry(CANCEL, user_id, {}, self.now()),
                Change(status=TableStatus.CANCELLED.value),
                status=TableStatus.CANCELLED,
            )

        return await self._act(table_id, user_id, plan)

    # -- the game --------------------------------------------------------------

    async def look(self, table_id: int, user_id: int, version: int) -> Table:
        """Record that the player looked at their hand (it rules out Blind Nil)."""
        return await self._engine_act(table_id, user_id, version, ActionKind.LOOK, 0)

    async def bid(self, table_id: int, user_id: int, bid: int, version: int) -> Table:
        """Bid 1-13, NIL (0) or BLIND_NIL (-1)."""
        if not _is_int(bid):
            raise errors.Malformed("a bid is a number of tricks, or Nil")
        return await self._engine_act(table_id, user_id, version, ActionKind.BID, bid)

    async def play(self, table_id: int, user_id: int, card: int | str, version: int) -> Table:
        """Play a card (0-51, or its name such as 'AS')."""
        return await self._engine_act(
            table_id, user_id, version, ActionKind.PLAY, _card_value(card)
        )

    async def challenge(
        self,
        table_id: int,
        user_id: int,
        accused_user_id: int | None,
        version: int,
        *,
        accused_seat: int | None = None,
    ) -> Table:
        """Call a revoke on an opponent (a user, or ``accused_seat`` for a
        computer player). It ends the game either way."""

        def value(live: _Live) -> int:
            if accused_user_id is not None:
                _check_id(accused_user_id, "user")
                seat = live.seat_of(accused_user_id)
                return -1 if seat is None else seat  # the engine refuses -1
            if not _is_int(accused_seat):
                raise errors.Malformed("say whom you accuse of revoking")
            assert accused_seat is not None
            return accused_seat

        return await self._engine_act(table_id, user_id, version, ActionKind.CHALLENGE, value)

    async def next_hand(self, table_id: int, user_id: int, version: int) -> Table:
        return await self._engine_act(table_id, user_id, version, ActionKind.NEXT_HAND, 0)

    async def resign(self, table_id: int, user_id: int, version: int) -> Table:
        """Give up: the player's team loses the game."""
        return await self._engine_act(table_id, user_id, version, ActionKind.RESIGN, 0)

    async def claim_timeout(self, table_id: int, user_id: int, version: int) -> Table:
        """Win because the other team has kept the table waiting past the turn limit."""
        return await self._engine_act(table_id, user_id, version, ActionKind.CLAIM_TIMEOUT, 0)

    async def bot_act(self, table_id: int, seat: int, version: int, action: Action) -> Table:
        """A computer player's action for its own seat, through the same checks
        and commit as a person's. The action's ``at`` is replaced by the clock."""
        if not _is_int(seat) or not 0 <= seat <= 3:
            raise errors.Malformed("a seat is a number from 0 to 3")
        if not isinstance(action, Action) or action.seat != seat:
            raise errors.Malformed("a computer player acts for its own seat")
        if action.kind not in BOT_KINDS:
            raise errors.Malformed(f"computer players do not {action.kind.value.replace('_', ' ')}")
        return await self._engine_act(table_id, None, version, action.kind, action.value, seat)

    # -- internals -------------------------------------------------------------

    async def _live(self, table_id: int) -> _Live:
        if not _is_int(table_id):
            raise errors.UnknownTable()
        live = self._tables.get(table_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self._tables.get(table_id)
            if live is None:
                record = await self.store.load_table(table_id, self._state_format)
                if record is None:
                    raise errors.UnknownTable()
                live = await self._adopt(record)
        return live

    async def _adopt(self, record: TableRecord) -> _Live:
        """Rebuild a table from its stored rows: its current game from the
        stored engine state, or by replaying the game's log."""
        options, rules = self._options_of(record.options_json)
        seats = [EMPTY_SEAT] * 4
        for row in record.seats:
            seats[row.seat] = Seat(row.user_id, row.bot_level)
        game: Game | None = None
        marks: tuple[int, int] | None = None
        if record.game is not None and record.state is not None:
            try:
                game, marks = checkpoint.decode(rules, record.state.history, record.state.current)
            except checkpoint.CheckpointError:
                log.warning("table %d: unreadable stored state, replaying its log", record.id)
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
        live = _Live(
            table_id=record.id,
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
            created_at=record.created_at,
            updated_at=record.updated_at,
        )
        live.marks = marks
        self._tables[record.id] = live
        if live.status.is_open:
            self._by_channel[live.channel_id] = live.id
        else:
            self._remember_closed(live)
        return live

    def _remember_closed(self, live: _Live) -> None:
        self._closed[live.id] = None
        self._closed.move_to_end(live.id)
        while len(self._closed) > CLOSED_TABLES_KEPT:
            oldest = next(iter(self._closed))
            if self._tables[oldest].lock.locked():
                break  # in use right now: try again at the next closing
            del self._closed[oldest]
            del self._tables[oldest]

    def _options_of(self, stored: str) -> tuple[TableOptions, RuleSet]:
        cached = self._options.get(stored)
        if cached is None:
            options = TableOptions.model_validate_json(stored)
            cached = self._options[stored] = (options, options.rules())
        return cached

    def _state(self, live: _Live, game: Game, step: _Plan, game_no: int, new_game: bool) -> None:
        """Add the checkpoint of ``game`` to the planned write (see
        :mod:`bot.game.checkpoint`): the history part only when a hand was
        finished since it was last written."""
        if self._state_format is None:
            return
        marks = live.marks
        history: bytes | None = None
        keep = False
        if new_game:
            marks = (0, 0)
        elif marks is None or len(game.hand_records) != marks[0]:
            history = checkpoint.encode_history(game)
            marks = checkpoint.history_marks(game)
        else:
            keep = True
        state = StateWrite(
            game_no=game_no,
            format=self._state_format,
            current=checkpoint.encode_current(game, marks),
            history=history,
            keep_history=keep,
        )
        change = step.change or Change()
        step.change = dataclasses.replace(change, state=state)
        step.marks = marks

    async def _act(
        self, table_id: int, user_id: int | None, plan: Callable[[_Live], _Plan]
    ) -> Table:
        """Validate with ``plan`` under the table's lock, commit, update memory,
        then notify outside the lock."""
        if user_id is not None:
            _check_id(user_id, "user")
        live = await self._live(table_id)
        async with live.lock:
            step = plan(live)
            table = await self._commit(live, step)
        await self._notify(table, step.entry.kind)
        return table

    async def _engine_act(
        self,
        table_id: int,
        user_id: int | None,
        version: int,
        kind: ActionKind,
        value: int | Callable[[_Live], int],
        bot_seat: int | None = None,
    ) -> Table:
        if user_id is not None:
            _check_id(user_id, "user")
        live = await self._live(table_id)
        async with live.lock:
            if user_id is None:
                assert bot_seat is not None
                seat = bot_seat
                if not live.seats[seat].is_bot:
                    raise errors.NotABot()
            else:
                seat = _check_member(live, user_id)
            _check_version(live, version)
            if live.game is None:
                if live.status is TableStatus.CANCELLED:
                    raise errors.TableClosed()
                raise errors.NotStarted()
            if live.status is TableStatus.CANCELLED:  # pragma: no cover - never started
                raise errors.TableClosed()
            number = value if isinstance(value, int) else value(live)
            at = self.now()
            game = copy_game(live.game)
            game.apply(Action(kind, seat, number, at))  # IllegalAction: nothing changed
            payload: dict[str, Any] = {"seat": seat, "value": number}
            if user_id is None:
                payload["bot"] = live.seats[seat].bot_level
            step = _Plan(LogEntry(kind.value, user_id, payload, at), game=game)
            if game.over:
                step.status = TableStatus.FINISHED
                step.change = Change(
                    status=TableStatus.FINISHED.value, game_end=self._game_end(live, game, at)
                )
            self._state(live, game, step, live.game_number, new_game=False)
            table = await self._commit(live, step)
        await self._notify(table, step.entry.kind)
        return table

    def _new_game_plan(
        self,
        live: _Live,
        kind: str,
        user_id: int,
        seats: list[Seat],
        **extra: Any,
    ) -> _Plan:
        at = self.now()
        seed = self.seed_source()
        rules = live.options.rules()
        game = Game.new(rules, seed, started_at=at)
        number = live.game_number + 1
        seat_rows = _seat_rows(seats)
        payload = {"seed": seed, "game_no": number, "seats": [_seat_json(s) for s in seats]}
        payload.update(extra)
        step = _Plan(
            LogEntry(kind, user_id, payload, at),
            Change(
                status=TableStatus.PLAYING.value,
                seats=seat_rows if seats != live.seats else None,
                game_start=GameStart(
                    game_no=number,
                    preset=rules.preset,
                    options=rules.model_dump(mode="json"),
                    seed=seed,
                    started_at=at,
                    seats=seat_rows,
                ),
            ),
            status=TableStatus.PLAYING,
            seats=seats,
            game=game,
            new_game=True,
        )
        self._state(live, game, step, number, new_game=True)
        return step

    def _game_end(self, live: _Live, game: Game, at: float) -> GameEnd:
        result = game.result
        assert result is not None
        scores = (game.scores[0], game.scores[1])
        game_id = str(live.game_id)
        outcomes = []
        for seat in range(4):
            team = team_of(seat)
            if result.winner is None:
                outcome = "draw"
            else:
                outcome = "won" if result.winner == team else "lost"
            outcomes.append(SeatOutcome(seat, outcome, scores[team], scores[1 - team]))
        return GameEnd(
            game_no=live.game_number,
            ended_at=at,
            winner=result.winner,
            reason=result.reason.value,
            reason_seat=result.seat,
            scores=scores,
            hands=[r.to_json(game_id, game.rules.preset) for r in game.hand_records],
            seats=tuple(outcomes),
        )

    async def _commit(self, live: _Live, step: _Plan) -> Table:
        """Write the planned action; only then change the live table."""
        try:
            committed = await self.store.commit_action(
                live.id, live.version, step.entry, step.change
            )
        except ChannelTaken:
            raise errors.ChannelBusy() from None
        except VersionConflict:
            # Another process wrote this table: what we hold is outdated.
            raise errors.StaleAction() from None
        was_open = live.status.is_open
        live.version = committed.version
        live.updated_at = step.entry.at
        if step.status is not None:
            live.status = step.status
        if step.seats is not None:
            live.seats = step.seats
        if step.spectators is not None:
            live.spectators = step.spectators
        if step.game is not None:
            live.game = step.game
        if step.new_game:
            live.game_number += 1
            live.game_id = committed.game_id
        if step.change is not None and step.change.state is not None:
            live.marks = step.marks
        if was_open and not live.status.is_open:
            self._by_channel.pop(live.channel_id, None)
            self._remember_closed(live)
        elif live.status.is_open and not was_open:
            self._by_channel[live.channel_id] = live.id
            self._closed.pop(live.id, None)
        live.snapshot = None
        return live.table()


# -- checks ------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return type(value) is int  # bool is not a number of anything here


def _check_id(value: object, what: str) -> None:
    if not _is_int(value) or not 0 <= value < 2**63:  # type: ignore[operator]
        raise errors.Malformed(f"that is not a valid {what} id")


def _check_version(live: _Live, version: object) -> None:
    if not _is_int(version):
        raise errors.Malformed("the table version is missing or not a number")
    if version != live.version:
        raise errors.StaleAction()


def _check_host(live: _Live, user_id: int) -> None:
    if user_id != live.host_id:
        if live.seat_of(user_id) is None and user_id not in live.spectators:
            raise errors.NotSeated()
        raise errors.HostOnly()


def _check_lobby(live: _Live) -> None:
    if live.status is TableStatus.LOBBY:
        return
    if live.status is TableStatus.PLAYING:
        raise errors.AlreadyStarted()
    raise errors.TableClosed()


def _check_member(live: _Live, user_id: int) -> int:
    """The user's seat; Spectator or NotSeated if they have none."""
    seat = live.seat_of(user_id)
    if seat is None:
        if user_id in live.spectators:
            raise errors.Spectator()
        raise errors.NotSeated()
    return seat


def _card_value(card: object) -> int:
    if _is_int(card):
        assert isinstance(card, int)
        if not 0 <= card < 52:
            raise errors.Malformed(f"{card} is not a card")
        return card
    if isinstance(card, str):
        try:
            return parse_card(card)
        except ValueError:
            raise errors.Malformed(f"{card[:10]!r} is not a card") from None
    raise errors.Malformed("that is not a card")


def _seat_rows(seats: Iterable[Seat]) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(n, s.user_id, s.bot_level) for n, s in enumerate(seats))


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {"user_id": seat.user_id, "bot_level": seat.bot_level}


def _validation_message(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        return f"{where}: {message}" if where else message
    return str(exc)
