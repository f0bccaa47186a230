"""The service's mutable record of one table, and the write of one action.

An action is validated into a :class:`Write` while the table's lock is held;
the write is committed, and only then applied to the :class:`LiveTable`. The
:class:`~bot.tables.model.Table` snapshots handed out are built from the
record and never change afterwards.
"""

from __future__ import annotations

import asyncio
import dataclasses
import operator
from typing import Any

from bot.game.state import Game
from bot.tables.kinds import CANCEL, SEAT_ASK, UNSEEN_KINDS
from bot.tables.model import Seat, SeatRequest, Table, TableOptions, TableStatus
from db.store import Change, LogEntry

#: The engine state's fields in order, read at once: every action copies a game.
_GAME_VALUES = operator.attrgetter(*(spec.name for spec in dataclasses.fields(Game)))


def copy_game(game: Game) -> Game:
    """An independent copy of an engine state: the engine changes its lists in
    place (never the objects in them), so copying every list field suffices."""
    values: list[Any] = [list(v) if type(v) is list else v for v in _GAME_VALUES(game)]
    return Game(*values)


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
    """A validated action: what to write, and how the live table changes once
    it is written."""

    entry: LogEntry
    change: Change | None = None
    status: TableStatus | None = None
    seats: list[Seat] | None = None
    spectators: list[int] | None = None
    game: Game | None = None
    new_game: bool = False  # a start or rematch: the game number moves on
    options: TableOptions | None = None  # the lobby's house rules changed


@dataclasses.dataclass(slots=True, eq=False)
class LiveTable:
    """One table as the service holds it (guarded by ``lock``)."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    options: TableOptions
    status: TableStatus
    version: int
    seats: list[Seat]
    spectators: list[int]
    game: Game | None
    game_number: int
    game_id: int | None
    #: The version whose action started the current game (0: none yet).
    game_version: int
    #: The version of the last change the players can see (anything but a
    #: spectator coming or going); None after a resume until it is needed,
    #: when it is read from the log (see ``TableRegistry.run``).
    visible_version: int | None
    created_at: float
    updated_at: float
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    snapshot: Table | None = None
    thread_id: int | None = None  # see Table.thread_id
    seat_request: SeatRequest | None = None  # see Table.seat_request
    closing_note: str | None = None  # see Table.closing_note

    def table(self) -> Table:
        if self.snapshot is None:
            self.snapshot = self._snapshot(
                self.version,
                self.status,
                self.seats,
                self.spectators,
                self.game,
                self.seat_request,
            )
        return self.snapshot

    def after(self, write: Write) -> Table:
        """The table as ``write`` will leave it once written: one version on.
        A new game's stored id is not known before the write: it is None."""
        snapshot = self._snapshot(
            self.version + 1,
            self.status if write.status is None else write.status,
            self.seats if write.seats is None else write.seats,
            self.spectators if write.spectators is None else write.spectators,
            self.game if write.game is None else write.game,
            pending_after(self.seat_request, write.entry),
            updated_at=write.entry.at,
            closing_note=closing_note(write.entry) or self.closing_note,
        )
        if write.options is not None:
            snapshot = dataclasses.replace(snapshot, options=write.options)
        if write.new_game:
            snapshot = dataclasses.replace(snapshot, game_number=self.game_number + 1, game_id=None)
        return snapshot

    def apply(self, write: Write, after: Table) -> None:
        """Take on the committed ``write``; ``after`` is the table it produced
        (its ``game_id`` filled in for a new game) and becomes the snapshot."""
        self.version = after.version
        self.updated_at = after.updated_at
        self.status = after.status
        if write.seats is not None:
            self.seats = write.seats
        if write.spectators is not None:
            self.spectators = write.spectators
        self.options = after.options
        self.game = after.game
        self.seat_request = after.seat_request
        self.closing_note = after.closing_note
        if write.new_game:
            self.game_number = after.game_number
            self.game_id = after.game_id
            self.game_version = after.version
        if write.entry.kind not in UNSEEN_KINDS:
            self.visible_version = after.version
        self.snapshot = after

    def seat_of(self, user_id: int) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return number
        return None

    def _snapshot(
        self,
        version: int,
        status: TableStatus,
        seats: list[Seat],
        spectators: list[int],
        game: Game | None,
        seat_request: SeatRequest | None,
        *,
        updated_at: float | None = None,
        closing_note: str | None = None,
    ) -> Table:
        return Table(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            message_id=self.message_id,
            host_id=self.host_id,
            options=self.options,
            status=status,
            version=version,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            spectators=tuple(spectators),
            game=game,
            game_number=self.game_number,
            game_id=self.game_id,
            created_at=self.created_at,
            updated_at=self.updated_at if updated_at is None else updated_at,
            thread_id=self.thread_id,
            seat_request=seat_request,
            closing_note=self.closing_note if closing_note is None else closing_note,
        )
