"""SQL of the coach's stored game reviews, and whether a game is over yet."""

from __future__ import annotations

from db.sql import StorePart


class GameReviewSQL(StorePart):
    async def game_review(self, game_id: int) -> str | None:
        """The stored review document of a game, None if not reviewed yet."""
        row = await self.db.fetchone(
            "SELECT review FROM game_reviews WHERE game_id = ?", (game_id,)
        )
        return None if row is None else str(row[0])

    async def set_game_review(
        self, game_id: int, review: str, at: float, stale: str | None = None
    ) -> None:
        """Keep a game's review (a second copy is ignored), replacing ``stale`` if stored."""
        await self.db.execute(
            "INSERT INTO game_reviews (game_id, review, reviewed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE"
            " SET review = excluded.review, reviewed_at = excluded.reviewed_at"
            " WHERE game_reviews.review = ?",
            (game_id, review, at, stale),
        )

    async def game_place(self, game_id: int) -> tuple[int | None, bool] | None:
        """(the game's server, whether it is over), None for no such game."""
        row = await self.db.fetchone(
            "SELECT guild_id, ended_at IS NOT NULL FROM games WHERE id = ?", (game_id,)
        )
        return None if row is None else (row[0], bool(row[1]))
