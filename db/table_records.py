"""What the table part of the store takes and gives back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from db.sql import Deadline


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat: a user, a computer player level, or neither (empty)."""

    seat: int
    user_id: int | None = None
    computer_level: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of a table's append-only action log."""

    kind: str
    actor: int | None
    payload: Mapping[str, Any]
    at: float
    seq: int = 0  # assigned by the store: the table's version after the action


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game begins: its row in ``games`` and one ``game_seats`` row per seat."""

    game_no: int
    preset: str
    options: Mapping[str, Any]
    seed: int
    started_at: float
    seats: tuple[SeatRow, ...]
    hints: bool = False  # the table's coach hints were on (migration 024)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    seat: int
    outcome: str  # 'won', 'lost' or 'draw'
    points: int  # the seat's side's final score (its team's, or in solo its own)
    opponent_points: int  # the other team's; in solo the best of the other seats'


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the current game ended, written with the action that ended it."""

    game_no: int
    ended_at: float
    winner: int | None  # the winning side: team 0 or 1, or in solo a seat; None for a draw
    reason: str
    reason_seat: int | None
    scores: tuple[int, ...]  # per side: the two teams', or in solo the four seats'
    hands: Sequence[Mapping[str, Any]]  # hand records (``HandRecord.to_json``)
    seats: tuple[SeatOutcome, ...]
    note: str | None = None  # a moderator's reason for ending it (reason "moderator")
    solo: bool = False  # each seat a side of its own (house rule teams=solo, migration 040)


@dataclass(frozen=True, slots=True)
class Change:
    """What an accepted action changes besides the log row and the version."""

    status: str | None = None
    seats: tuple[SeatRow, ...] | None = None  # all four seats, replacing the old ones
    add_spectator: int | None = None
    remove_spectator: int | None = None
    game_start: GameStart | None = None  # also moves the table's game_no/game_seq
    game_end: GameEnd | None = None
    #: The table's deadlines from now on, written with the action (None: unchanged).
    deadlines: tuple[Deadline, ...] | None = None
    #: Not None: the table's options (JSON) become these (the lobby's house rules).
    options: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """What a commit wrote: the table's new version and the id of a game it started."""

    version: int
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The stored row of a table's current game."""

    game_id: int
    game_no: int
    seed: int
    started_at: float
    preset: str
    options_json: str  # the game's rules as stored


@dataclass(slots=True)
class TableRecord:
    """Everything the service rebuilds a table from: its row, seats, spectators, game and log."""

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    options_json: str  # the options as stored (the service caches on it)
    status: str
    version: int
    game_no: int
    game_seq: int
    created_at: float
    updated_at: float
    language: str = "en"  # of the table's public messages
    thread_id: int | None = None  # the thread it talks in, if any
    seats: list[SeatRow] = field(default_factory=list)
    spectators: list[int] = field(default_factory=list)
    game: GameInfo | None = None
    #: The current game's log entries, oldest first (empty from ``load_open_tables``).
    game_log: list[LogEntry] = field(default_factory=list)
