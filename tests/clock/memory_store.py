"""Deadlines kept in a dict, for scheduler tests that need no database."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.clock import Deadline
from db.sql import DeadlineKey


class MemoryDeadlineStore:
    """Deadlines kept in a dict: for tools and tests that have no database.
    It outlives a :class:`Scheduler`, so a restart can be played with it."""

    def __init__(self) -> None:
        self.rows: dict[DeadlineKey, Deadline] = {}

    async def put_deadline(
        self, owner: int, kind: str, due_at: float, data: Mapping[str, Any]
    ) -> None:
        self.rows[(owner, kind)] = Deadline(owner, kind, due_at, dict(data))

    async def delete_deadline(self, owner: int, kind: str) -> None:
        self.rows.pop((owner, kind), None)

    async def load_deadlines(self) -> list[Deadline]:
        return list(self.rows.values())
