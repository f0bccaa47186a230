"""SQL of the private hand messages kept editable across a restart (table ``live_hands``).

A row holds the application id and interaction token needed to edit a hand message.
The token is a secret while Discord accepts it (15 minutes), so expired rows are
deleted at the next read or write, and a player's newer hand replaces the older one."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from db.sql import Statements
from db.store import StoreSection


@dataclass(frozen=True, slots=True)
class HandMessageRow:
    table_id: int
    user_id: int
    application_id: int
    token: str = field(repr=False)  # never in a log line
    expires_at: float  # epoch seconds; no edit is tried from then on
    version: int  # the table version the hand showed when it was opened
    #: The hand's message if a follow-up of the token; None: its ``@original``.
    message_id: int | None = None


class HandMessageStore(StoreSection):
    async def load(self, now: float) -> list[HandMessageRow]:
        """The hands still editable at ``now``; the expired ones are deleted."""
        rows = [
            HandMessageRow(*row)
            for row in await self.db.fetchall(
                "SELECT table_id, user_id, application_id, token, expires_at, version, message_id"
                " FROM live_hands ORDER BY table_id, user_id"
            )
        ]
        if any(row.expires_at <= now for row in rows):
            async with self.transaction() as db:
                await _delete_expired(db, now)
        return [row for row in rows if row.expires_at > now]

    async def save(self, row: HandMessageRow, now: float) -> None:
        """Keep ``row`` unless a longer-lived hand of the player is kept; drop expired rows."""
        async with self.transaction() as db:
            await _delete_expired(db, now)
            await db.execute(
                "INSERT INTO live_hands"
                " (table_id, user_id, application_id, token, expires_at, version, message_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE"
                " SET application_id = excluded.application_id, token = excluded.token,"
                " expires_at = excluded.expires_at, version = excluded.version,"
                " message_id = excluded.message_id"
                " WHERE excluded.expires_at >= live_hands.expires_at",
                dataclasses.astuple(row),
            )

    async def drop(self, table_id: int, user_id: int, token: str) -> None:
        """Forget the hand of this token; a newer hand of the same player stays."""
        await self.db.execute(
            "DELETE FROM live_hands WHERE table_id = ? AND user_id = ? AND token = ?",
            (table_id, user_id, token),
        )


async def _delete_expired(db: Statements, now: float) -> None:
    await db.execute("DELETE FROM live_hands WHERE expires_at <= ?", (now,))
