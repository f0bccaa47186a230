"""The turn clock: what the scheduler does to tables while nobody watches.

Each open table (and each one just over, for its thread) has the deadlines
:mod:`bot.clock.deadlines` calls for: an
action's are part of its step and written in its own commit (the clock plans
them from the table as the action leaves it, ``TableService.plan_with``), a new
table's and those the handlers change are written by the clock, and at start
every table missing its deadlines gets them. The handlers here act when
they fall due: reminders and the claim announcement for a late
person, a stand-in taking a late seat's turns at a table with that option
(until its owner takes the seat back by opening their hand), computer moves,
closing idle lobbies, and archiving the thread of a table that is over.

A deadline whose situation has moved on does nothing, which makes a deadline
that fires again after a crash harmless. Notifications are recorded before
they are sent, so a crash loses a reminder rather than repeating it; computer
moves are committed by the service, so they happen once.

Discord stays outside: notifications go through
:class:`bot.clock.notifier.TurnNotifier`, which the Discord layer implements.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from bot import refusals
from bot.clock import computer
from bot.clock.deadlines import (
    ARCHIVE,
    CLAIM_MARGIN_S,
    COMPUTER,
    KINDS,
    LOBBY,
    TURN,
    claim_open_at,
    lobby_ident,
    planned_deadlines,
    turn_deadline,
    turn_stages,
    wait_of,
)
from bot.clock.notifier import TurnNotifier
from bot.clock.scheduler import Deadline, Scheduler
from bot.clock.settings import ClockSettings
from bot.clock.view import ClockView
from bot.game.types import ActionKind
from bot.tables.kinds import CREATE, REMATCH, START
from bot.tables.model import OpenTable, Table, TableStatus
from bot.tables.service import TableService
from db.clock_store import ClockStore, TableClockState

# Stands for the game of away seats stored at a table whose game is over.
GAME_OVER = -1
#: How many times an archiving waits a second for the end of the game's post.
ARCHIVE_WAITS = 30


class TurnClock:
    """Create it, then ``await start()`` once the service has resumed its
    tables (handlers are registered, each action's commit carries its
    deadlines from then on, and the scheduler starts)."""

    def __init__(
        self,
        service: TableService,
        scheduler: Scheduler,
        notifier: TurnNotifier,
        settings: ClockSettings | None = None,
        clock_store: ClockStore | None = None,
        *,
        archive_after_s: float | None = None,
    ) -> None:
        self.service = service
        self.scheduler = scheduler
        self.notifier = notifier
        self.settings = settings or ClockSettings()
        #: How long the thread of a table that is over stays open for a
        #: rematch (None: it is not archived).
        self.archive_after_s = archive_after_s
        self.clock_store = clock_store or ClockStore(service.store)
        self.now: Callable[[], float] = scheduler.clock.now
        self._states: dict[int, TableClockState] = {}
        # The game in which a table's away seats and taken-back times were
        # recorded. A new game gives every seat back to its owner, so a
        # table's next game is planned without them even before they are cleared.
        self._seats_game: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._computing: set[tuple[int, str]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    # -- lifecycle --------------------------------------------------------------

    async def start(self) -> None:
        self._states = await self.clock_store.load_all()
        self.scheduler.on(TURN, self._on_turn)
        self.scheduler.on(COMPUTER, self._on_computer)
        self.scheduler.on(LOBBY, self._on_lobby)
        self.scheduler.on(ARCHIVE, self._on_archive)
        # One write per action: each action's commit carries the deadlines it
        # arms; the clock itself writes only for what no action carries (a new
        # table, its own handlers).
        self.service.plan_with(self)
        self._unsubscribe = self.service.subscribe(self._on_change)
        await self.scheduler.start()
        open_tables = self.service.open_tables()
        self._note_games_of_stored_seats(open_tables)
        # Tables with no deadline stored (a crash between a table's creation
        # and its first deadline, or one that needs none) are planned now,
        # brought into memory for it; the others come when first asked for.
        unplanned = [t.id for t in open_tables if not self.scheduler.armed(t.id)]
        await self.service.bring_in(unplanned)
        for table_id in unplanned:
            await self._replan(table_id)

    async def stop(self, grace_s: float = 5.0) -> None:
        self.service.plan_with(None)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await self.scheduler.stop(grace_s)

    # -- what the Discord layer and the table service ask ------------------------

    def stand_in(self, table_id: int) -> bool:
        """Whether a computer takes late players' turns at this table."""
        state = self._states.get(table_id)
        return state.stand_in if state is not None else self.settings.stand_in_default

    async def set_stand_in(self, table_id: int, on: bool) -> None:
        """Turn the stand-in option of a table on or off (e.g. at ``/spades new``)."""
        state = self._state(table_id)
        await self._save(table_id, replace(state, stand_in=on))
        await self._replan(table_id)

    async def take_back(self, table: Table, user_id: int) -> bool:
        """The owner of a seat a computer plays for opened their hand: the seat
        is theirs again, and their turn clock starts afresh. True if it was away.
        ``table`` is the table as the caller last read it: its seats and game
        number are what count here."""
        seat = table.seat_of(user_id)
        state = self._seats_state(table)
        if seat is None or seat not in state.away_seats:
            return False
        taken_back = {**state.taken_back, seat: self.now()}
        await self._save_seats(
            table, replace(state, away_seats=state.away_seats - {seat}, taken_back=taken_back)
        )
        await self._replan(table.id)
        return True

    def claim_open(self, table: Table) -> bool:
        """Whether "Claim the win" is offered at this table now: the waited-on
        seat is past the limit and no computer stands in for it."""
        at = claim_open_at(table)
        return at is not None and self.now() > at and self.claim_allowed(table)

    def claim_allowed(self, table: Table) -> bool:
        """Whether the win may be claimed at this table at all: not where a
        computer stands in for late players (the engine judges the timing)."""
        return not self.stand_in(table.id)

    def view(self, table: Table) -> ClockView:
        """What the table message and the hands show of the clock at this table
        now. No I/O: it reads the clock's memory and the time."""
        return ClockView(
            claim_open=self.claim_open(table),
            stand_in=self.stand_in(table.id),
            away_seats=self._seats_state(table).away_seats if table.is_open else frozenset(),
        )

    def deadlines_for(self, table: Table, now: float | None = None) -> tuple[Deadline, ...]:
        """The complete set of deadlines ``table`` (the table as it is, or as an
        action's step leaves it) should have at ``now`` (default: the clock's
        time): from the clock's memory of it, the settings and its pending
        deadlines; one pending for the very situation the table is in is kept
        as it is. No I/O: the caller stores them, then hands them to
        :meth:`adopt`."""
        pending = {
            kind: deadline
            for kind in KINDS
            if (deadline := self.scheduler.pending(table.id, kind)) is not None
        }
        busy = {ident for table_id, ident in self._computing if table_id == table.id}
        state = self._seats_state(table)
        at = self.now() if now is None else now
        return planned_deadlines(
            table, state, self.settings, at, pending, busy, self.archive_after_s
        )

    def adopt(self, owner: int, deadlines: tuple[Deadline, ...]) -> None:
        """An action's commit has just written ``deadlines`` as the table's
        (under its lock, so in the order of the commits): track them."""
        self.scheduler.adopt(owner, deadlines)

    # -- planning ---------------------------------------------------------------

    async def _on_change(self, table: Table, event: str) -> None:
        if event in (START, REMATCH):
            await self._seats_back_to_owners(table.id)
        if event == CREATE:
            await self._replan(table.id)

    async def _replan(self, table_id: int) -> None:
        """Arm, keep or cancel the table's deadlines to match its latest state.
        One table at a time: two replans must not interleave their writes."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = await self._any(table_id)
            if table is None:
                await self.scheduler.cancel_all(table_id)
            else:  # (a table that is over keeps only its thread's archiving)
                await self.scheduler.set_all(table_id, self.deadlines_for(table))
            if table is None or not table.is_open:
                self._locks.pop(table_id, None)

    # -- handlers ---------------------------------------------------------------

    async def _on_turn(self, deadline: Deadline) -> None:
        table = await self._current(deadline.owner)
        wait = wait_of(table, self._seats_state(table)) if table is not None else None
        if table is None or wait is None or wait.ident != deadline.data.get("turn"):
            await self._replan(deadline.owner)  # stale: make sure the right one is armed
            return
        now = self.now()
        stages = turn_stages(table, self.settings, wait.since)
        passed = [i for i, due in enumerate(stages) if due <= now]
        if not passed:
            await self._replan(table.id)
            return
        reached = passed[-1]
        if reached < len(stages) - 1:
            # Record the progress (the next stage replaces this row), then remind
            # once, for the latest point passed (several when the bot was down).
            await self.scheduler.arm(turn_deadline(table, wait, stages, reached + 1))
            left = stages[-1] - CLAIM_MARGIN_S - now
            await self.notifier.remind(table, wait.seats, left)
            return
        await self.scheduler.consume(deadline)
        if self.stand_in(table.id):
            state = self._seats_state(table)
            away = state.away_seats | set(wait.seats)
            await self._save_seats(table, replace(state, away_seats=away))
            await self.notifier.stood_in(table, wait.seats)
            await self._replan(table.id)
        else:
            await self.notifier.claim_open(table)

    async def _on_computer(self, deadline: Deadline) -> None:
        ident = str(deadline.data.get("turn"))
        key = (deadline.owner, ident)
        self._computing.add(key)
        try:
            for _ in range(8):
                table = await self._current(deadline.owner)
                wait = wait_of(table, self._seats_state(table)) if table is not None else None
                if table is None or wait is None or wait.ident != ident:
                    break
                try:
                    action = await computer.decide(
                        table,
                        wait.seat,
                        self.settings.stand_in_level,
                        self.settings.expert_time_budget_s,
                    )
                    await computer.act(self.service, table, wait.seat, action)
                except refusals.StaleAction:
                    continue  # the table moved under us: look again
                if action.kind is not ActionKind.LOOK:
                    break
                # Having looked at its cards, the same seat now bids.
        finally:
            self._computing.discard(key)
        await self._replan(deadline.owner)

    async def _on_lobby(self, deadline: Deadline) -> None:
        table = await self._current(deadline.owner)
        if table is None or table.status is not TableStatus.LOBBY:
            return
        idle = self.settings.lobby_idle_s
        if idle is None or lobby_ident(table) != deadline.data.get("turn"):
            await self._replan(table.id)
            return
        try:
            closed = await self.service.cancel(table.id, table.host_id, table.version)
        except refusals.StaleAction:
            await self._replan(table.id)  # someone just acted: the lobby is alive
            return
        await self.notifier.lobby_closed(closed)

    async def _on_archive(self, deadline: Deadline) -> None:
        table = await self._any(deadline.owner)
        if table is None or table.is_open or table.thread_id is None:
            return  # a rematch keeps the thread; a lost one is not archived
        waits = int(deadline.data.get("waits", 0))
        if await self.notifier.archive_thread(table, wait=waits < ARCHIVE_WAITS):
            return
        data = {**deadline.data, "waits": waits + 1}
        await self.scheduler.arm(replace(deadline, due_at=self.now() + 1.0, data=data))

    # -- state ------------------------------------------------------------------

    async def _current(self, table_id: int) -> Table | None:
        """The table if it is open."""
        table = await self._any(table_id)
        return table if table is not None and table.is_open else None

    async def _any(self, table_id: int) -> Table | None:
        try:
            return await self.service.get(table_id)
        except refusals.UnknownTable:
            return None

    def _state(self, table_id: int) -> TableClockState:
        state = self._states.get(table_id)
        if state is None:
            return TableClockState(stand_in=self.settings.stand_in_default)
        return state

    def _seats_state(self, table: Table) -> TableClockState:
        """The clock's state for this table's current game: away seats and
        taken-back times recorded in an earlier game no longer count."""
        state = self._state(table.id)
        recorded_in = self._seats_game.get(table.id, table.game_number)
        if recorded_in != table.game_number and (state.away_seats or state.taken_back):
            return replace(state, away_seats=frozenset(), taken_back={})
        return state

    def _note_games_of_stored_seats(self, open_tables: list[OpenTable]) -> None:
        """Stored away seats belong to the game still on at their table, or to
        one that is over (any later game does not have them)."""
        self._seats_game = {
            table_id: GAME_OVER
            for table_id, state in self._states.items()
            if state.away_seats or state.taken_back
        }
        for table in open_tables:
            if table.id in self._seats_game:
                self._seats_game[table.id] = table.game_number

    async def _save(self, table_id: int, state: TableClockState) -> None:
        await self.clock_store.save(table_id, state)
        self._states[table_id] = state

    async def _save_seats(self, table: Table, state: TableClockState) -> None:
        """Save a change of the away seats, made in the table's current game."""
        await self._save(table.id, state)
        self._seats_game[table.id] = table.game_number

    async def _seats_back_to_owners(self, table_id: int) -> None:
        """A new game (start or rematch) gives every seat back to its owner."""
        state = self._states.get(table_id)
        if state is not None and (state.away_seats or state.taken_back):
            await self._save(table_id, replace(state, away_seats=frozenset(), taken_back={}))
        self._seats_game.pop(table_id, None)
