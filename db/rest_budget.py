"""SQL of the token's shared REST budget: slots the bot's processes lease to stay within it."""

from __future__ import annotations

from db.sql import StorePart

#: ``free_at`` moves on by the span from itself or now, whichever is later (casts for PostgreSQL).
_LEASE = (
    "INSERT INTO rest_budget (id, free_at) VALUES (1, CAST(:now AS DOUBLE PRECISION) + :span)"
    " ON CONFLICT (id) DO UPDATE SET free_at ="
    " CASE WHEN rest_budget.free_at > :now THEN rest_budget.free_at ELSE :now END"
    " + CAST(:span AS DOUBLE PRECISION)"
    " RETURNING free_at"
)
_PAUSE = (
    "INSERT INTO rest_budget (id, free_at) VALUES (1, :until)"
    " ON CONFLICT (id) DO UPDATE SET free_at ="
    " CASE WHEN rest_budget.free_at > :until THEN rest_budget.free_at ELSE :until END"
)


class RestBudgetSQL(StorePart):
    async def lease_rest_slots(self, now: float, count: int, gap_s: float) -> float:
        """Lease ``count`` slots ``gap_s`` apart, none before ``now``; returns the first."""
        async with self.transaction() as db:
            row = await db.fetchone(_LEASE, {"now": now, "span": count * gap_s})
        assert row is not None  # an upsert with RETURNING returns its row
        return float(row[0]) - count * gap_s

    async def pause_rest(self, until: float) -> None:
        """No slot before ``until`` is leased any more (a global 429's pause)."""
        await self.db.execute(_PAUSE, {"until": until})
