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
    # One constructor call with every field named (dataclasses.replace costs
    # an action more): a field added to Table is carried here too.
    version = table.version + 1
    new_game = write.new_game
    return Table(
        id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        message_id=table.message_id,
        host_id=table.host_id,
        options=table.options if write.options is None else write.options,
        status=table.status if write.status is None else write.status,
        version=version,
        seats=table.seats if write.seats is None else _four(write.seats),
        spectators=table.spectators if write.spectators is None else tuple(write.spectators),
        game=table.game if write.game is None else write.game,
        game_number=table.game_number + 1 if new_game else table.game_number,
        game_id=None if new_game else table.game_id,
        created_at=table.created_at,
        updated_at=write.entry.at,
        thread_id=table.thread_id,
        seat_request=pending_after(table.seat_request, write.entry),
        closing_note=closing_note(write.entry) or table.closing_note,
        game_version=version if new_game else table.game_version,
        visible_version=table.visible_version if write.entry.kind in UNSEEN_KINDS else version,
    )


def _four(seats: list[Seat]) -> tuple[Seat, Seat, Seat, Seat]:
    return (seats[0], seats[1], seats[2], seats[3])
