"""The statements of one action, as :mod:`db.group_commit` runs them: on the
connection's thread, inside a transaction it opened, plain ``sqlite3``.

Every action goes through one of two writes: :class:`NewTable` (a table's
first log row) and :class:`Action` (any later one). Each checks what it must
before it changes anything, and turns a refusal of the database (a constraint)
into a :class:`StoreError`, so that in a shared transaction it fails alone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from db.connection import to_json
from db.deadlines import DeadlineRow, replace_deadlines
from db.errors import ChannelTaken, StoreError, VersionConflict
from db.table_records import Change, Committed, GameEnd, GameStart, LogEntry, SeatRow, StateWrite


@dataclass(frozen=True, slots=True)
class NewTable:
    """A lobby table at version 1 with its first log row; returns its id."""

    guild_id: int | None
    channel_id: int
    host_id: int
    options_json: str
    seats: Sequence[SeatRow]
    entry: LogEntry
    language: str = "en"  # of the table's public messages (migration 023)

    def __call__(self, db: sqlite3.Connection) -> int:
        try:
            cursor = db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, options, status,"
                " version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?)",
                (
                    self.guild_id,
                    self.channel_id,
                    self.host_id,
                    self.options_json,
                    self.entry.at,
                    self.entry.at,
                ),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            # English is the column's default: a database from before the
            # column (opened with ``upto``) still takes English tables.
            if self.language != "en":
                db.execute("UPDATE tables SET language = ? WHERE id = ?", (self.language, table_id))
            _write_seats(db, table_id, self.seats)
            _insert_entry(db, table_id, 1, self.entry)
        except sqlite3.IntegrityError as exc:
            raise integrity_error(exc) from exc
        return table_id


@dataclass(frozen=True, slots=True)
class Action:
    """``entry`` appended to the log of a table at ``version``, and
    ``change`` applied; returns the new version (and the new game's id when
    the change starts one). Deadline ``rows`` None: the deadlines stay."""

    table_id: int
    version: int
    entry: LogEntry
    change: Change
    deadlines: list[DeadlineRow] | None

    def __call__(self, db: sqlite3.Connection) -> Committed:
        try:
            if _only_current_state(self.change):
                self._commit_plain(db)
                game_id = None
            else:
                game_id = self._commit_general(db)
            if self.deadlines is not None:
                replace_deadlines(db, self.table_id, self.deadlines)
        except sqlite3.IntegrityError as exc:
            if "version conflict" in str(exc):
                raise self._conflict() from None
            raise integrity_error(exc) from exc
        return Committed(self.version + 1, game_id)

    def _commit_plain(self, db: sqlite3.Connection) -> None:
        """The common case (a bid, a card): the log row, the version bump and
        the current state in one INSERT (see migration 016); its trigger
        refuses a version that moved."""
        state, entry = self.change.state, self.entry
        assert state is not None
        db.execute(
            "INSERT INTO action_commits (table_id, seq, kind, actor, payload, at,"
            " game_no, format, current) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.table_id,
                self.version + 1,
                entry.kind,
                entry.actor,
                to_json(entry.payload),
                entry.at,
                state.game_no,
                state.format,
                state.current,
            ),
        )

    def _commit_general(self, db: sqlite3.Connection) -> int | None:
        change, table_id, new_version = self.change, self.table_id, self.version + 1
        start = change.game_start
        cursor = db.execute(
            "UPDATE tables SET version = ?, updated_at = ?,"
            " status = coalesce(?, status),"
            " game_no = coalesce(?, game_no), game_seq = coalesce(?, game_seq)"
            " WHERE id = ? AND version = ?",
            (
                new_version,
                self.entry.at,
                change.status,
                start.game_no if start else None,
                new_version if start else None,
                table_id,
                self.version,
            ),
        )
        if cursor.rowcount != 1:
            raise self._conflict()
        _insert_entry(db, table_id, new_version, self.entry)
        if change.seats is not None:
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            _write_seats(db, table_id, change.seats)
        if change.add_spectator is not None:
            db.execute(
                "INSERT INTO spectators (table_id, user_id, joined_at) VALUES (?, ?, ?)",
                (table_id, change.add_spectator, self.entry.at),
            )
        if change.remove_spectator is not None:
            db.execute(
                "DELETE FROM spectators WHERE table_id = ? AND user_id = ?",
                (table_id, change.remove_spectator),
            )
        game_id = None if start is None else _insert_game(db, table_id, start)
        if change.game_end is not None:
            _finish_game(db, table_id, change.game_end)
        if change.state is not None:
            _write_state(db, table_id, new_version, change.state)
        return game_id

    def _conflict(self) -> VersionConflict:
        return VersionConflict(f"table {self.table_id} is no longer at version {self.version}")


def integrity_error(exc: sqlite3.IntegrityError) -> StoreError:
    if "tables.channel_id" in str(exc):
        return ChannelTaken("a table is already open in this channel")
    return StoreError(f"the database refused the write: {exc}")


def _only_current_state(change: Change) -> bool:
    """Whether ``change`` is just a new current engine state (most actions),
    perhaps with the table's deadlines."""
    return (
        change.state is not None
        and change.state.keep_history
        and change.status is None
        and change.seats is None
        and change.add_spectator is None
        and change.remove_spectator is None
        and change.game_start is None
        and change.game_end is None
    )


