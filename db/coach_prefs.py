"""SQL of each person's coach choice: column ``user_prefs.coach`` (migration 024)."""

from __future__ import annotations

from db.store import Store


class CoachPrefs:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def coach_on(self, user_id: int) -> bool:
        """Whether the user asked for a review after each hand (default no)."""
        row = await self.store.db.fetchone(
            "SELECT coach FROM user_prefs WHERE user_id = ?", (user_id,)
        )
        return bool(row[0]) if row is not None else False

    async def set_coach(self, user_id: int, on: bool, at: float) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, coach, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE"
                " SET coach = excluded.coach, updated_at = excluded.updated_at",
                (user_id, int(on), at),
            )
