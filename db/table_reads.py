"""SQL of the tables read back: open tables, one table with its game's log, logs and games."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from db.sql import Statements, StorePart
from db.table_records import GameInfo, LogEntry, SeatRow, TableRecord

#: Tables read at once by :meth:`TableReads.load_tables` (one placeholder each).
LOAD_CHUNK = 500
#: The columns of a game's seats, as ``game_results`` names them.
_SEAT_KEYS = ("seat", "user_id", "bot_level", "team", "outcome", "points", "opponent_points")


class TableReads(StorePart):
    """The reading half of :class:`~db.table_store.TableSQL`."""

    # -- loading ---------------------------------------------------------------

    async def load_open_tables(self) -> list[TableRecord]:
        """Every lobby or playing table without its log: one query per kind of row."""
        return await self._load_tables("t.status IN ('lobby', 'playing')", (), with_log=False)

    async def table_server(self, table_id: int) -> tuple[bool, int | None]:
        """Whether the table exists, and its server's id (None: none)."""
        row = await self.db.fetchone("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        return (False, None) if row is None else (True, row[0])

    async def load_tables(self, table_ids: Sequence[int]) -> list[TableRecord]:
        """Those of the tables that exist, as :meth:`load_table` reads them, in a few queries."""
        found: list[TableRecord] = []
        for start in range(0, len(table_ids), LOAD_CHUNK):
            chunk = tuple(table_ids[start : start + LOAD_CHUNK])
            where = f"t.id IN ({', '.join('?' * len(chunk))})"
            found.extend(await self._load_tables(where, chunk, with_log=True))
        return found

    async def load_table(self, table_id: int) -> TableRecord | None:
        """One table, whatever its status, with its current game's log; None if unknown."""
        records = await self._load_tables("t.id = ?", (table_id,), with_log=True)
        return records[0] if records else None

    async def _load_tables(
        self, where: str, args: tuple[Any, ...], *, with_log: bool
    ) -> list[TableRecord]:
        # One consistent read: a table another process changes meanwhile is read whole or not.
        async with self.db.consistent_read() as db:
            return await self._read_tables(db, where, args, with_log)

    async def _read_tables(
        self, db: Statements, where: str, args: tuple[Any, ...], with_log: bool
    ) -> list[TableRecord]:
        # Every query walks the chosen tables first, then rows by primary key.
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
            record = TableRecord(*r[:12], *r[17:19])
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
        if with_log:
            await self._read_game_logs(db, where, args, records)
        return list(records.values())

    async def _read_game_logs(
        self, db: Statements, where: str, args: tuple[Any, ...], records: dict[int, TableRecord]
    ) -> None:
        """Fill the chosen tables' ``game_log`` with their current games' entries, oldest first."""
        rows = await db.fetchall(
            "SELECT a.table_id, a.seq, a.kind, a.actor, a.payload, a.at FROM tables t"
            f" {self.db.dialect.ordered_join} actions a ON a.table_id = t.id AND a.seq > t.game_seq"
            f" WHERE {where} AND t.game_no > 0 ORDER BY a.table_id, a.seq",
            args,
        )
        for table_id, group in itertools.groupby(rows, key=lambda r: r[0]):
            part = list(group)
            # One parse of all of a game's payloads: it has hundreds of small ones.
            payloads = json.loads(f"[{','.join(r[4] for r in part)}]")
            records[table_id].game_log = [
                LogEntry(r[2], r[3], payload, r[5], r[1])
                for r, payload in zip(part, payloads, strict=True)
            ]

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
            " reason_seat, score0, score1, hands_played, hands, winner_seat, seat_scores FROM games"
            " WHERE table_id = ? AND ended_at IS NOT NULL ORDER BY game_no",
            (table_id,),
        )
        results: list[dict[str, Any]] = []
        for g in games:
            seats = await self.db.fetchall(
                f"SELECT {', '.join(_SEAT_KEYS)} FROM game_seats WHERE game_id = ? ORDER BY seat",
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
                    # A solo game's result is in columns of its own (migration 040).
                    "winner": g[6] if g[14] is None else g[13],
                    "reason": g[7],
                    "reason_seat": g[8],
                    "scores": [g[9], g[10]] if g[14] is None else json.loads(g[14]),
                    "hands_played": g[11],
                    "hands": json.loads(g[12]) if g[12] else [],
                    "seats": [dict(zip(_SEAT_KEYS, s, strict=True)) for s in seats],
                }
            )
        return results
