"""SQL of the tables: their rows, seats and spectators, the append-only
action log, the games they played and their stored engine states.

Every accepted action is one :meth:`TableSQL.commit_action`: the log row,
the version bump and whatever the action changes (see :class:`Change`),
including the table's deadlines, in one transaction. The store knows no
rules: it keeps what the table service hands it and gives it back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from db.deadlines import DeadlineRow, deadline_rows, replace_deadlines
from db.errors import ChannelTaken, IntegrityFailure, StoreError, VersionConflict
from db.group_commit import GroupCommitting
from db.sql import ActionRow, Backed, Statements, to_json
from db.table_records import (
    Change,
    Committed,
    GameEnd,
    GameInfo,
    GameStart,
    LogEntry,
    SeatRow,
    StateWrite,
    StoredState,
    TableRecord,
)


class TableSQL(Backed):
    """Tables, their seats, spectators, log, games and engine states."""

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
        """Insert a lobby table at version 1 with its first log row; returns its id.
        Raises :class:`ChannelTaken` if the channel has an open table."""
        options_json = to_json(options)
        async with self.transaction() as db:
            try:
                table_id = await db.insert(
                    "INSERT INTO tables (guild_id, channel_id, host_id, options, status,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?)",
                    (guild_id, channel_id, host_id, options_json, entry.at, entry.at),
                )
            except IntegrityFailure as exc:
                raise _integrity(exc) from exc
            if language != "en":
                # English is the column's default; left alone, a table still
                # opens on a database older than the column (tests of upgrades).
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
        async with self.transaction() as db:
            await db.execute(
                "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )

    async def commit_action(
        self, table_id: int, version: int, entry: LogEntry, change: Change | None = None
    ) -> Committed:
        """Append ``entry`` to the log of a table at ``version`` and apply
        ``change``, all in one transaction; returns the new version (and the
        new game's id when ``change`` starts one). That transaction may hold
        other tables' actions too (on SQLite any action, :mod:`db.group_commit`;
        on PostgreSQL an ordinary one, :mod:`db.postgres_commits`); either way
        this returns only once it is committed.

        Raises :class:`VersionConflict` if the stored version is not ``version``
        and :class:`ChannelTaken` if a status change collides with another open
        table; nothing is written then (no deadline either).
        """
        change = change or Change()
        rows = None if change.deadlines is None else deadline_rows(table_id, change.deadlines)
        if _only_current_state(change):
            # Most actions: one row of the view, handed to the database as such.
            assert change.state is not None
            try:
                await self.db.commit_action_row(
                    _plain_row(table_id, version + 1, entry, change.state, rows)
                )
            except IntegrityFailure as exc:
                raise _plain_refusal(exc, table_id, version) from None
            return Committed(version + 1)
        if isinstance(self.db, GroupCommitting):
            return await self.db.write_action(
                partial(
                    self._write_action,
                    table_id=table_id,
                    version=version,
                    entry=entry,
                    change=change,
                    deadlines=rows,
                )
            )
        async with self.transaction() as db:
            return await self._write_action(
                db, table_id=table_id, version=version, entry=entry, change=change, deadlines=rows
            )

    async def _write_action(
        self,
        db: Statements,
        *,
        table_id: int,
        version: int,
        entry: LogEntry,
        change: Change,
        deadlines: list[DeadlineRow] | None,
    ) -> Committed:
        """The statements of :meth:`commit_action` inside the caller's
        transaction. They only run statements on ``db``: the group commit
        runs them on the connection's thread, where nothing else may be
        awaited."""
        new_version = version + 1
        start = change.game_start
        try:
            changed = await db.execute(
                "UPDATE tables SET version = ?, updated_at = ?,"
                " status = coalesce(?, status),"
                " game_no = coalesce(?, game_no), game_seq = coalesce(?, game_seq)"
                " WHERE id = ? AND version = ?",
                (
                    new_version,
                    entry.at,
                    change.status,
                    start.game_no if start else None,
                    new_version if start else None,
                    table_id,
                    version,
                ),
            )
        except IntegrityFailure as exc:
            raise _integrity(exc) from exc
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
        if change.state is not None:
            await self._write_state(db, table_id, new_version, change.state)
        if deadlines is not None:
            await replace_deadlines(db, table_id, deadlines)
        return Committed(new_version, game_id)

    async def _write_state(
        self, db: Statements, table_id: int, version: int, state: StateWrite
    ) -> None:
        await db.execute(
            "INSERT INTO table_states (table_id, game_no, version, format, current)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
            " game_no = excluded.game_no, version = excluded.version,"
            " format = excluded.format, current = excluded.current",
            (table_id, state.game_no, version, state.format, state.current),
        )
        if state.keep_history:
            return
        if state.history is None:
            await db.execute("DELETE FROM table_histories WHERE table_id = ?", (table_id,))
        else:
            await db.execute(
                "INSERT INTO table_histories (table_id, history) VALUES (?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET history = excluded.history",
                (table_id, state.history),
            )

    async def _insert_entry(self, db: Statements, table_id: int, seq: int, entry: LogEntry) -> None:
        await db.execute(
            "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, entry.kind, entry.actor, to_json(entry.payload), entry.at),
        )

    async def _insert_game(self, db: Statements, table_id: int, start: GameStart) -> int:
        # VALUES rather than INSERT ... SELECT: there PostgreSQL would take the
        # placeholders for text instead of the columns' types.
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
        await db.execute(
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
                f"[{','.join(end.hands)}]",
                game_id,
            ),
        )
        await db.executemany(
            "UPDATE game_seats SET outcome = ?, points = ?, opponent_points = ?"
            " WHERE game_id = ? AND seat = ?",
            [(s.outcome, s.points, s.opponent_points, game_id, s.seat) for s in end.seats],
        )

    # -- loading ---------------------------------------------------------------

    async def load_open_tables(self, state_format: str | None = None) -> list[TableRecord]:
        """Every lobby or playing table with its seats, spectators and current
        game: one query per kind of row, whatever the number of tables.

        A game whose stored state is in ``state_format`` comes with that state
        and no log entries; any other game comes with its log entries.
        """
        return await self._load_tables("t.status IN ('lobby', 'playing')", (), state_format)

    async def load_table(
        self, table_id: int, state_format: str | None = None, *, with_log: bool = False
    ) -> TableRecord | None:
        """One table, whatever its status; None if there is no such table.
        ``with_log`` loads the game's log entries even when a state is stored."""
        records = await self._load_tables("t.id = ?", (table_id,), state_format, with_log)
        return records[0] if records else None

    async def _load_tables(
        self,
        where: str,
        args: tuple[Any, ...],
        state_format: str | None,
        with_log: bool = False,
    ) -> list[TableRecord]:
        # Several queries, one snapshot: a table another process creates or
        # changes meanwhile is read whole or not at all.
        async with self.db.read_snapshot() as db:
            return await self._read_tables(db, where, args, state_format, with_log)

    async def _read_tables(
        self,
        db: Statements,
        where: str,
        args: tuple[Any, ...],
        state_format: str | None,
        with_log: bool,
    ) -> list[TableRecord]:
        # Every query walks the chosen tables first (SQLite's CROSS JOIN keeps
        # that order) and reaches their rows through primary keys.
        join = self.db.dialect.ordered_join
        records: dict[int, TableRecord] = {}
        for r in await db.fetchall(
            "SELECT t.id, t.guild_id, t.channel_id, t.message_id, t.host_id, t.options,"
            " t.status, t.version, t.game_no, t.game_seq, t.created_at, t.updated_at,"
            " g.id, g.seed, g.started_at, g.preset, g.options, t.language"
            " FROM tables t LEFT JOIN games g ON g.table_id = t.id AND g.game_no = t.game_no"
            f" WHERE {where} ORDER BY t.id",
            args,
        ):
            record = TableRecord(
                id=r[0],
                guild_id=r[1],
                channel_id=r[2],
                message_id=r[3],
                host_id=r[4],
                options_json=r[5],
                status=r[6],
                version=r[7],
                game_no=r[8],
                game_seq=r[9],
                created_at=r[10],
                updated_at=r[11],
                language=r[17],
            )
            if r[12] is not None:
                record.game = GameInfo(r[12], r[8], r[13], r[14], r[15], r[16])
            records[record.id] = record
        if not records:
            return []
        for r in await db.fetchall(
            "SELECT s.table_id, s.seat, s.user_id, s.bot_level FROM tables t"
            f" {join} seats s ON s.table_id = t.id WHERE {where}"
            " ORDER BY s.table_id, s.seat",
            args,
        ):
            records[r[0]].seats.append(SeatRow(r[1], r[2], r[3]))
        for r in await db.fetchall(
            "SELECT s.table_id, s.user_id FROM tables t"
            f" {join} spectators s ON s.table_id = t.id WHERE {where}"
            " ORDER BY s.table_id, s.joined_at, s.user_id",
            args,
        ):
            records[r[0]].spectators.append(r[1])
        if state_format is not None:
            for r in await db.fetchall(
                "SELECT s.table_id, h.history, s.current FROM tables t"
                f" {join} table_states s ON s.table_id = t.id"
                " LEFT JOIN table_histories h ON h.table_id = t.id"
                f" WHERE {where} AND s.game_no = t.game_no AND s.format = ?",
                (*args, state_format),
            ):
                records[r[0]].state = StoredState(r[1], r[2])
        needing_log = [
            r.id for r in records.values() if r.game is not None and (with_log or r.state is None)
        ]
        if needing_log:
            # The ids come from the rows just read: bind them as one list.
            loads = json.loads
            for r in await db.fetchall(
                "SELECT a.table_id, a.seq, a.kind, a.actor, a.payload, a.at"
                f" FROM {self.db.dialect.id_list} {join} tables t ON t.id = j.value"
                f" {join} actions a ON a.table_id = t.id AND a.seq > t.game_seq"
                " ORDER BY a.table_id, a.seq",
                (self.db.dialect.ids(needing_log),),
            ):
                records[r[0]].game_log.append(LogEntry(r[2], r[3], loads(r[4]), r[5], r[1]))
        return list(records.values())

    async def action_log(self, table_id: int) -> list[LogEntry]:
        """A table's whole log, oldest first."""
        rows = await self.db.fetchall(
            "SELECT seq, kind, actor, payload, at FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,),
        )
        return [LogEntry(r[1], r[2], json.loads(r[3]), r[4], r[0]) for r in rows]

    async def game_results(self, table_id: int) -> list[dict[str, Any]]:
        """The finished games of a table with their seats, oldest first."""
        games = await self.db.fetchall(
            "SELECT id, game_no, preset, seed, started_at, ended_at, winner, reason,"
            " reason_seat, score0, score1, hands_played, hands FROM games"
            " WHERE table_id = ? AND ended_at IS NOT NULL ORDER BY game_no",
            (table_id,),
        )
        results: list[dict[str, Any]] = []
        for g in games:
            seats = await self.db.fetchall(
                "SELECT seat, user_id, bot_level, team, outcome, points, opponent_points"
                " FROM game_seats WHERE game_id = ? ORDER BY seat",
                (g[0],),
            )
            results.append(
                {
                    "game_id": g[0],
                    "game_no": g[1],
                    "preset": g[2],
                    "seed": g[3],
                    "started_at": g[4],
                    "ended_at": g[5],
                    "winner": g[6],
                    "reason": g[7],
                    "reason_seat": g[8],
                    "scores": [g[9], g[10]],
                    "hands_played": g[11],
                    "hands": json.loads(g[12]) if g[12] else [],
                    "seats": [
                        {
                            "seat": s[0],
                            "user_id": s[1],
                            "bot_level": s[2],
                            "team": s[3],
                            "outcome": s[4],
                            "points": s[5],
                            "opponent_points": s[6],
                        }
                        for s in seats
                    ],
                }
            )
        return results


