"""The turn clock: what the scheduler does to tables while nobody watches.

After every committed change (``service.subscribe``) and at start, each open
table gets the deadlines its state calls for, at most one of each kind:

* ``turn``: a person is waited on to bid or play. Reminders at the configured
  points of the turn limit, then, when the limit has passed, the other team
  is told it can claim the win (the claim itself is the service's
  ``claim_timeout``, which the engine validates). At a table with the
  stand-in option a computer player takes the late seat's turns instead,
  until its owner takes the seat back by opening their hand.
* ``computer``: a computer player (or a stand-in) is waited on: it acts
  through the service after the configured delay. At the end of a hand where
  no person is present, a computer deals the next one.
* ``lobby``: a lobby nobody touched for the configured idle time is closed.

Every deadline carries the identity of the situation it was armed for
(``data["turn"]``): the game, the seat and when the wait began. A deadline
whose situation has moved on does nothing, which makes a deadline that fires
again after a crash harmless. Notifications are recorded before they are
sent, so a crash loses a reminder rather than repeating it; computer moves
are committed by the service, so they happen once.

Discord stays outside: notifications go through :class:`TurnNotifier`, which
the Discord layer implements.
"""

from __future__ import annotations

import asyncio
import logging
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.ai.base import RandomPlayer, make_player
from bot.game.errors import IllegalAction
from bot.game.state import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.scheduler import Scheduler
from bot.tables import errors
from bot.tables.model import Table, TableStatus
from bot.tables.service import REMATCH, START, TableService
from db.clock_store import ClockStore, TableClockState
from db.deadlines import Deadline

log = logging.getLogger(__name__)

TURN = "turn"
COMPUTER = "computer"
LOBBY = "lobby"
KINDS = (TURN, COMPUTER, LOBBY)

# The engine accepts a claim only once the wait is strictly longer than the
# limit; announcing it a moment later means the button works when it appears.
CLAIM_MARGIN_S = 1.0


