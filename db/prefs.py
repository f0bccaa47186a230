"""SQL of users' preferences (``user_prefs``) and each table's posted turn mention."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from db.sql import StorePart


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    deck: str | None
    data: dict[str, Any]
    updated_at: float
    language: str | None = None  # None: their Discord app's language
    coach: bool = False  # a review after each hand


@dataclass(frozen=True, slots=True)
class TurnMention:
    """A table's posted turn mention and the presenter's opaque text for its turn."""

    message_id: int
    turn: str | None


class PrefsSQL(StorePart):
    """Users' preferences and tables' turn mentions, each write a transaction."""

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        row = await self.db.fetchone(
            "SELECT deck, data, updated_at, language, coach FROM user_prefs WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return None
        return UserPrefs(user_id, row[0], json.loads(row[1]), row[2], row[3], bool(row[4]))

    async def set_deck(self, user_id: int, deck: str | None, at: float) -> None:
        await self._set(user_id, "deck", deck, at)

    async def set_language(self, user_id: int, language: str | None, at: float) -> None:
        """Choose the user's language (None: their Discord app's again)."""
        await self._set(user_id, "language", language, at)

    async def set_coach(self, user_id: int, on: bool, at: float) -> None:
        await self._set(user_id, "coach", int(on), at)

    async def _set(self, user_id: int, column: str, value: str | int | None, at: float) -> None:
        """One column of the user's row (made if missing); ``column`` is one of ours."""
        await self.db.execute(
            f"INSERT INTO user_prefs (user_id, {column}, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE"
            f" SET {column} = excluded.{column}, updated_at = excluded.updated_at",
            (user_id, value, at),
        )

    # -- turn mentions ----------------------------------------------------------

    async def turn_mention(self, table_id: int) -> TurnMention | None:
        """The table's posted turn mention, None if none (a restart reads it here)."""
        row = await self.db.fetchone(
            "SELECT turn_mention_id, turn_mention_turn FROM tables WHERE id = ?", (table_id,)
        )
        if row is None or row[0] is None:
            return None
        return TurnMention(int(row[0]), None if row[1] is None else str(row[1]))

    async def set_turn_mention(self, table_id: int, mention: TurnMention | None) -> None:
        """Remember the table's turn mention (None clears it); the version stays."""
        message_id, turn = (mention.message_id, mention.turn) if mention else (None, None)
        await self.db.execute(
            "UPDATE tables SET turn_mention_id = ?, turn_mention_turn = ? WHERE id = ?",
            (message_id, turn, table_id),
        )
