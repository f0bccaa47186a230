"""SQL of the tables: rows, seats, spectators, the append-only action log and games.

Every accepted action is one :meth:`TableSQL.commit_action` transaction: version check
and bump, log row, what the action changes and its deadlines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from db.errors import ChannelTaken, IntegrityFailure, StoreError, VersionConflict
from db.sql import DeadlineSQL, Statements, deadline_rows, to_json
from db.table_reads import TableReads
from db.table_records import Change, Committed, GameEnd, GameStart, LogEntry, SeatRow


class TableSQL(TableReads, DeadlineSQL):
    """The writes of tables, seats, spectators, log and games (reads: :mod:`db.table_reads`)."""

    # -- tables ----------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: Mapping[str, Any],
        seats: Sequence[SeatRow],
        entry: LogEntry,
        language: str = "en",
    ) -> int:
        """Insert a lobby table at version 1 with its first log row; ChannelTaken if taken."""
        options_json = to_json(options)
        async with self.transaction() as db:
            try:
                table_id = await db.insert(
                    "INSERT INTO tables (guild_id, channel_id, host_id, options, status,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?)",
                    (guild_id, channel_id, host_id, options_json, entry.at, entry.at),
                )
            except IntegrityFailure as exc:
                raise _refusal(exc) from exc
            if language != "en":
                # English is the column's default: left out, older databases still work.
                await db.execute(
                    "UPDATE tables SET language = ? WHERE id = ?", (language, table_id)
                )
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.computer_level) for s in seats],
            )
            await self._insert_entry(db, table_id, 1, entry)
        return table_id

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's message (not an action: the version stays)."""
        await self.db.execute(
            "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
        )

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Remember the thread the table talks in (None: its channel again)."""
        await self.db.execute("UPDATE tables SET thread_id = ? WHERE id = ?", (thread_id, table_id))

    async def commit_action(
        self, table_id: int, version: int, entry: LogEntry, change: Change | None = None
    ) -> Committed:
        """Append ``entry`` at ``version`` and apply ``change`` in one transaction.

        Returns the new version; raises ``VersionConflict`` or ``ChannelTaken``, writing nothing."""
        change = change or Change()
        # Checked first: a bad set of deadlines is the caller's bug, refused with nothing begun.
        deadlines = None if change.deadlines is None else deadline_rows(table_id, change.deadlines)
        new_version = version + 1
        start = change.game_start
        async with self.transaction() as db:
            try:
                changed = await db.execute(
                    "UPDATE tables SET version = ?, updated_at = ?,"
                    " status = coalesce(?, status), options = coalesce(?, options),"
                    " game_no = coalesce(?, game_no), game_seq = coalesce(?, game_seq)"
                    " WHERE id = ? AND version = ?",
                    (
                        new_version,
                        entry.at,
                        change.status,
                        None if change.options is None else to_json(change.options),
                        start.game_no if start else None,
                        new_version if start else None,
                        table_id,
                        version,
                    ),
                )
            except IntegrityFailure as exc:
                raise _refusal(exc) from exc
            if changed != 1:
                raise VersionConflict(f"table {table_id} is no longer at version {version}")
            await self._insert_entry(db, table_id, new_version, entry)
            if change.seats is not None:
                await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                await db.executemany(
                    "INSERT INTO seats (table_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
                    [(table_id, s.seat, s.user_id, s.computer_level) for s in change.seats],
                )
            if change.add_spectator is not None:
                await db.execute(
                    "INSERT INTO spectators (table_id, user_id, joined_at) VALUES (?, ?, ?)",
                    (table_id, change.add_spectator, entry.at),
                )
            if change.remove_spectator is not None:
                await db.execute(
                    "DELETE FROM spectators WHERE table_id = ? AND user_id = ?",
                    (table_id, change.remove_spectator),
                )
            game_id = None
            if start is not None:
                game_id = await self._insert_game(db, table_id, start)
            if change.game_end is not None:
                await self._finish_game(db, table_id, change.game_end)
            if deadlines is not None:
                await self.replace_deadlines(db, table_id, deadlines)
        return Committed(new_version, game_id)

    async def _insert_entry(self, db: Statements, table_id: int, seq: int, entry: LogEntry) -> None:
        await db.execute(
            "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, entry.kind, entry.actor, to_json(entry.payload), entry.at),
        )

    async def _insert_game(self, db: Statements, table_id: int, start: GameStart) -> int:
        # VALUES, not INSERT ... SELECT, where PostgreSQL would take the placeholders for text.
        game_id = await db.insert(
            "INSERT INTO games (table_id, game_no, guild_id, channel_id, preset, options, seed,"
            " started_at, hints) VALUES (?, ?, (SELECT guild_id FROM tables WHERE id = ?),"
            " (SELECT channel_id FROM tables WHERE id = ?), ?, ?, ?, ?, ?)",
            (
                table_id,
                start.game_no,
                table_id,
                table_id,
                start.preset,
                to_json(start.options),
                start.seed,
                start.started_at,
                int(start.hints),
            ),
        )
        await db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, bot_level, team)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.computer_level, s.seat & 1) for s in start.seats],
        )
        return game_id

    async def _finish_game(self, db: Statements, table_id: int, end: GameEnd) -> None:
        row = await db.fetchone(
            "SELECT id FROM games WHERE table_id = ? AND game_no = ?", (table_id, end.game_no)
        )
        if row is None:
            raise StoreError(f"table {table_id} has no game {end.game_no} to finish")
        game_id = int(row[0])
        # ``winner``, ``score0`` and ``score1`` name teams: a solo result has columns of its own.
        teams = (None, None) if end.solo else (end.scores[0], end.scores[1])
        await db.execute(
            "UPDATE games SET ended_at = ?, winner = ?, reason = ?, reason_seat = ?,"
            " score0 = ?, score1 = ?, winner_seat = ?, seat_scores = ?, hands_played = ?,"
            " hands = ?, end_note = ? WHERE id = ?",
            (
                end.ended_at,
                None if end.solo else end.winner,
                end.reason,
                end.reason_seat,
                teams[0],
                teams[1],
                end.winner if end.solo else None,
                to_json(list(end.scores)) if end.solo else None,
                len(end.hands),
                to_json(list(end.hands)),
                end.note,
                game_id,
            ),
        )
        await db.executemany(
            "UPDATE game_seats SET outcome = ?, points = ?, opponent_points = ?"
            " WHERE game_id = ? AND seat = ?",
            [(s.outcome, s.points, s.opponent_points, game_id, s.seat) for s in end.seats],
        )


def _refusal(exc: IntegrityFailure) -> StoreError:
    """What a refused table row means (SQLite names the column, PostgreSQL the index)."""
    if "tables.channel_id" in str(exc) or "tables_open_channel" in str(exc):
        return ChannelTaken("a table is already open in this channel")
    return StoreError(f"the database refused the write: {exc}")