def _only_current_state(change: Change) -> bool:
    """Whether ``change`` is just a new engine state (most actions; at a hand's
    end with its new history), perhaps with the table's deadlines."""
    state = change.state
    return (
        state is not None
        and (state.keep_history or state.history is not None)
        and change.status is None
        and change.seats is None
        and change.add_spectator is None
        and change.remove_spectator is None
        and change.game_start is None
        and change.game_end is None
    )


def _plain_row(
    table_id: int,
    version: int,
    entry: LogEntry,
    state: StateWrite,
    deadlines: list[DeadlineRow] | None,
) -> ActionRow:
    """The common case (a bid, a card) as one row of the view: the log row,
    the version bump, the current state, the table's deadlines (when given:
    its whole set) and the state's history part (when a hand ended)."""
    return ActionRow(
        table_id,
        version,
        entry.kind,
        entry.actor,
        to_json(entry.payload),
        entry.at,
        state.game_no,
        state.format,
        state.current,
        None if deadlines is None else to_json([row[1:] for row in deadlines]),
        None if state.keep_history else state.history,
    )


def _plain_refusal(exc: IntegrityFailure, table_id: int, version: int) -> StoreError:
    """What the database's refusal of :func:`_plain_row` means, the
    table having been expected at ``version``."""
    if "version conflict" in str(exc):
        return VersionConflict(f"table {table_id} is no longer at version {version}")
    return _integrity(exc)


def _integrity(exc: IntegrityFailure) -> StoreError:
    # SQLite names the column, PostgreSQL the unique index.
    if "tables.channel_id" in str(exc) or "tables_open_channel" in str(exc):
        return ChannelTaken("a table is already open in this channel")
    return StoreError(f"the database refused the write: {exc}")