class ClockSettings(BaseModel):
    """The ``[clock]`` settings section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Pause before a computer player acts, so people can follow the game.
    computer_delay_s: float = Field(2.0, ge=0, le=600)
    #: Reminders to the waited-on player, as seconds after the turn began
    #: (a turn mention), fractions of the turn limit, and seconds before it.
    remind_after_s: tuple[float, ...] = ()
    remind_at_fractions: tuple[float, ...] = (0.5,)
    remind_before_s: tuple[float, ...] = (3600.0,)
    #: Reminders closer than this to each other or to the limit are dropped.
    min_reminder_gap_s: float = Field(60.0, ge=0)
    #: A lobby untouched this long is closed; None keeps lobbies open.
    lobby_idle_s: float | None = Field(24 * 3600.0, gt=0)
    #: Whether new tables have a computer take late players' turns.
    stand_in_default: bool = False
    #: The level of the computer player standing in for a late person.
    stand_in_level: str = "heuristic"

    @field_validator("remind_at_fractions")
    @classmethod
    def _fractions(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0 < v < 1 for v in values):
            raise ValueError("reminder fractions lie strictly between 0 and 1")
        return values

    @field_validator("remind_after_s", "remind_before_s")
    @classmethod
    def _positive(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(v <= 0 for v in values):
            raise ValueError("reminder times are positive numbers of seconds")
        return values

    def reminder_offsets(self, limit_s: float) -> list[float]:
        """When reminders fall, in seconds after the turn began, soonest first."""
        points = {
            *self.remind_after_s,
            *(f * limit_s for f in self.remind_at_fractions),
            *(limit_s - b for b in self.remind_before_s),
        }
        kept: list[float] = []
        gap = self.min_reminder_gap_s
        for point in sorted(p for p in points if 0 < p < limit_s):
            if limit_s - point >= gap and (not kept or point - kept[-1] >= gap):
                kept.append(point)
        return kept


class TurnNotifier(Protocol):
    """What the turn clock tells the players; the Discord layer implements it."""

    async def remind(self, table: Table, seat: int, left_s: float) -> None:
        """The seat is still awaited; ``left_s`` remain before the limit."""

    async def claim_open(self, table: Table) -> None:
        """The waited-on seat is past the limit: the other team may claim."""

    async def stood_in(self, table: Table, seat: int) -> None:
        """A computer player now plays the late seat, until its owner returns."""

    async def lobby_closed(self, table: Table) -> None:
        """The lobby was idle too long and has been closed."""


class LogNotifier:
    """A notifier that only logs: for running without Discord."""

    async def remind(self, table: Table, seat: int, left_s: float) -> None:
        log.info("table %d: seat %d reminded, %.0f s left", table.id, seat, left_s)

    async def claim_open(self, table: Table) -> None:
        log.info("table %d: the win can be claimed", table.id)

    async def stood_in(self, table: Table, seat: int) -> None:
        log.info("table %d: a computer stands in for seat %d", table.id, seat)

    async def lobby_closed(self, table: Table) -> None:
        log.info("table %d: idle lobby closed", table.id)


def claim_open_at(table: Table) -> float | None:
    """When the other team may claim the win against the waited-on seat (the
    engine's rule: the wait is longer than the turn limit), or None if nobody
    is waited on."""
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None or game.waited_on() is None:
        return None
    return game.waiting_since + game.rules.turn_limit_s


@dataclass(frozen=True, slots=True)
class _Wait:
    """What a table is waiting for, and since when (its identity)."""

    kind: str
    seat: int
    since: float
    ident: str


class TurnClock:
    """Create it, then ``await start()`` once the service has resumed its tables
    (handlers are registered and the scheduler started here)."""

    def __init__(
        self,
        service: TableService,
        scheduler: Scheduler,
        notifier: TurnNotifier,
        settings: ClockSettings | None = None,
        clock_store: ClockStore | None = None,
    ) -> None:
        self.service = service
        self.scheduler = scheduler
        self.notifier = notifier
        self.settings = settings or ClockSettings()
        self.clock_store = clock_store or ClockStore(service.store)
        self.now: Callable[[], float] = scheduler.clock.now
        self._states: dict[int, TableClockState] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._computing: set[tuple[int, str]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    # -- lifecycle --------------------------------------------------------------

    async def start(self) -> None:
        self._states = await self.clock_store.load_all()
        self.scheduler.on(TURN, self._on_turn)
        self.scheduler.on(COMPUTER, self._on_computer)
        self.scheduler.on(LOBBY, self._on_lobby)
        self._unsubscribe = self.service.subscribe(self._on_change)
        await self.scheduler.start()
        # Tables whose deadlines are missing (a crash between a commit and its
        # deadline) get them now; the stored ones were loaded as they are.
        for table in await self.service.unfinished():
            await self._replan(table.id)

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await self.scheduler.stop()

    # -- what the Discord layer calls ------------------------------------------

    def stand_in(self, table_id: int) -> bool:
        """Whether a computer takes late players' turns at this table."""
        state = self._states.get(table_id)
        return state.stand_in if state is not None else self.settings.stand_in_default

    async def set_stand_in(self, table_id: int, on: bool) -> None:
        """Turn the stand-in option of a table on or off (e.g. at ``/spades new``)."""
        state = self._state(table_id)
        await self._save(table_id, replace(state, stand_in=on))
        await self._replan(table_id)

    def away_seats(self, table_id: int) -> frozenset[int]:
        """Seats a computer currently plays for their late owner."""
        return self._state(table_id).away_seats

    async def take_back(self, table_id: int, user_id: int) -> bool:
        """The owner of a seat a computer plays for opened their hand: the seat
        is theirs again, and their turn clock starts afresh. True if it was away."""
        table = await self.service.get(table_id)
        seat = table.seat_of(user_id)
        state = self._state(table_id)
        if seat is None or seat not in state.away_seats:
            return False
        await self._save(
            table_id,
            replace(
                state,
                away_seats=state.away_seats - {seat},
                taken_back={**state.taken_back, seat: self.now()},
            ),
        )
        await self._replan(table_id)
        return True

    def claim_open(self, table: Table) -> bool:
        """Whether "Claim the win" is offered at this table now: the waited-on
        seat is past the limit and no computer stands in for it."""
        at = claim_open_at(table)
        return at is not None and self.now() > at and not self.stand_in(table.id)

    # -- planning ---------------------------------------------------------------

    async def _on_change(self, table: Table, event: str) -> None:
        if event in (START, REMATCH):
            await self._seats_back_to_owners(table.id)
        await self._replan(table.id)

    async def _replan(self, table_id: int) -> None:
        """Arm, keep or cancel the table's deadlines to match its latest state.
        One table at a time: two replans must not interleave their writes."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            try:
                table = await self.service.get(table_id)
            except errors.UnknownTable:
                table = None
            if table is None or not table.is_open:
                await self.scheduler.cancel_table(table_id)
                self._locks.pop(table_id, None)
                return
            for kind, (ident, wanted) in self._plan(table).items():
                pending = self.scheduler.pending(table_id, kind)
                if pending is not None and ident is not None and pending.data.get("turn") == ident:
                    continue  # armed for this very situation already: keep its progress
                if pending is not None:
                    await self.scheduler.cancel(table_id, kind)
                # A move being computed right now is not armed a second time.
                if wanted is not None and (table_id, ident) not in self._computing:
                    await self.scheduler.arm(wanted)

    def _plan(self, table: Table) -> dict[str, tuple[str | None, Deadline | None]]:
        """Per kind: the situation the table is in (None: nothing to wait for)
        and the deadline to arm if none is pending for that situation."""
        plan: dict[str, tuple[str | None, Deadline | None]] = dict.fromkeys(KINDS, (None, None))
        if table.status is TableStatus.LOBBY:
            if self.settings.lobby_idle_s is not None:
                since = table.updated_at
                ident = f"lobby:{since!r}"
                due = since + self.settings.lobby_idle_s
                plan[LOBBY] = (ident, Deadline(table.id, LOBBY, due, {"turn": ident}))
            return plan
        wait = self._wait(table)
        if wait is None:
            return plan
        if wait.kind == COMPUTER:
            due = wait.since + self.settings.computer_delay_s
            data = {"turn": wait.ident, "seat": wait.seat}
            plan[COMPUTER] = (wait.ident, Deadline(table.id, COMPUTER, due, data))
        else:
            plan[TURN] = (wait.ident, self._turn_deadline(table, wait))
        return plan

    def _wait(self, table: Table) -> _Wait | None:
        """Who the table waits on, and whether a person or a computer acts."""
        game = table.game
        if table.status is not TableStatus.PLAYING or game is None or game.over:
            return None
        away = self._state(table.id).away_seats
        prefix = f"g{table.game_number}:h{game.hand_number}"
        if game.phase is Phase.HAND_OVER:
            # People press "Next hand"; a table with nobody present deals itself.
            machines = [n for n, s in enumerate(table.seats) if s.is_bot or n in away]
            if len(machines) < 4:
                return None
            return _Wait(COMPUTER, machines[0], game.waiting_since, f"computer:{prefix}:next")
        seat = game.waited_on()
        if seat is None:
            return None
        if table.seats[seat].is_bot or seat in away:
            ident = f"computer:{prefix}:s{seat}:{game.waiting_since!r}"
            return _Wait(COMPUTER, seat, game.waiting_since, ident)
        since = max(game.waiting_since, self._state(table.id).taken_back.get(seat, 0.0))
        return _Wait(TURN, seat, since, f"turn:{prefix}:s{seat}:{since!r}")

    def _stages(self, table: Table, since: float) -> list[float]:
        """Due times of the turn's reminders and, last, of the limit."""
        limit = table.rules.turn_limit_s
        offsets = self.settings.reminder_offsets(limit)
        return [since + o for o in offsets] + [since + limit + CLAIM_MARGIN_S]

    def _turn_deadline(self, table: Table, wait: _Wait) -> Deadline | None:
        now = self.now()
        stages = self._stages(table, wait.since)
        upcoming = [i for i, due in enumerate(stages) if due > now]
        if upcoming:
            stage = upcoming[0]
        elif self.stand_in(table.id):
            stage = len(stages) - 1  # the stand-in must still take over
        else:
            return None  # the limit passed and was announced already
        return Deadline(
            table.id, TURN, stages[stage], {"turn": wait.ident, "seat": wait.seat, "stage": stage}
        )

    # -- handlers ---------------------------------------------------------------

    async def _on_turn(self, deadline: Deadline) -> None:
        table = await self._current(deadline.table_id)
        wait = self._wait(table) if table is not None else None
        if table is None or wait is None or wait.ident != deadline.data.get("turn"):
            await self._replan(deadline.table_id)  # stale: make sure the right one is armed
            return
        now = self.now()
        stages = self._stages(table, wait.since)
        passed = [i for i, due in enumerate(stages) if due <= now]
        if not passed:
            await self._replan(table.id)
            return
        reached = passed[-1]
        if reached < len(stages) - 1:
            # Record the progress (the next stage replaces this row), then remind
            # once, for the latest point passed (several when the bot was down).
            next_stage = Deadline(
                table.id,
                TURN,
                stages[reached + 1],
                {"turn": wait.ident, "seat": wait.seat, "stage": reached + 1},
            )
            await self.scheduler.arm(next_stage)
            left = stages[-1] - CLAIM_MARGIN_S - now
            await self.notifier.remind(table, wait.seat, left)
            return
        await self.scheduler.consume(deadline)
        if self.stand_in(table.id):
            state = self._state(table.id)
            await self._save(table.id, replace(state, away_seats=state.away_seats | {wait.seat}))
            await self.notifier.stood_in(table, wait.seat)
            await self._replan(table.id)
        else:
            await self.notifier.claim_open(table)

    async def _on_computer(self, deadline: Deadline) -> None:
        ident = str(deadline.data.get("turn"))
        key = (deadline.table_id, ident)
        self._computing.add(key)
        try:
            for _ in range(8):
                table = await self._current(deadline.table_id)
                wait = self._wait(table) if table is not None else None
                if table is None or wait is None or wait.ident != ident:
                    break
                try:
                    action = await self._decide(table, wait)
                    await self._act(table, wait.seat, action)
                except errors.StaleAction:
                    continue  # the table moved under us: look again
                if action.kind is not ActionKind.LOOK:
                    break
                # Having looked at its cards, the same seat now bids.
        finally:
            self._computing.discard(key)
        await self._replan(deadline.table_id)

    async def _on_lobby(self, deadline: Deadline) -> None:
        table = await self._current(deadline.table_id)
        if table is None or table.status is not TableStatus.LOBBY:
            return
        idle = self.settings.lobby_idle_s
        if idle is None or f"lobby:{table.updated_at!r}" != deadline.data.get("turn"):
            await self._replan(table.id)
            return
        try:
            closed = await self.service.cancel(table.id, table.host_id, table.version)
        except errors.StaleAction:
            await self._replan(table.id)  # someone just acted: the lobby is alive
            return
        await self.notifier.lobby_closed(closed)

    # -- computer players -------------------------------------------------------

    async def _decide(self, table: Table, wait: _Wait) -> Action:
        game = table.game
        assert game is not None
        if game.phase is Phase.HAND_OVER:
            return Action(ActionKind.NEXT_HAND, wait.seat)
        seat = table.seats[wait.seat]
        level = seat.bot_level or self.settings.stand_in_level
        seed = zlib.crc32(f"{table.id}:{table.version}:{wait.seat}".encode())
        view = view_of(game, wait.seat)
        player = make_player(level, seed)
        # Stronger levels search for a while: keep the event loop free.
        return await asyncio.to_thread(player.decide, view)

    async def _act(self, table: Table, seat: int, action: Action) -> Table:
        """Act for a computer seat, or for a late person's seat (as them)."""
        try:
            return await self._submit(table, seat, action)
        except IllegalAction as refused:
            if action.kind is ActionKind.NEXT_HAND:
                raise
            log.warning(
                "table %d: the computer's %s for seat %d was refused (%s); playing at random",
                table.id,
                action.kind.value,
                seat,
                refused.message,
            )
            assert table.game is not None
            fallback = RandomPlayer(random.getrandbits(32)).decide(view_of(table.game, seat))
            return await self._submit(table, seat, fallback)

    async def _submit(self, table: Table, seat: int, action: Action) -> Table:
        occupant = table.seats[seat]
        if occupant.is_bot:
            return await self.service.bot_act(table.id, seat, table.version, action)
        user = occupant.user_id
        assert user is not None
        service = self.service
        if action.kind is ActionKind.BID:
            return await service.bid(table.id, user, action.value, table.version)
        if action.kind is ActionKind.PLAY:
            return await service.play(table.id, user, action.value, table.version)
        if action.kind is ActionKind.LOOK:
            return await service.look(table.id, user, table.version)
        if action.kind is ActionKind.NEXT_HAND:
            return await service.next_hand(table.id, user, table.version)
        raise ValueError(f"a stand-in does not {action.kind.value}")

    # -- state ------------------------------------------------------------------

    async def _current(self, table_id: int) -> Table | None:
        try:
            table = await self.service.get(table_id)
        except errors.UnknownTable:
            return None
        return table if table.is_open else None

    def _state(self, table_id: int) -> TableClockState:
        state = self._states.get(table_id)
        if state is None:
            return TableClockState(stand_in=self.settings.stand_in_default)
        return state

    async def _save(self, table_id: int, state: TableClockState) -> None:
        await self.clock_store.save(table_id, state)
        self._states[table_id] = state

    async def _seats_back_to_owners(self, table_id: int) -> None:
        """A new game (start or rematch) gives every seat back to its owner."""
        state = self._states.get(table_id)
        if state is not None and (state.away_seats or state.taken_back):
            await self._save(table_id, replace(state, away_seats=frozenset(), taken_back={}))
