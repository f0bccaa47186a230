"""The bot's SQLite store: tables, their action logs, game results, user
preferences and turn-clock deadlines.

One :class:`Store` owns one aiosqlite connection (WAL, foreign keys on, a busy
timeout). Writes go through :meth:`Store.transaction`, one at a time: several
coroutines sharing a connection must never interleave the statements of two
transactions. The store knows no rules: it keeps what the table service
hands it and gives it back.

The schema lives in ``db/migrations/NNN_name.sql``. At open every file whose
number is above ``PRAGMA user_version`` is applied, in number order, all in
one transaction, and ``user_version`` becomes the highest number applied.
Numbers may have gaps. A database whose version is above every known
migration was written by newer code and is refused (:class:`SchemaTooNew`).

Durability: ``synchronous=NORMAL`` in WAL mode. A commit survives the
process being killed at any moment (the WAL is written before ``COMMIT``
returns); only a power cut or OS crash can lose the last few commits.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.clock import Deadline

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")
BUSY_TIMEOUT_MS = 5000


class StoreError(Exception):
    """A problem with the database itself (not a refused action)."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class VersionConflict(StoreError):
    """The table's stored version is not the one the write was based on:
    another writer got there first. Nothing was written."""


class ChannelTaken(StoreError):
    """Another open table already holds the channel. Nothing was written."""


# -- rows ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    path: Path


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat: a user, a computer player level, or neither (empty)."""

    seat: int
    user_id: int | None = None
    bot_level: str | None = None


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


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    seat: int
    outcome: str  # 'won', 'lost' or 'draw'
    points: int  # the seat's team's final score
    opponent_points: int


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the current game ended, written with the action that ended it."""

    game_no: int
    ended_at: float
    winner: int | None  # team 0 or 1; None for a draw
    reason: str
    reason_seat: int | None
    scores: tuple[int, int]
    hands: Sequence[Mapping[str, Any]]  # hand records, JSON-ready
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True, slots=True)
class StateWrite:
    """A game's stored engine state (opaque to the store). ``history`` None
    with ``keep_history`` leaves the stored history as it is."""

    game_no: int
    format: str
    current: bytes
    history: bytes | None = None
    keep_history: bool = False


@dataclass(frozen=True, slots=True)
class StoredState:
    history: bytes | None
    current: bytes


@dataclass(frozen=True, slots=True)
class Change:
    """What an accepted action changes besides the log row and the version."""

    status: str | None = None
    seats: tuple[SeatRow, ...] | None = None  # all four seats, replacing the old ones
    add_spectator: int | None = None
    remove_spectator: int | None = None
    game_start: GameStart | None = None  # also moves the table's game_no/game_seq
    game_end: GameEnd | None = None
    state: StateWrite | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """What :meth:`Store.commit_action` wrote: the table's new version and,
    when the action started a game, that game's id."""

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

    @property
    def options(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.options_json)
        return value


@dataclass(frozen=True, slots=True)
class TurnMention:
    """A table's posted turn mention and the turn it is for. ``turn`` is the
    presenter's text for it, opaque here; it lets a restarted bot keep a
    mention for the turn that is still on instead of mentioning the person
    again. None: written without one (matches no turn)."""

    message_id: int
    turn: str | None


@dataclass(slots=True)
class TableRecord:
    """Everything stored about one table that the service needs to rebuild it:
    the table row, its seats and spectators, its current game and that game's
    log entries (the actions after the one that started it)."""

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
    seats: list[SeatRow] = field(default_factory=list)
    spectators: list[int] = field(default_factory=list)
    game: GameInfo | None = None
    #: The stored engine state of the current game, when one in the requested
    #: format exists; otherwise ``game_log`` holds the game's log entries.
    state: StoredState | None = None
    game_log: list[LogEntry] = field(default_factory=list)

    @property
    def options(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.options_json)
        return value


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    deck: str | None
    data: dict[str, Any]
    updated_at: float


# -- migrations --------------------------------------------------------------------


