"""SQL of the leaderboard, ratings and statistics (tables ``stats_*``).

Each finished game is folded into aggregates in one transaction, so leaderboard
queries read a few indexed rows whatever the number of games. The tallies and
ratings come computed from :mod:`bot.stats`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from db.log_kinds import GAME_STARTS
from db.sql import Database, Row, Statements
from db.stats_records import (
    GameWrite,
    HistoryRow,
    LeaderboardRow,
    LoggedAction,
    PartnerRow,
    PlayerRow,
    SeatWrite,
    SortKey,
    StoredGame,
)
from db.store import StoreSection

TALLY_COLUMNS = (
    "games",
    "wins",
    "losses",
    "draws",
    "hands",
    "points",
    "nils_bid",
    "nils_made",
    "blind_nils_bid",
    "blind_nils_made",
    "sets",
    "bags",
    "revokes_proven",
    "revokes_caught",
    "false_claims",
)


#: The season columns of a player: their rating and record in it.
SEASON_COLUMNS = ("games", "wins", "losses", "draws")

_ORDER = {
    SortKey.RATING: ("rated_games > 0", "rating DESC, wins DESC, user_id"),
    SortKey.WINS: ("games > 0", "wins DESC, rating DESC, user_id"),
}


class StatsStore(StoreSection):
    """The ``stats_*`` tables, written through the main store's transactions."""

    # -- settings ---------------------------------------------------------------

    async def rate_computer_games(self, guild_id: int) -> bool:
        row = await self.db.fetchone(
            "SELECT rate_computer_games FROM stats_guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return bool(row[0]) if row else False

    async def set_rate_computer_games(self, guild_id: int, rate: bool) -> None:
        await self.db.execute(
            "INSERT INTO stats_guild_settings (guild_id, rate_computer_games) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE "
            "SET rate_computer_games = excluded.rate_computer_games",
            (guild_id, int(rate)),
        )

    # -- what counting a batch of games starts from ------------------------------

    async def counted_ids(self, game_ids: Sequence[int]) -> set[int]:
        """Those of ``game_ids`` already counted."""
        sql = "SELECT game_id FROM stats_games WHERE game_id IN ({ids})"
        return {row[0] for row in await rows_in(self.db, sql, game_ids)}

    async def rate_settings(self, guild_ids: Iterable[int]) -> dict[int, bool]:
        """Whether each server rates games with computer players (default no)."""
        ids = sorted(set(guild_ids))
        settings = dict.fromkeys(ids, False)
        sql = "SELECT guild_id, rate_computer_games FROM stats_guild_settings"
        sql += " WHERE guild_id IN ({ids})"
        settings.update((row[0], bool(row[1])) for row in await rows_in(self.db, sql, ids))
        return settings

    async def skills(
        self, keys: Iterable[tuple[int, int | str]]
    ) -> dict[tuple[int, int | str], tuple[float, float]]:
        """The stored (mu, sigma) by (guild, user id) or (guild, computer level), if known."""
        wanted = sorted(set(keys), key=repr)
        people = [k for k in wanted if isinstance(k[1], int)]
        levels = [k for k in wanted if isinstance(k[1], str)]
        guild = ("guild_id", "BIGINT")
        found = await skills_of(self.db, "stats_players", (guild, ("user_id", "BIGINT")), people)
        found |= await skills_of(
            self.db, "stats_computer_ratings", (guild, ("level", "TEXT")), levels
        )
        return found

    # -- counting games ---------------------------------------------------------

    async def write_games(self, games: Sequence[GameWrite]) -> None:
        """Count finished games in order, all or nothing; a game counted before fails the batch."""
        if not games:
            return
        async with self.transaction() as db:
            await self._write_games(db, games)

    async def _write_games(self, db: Statements, games: Sequence[GameWrite]) -> None:
        # One executemany per table per batch: the trips to the database are most of the cost.
        await db.executemany(
            "INSERT INTO stats_games (game_id, guild_id, finished_at, rated, challenger_seat, "
            "season_no) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (g.game_id, g.guild_id, g.finished_at, int(g.rated), g.challenger_seat, g.season_no)
                for g in games
            ],
        )
        await db.executemany(
            "INSERT INTO stats_game_seats (game_id, seat, guild_id, user_id, computer_level, "
            "finished_at, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    g.game_id,
                    seat.seat,
                    g.guild_id,
                    seat.user_id,
                    seat.computer_level,
                    g.finished_at,
                    seat.rating_before,
                    seat.new_skill[2] if seat.new_skill else None,
                )
                for g in games
                for seat in g.seats
            ],
        )
        people = [(g, seat) for g in games for seat in g.seats if seat.user_id is not None]
        await db.executemany(
            _PLAYER_UPSERT,
            [
                _rating_row(
                    seat, seat.new_skill, TALLY_COLUMNS, guild_id=g.guild_id, at=g.finished_at
                )
                for g, seat in people
            ],
        )
        await db.executemany(
            _SEASON_PLAYER_UPSERT,
            [
                _rating_row(
                    seat,
                    seat.season_skill,
                    SEASON_COLUMNS,
                    guild_id=g.guild_id,
                    season_no=g.season_no,
                )
                for g, seat in people
            ],
        )
        await db.executemany(
            "INSERT INTO stats_partners (guild_id, user_id, partner_id, games, wins, draws) "
            "VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, user_id, partner_id) DO UPDATE "
            "SET games = stats_partners.games + 1, wins = stats_partners.wins + excluded.wins, "
            "draws = stats_partners.draws + excluded.draws",
            [(g.guild_id, *result) for g in games for result in g.partner_results],
        )
        await db.executemany(
            "INSERT INTO stats_computer_ratings (guild_id, level, mu, sigma, rated_games) "
            "VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, level) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, "
            "rated_games = stats_computer_ratings.rated_games + 1",
            [
                (g.guild_id, level, mu, sigma)
                for g in games
                for level, (mu, sigma) in g.computer_skills.items()
            ],
        )

    # -- queries ----------------------------------------------------------------

    async def leaderboard_size(
        self, guild_id: int, sort: SortKey, season: int | None = None
    ) -> int:
        """How many players the leaderboard in that order lists, all time or in ``season``."""
        where, _ = _ORDER[sort]
        table, scope, args = _board_scope(guild_id, season)
        row = await self.db.fetchone(
            f"SELECT COUNT(*) FROM {table} WHERE {scope} AND {where}", args
        )
        return int(row[0]) if row else 0

    async def leaderboard_rows(
        self, guild_id: int, sort: SortKey, offset: int, limit: int, season: int | None = None
    ) -> tuple[LeaderboardRow, ...]:
        """The leaderboard's rows from place ``offset + 1`` on, at most ``limit``."""
        where, order = _ORDER[sort]
        table, scope, args = _board_scope(guild_id, season)
        rows = await self.db.fetchall(
            f"SELECT user_id, rating, rated_games, games, wins, losses, draws FROM {table} "
            f"WHERE {scope} AND {where} ORDER BY {order} LIMIT ? OFFSET ?",
            (*args, limit, offset),
        )
        return tuple(LeaderboardRow(offset + i + 1, *r) for i, r in enumerate(rows))

    async def player(self, guild_id: int, user_id: int) -> PlayerRow | None:
        columns = ", ".join(TALLY_COLUMNS)
        row = await self.db.fetchone(
            f"SELECT rating, rated_games, {columns} FROM stats_players "
            "WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return None
        return PlayerRow(user_id, row[0], row[1], dict(zip(TALLY_COLUMNS, row[2:], strict=True)))

    async def rating_rank(
        self, guild_id: int, rating: int, season: int | None = None
    ) -> tuple[int, int]:
        """(place of ``rating`` among rated players, their number), all time or in ``season``."""
        table, scope, args = _board_scope(guild_id, season)
        row = await self.db.fetchone(
            f"SELECT COUNT(CASE WHEN rating > ? THEN 1 END), COUNT(*) FROM {table} "
            f"WHERE {scope} AND rated_games > 0",
            (rating, *args),
        )
        above, total = (int(row[0]), int(row[1])) if row else (0, 0)
        return above + 1, total

    async def partners(self, guild_id: int, user_id: int) -> list[PartnerRow]:
        rows = await self.db.fetchall(
            "SELECT partner_id, games, wins, draws FROM stats_partners "
            "WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return [PartnerRow(*row) for row in rows]

    async def history(self, guild_id: int, user_id: int, limit: int) -> list[HistoryRow]:
        rows = await self.db.fetchall(
            "SELECT s.game_id, s.finished_at, s.seat, g.winner, g.reason, g.score0, g.score1, "
            "g.hands_played, p.user_id, p.computer_level, s.rating_before, s.rating_after, "
            "g.end_note, g.winner_seat, g.seat_scores "
            "FROM stats_game_seats AS s "
            "JOIN games AS g ON g.id = s.game_id "
            "JOIN stats_game_seats AS p ON p.game_id = s.game_id AND p.seat = (s.seat + 2) % 4 "
            "WHERE s.guild_id = ? AND s.user_id = ? "
            "ORDER BY s.finished_at DESC, s.game_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        found = []
        for r in rows:
            winner, scores = _result(r[3], (r[5], r[6]), r[13], r[14])
            partner = (None, None) if len(scores) == 4 else (r[8], r[9])  # solo: no partner
            found.append(
                HistoryRow(r[0], r[1], r[2], winner, r[4], scores, r[7], *partner, *r[10:13])
            )
        return found

    async def stored_game(self, game_id: int) -> StoredGame | None:
        """A finished game from the main store, None if unknown or not over."""
        found = await self.stored_games([game_id])
        return found[0] if found else None

    async def stored_games(self, game_ids: Sequence[int]) -> list[StoredGame]:
        """The finished ones of ``game_ids`` from the main store, in that order."""
        found = await rows_in(
            self.db,
            "SELECT g.id, g.table_id, g.game_no, g.guild_id, g.options, g.seed, "
            "g.started_at, g.ended_at, g.winner, g.reason, g.reason_seat, g.score0, g.score1, "
            "g.hands, s.game_id, s.challenger_seat, g.hints, g.winner_seat, g.seat_scores "
            "FROM games AS g LEFT JOIN stats_games AS s ON s.game_id = g.id "
            "WHERE g.id IN ({ids}) AND g.ended_at IS NOT NULL",
            game_ids,
        )
        rows = {r[0]: r for r in found}
        seats: dict[int, list[tuple[int | None, str | None]]] = {}
        for game_id, user_id, level in await rows_in(
            self.db,
            "SELECT game_id, user_id, bot_level FROM game_seats"
            " WHERE game_id IN ({ids}) ORDER BY game_id, seat",
            game_ids,
        ):
            seats.setdefault(game_id, []).append((user_id, level))
        results = {r[0]: _result(r[8], (r[11], r[12]), r[17], r[18]) for r in found}
        return [
            StoredGame(
                game_id=row[0],
                table_id=row[1],
                game_no=row[2],
                guild_id=row[3],
                rules=json.loads(row[4]),
                seed=row[5],
                started_at=row[6],
                finished_at=row[7],
                winner=results[game_id][0],
                reason=row[9],
                reason_seat=row[10],
                scores=results[game_id][1],
                hand_records=json.loads(row[13]) if row[13] else [],
                seats=tuple(seats.get(row[0], ())),
                challenger_seat=row[15],
                counted=row[14] is not None,
                hints=bool(row[16]),
            )
            for game_id in game_ids
            if (row := rows.get(game_id)) is not None
        ]

    async def game_actions(self, table_id: int, game_no: int) -> list[LoggedAction]:
        """The logged actions of one game of a table, between its start and the next one."""
        rows = await self.db.fetchall(
            "SELECT kind, payload, at FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        actions: list[LoggedAction] = []
        inside = False
        for kind, payload_text, at in rows:
            payload = json.loads(payload_text)
            if kind in GAME_STARTS:
                if inside:
                    break
                inside = payload.get("game_no") == game_no
                continue
            if inside:
                actions.append(LoggedAction(kind, payload, at))
        return actions

    async def uncounted_game_ids(self) -> list[int]:
        """Finished server games not yet counted (a crash came between), oldest first."""
        rows = await self.db.fetchall(
            "SELECT g.id FROM games AS g WHERE g.ended_at IS NOT NULL "
            "AND g.guild_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM stats_games AS s WHERE s.game_id = g.id) "
            "ORDER BY g.ended_at, g.id"
        )
        return [row[0] for row in rows]


def chunks(values: list[Any], size: int = 500) -> list[list[Any]]:
    """Pieces small enough for SQLite's limit on bound parameters."""
    return [values[i : i + size] for i in range(0, len(values), size)]


async def rows_in(db: Database, sql: str, ids: Iterable[Any]) -> list[Row]:
    """The rows of ``sql`` for all ``ids``, its ``{ids}`` becoming placeholders, in chunks."""
    rows: list[Row] = []
    for chunk in chunks(list(ids)):
        rows += await db.fetchall(sql.format(ids=",".join("?" * len(chunk))), chunk)
    return rows


async def skills_of(
    db: Database, table: str, key: tuple[tuple[str, str], ...], keys: Sequence[tuple[Any, ...]]
) -> dict[tuple[Any, ...], tuple[float, float]]:
    """The stored (mu, sigma) of ``table``'s rows by ``keys``, values of its ``key`` columns
    (name, SQL type): the casts type the listed values (PostgreSQL would take them for text)."""
    names = ", ".join(f"k{i}" for i in range(len(key)))
    one = "(" + ", ".join(f"CAST(? AS {kind})" for _, kind in key) + ")"
    on = " AND ".join(f"s.{column} = wanted.k{i}" for i, (column, _) in enumerate(key))
    columns = ", ".join(f"s.{column}" for column, _ in key)
    found: dict[tuple[Any, ...], tuple[float, float]] = {}
    for chunk in chunks(list(keys), 900 // len(key)):
        for row in await db.fetchall(
            f"WITH wanted ({names}) AS (VALUES {','.join([one] * len(chunk))}) "
            f"SELECT {columns}, s.mu, s.sigma FROM wanted JOIN {table} AS s ON {on}",
            [v for k in chunk for v in k],
        ):
            found[tuple(row[: len(key)])] = (row[-2], row[-1])
    return found


def _result(
    winner: int | None, teams: tuple[int, int], winner_seat: int | None, seat_scores: str | None
) -> tuple[int | None, tuple[int, ...]]:
    """A finished game's winning side and scores per side: a solo game keeps
    them in columns of their own (migration 040), every other the teams'."""
    if seat_scores is None:
        return winner, teams
    return winner_seat, tuple(json.loads(seat_scores))


def _board_scope(guild_id: int, season: int | None) -> tuple[str, str, tuple[int, ...]]:
    """The table, condition and arguments of a leaderboard: all time, or one season."""
    if season is None:
        return "stats_players", "guild_id = ?", (guild_id,)
    return "stats_season_players", "guild_id = ? AND season_no = ?", (guild_id, season)


def _rating_row(
    seat: SeatWrite,
    skill: tuple[float, float, int] | None,
    columns: tuple[str, ...],
    **keys: Any,
) -> dict[str, Any]:
    """The arguments of :func:`_rating_upsert`'s statement for one player's game; unrated
    (``skill`` None), the newcomer's skill, which an existing row keeps its own over."""
    mu, sigma, rating = skill or seat.start_skill
    return {
        **keys,
        "user_id": seat.user_id,
        "mu": mu,
        "sigma": sigma,
        "rating": rating,
        "rated": int(skill is not None),
        **{c: seat.tally[c] for c in columns},
    }


def _rating_upsert(
    table: str, keys: tuple[str, ...], columns: tuple[str, ...], *, last_played: bool = False
) -> str:
    """Add one game to a player's row; an unrated game keeps the skill, the latest ``:at`` wins."""
    names = [*keys, "mu", "sigma", "rating", "rated_games", *columns]
    values = [*(f":{k}" for k in keys), ":mu", ":sigma", ":rating", ":rated"]
    values += [f":{c}" for c in columns]
    sets = [
        f"{c} = CASE WHEN :rated = 1 THEN excluded.{c} ELSE {table}.{c} END"
        for c in ("mu", "sigma", "rating")
    ]
    sets.append(f"rated_games = {table}.rated_games + :rated")
    sets += [f"{c} = {table}.{c} + excluded.{c}" for c in columns]
    if last_played:
        names.append("last_played_at")
        values.append(":at")
        sets.append(
            f"last_played_at = CASE WHEN excluded.last_played_at > {table}.last_played_at "
            f"THEN excluded.last_played_at ELSE {table}.last_played_at END"
        )
    return (
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(values)}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(sets)}"
    )


_PLAYER_UPSERT = _rating_upsert(
    "stats_players", ("guild_id", "user_id"), TALLY_COLUMNS, last_played=True
)
_SEASON_PLAYER_UPSERT = _rating_upsert(
    "stats_season_players", ("guild_id", "season_no", "user_id"), SEASON_COLUMNS
)
