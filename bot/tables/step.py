"""One action's step: from a table and a validated :class:`Write` to the
table it leaves.

An action is validated into a :class:`Write` under the table's lock, from
the :class:`~bot.tables.model.Table` the service holds (a frozen value);
:func:`step` gives the next value, which the store's transaction writes
and the service then keeps. Nothing changes in place: a refused action or a
failed commit leaves the table the service holds as it was.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.game.state import Game
from bot.tables.kinds import CANCEL, SEAT_ASK, UNSEEN_KINDS
from bot.tables.model import Seat, SeatRequest, Table, TableOptions, TableStatus
from db.store import Change, LogEntry


def pending_after(pending: SeatRequest | None, entry: LogEntry) -> SeatRequest | None:
    """The request for a seat waiting once ``entry`` is logged (see
    :mod:`bot.tables.seat_requests`): a new request, or the one before while
    only spectators come and go; anything else (the host's answer, the next
    deal, the end of the game) settles it."""
    if entry.kind == SEAT_ASK and entry.actor is not None:
        return SeatRequest(entry.actor, int(entry.payload["seat"]))
    return pending if entry.kind in UNSEEN_KINDS else None


def closing_note(entry: LogEntry) -> str | None:
    """A moderator's reason for closing a table in its lobby, read from the
    closing log entry (the host's own close gives none)."""
    note = entry.payload.get("note") if entry.kind == CANCEL else None
    return note if isinstance(note, str) else None


@dataclasses.dataclass(slots=True)
class Write:
    """A validated action: its log entry, what the store changes beside the
    log, and what changes in the table (None: that part stays)."""

    entry: LogEntry
    change: Change | None = None
    status: TableStatus | None = None
    seats: list[Seat] | None = None
    spectators: list[int] | None = None
    game: Game | None = None  # a new engine state, never the table's own
    new_game: bool = False  # a start or rematch: the game number moves on
    options: TableOptions | None = None  # the lobby's house rules changed


def step(table: Table, write: Write) -> Table:
    """The table ``write`` leaves: one version on. A new game's stored id is
    not known before the write: it is None until the store tells it."""
    version = table.version + 1
    changed: dict[str, Any] = {}
    if write.options is not None:
        changed["options"] = write.options
    if write.status is not None:
        changed["status"] = write.status
    if write.seats is not None:
        changed["seats"] = _four(write.seats)
    if write.spectators is not None:
        changed["spectators"] = tuple(write.spectators)
    if write.game is not None:
        changed["game"] = write.game
    if write.new_game:
        changed.update(game_number=table.game_number + 1, game_id=None, game_version=version)
    if write.entry.kind not in UNSEEN_KINDS:
        changed["visible_version"] = version
    return dataclasses.replace(
        table,
        version=version,
        updated_at=write.entry.at,
        seat_request=pending_after(table.seat_request, write.entry),
        closing_note=closing_note(write.entry) or table.closing_note,
        **changed,
    )


def _four(seats: list[Seat]) -> tuple[Seat, Seat, Seat, Seat]:
    return (seats[0], seats[1], seats[2], seats[3])
