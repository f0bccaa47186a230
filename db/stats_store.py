"""SQL of the leaderboard, ratings and statistics (tables ``stats_*``).

The finished games themselves (rules, seats, result, hand records, action
log) are the main store's (:mod:`db.store`); this module reads them and keeps
aggregates beside them. A finished game is folded into the aggregates in one
transaction, so the leaderboard and stats queries read a handful of rows
through an index whatever the number of games. No rules here: the caller
passes the tallies and new ratings computed in :mod:`bot.stats`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey, page_span
from db.store import Store

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


@dataclass(frozen=True, slots=True)
class SkillRow:
    mu: float
    sigma: float
    rated_games: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A finished game as the main store keeps it."""

    game_id: int
    table_id: int
    game_no: int
    guild_id: int | None
    rules: dict[str, Any]
    seed: int
    started_at: float
    finished_at: float
    winner: int | None
    reason: str
    reason_seat: int | None
    scores: tuple[int, int]
    hand_records: list[dict[str, Any]]
    seats: tuple[tuple[int | None, str | None], ...]  # (user_id, computer_level) per seat
    challenger_seat: int | None  # as counted; None if not counted or no challenge
    counted: bool


@dataclass(frozen=True, slots=True)
class LoggedAction:
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class SeatWrite:
    """What recording a game writes for one seat."""

    seat: int
    user_id: int | None
    computer_level: str | None
    tally: Mapping[str, int]
    new_skill: tuple[float, float, int] | None  # (mu, sigma, display rating) when rated
    rating_before: int | None
    start_skill: tuple[float, float, int]  # a newcomer's skill, stored if unrated


@dataclass(frozen=True, slots=True)
class GameWrite:
    """Everything counting one finished game writes."""

    game_id: int
    guild_id: int
    finished_at: float
    rated: bool
    challenger_seat: int | None
    seats: tuple[SeatWrite, ...]
    partner_results: tuple[tuple[int, int, int, int], ...]  # (user, partner, won, drew)
    computer_skills: Mapping[str, tuple[float, float]]  # level -> new (mu, sigma)