def _write_seats(db: sqlite3.Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    db.executemany(
        "INSERT INTO seats (table_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
        [(table_id, s.seat, s.user_id, s.computer_level) for s in seats],
    )


def _insert_entry(db: sqlite3.Connection, table_id: int, seq: int, entry: LogEntry) -> None:
    db.execute(
        "INSERT INTO actions (table_id, seq, kind, actor, payload, at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seq, entry.kind, entry.actor, to_json(entry.payload), entry.at),
    )


def _write_state(db: sqlite3.Connection, table_id: int, version: int, state: StateWrite) -> None:
    db.execute(
        "INSERT INTO table_states (table_id, game_no, version, format, current)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
        " game_no = excluded.game_no, version = excluded.version,"
        " format = excluded.format, current = excluded.current",
        (table_id, state.game_no, version, state.format, state.current),
    )
    if state.keep_history:
        return
    if state.history is None:
        db.execute("DELETE FROM table_histories WHERE table_id = ?", (table_id,))
    else:
        db.execute(
            "INSERT INTO table_histories (table_id, history) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET history = excluded.history",
            (table_id, state.history),
        )


def _insert_game(db: sqlite3.Connection, table_id: int, start: GameStart) -> int:
    cursor = db.execute(
        "INSERT INTO games (table_id, game_no, guild_id, channel_id, preset, options, seed,"
        " started_at, hints) SELECT id, ?, guild_id, channel_id, ?, ?, ?, ?, ? FROM tables"
        " WHERE id = ?",
        (
            start.game_no,
            start.preset,
            to_json(start.options),
            start.seed,
            start.started_at,
            int(start.hints),
            table_id,
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO game_seats (game_id, seat, user_id, bot_level, team) VALUES (?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.computer_level, s.seat & 1) for s in start.seats],
    )
    return game_id


def _finish_game(db: sqlite3.Connection, table_id: int, end: GameEnd) -> None:
    row = db.execute(
        "SELECT id FROM games WHERE table_id = ? AND game_no = ?", (table_id, end.game_no)
    ).fetchone()
    if row is None:
        raise StoreError(f"table {table_id} has no game {end.game_no} to finish")
    game_id = int(row[0])
    db.execute(
        "UPDATE games SET ended_at = ?, winner = ?, reason = ?, reason_seat = ?,"
        " score0 = ?, score1 = ?, hands_played = ?, hands = ? WHERE id = ?",
        (
            end.ended_at,
            end.winner,
            end.reason,
            end.reason_seat,
            end.scores[0],
            end.scores[1],
            len(end.hands),
            to_json(list(end.hands)),
            game_id,
        ),
    )
    db.executemany(
        "UPDATE game_seats SET outcome = ?, points = ?, opponent_points = ?"
        " WHERE game_id = ? AND seat = ?",
        [(s.outcome, s.points, s.opponent_points, game_id, s.seat) for s in end.seats],
    )
