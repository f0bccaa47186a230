"""SQL of the tables, read back: the open tables with everything the table
service rebuilds them from (their seats, spectators, current game and its
stored engine state, or its log), a table's log and its finished games."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from db.sql import Row, Statements, StorePart
from db.table_records import GameInfo, LogEntry, SeatRow, StoredState, TableRecord


class TableReads(StorePart):
    """The reading half of :class:`~db.table_store.TableSQL`."""

    # -- loading ---------------------------------------------------------------

    async def load_open_tables(self, state_formats: Sequence[str] = ()) -> list[TableRecord]:
        """Every lobby or playing table with its seats, spectators and current
        game: one query per kind of row, whatever the number of tables.

        A game whose stored state is in one of ``state_formats`` comes with
        that state and the log entries written after it (``state_tail``);
        any other game comes with all its log entries.
        """
        return await self._load_tables("t.status IN ('lobby', 'playing')", (), state_formats)

    async def load_table(
        self, table_id: int, state_formats: Sequence[str] = (), *, with_log: bool = False
    ) -> TableRecord | None:
        """One table, whatever its status; None if there is no such table.
        ``with_log`` loads the game's log entries even when a state is stored."""
        records = await self._load_tables("t.id = ?", (table_id,), state_formats, with_log)
        return records[0] if records else None

    async def _load_tables(
        self,
        where: str,
        args: tuple[Any, ...],
        state_formats: Sequence[str],
        with_log: bool = False,
    ) -> list[TableRecord]:
        # Several queries, one consistent read: a table another process creates or
        # changes meanwhile is read whole or not at all.
        async with self.db.consistent_read() as db:
            return await self._read_tables(db, where, args, tuple(state_formats), with_log)

    async def _read_tables(
        self,
        db: Statements,
        where: str,
        args: tuple[Any, ...],
        state_formats: tuple[str, ...],
        with_log: bool,
    ) -> list[TableRecord]:
        # Every query walks the chosen tables first (SQLite's CROSS JOIN keeps
        # that order) and reaches their rows through primary keys.
        join = self.db.dialect.ordered_join
        records: dict[int, TableRecord] = {}
        for r in await db.fetchall(
            "SELECT t.id, t.guild_id, t.channel_id, t.message_id, t.host_id, t.options,"
            " t.status, t.version, t.game_no, t.game_seq, t.created_at, t.updated_at,"
            " g.id, g.seed, g.started_at, g.preset, g.options, t.language, t.thread_id"
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
                thread_id=r[18],
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
        if state_formats:
            usable = (
                f"{where} AND s.game_no = t.game_no"
                f" AND s.format IN ({', '.join('?' * len(state_formats))})"
            )
            behind: list[tuple[int, int]] = []  # (table, version of its state)
            for r in await db.fetchall(
                "SELECT s.table_id, h.history, s.current, s.version, t.version FROM tables t"
                f" {join} table_states s ON s.table_id = t.id"
                " LEFT JOIN table_histories h ON h.table_id = t.id"
                f" WHERE {usable}",
                (*args, *state_formats),
            ):
                records[r[0]].state = StoredState(r[1], r[2], r[3])
                if r[3] < r[4]:
                    behind.append((r[0], r[3]))
            if behind and not with_log:
                await self._read_tails(db, records, behind)
        needing_log = [
            r.id for r in records.values() if r.game is not None and (with_log or r.state is None)
        ]
        if needing_log:
            await self._read_logs(db, records, needing_log)
            for record in records.values():
                if with_log and record.state is not None:
                    after = record.state.version
                    record.state_tail = [e for e in record.game_log if e.seq > after]
        return list(records.values())

    async def _read_logs(
        self, db: Statements, records: dict[int, TableRecord], table_ids: list[int]
    ) -> None:
        """The log entries of these tables' current games, into ``game_log``."""
        join = self.db.dialect.ordered_join
        # The ids come from the rows just read: bind them as one list.
        rows = await db.fetchall(
            "SELECT a.table_id, a.seq, a.kind, a.actor, a.payload, a.at"
            f" FROM {self.db.dialect.id_list} {join} tables t ON t.id = j.value"
            f" {join} actions a ON a.table_id = t.id AND a.seq > t.game_seq"
            " ORDER BY a.table_id, a.seq",
            (self.db.dialect.ids(table_ids),),
        )
        _add_entries(rows, records, tails=False)

    async def _read_tails(
        self, db: Statements, records: dict[int, TableRecord], behind: list[tuple[int, int]]
    ) -> None:
        """The log entries written after each table's stored state (a trick's
        first cards, the first bids; spectators), into ``state_tail``: a few
        a table, looked up by its key from the versions just read."""
        dialect = self.db.dialect
        rows = await db.fetchall(
            "SELECT a.table_id, a.seq, a.kind, a.actor, a.payload, a.at"
            f" FROM {dialect.pair_list}"
            f" {dialect.join_each('actions', 'a', 'a.table_id = j.id AND a.seq > j.after')}"
            " ORDER BY a.table_id, a.seq",
            dialect.pairs(behind),
        )
        _add_entries(rows, records, tails=True)

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


def _add_entries(rows: list[Row], records: dict[int, TableRecord], *, tails: bool) -> None:
    loads = json.loads
    for r in rows:
        record = records[r[0]]
        entries = record.state_tail if tails else record.game_log
        entries.append(LogEntry(r[2], r[3], loads(r[4]), r[5], r[1]))
