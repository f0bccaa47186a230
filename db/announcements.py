"""SQL of which finished games still owe their channel the end-of-game messages."""

from __future__ import annotations

from db.store import StoreSection


class AnnouncementStore(StoreSection):
    async def unannounced(self) -> list[tuple[int, int]]:
        """``(table_id, game_id)`` of every finished game not announced yet."""
        rows = await self.db.fetchall(
            "SELECT table_id, id FROM games"
            " WHERE ended_at IS NOT NULL AND announced_at IS NULL ORDER BY id"
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def is_unannounced(self, game_id: int) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM games WHERE id = ? AND ended_at IS NOT NULL AND announced_at IS NULL",
            (game_id,),
        )
        return row is not None

    async def mark_announced(self, game_id: int, at: float) -> None:
        await self.db.execute(
            "UPDATE games SET announced_at = ? WHERE id = ? AND announced_at IS NULL",
            (at, game_id),
        )
