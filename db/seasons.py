"""SQL of a server's seasons: the running one, starting the next, and the final post it owes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from db.stats_records import SeasonPlayerRow, SeasonRow
from db.stats_store import rows_in, skills_of
from db.store import StoreSection

_SEASON_COLUMNS = "guild_id, season_no, name, started_at, closed_at, posted_at"


class SeasonStore(StoreSection):
    """The ``seasons`` table and the seasons' ratings, on the main store's connection."""

    async def running_seasons(self, guild_ids: Iterable[int]) -> dict[int, int]:
        """The number of each server's running season (1 if it never started one)."""
        ids = sorted(set(guild_ids))
        running = dict.fromkeys(ids, 1)
        sql = "SELECT guild_id, MAX(season_no) FROM seasons WHERE guild_id IN ({ids})"
        sql += " GROUP BY guild_id"
        running.update((row[0], int(row[1])) for row in await rows_in(self.db, sql, ids))
        return running

    async def seasons(self, guild_id: int) -> list[SeasonRow]:
        """The server's seasons with a row, oldest first (none before the first one closes)."""
        rows = await self.db.fetchall(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season_no",
            (guild_id,),
        )
        return [SeasonRow(*row) for row in rows]

    async def first_game_at(self, guild_id: int) -> float | None:
        """When the server's first counted game ended (the first season's start)."""
        row = await self.db.fetchone(
            "SELECT MIN(finished_at) FROM stats_games WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None or row[0] is None else float(row[0])

    async def start_season(
        self, guild_id: int, name: str, name_key: str, at: float
    ) -> SeasonRow | None:
        """Close the running season and start ``name`` in one transaction; returns the closed one.
        None, with nothing written, if the server already has a season with that ``name_key``."""
        async with self.transaction() as db:
            taken = await db.fetchone(
                "SELECT 1 FROM seasons WHERE guild_id = ? AND name_key = ?", (guild_id, name_key)
            )
            if taken is not None:
                return None
            row = await db.fetchone(
                "SELECT MAX(season_no) FROM seasons WHERE guild_id = ?", (guild_id,)
            )
            running = int(row[0]) if row and row[0] is not None else None
            if running is None:
                running = 1
                first = await db.fetchone(
                    "SELECT MIN(finished_at) FROM stats_games WHERE guild_id = ?", (guild_id,)
                )
                await db.execute(
                    "INSERT INTO seasons (guild_id, season_no, started_at, closed_at) "
                    "VALUES (?, 1, ?, ?)",
                    (guild_id, first[0] if first else None, at),
                )
            else:
                await db.execute(
                    "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND season_no = ?",
                    (at, guild_id, running),
                )
            await db.execute(
                "INSERT INTO seasons (guild_id, season_no, name, name_key, started_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (guild_id, running + 1, name, name_key, at),
            )
            closed = await db.fetchone(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND season_no = ?",
                (guild_id, running),
            )
        assert closed is not None
        return SeasonRow(*closed)

    async def seasons_owed(self, guild_ids: Callable[[int], bool]) -> list[SeasonRow]:
        """Closed seasons of ``guild_ids``'s servers whose final leaderboard was never posted."""
        rows = await self.db.fetchall(
            f"SELECT {_SEASON_COLUMNS} FROM seasons "
            "WHERE closed_at IS NOT NULL AND posted_at IS NULL ORDER BY guild_id, season_no"
        )
        return [SeasonRow(*row) for row in rows if guild_ids(row[0])]

    async def owes_season_post(self, guild_id: int, season: int) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM seasons WHERE guild_id = ? AND season_no = ? "
            "AND closed_at IS NOT NULL AND posted_at IS NULL",
            (guild_id, season),
        )
        return row is not None

    async def season_posted(self, guild_id: int, season: int, at: float) -> None:
        await self.db.execute(
            "UPDATE seasons SET posted_at = ? "
            "WHERE guild_id = ? AND season_no = ? AND posted_at IS NULL",
            (at, guild_id, season),
        )

    async def season_skills(
        self, keys: Iterable[tuple[int, int, int]]
    ) -> dict[tuple[int, int, int], tuple[float, float]]:
        """The stored (mu, sigma) of season players by (guild, season, user id)."""
        key = (("guild_id", "BIGINT"), ("season_no", "INTEGER"), ("user_id", "BIGINT"))
        return await skills_of(self.db, "stats_season_players", key, sorted(set(keys)))

    async def season_player(
        self, guild_id: int, season: int, user_id: int
    ) -> SeasonPlayerRow | None:
        row = await self.db.fetchone(
            "SELECT rating, rated_games, games, wins, losses, draws FROM stats_season_players "
            "WHERE guild_id = ? AND season_no = ? AND user_id = ?",
            (guild_id, season, user_id),
        )
        return None if row is None else SeasonPlayerRow(*row)