class _AlreadyCounted(Exception):
    """Raised inside the transaction to roll it back: the game was counted before."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    rating: int
    rated_games: int
    tally: dict[str, int]


@dataclass(frozen=True, slots=True)
class PartnerRow:
    partner_id: int
    games: int
    wins: int
    draws: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: int
    finished_at: float
    seat: int
    winner: int | None
    reason: str
    scores: tuple[int, int]
    hands: int
    partner_id: int | None
    partner_level: str | None
    rating_before: int | None
    rating_after: int | None


#: Log kinds that begin a game at a table (the table service's start and rematch).
GAME_STARTS = frozenset({"start", "rematch"})

_ORDER = {
    SortKey.RATING: ("rated_games > 0", "rating DESC, wins DESC, user_id"),
    SortKey.WINS: ("games > 0", "wins DESC, rating DESC, user_id"),
}


class StatsStore:
    """The ``stats_*`` tables, sharing the main store's connection; writes go
    through :meth:`Store.transaction` so they never interleave with others."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.connection

    # -- settings ---------------------------------------------------------------

    async def rate_computer_games(self, guild_id: int) -> bool:
        async with self.db.execute(
            "SELECT rate_computer_games FROM stats_guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row[0]) if row else False

    async def set_rate_computer_games(self, guild_id: int, rate: bool) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO stats_guild_settings (guild_id, rate_computer_games) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE "
                "SET rate_computer_games = excluded.rate_computer_games",
                (guild_id, int(rate)),
            )

    # -- reading skills before a game is rated ----------------------------------

    async def player_skills(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, SkillRow]:
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        async with self.db.execute(
            f"SELECT user_id, mu, sigma, rated_games FROM stats_players "
            f"WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *ids),
        ) as cursor:
            return {row[0]: SkillRow(row[1], row[2], row[3]) async for row in cursor}

    async def computer_skills(self, guild_id: int, levels: Iterable[str]) -> dict[str, SkillRow]:
        names = list(levels)
        if not names:
            return {}
        marks = ",".join("?" * len(names))
        async with self.db.execute(
            f"SELECT level, mu, sigma, rated_games FROM stats_computer_ratings "
            f"WHERE guild_id = ? AND level IN ({marks})",
            (guild_id, *names),
        ) as cursor:
            return {row[0]: SkillRow(row[1], row[2], row[3]) async for row in cursor}

    async def is_recorded(self, game_id: int) -> bool:
        async with self.db.execute(
            "SELECT 1 FROM stats_games WHERE game_id = ?", (game_id,)
        ) as cursor:
            return await cursor.fetchone() is not None

    # -- recording a game -------------------------------------------------------

    async def write_game(self, game: GameWrite) -> bool:
        """Count one finished game in the aggregates, all or nothing.

        Returns False (and writes nothing) if the game was counted before.
        """
        try:
            async with self.store.transaction() as db:
                await self._write_game(db, game)
        except _AlreadyCounted:
            return False
        return True

    async def _write_game(self, db: aiosqlite.Connection, game: GameWrite) -> None:
        cursor = await db.execute(
            "INSERT OR IGNORE INTO stats_games (game_id, guild_id, finished_at, rated, "
            "challenger_seat) VALUES (?, ?, ?, ?, ?)",
            (game.game_id, game.guild_id, game.finished_at, int(game.rated), game.challenger_seat),
        )
        if cursor.rowcount == 0:
            raise _AlreadyCounted
        guild_id, game_id, finished_at = game.guild_id, game.game_id, game.finished_at
        player_sql = _PLAYER_UPSERT
        for seat in game.seats:
            rating_after = seat.new_skill[2] if seat.new_skill else None
            await db.execute(
                "INSERT INTO stats_game_seats (game_id, seat, guild_id, user_id, computer_level, "
                "finished_at, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seat.seat,
                    guild_id,
                    seat.user_id,
                    seat.computer_level,
                    finished_at,
                    seat.rating_before,
                    rating_after,
                ),
            )
            if seat.user_id is None:
                continue
            mu, sigma, rating = seat.new_skill or seat.start_skill
            await db.execute(
                player_sql,
                {
                    "guild_id": guild_id,
                    "user_id": seat.user_id,
                    "mu": mu,
                    "sigma": sigma,
                    "rating": rating,
                    "rated": int(seat.new_skill is not None),
                    "at": finished_at,
                    **{c: seat.tally[c] for c in TALLY_COLUMNS},
                },
            )
        for user_id, partner_id, win, draw in game.partner_results:
            await db.execute(
                "INSERT INTO stats_partners (guild_id, user_id, partner_id, games, wins, draws) "
                "VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, user_id, partner_id) DO UPDATE "
                "SET games = games + 1, wins = wins + excluded.wins, "
                "draws = draws + excluded.draws",
                (guild_id, user_id, partner_id, win, draw),
            )
        for level, (mu, sigma) in game.computer_skills.items():
            await db.execute(
                "INSERT INTO stats_computer_ratings (guild_id, level, mu, sigma, rated_games) "
                "VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, level) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, rated_games = rated_games + 1",
                (guild_id, level, mu, sigma),
            )

    # -- queries ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: SortKey, page: int, page_size: int
    ) -> LeaderboardPage:
        where, order = _ORDER[sort]
        async with self.db.execute(
            f"SELECT COUNT(*) FROM stats_players WHERE guild_id = ? AND {where}", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        total = int(row[0]) if row else 0
        span = page_span(page, total, page_size)
        async with self.db.execute(
            f"SELECT user_id, rating, rated_games, games, wins, losses, draws FROM stats_players "
            f"WHERE guild_id = ? AND {where} ORDER BY {order} LIMIT ? OFFSET ?",
            (guild_id, span.limit, span.offset),
        ) as cursor:
            rows = tuple(
                LeaderboardRow(span.offset + i + 1, *r)
                for i, r in enumerate(await cursor.fetchall())
            )
        return LeaderboardPage(sort=sort, span=span, total=total, rows=rows)

    async def player(self, guild_id: int, user_id: int) -> PlayerRow | None:
        columns = ", ".join(TALLY_COLUMNS)
        async with self.db.execute(
            f"SELECT rating, rated_games, {columns} FROM stats_players "
            "WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return PlayerRow(
            user_id=user_id,
            rating=row[0],
            rated_games=row[1],
            tally=dict(zip(TALLY_COLUMNS, row[2:], strict=True)),
        )

    async def rating_rank(self, guild_id: int, rating: int) -> tuple[int, int]:
        """(place of ``rating`` among rated players, number of rated players)."""
        async with self.db.execute(
            "SELECT COALESCE(SUM(rating > ?), 0), COUNT(*) FROM stats_players "
            "WHERE guild_id = ? AND rated_games > 0",
            (rating, guild_id),
        ) as cursor:
            row = await cursor.fetchone()
        above, total = (row[0], row[1]) if row else (0, 0)
        return above + 1, total

    async def partners(self, guild_id: int, user_id: int) -> list[PartnerRow]:
        async with self.db.execute(
            "SELECT partner_id, games, wins, draws FROM stats_partners "
            "WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ) as cursor:
            return [PartnerRow(*row) async for row in cursor]

    async def history(self, guild_id: int, user_id: int, limit: int) -> list[HistoryRow]:
        async with self.db.execute(
            "SELECT s.game_id, s.finished_at, s.seat, g.winner, g.reason, g.score0, g.score1, "
            "g.hands_played, p.user_id, p.computer_level, s.rating_before, s.rating_after "
            "FROM stats_game_seats AS s "
            "JOIN games AS g ON g.id = s.game_id "
            "JOIN stats_game_seats AS p ON p.game_id = s.game_id AND p.seat = (s.seat + 2) % 4 "
            "WHERE s.guild_id = ? AND s.user_id = ? "
            "ORDER BY s.finished_at DESC, s.game_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        ) as cursor:
            return [
                HistoryRow(
                    game_id=r[0],
                    finished_at=r[1],
                    seat=r[2],
                    winner=r[3],
                    reason=r[4],
                    scores=(r[5], r[6]),
                    hands=r[7],
                    partner_id=r[8],
                    partner_level=r[9],
                    rating_before=r[10],
                    rating_after=r[11],
                )
                async for r in cursor
            ]

    async def stored_game(self, game_id: int) -> StoredGame | None:
        """A finished game from the main store, None if unknown or not over."""
        async with self.db.execute(
            "SELECT g.id, g.table_id, g.game_no, g.guild_id, g.options, g.seed, g.started_at, "
            "g.ended_at, g.winner, g.reason, g.reason_seat, g.score0, g.score1, g.hands, "
            "s.game_id, s.challenger_seat "
            "FROM games AS g LEFT JOIN stats_games AS s ON s.game_id = g.id "
            "WHERE g.id = ? AND g.ended_at IS NOT NULL",
            (game_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self.db.execute(
            "SELECT user_id, bot_level FROM game_seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cursor:
            seats = tuple((r[0], r[1]) for r in await cursor.fetchall())
        return StoredGame(
            game_id=row[0],
            table_id=row[1],
            game_no=row[2],
            guild_id=row[3],
            rules=json.loads(row[4]),
            seed=row[5],
            started_at=row[6],
            finished_at=row[7],
            winner=row[8],
            reason=row[9],
            reason_seat=row[10],
            scores=(row[11], row[12]),
            hand_records=json.loads(row[13]) if row[13] else [],
            seats=seats,
            challenger_seat=row[15],
            counted=row[14] is not None,
        )

    async def game_actions(self, table_id: int, game_no: int) -> list[LoggedAction]:
        """The logged actions of one game of a table: those after the start
        (or rematch) that began it, up to the next one."""
        async with self.db.execute(
            "SELECT kind, payload, at FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
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
        """Finished games on a server not yet counted in the aggregates
        (a crash between the game's end and its counting), oldest first."""
        async with self.db.execute(
            "SELECT g.id FROM games AS g WHERE g.ended_at IS NOT NULL "
            "AND g.guild_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM stats_games AS s WHERE s.game_id = g.id) "
            "ORDER BY g.ended_at, g.id"
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def guild_game_ids(self, guild_id: int) -> list[int]:
        async with self.db.execute(
            "SELECT game_id FROM stats_games WHERE guild_id = ? ORDER BY finished_at, game_id",
            (guild_id,),
        ) as cursor:
            return [row[0] async for row in cursor]


def _player_upsert() -> str:
    columns = ", ".join(TALLY_COLUMNS)
    values = ", ".join(f":{c}" for c in TALLY_COLUMNS)
    adds = ", ".join(f"{c} = {c} + excluded.{c}" for c in TALLY_COLUMNS)
    # A new player starts from the skill given; an unrated game (:rated = 0)
    # leaves an existing player's skill as it was.
    return (
        f"INSERT INTO stats_players (guild_id, user_id, mu, sigma, rating, rated_games, "
        f"{columns}, last_played_at) "
        f"VALUES (:guild_id, :user_id, :mu, :sigma, :rating, :rated, {values}, :at) "
        f"ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        f"mu = CASE WHEN :rated THEN excluded.mu ELSE mu END, "
        f"sigma = CASE WHEN :rated THEN excluded.sigma ELSE sigma END, "
        f"rating = CASE WHEN :rated THEN excluded.rating ELSE rating END, "
        f"rated_games = rated_games + :rated, {adds}, "
        f"last_played_at = MAX(last_played_at, excluded.last_played_at)"
    )


_PLAYER_UPSERT = _player_upsert()