def find_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every ``NNN_name.sql`` file of the folder, by number; a duplicate
    number is an error (two engineers picked the same one)."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path.name!r} is not named NNN_name.sql")
        number = int(match.group(1))
        if number <= 0:
            raise StoreError(f"migration {path.name!r}: numbers start at 1")
        if number in found:
            raise StoreError(
                f"migrations {found[number].path.name!r} and {path.name!r} share number {number}"
            )
        found[number] = Migration(number, path)
    return [found[n] for n in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Split a SQL script into single statements (trigger bodies stay whole):
    ``executescript`` would commit, and migrations must share one transaction."""
    statements: list[str] = []
    current = ""
    pieces = script.split(";")
    for piece in pieces[:-1]:  # each of these ended at a semicolon
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if _has_sql(current):
                statements.append(current.strip())
            current = ""
    current += pieces[-1]
    if _has_sql(current):
        raise StoreError(f"incomplete SQL statement at the end of a migration: {current[:60]!r}")
    return statements


def _has_sql(text: str) -> bool:
    for line in text.splitlines():
        code = line.split("--", 1)[0].strip().strip(";").strip()
        if code:
            return True
    return False


# -- the store ---------------------------------------------------------------------


class Store:
    """The database. Create with ``await Store.open(path)``; ``await close()``."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        # One transaction at a time on the shared connection.
        self.write_lock = asyncio.Lock()

    # -- opening ---------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Path = MIGRATIONS_DIR,
        upto: int | None = None,
        synchronous: str = "NORMAL",
    ) -> Store:
        """Open (creating it and its folder if needed) and migrate the database.

        ``upto`` stops the migrations at that number (tests of old versions).
        Raises :class:`SchemaTooNew` if the file is newer than the code.
        """
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await connect(path, synchronous=synchronous)
        store = cls(connection, path)
        try:
            await store._migrate(find_migrations(migrations), upto)
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        async with self.write_lock:
            await self.connection.close()

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self, migrations: list[Migration], upto: int | None) -> None:
        known = max((m.number for m in migrations), default=0)
        target = known if upto is None else min(known, upto)
        current = await self.schema_version()
        if current > known:
            raise self._too_new(current, known)
        if current >= target:
            return  # the usual start: nothing to do, no write transaction
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                # Read again inside the transaction: another process may have migrated.
                current = await self.schema_version()
                if current > known:
                    raise self._too_new(current, known)
                pending = [m for m in migrations if current < m.number <= target]
                for migration in pending:
                    script = migration.path.read_text(encoding="utf-8")
                    for statement in split_statements(script):
                        try:
                            await self.connection.execute(statement)
                        except sqlite3.Error as exc:
                            raise StoreError(
                                f"migration {migration.path.name} failed: {exc}"
                            ) from exc
                if pending:
                    # PRAGMA takes no parameters; the number is an int we parsed.
                    await self.connection.execute(f"PRAGMA user_version = {pending[-1].number:d}")
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()

    def _too_new(self, current: int, known: int) -> SchemaTooNew:
        return SchemaTooNew(
            f"the database {self.path} is at schema version {current}, newer than this bot "
            f"knows ({known}): run a newer version of the bot"
        )

    # -- transactions ----------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.transaction() as db:`` runs the block in one
        ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if it raises. Other
        modules sharing this connection write through here too."""
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()

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
    ) -> int:
        """Insert a lobby table at version 1 with its first log row; returns its id.
        Raises :class:`ChannelTaken` if the channel has an open table."""
        options_json = _json(options)
        async with self.transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, host_id, options, status,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?)",
                    (guild_id, channel_id, host_id, options_json, entry.at, entry.at),
                )
            except sqlite3.IntegrityError as exc:
                raise _integrity(exc) from exc
            table_id = cursor.lastrowid
            assert table_id is not None
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.bot_level) for s in seats],
            )
            await self._insert_entry(db, table_id, 1, entry)
        return table_id

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's message (not an action: the version stays)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )

    async def turn_mention(self, table_id: int) -> TurnMention | None:
        """The table's current turn mention and the turn it is for, None if
        none is posted (or no such table): after a restart only the database
        knows them."""
        async with self.connection.execute(
            "SELECT turn_mention_id, turn_mention_turn FROM tables WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None or row[0] is None:
            return None
        return TurnMention(int(row[0]), None if row[1] is None else str(row[1]))

    async def set_turn_mention(self, table_id: int, mention: TurnMention | None) -> None:
        """Remember the table's turn mention with its turn; None clears it (it
        was deleted, or the turn is nobody's to be told). Not an action: the
        version stays."""
        message_id, turn = (mention.message_id, mention.turn) if mention else (None, None)
        async with self.transaction() as db:
            await db.execute(
                "UPDATE tables SET turn_mention_id = ?, turn_mention_turn = ? WHERE id = ?",
                (message_id, turn, table_id),
            )

    async def commit_action(
        self, table_id: int, version: int, entry: LogEntry, change: Change | None = None
    ) -> Committed:
        """Append ``entry`` to the log of a table at ``version`` and apply
        ``change``, all in one transaction; returns the new version (and the
        new game's id when ``change`` starts one).

        Raises :class:`VersionConflict` if the stored version is not ``version``
        and :class:`ChannelTaken` if a status change collides with another open
        table; nothing is written then.
        """
        change = change or Change()
        new_version = version + 1
        if _only_current_state(change):
            assert change.state is not None
            await self._commit_plain(table_id, new_version, entry, change.state)
            return Committed(new_version)
        async with self.transaction() as db:
            start = change.game_start
            try:
                cursor = await db.execute(
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
            except sqlite3.IntegrityError as exc:
                raise _integrity(exc) from exc
            if cursor.rowcount != 1:
                raise VersionConflict(f"table {table_id} is no longer at version {version}")
            await self._insert_entry(db, table_id, new_version, entry)
            if change.seats is not None:
                await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                await db.executemany(
                    "INSERT INTO seats (table_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
                    [(table_id, s.seat, s.user_id, s.bot_level) for s in change.seats],
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
        return Committed(new_version, game_id)

    async def _commit_plain(
        self, table_id: int, version: int, entry: LogEntry, state: StateWrite
    ) -> None:
        """The common case (a bid, a card): the log row, the version bump and
        the current state in one INSERT, which is one transaction of its own
        (see migration 016): one round trip to the database thread."""
        async with self.write_lock:
            try:
                await self.connection.execute(
                    "INSERT INTO action_commits (table_id, seq, kind, actor, payload, at,"
                    " game_no, format, current) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table_id,
                        version,
                        entry.kind,
                        entry.actor,
                        _json(entry.payload),
                        entry.at,
                        state.game_no,
                        state.format,
                        state.current,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                if "version conflict" in str(exc):
                    raise VersionConflict(
                        f"table {table_id} is no longer at version {version - 1}"
                    ) from None
                raise _integrity(exc) from exc

    async def _write_state(
        self, db: aiosqlite.Connection, table_id: int, version: int, state: StateWrite
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

    async def _insert_entry(
        self, db: aiosqlite.Connection, table_id: int, seq: int, entry: LogEntry
    ) -> None:
        await db.execute(
            "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seq, entry.kind, entry.actor, _json(entry.payload), entry.at),
        )

    async def _insert_game(self, db: aiosqlite.Connection, table_id: int, start: GameStart) -> int:
        cursor = await db.execute(
            "INSERT INTO games (table_id, game_no, guild_id, channel_id, preset, options, seed,"
            " started_at) SELECT id, ?, guild_id, channel_id, ?, ?, ?, ? FROM tables WHERE id = ?",
            (
                start.game_no,
                start.preset,
                _json(start.options),
                start.seed,
                start.started_at,
                table_id,
            ),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        await db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, bot_level, team)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.bot_level, s.seat & 1) for s in start.seats],
        )
        return game_id

    async def _finish_game(self, db: aiosqlite.Connection, table_id: int, end: GameEnd) -> None:
        async with db.execute(
            "SELECT id FROM games WHERE table_id = ? AND game_no = ?", (table_id, end.game_no)
        ) as cursor:
            row = await cursor.fetchone()
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
                _json(list(end.hands)),
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
        # Every query walks the chosen tables first (CROSS JOIN keeps that
        # order) and reaches their rows through primary keys.
        db = self.connection
        records: dict[int, TableRecord] = {}
        async with db.execute(
            "SELECT t.id, t.guild_id, t.channel_id, t.message_id, t.host_id, t.options,"
            " t.status, t.version, t.game_no, t.game_seq, t.created_at, t.updated_at,"
            " g.id, g.seed, g.started_at, g.preset, g.options"
            " FROM tables t LEFT JOIN games g ON g.table_id = t.id AND g.game_no = t.game_no"
            f" WHERE {where} ORDER BY t.id",
            args,
        ) as cursor:
            for r in await cursor.fetchall():
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
                )
                if r[12] is not None:
                    record.game = GameInfo(r[12], r[8], r[13], r[14], r[15], r[16])
                records[record.id] = record
        if not records:
            return []
        async with db.execute(
            "SELECT s.table_id, s.seat, s.user_id, s.bot_level FROM tables t"
            f" CROSS JOIN seats s ON s.table_id = t.id WHERE {where}"
            " ORDER BY s.table_id, s.seat",
            args,
        ) as cursor:
            for r in await cursor.fetchall():
                records[r[0]].seats.append(SeatRow(r[1], r[2], r[3]))
        async with db.execute(
            "SELECT s.table_id, s.user_id FROM tables t"
            f" CROSS JOIN spectators s ON s.table_id = t.id WHERE {where}"
            " ORDER BY s.table_id, s.joined_at, s.user_id",
            args,
        ) as cursor:
            for r in await cursor.fetchall():
                records[r[0]].spectators.append(r[1])
        if state_format is not None:
            async with db.execute(
                "SELECT s.table_id, h.history, s.current FROM tables t"
                " CROSS JOIN table_states s ON s.table_id = t.id"
                " LEFT JOIN table_histories h ON h.table_id = t.id"
                f" WHERE {where} AND s.game_no = t.game_no AND s.format = ?",
                (*args, state_format),
            ) as cursor:
                for r in await cursor.fetchall():
                    records[r[0]].state = StoredState(r[1], r[2])
        needing_log = [
            r.id for r in records.values() if r.game is not None and (with_log or r.state is None)
        ]
        if needing_log:
            # The ids come from the rows just read: bind them as a JSON array.
            async with db.execute(
                "SELECT a.table_id, a.seq, a.kind, a.actor, a.payload, a.at"
                " FROM json_each(?) j CROSS JOIN tables t ON t.id = j.value"
                " CROSS JOIN actions a ON a.table_id = t.id AND a.seq > t.game_seq"
                " ORDER BY a.table_id, a.seq",
                (json.dumps(needing_log),),
            ) as cursor:
                loads = json.loads
                for r in await cursor.fetchall():
                    records[r[0]].game_log.append(LogEntry(r[2], r[3], loads(r[4]), r[5], r[1]))
        return list(records.values())

    async def open_table_in_channel(self, channel_id: int) -> int | None:
        async with self.connection.execute(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else None

    async def action_log(self, table_id: int) -> list[LogEntry]:
        """A table's whole log, oldest first."""
        async with self.connection.execute(
            "SELECT seq, kind, actor, payload, at FROM actions WHERE table_id = ? ORDER BY seq",
            (table_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [LogEntry(r[1], r[2], json.loads(r[3]), r[4], r[0]) for r in rows]

    async def game_results(self, table_id: int) -> list[dict[str, Any]]:
        """The finished games of a table with their seats, oldest first."""
        async with self.connection.execute(
            "SELECT id, game_no, preset, seed, started_at, ended_at, winner, reason,"
            " reason_seat, score0, score1, hands_played, hands FROM games"
            " WHERE table_id = ? AND ended_at IS NOT NULL ORDER BY game_no",
            (table_id,),
        ) as cursor:
            games = await cursor.fetchall()
        results: list[dict[str, Any]] = []
        for g in games:
            async with self.connection.execute(
                "SELECT seat, user_id, bot_level, team, outcome, points, opponent_points"
                " FROM game_seats WHERE game_id = ? ORDER BY seat",
                (g[0],),
            ) as cursor:
                seats = await cursor.fetchall()
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

    # -- deadlines (the turn clock's) -----------------------------------------

    async def put_deadline(
        self, table_id: int, kind: str, due_at: float, data: Mapping[str, Any]
    ) -> None:
        """Store a deadline, replacing the table's deadline of the same kind."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO deadlines (table_id, kind, due_at, data) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, kind) DO UPDATE"
                " SET due_at = excluded.due_at, data = excluded.data",
                (table_id, kind, due_at, _json(data)),
            )

    async def delete_deadline(self, table_id: int, kind: str | None = None) -> None:
        """Remove one deadline of a table, or all of them when ``kind`` is None."""
        async with self.transaction() as db:
            if kind is None:
                await db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            else:
                await db.execute(
                    "DELETE FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind)
                )

    async def load_deadlines(self) -> list[Deadline]:
        """Every stored deadline, soonest first."""
        return await self.next_deadlines()

    async def next_deadlines(
        self, until: float | None = None, limit: int | None = None
    ) -> list[Deadline]:
        """Deadlines due at or before ``until`` (all when None), soonest first."""
        sql = "SELECT table_id, kind, due_at, data FROM deadlines"
        args: list[Any] = []
        if until is not None:
            sql += " WHERE due_at <= ?"
            args.append(until)
        sql += " ORDER BY due_at, table_id, kind"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        async with self.connection.execute(sql, args) as cursor:
            rows = await cursor.fetchall()
        return [Deadline(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # -- user preferences ------------------------------------------------------

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        async with self.connection.execute(
            "SELECT deck, data, updated_at FROM user_prefs WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return UserPrefs(user_id, row[0], json.loads(row[1]), row[2])

    async def get_deck(self, user_id: int) -> str | None:
        """The user's deck design, or None if they never chose one."""
        prefs = await self.get_user_prefs(user_id)
        return prefs.deck if prefs else None

    async def set_deck(self, user_id: int, deck: str | None, at: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, deck, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE"
                " SET deck = excluded.deck, updated_at = excluded.updated_at",
                (user_id, deck, at),
            )

    async def set_user_data(self, user_id: int, data: Mapping[str, Any], at: float) -> None:
        """Replace the user's further preferences (a JSON object)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE"
                " SET data = excluded.data, updated_at = excluded.updated_at",
                (user_id, _json(data), at),
            )


# -- helpers -----------------------------------------------------------------------


async def connect(path: str | Path, *, synchronous: str = "NORMAL") -> aiosqlite.Connection:
    """A new connection to the database with the store's settings. Modules
    that want their own connection to the same file (so their transactions
    never wait on the store's lock) open it here."""
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"unknown synchronous mode {synchronous!r}")
    # isolation_level=None: the store issues BEGIN/COMMIT itself.
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        # busy_timeout first: switching to WAL may wait on another connection.
        await connection.executescript(
            f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d};"
            " PRAGMA journal_mode = WAL;"
            f" PRAGMA synchronous = {synchronous.upper()};"
            " PRAGMA foreign_keys = ON;"
        )
    except BaseException:
        await connection.close()
        raise
    return connection


def _only_current_state(change: Change) -> bool:
    """Whether ``change`` is just a new current engine state (most actions)."""
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


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _integrity(exc: sqlite3.IntegrityError) -> StoreError:
    if "tables.channel_id" in str(exc):
        return ChannelTaken("a table is already open in this channel")
    return StoreError(f"the database refused the write: {exc}")
