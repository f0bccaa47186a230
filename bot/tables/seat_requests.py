"""Taking over a computer's seat between hands.

Someone not seated asks for a seat a computer holds (a computer player, or
one playing for a late person: ``away``); the host accepts or declines.
Accepted, the seat is theirs from the next hand. The game's stored seats stay
those of its start, so a game that had computer players is recorded so.

The pending request is not stored apart: it is read from the log, being the
last ``seat_ask`` when nothing but spectators coming and going followed it
(:func:`bot.tables.step.pending_after`), so it survives a restart as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot import refusals
from bot.game.types import Phase
from bot.tables.kinds import SEAT_ASK, SEAT_GIVEN, SEAT_REFUSED
from bot.tables.lobby import seat_rows
from bot.tables.model import Seat, SeatRequest, Table, TableStatus
from bot.tables.step import Write, check_not_ahead, check_version, is_int, pending_after
from db.store import Change, LogEntry


def pending_in(entries: Iterable[LogEntry]) -> SeatRequest | None:
    """The request waiting after a run of log entries (a resumed table's)."""
    pending = None
    for entry in entries:
        pending = pending_after(pending, entry)
    return pending


def ask(
    table: Table, user_id: int, seat: int, version: int, away: frozenset[int], at: float
) -> Write:
    """A request for ``seat``: by someone not seated, at a table open to
    watchers, between hands, for a seat a computer holds, none waiting yet.
    Any version: the request means the same whatever the table showed."""
    if table.seat_of(user_id) is not None:
        raise refusals.AlreadySeated()
    if not table.options.watchers:
        raise refusals.ClosedToWatchers()
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None or game.phase is not Phase.HAND_OVER:
        raise refusals.NotBetweenHands()
    if table.seat_request is not None:
        raise refusals.SeatRequestPending()
    if not is_int(seat) or not 0 <= seat <= 3:
        raise refusals.Malformed("a seat is a number from 0 to 3")
    _check_machine(table, seat, away)
    check_not_ahead(table, version)
    return Write(LogEntry(SEAT_ASK, user_id, {"seat": seat}, at))


def reply(
    table: Table, user_id: int, accept: bool, version: int, away: frozenset[int], at: float
) -> Write:
    """The host's answer to the waiting request. Accepted, the asker takes
    the seat (and stops watching)."""
    if user_id != table.host_id:
        raise refusals.HostOnly()
    request = table.seat_request
    if request is None:
        raise refusals.NoSeatRequest()
    if not isinstance(accept, bool):
        raise refusals.Malformed("accept must be true or false")
    check_version(table, version)
    payload: dict[str, Any] = {"seat": request.seat, "user_id": request.user_id}
    if not accept:
        return Write(LogEntry(SEAT_REFUSED, user_id, payload, at))
    _check_machine(table, request.seat, away)  # its owner may have come back
    seats = list(table.seats)
    before = seats[request.seat]
    seats[request.seat] = Seat(user_id=request.user_id)
    watching = request.user_id in table.spectators
    # The seat's holder until now: a computer's level or the late person.
    payload.update(bot_level=before.computer_level, owner=before.user_id)
    return Write(
        LogEntry(SEAT_GIVEN, user_id, payload, at),
        Change(
            seats=seat_rows(seats),
            remove_spectator=request.user_id if watching else None,
        ),
        seats=seats,
        spectators=[u for u in table.spectators if u != request.user_id] if watching else None,
    )


def _check_machine(table: Table, seat: int, away: frozenset[int]) -> None:
    if not table.seats[seat].is_computer and seat not in away:
        raise refusals.NotAComputer()
