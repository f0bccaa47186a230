"""SQL of the leaderboard, ratings and statistics (tables ``stats_*``).

Aggregates are brought up to date in the same transaction that records a
finished game, so the leaderboard and stats queries read a handful of rows
through an index whatever the number of games. The store knows no rules:
the caller passes the tallies and new ratings computed in :mod:`bot.stats`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey, page_span

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
class GameRow:
    """One finished game as recorded in ``stats_games``."""

    game_id: int
    guild_id: int
    finished_at: float
    rules: dict[str, Any]
    winner: int | None
    reason: str
    reason_seat: int | None
    challenger_seat: int | None
    scores: tuple[int, int]
    rated: bool
    hand_records: list[dict[str, Any]]
    game_json: dict[str, Any] | None
    seats: tuple[tuple[int | None, str | None], ...]  # (user_id, computer_level) per seat


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


_ORDER = {
    SortKey.RATING: ("rated_games > 0", "rating DESC, wins DESC, user_id"),
    SortKey.WINS: ("games > 0", "wins DESC, rating DESC, user_id"),
}


class StatsStore:
    """The ``stats_*`` tables, on an open aiosqlite connection whose schema
    migrations have been applied."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.db = connection
        # One write at a time on this connection: a game's writes are one
        # transaction and must not interleave with another game's.
        self._write_lock = asyncio.Lock()

    # -- settings ---------------------------------------------------------------

    async def rate_computer_games(self, guild_id: int) -> bool:
        async with self.db.execute(
            "SELECT rate_computer_games FROM stats_guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row[0]) if row else False

    async def set_rate_computer_games(self, guild_id: int, rate: bool) -> None:
        async with self._write_lock:
            await self.db.execute(
                "INSERT INTO stats_guild_settings (guild_id, rate_computer_games) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE "
                "SET rate_computer_games = excluded.rate_computer_games",
                (guild_id, int(rate)),
            )
            await self.db.commit()

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

    async def write_game(
        self,
        *,
        game_id: int,
        guild_id: int,
        finished_at: float,
        rules: Mapping[str, Any],
        winner: int | None,
        reason: str,
        reason_seat: int | None,
        challenger_seat: int | None,
        scores: tuple[int, int],
        rated: bool,
        hand_records: Sequence[Mapping[str, Any]],
        game_json: Mapping[str, Any] | None,
        seats: Sequence[SeatWrite],
        partner_results: Sequence[tuple[int, int, int, int]],  # (user, partner, win, draw)
        computer_skills: Mapping[str, tuple[float, float]],
    ) -> bool:
        """Record one game and fold it into the aggregates, all or nothing.

        Returns False (and writes nothing) if the game was recorded before.
        """
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                written = await self._write_game(
                    game_id, guild_id, finished_at, rules, winner, reason, reason_seat,
                    challenger_seat, scores, rated, hand_records, game_json, seats,
                    partner_results, computer_skills,
                )  # fmt: skip
            except BaseException:
                await self.db.rollback()
                raise
            if written:
                await self.db.commit()
            else:
                await self.db.rollback()
            return written

    async def _write_game(
        self,
        game_id: int,
        guild_id: int,
        finished_at: float,
        rules: Mapping[str, Any],
        winner: int | None,
        reason: str,
        reason_seat: int | None,
        challenger_seat: int | None,
        scores: tuple[int, int],
        rated: bool,
        hand_records: Sequence[Mapping[str, Any]],
        game_json: Mapping[str, Any] | None,
        seats: Sequence[SeatWrite],
        partner_results: Sequence[tuple[int, int, int, int]],
        computer_skills: Mapping[str, tuple[float, float]],
    ) -> bool:
        db = self.db
        cursor = await db.execute(
            "INSERT OR IGNORE INTO stats_games (game_id, guild_id, finished_at, rules, winner, "
            "reason, reason_seat, challenger_seat, score0, score1, hands, rated, hand_records, "
            "game_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                guild_id,
                finished_at,
                json.dumps(rules),
                winner,
                reason,
                reason_seat,
                challenger_seat,
                scores[0],
                scores[1],
                len(hand_records),
                int(rated),
                json.dumps(list(hand_records), separators=(",", ":")),
                json.dumps(game_json, separators=(",", ":")) if game_json is not None else None,
            ),
        )
        if cursor.rowcount == 0:
            return False
        player_sql = _PLAYER_UPSERT
        for seat in seats:
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
        for user_id, partner_id, win, draw in partner_results:
            await db.execute(
                "INSERT INTO stats_partners (guild_id, user_id, partner_id, games, wins, draws) "
                "VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, user_id, partner_id) DO UPDATE "
                "SET games = games + 1, wins = wins + excluded.wins, "
                "draws = draws + excluded.draws",
                (guild_id, user_id, partner_id, win, draw),
            )
        for level, (mu, sigma) in computer_skills.items():
            await db.execute(
                "INSERT INTO stats_computer_ratings (guild_id, level, mu, sigma, rated_games) "
                "VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, level) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, rated_games = rated_games + 1",
                (guild_id, level, mu, sigma),
            )
        return True

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
            "g.hands, p.user_id, p.computer_level, s.rating_before, s.rating_after "
            "FROM stats_game_seats AS s "
            "JOIN stats_games AS g ON g.game_id = s.game_id "
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

    async def game(self, game_id: int) -> GameRow | None:
        async with self.db.execute(
            "SELECT game_id, guild_id, finished_at, rules, winner, reason, reason_seat, "
            "challenger_seat, score0, score1, rated, hand_records, game_json "
            "FROM stats_games WHERE game_id = ?",
            (game_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self.db.execute(
            "SELECT user_id, computer_level FROM stats_game_seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cursor:
            seats = tuple((r[0], r[1]) for r in await cursor.fetchall())
        return GameRow(
            game_id=row[0],
            guild_id=row[1],
            finished_at=row[2],
            rules=json.loads(row[3]),
            winner=row[4],
            reason=row[5],
            reason_seat=row[6],
            challenger_seat=row[7],
            scores=(row[8], row[9]),
            rated=bool(row[10]),
            hand_records=json.loads(row[11]),
            game_json=json.loads(row[12]) if row[12] is not None else None,
            seats=seats,
        )

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
