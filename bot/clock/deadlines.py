"""Which deadlines a table needs: the turn clock's planning, without I/O.

Each open table has at most one deadline of each kind:

* ``turn``: a person is waited on to bid or play. Its stages are the
  reminders, then the limit (the claim announcement, or a stand-in taking
  over at a table with that option).
* ``computer``: a computer player (or a stand-in) is waited on; it acts after
  the configured delay. At the end of a hand where no person is present, a
  computer deals the next one.
* ``lobby``: a lobby untouched for the configured idle time is closed.
* ``archive``: a table that is over has its thread archived once its rematch
  window has passed (a rematch opens the table again and drops it). Stored
  with the commit that ended the table, so a restart in between keeps it.

Every deadline carries the identity of the situation it was armed for
(``data["turn"]``): the game, the seat and when the wait began. A pending
deadline armed for the very situation the table is in is kept as it is, with
its progress; any other is replaced.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass

from bot.clock.scheduler import Deadline
from bot.clock.settings import ClockSettings
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of
from bot.tables.model import Table, TableStatus
from db.clock_store import TableClockState

TURN = "turn"
COMPUTER = "computer"
LOBBY = "lobby"
ARCHIVE = "archive"
KINDS = (TURN, COMPUTER, LOBBY, ARCHIVE)

# The engine accepts a claim only once the wait is strictly longer than the
# limit; announcing it a moment later means the button works when it appears.
CLAIM_MARGIN_S = 1.0


@dataclass(frozen=True, slots=True)
class Wait:
    """What a table is waiting for, and since when (its identity)."""

    kind: str
    seat: int
    since: float
    ident: str
    #: The people a turn waits on: its seat, or in the Nil pass every person
    #: still choosing (they choose at once, within one limit).
    seats: tuple[int, ...] = ()


def claim_open_at(table: Table) -> float | None:
    """When the other team may claim the win against the waited-on seat (the
    engine's rule: the wait is longer than the turn limit), or None if nobody
    is waited on."""
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None or game.waited_on() is None:
        return None
    return game.waiting_since + game.rules.turn_limit_s


def wait_of(table: Table, state: TableClockState) -> Wait | None:
    """Who the table waits on, and whether a person or a computer acts."""
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None or game.over:
        return None
    away = state.away_seats
    prefix = f"g{table.game_number}:h{game.hand_number}"
    if game.phase is Phase.HAND_OVER:
        # People press "Next hand"; a table with nobody present deals itself.
        machines = [n for n, s in enumerate(table.seats) if s.is_computer or n in away]
        if len(machines) < 4:
            return None
        return Wait(COMPUTER, machines[0], game.waiting_since, f"computer:{prefix}:next")
    seat = game.waited_on()
    if seat is None:
        return None
    machine = table.seats[seat].is_computer or seat in away
    if game.phase is Phase.PASSING and not machine and not game.rest.waiting:
        return _pass_wait(table, state, prefix)
    if machine or forced_bid(game, seat) is not None:
        # A bid the rules leave no choice over (Mirror) is made for a person
        # at the computers' pace, without asking them.
        ident = f"computer:{prefix}:s{seat}:{game.waiting_since!r}"
        return Wait(COMPUTER, seat, game.waiting_since, ident)
    since = max(game.waiting_since, state.taken_back.get(seat, 0.0))
    return Wait(TURN, seat, since, f"turn:{prefix}:s{seat}:{since!r}", (seat,))


def _pass_wait(table: Table, state: TableClockState, prefix: str) -> Wait:
    """The Nil pass waits on every person still choosing, with one limit
    from its start: its identity names no seat, so a partner's choice keeps
    the deadline (and its progress) for the others."""
    game = table.game
    assert game is not None
    people = tuple(
        n
        for n in game.exchange.choosing()
        if not table.seats[n].is_computer and n not in state.away_seats
    )
    since = max([game.waiting_since, *(state.taken_back.get(n, 0.0) for n in people)])
    return Wait(TURN, people[0], since, f"turn:{prefix}:pass:{since!r}", people)


def forced_bid(game: Game, seat: int) -> int | None:
    """The one bid ``seat`` may make, when it is their bid and there is one."""
    if game.phase is not Phase.BIDDING:
        return None
    return view_of(game, seat).forced_bid


def turn_stages(table: Table, settings: ClockSettings, since: float) -> list[float]:
    """Due times of the turn's later notices and, last, of the limit."""
    limit = table.rules.turn_limit_s
    offsets = notice_offsets(settings, limit)
    return [since + o for o in offsets] + [since + limit + CLAIM_MARGIN_S]


def notice_offsets(settings: ClockSettings, limit_s: float) -> list[float]:
    """When the later notices fall, in seconds after the turn began, soonest first."""
    points = {
        *settings.notice_after_s,
        *(f * limit_s for f in settings.notice_at_fractions),
        *(limit_s - b for b in settings.notice_before_s),
    }
    kept: list[float] = []
    gap = settings.min_notice_gap_s
    for point in sorted(p for p in points if 0 < p < limit_s):
        if limit_s - point >= gap and (not kept or point - kept[-1] >= gap):
            kept.append(point)
    return kept


def turn_deadline(table: Table, wait: Wait, stages: list[float], stage: int) -> Deadline:
    """The turn deadline for one stage of the wait."""
    data = {"turn": wait.ident, "seat": wait.seat, "stage": stage}
    return Deadline(table.id, TURN, stages[stage], data)


def lobby_ident(table: Table) -> str:
    """The identity of a lobby's idle wait: it starts again with every change."""
    return f"lobby:{table.updated_at!r}"


def planned_deadlines(
    table: Table,
    state: TableClockState,
    settings: ClockSettings,
    now: float,
    pending: Mapping[str, Deadline],
    busy: Container[str] = (),
    archive_after_s: float | None = None,
) -> tuple[Deadline, ...]:
    """The table's complete set of deadlines, given its pending ones by kind
    and the situations whose move is being computed right now (``busy``: not
    armed a second time); ``archive_after_s``: how long the thread of a table
    that is over stays open (None: not archived). The same arguments always
    give the same deadlines."""
    if not table.is_open:
        return _archive_deadline(table, archive_after_s, pending)
    planned: list[Deadline] = []
    for kind, (ident, wanted) in _situations(table, state, settings, now).items():
        kept = pending.get(kind)
        if kept is not None and ident is not None and kept.data.get("turn") == ident:
            planned.append(kept)  # armed for this very situation: keep its progress
        elif wanted is not None and ident not in busy:
            planned.append(wanted)
    return tuple(planned)


def _archive_deadline(
    table: Table, after_s: float | None, pending: Mapping[str, Deadline]
) -> tuple[Deadline, ...]:
    """The archiving of the thread of a table that is over, due ``after_s``
    after the change that ended it (a finished table changes no more until
    a rematch opens it)."""
    if table.thread_id is None or after_s is None:
        return ()
    ident = f"archive:g{table.game_number}"
    kept = pending.get(ARCHIVE)
    if kept is not None and kept.data.get("turn") == ident:
        return (kept,)
    return (Deadline(table.id, ARCHIVE, table.updated_at + after_s, {"turn": ident}),)


def _situations(
    table: Table, state: TableClockState, settings: ClockSettings, now: float
) -> dict[str, tuple[str | None, Deadline | None]]:
    """Per kind: the situation the table is in (None: nothing to wait for)
    and the deadline it calls for if none is pending for that situation."""
    plan: dict[str, tuple[str | None, Deadline | None]] = dict.fromkeys(KINDS, (None, None))
    if table.status is TableStatus.LOBBY:
        if settings.lobby_idle_s is not None:
            ident = lobby_ident(table)
            due = table.updated_at + settings.lobby_idle_s
            plan[LOBBY] = (ident, Deadline(table.id, LOBBY, due, {"turn": ident}))
        return plan
    wait = wait_of(table, state)
    if wait is None:
        return plan
    if wait.kind == COMPUTER:
        due = wait.since + settings.computer_delay_s
        data = {"turn": wait.ident, "seat": wait.seat}
        plan[COMPUTER] = (wait.ident, Deadline(table.id, COMPUTER, due, data))
    else:
        plan[TURN] = (wait.ident, _first_turn_deadline(table, wait, state, settings, now))
    return plan


def _first_turn_deadline(
    table: Table, wait: Wait, state: TableClockState, settings: ClockSettings, now: float
) -> Deadline | None:
    stages = turn_stages(table, settings, wait.since)
    upcoming = [i for i, due in enumerate(stages) if due > now]
    if upcoming:
        stage = upcoming[0]
    elif state.stand_in:
        stage = len(stages) - 1  # the stand-in must still take over
    else:
        return None  # the limit passed and was announced already
    return turn_deadline(table, wait, stages, stage)
