"""SQL of each server's settings: one JSON object per server, whose meaning the bot owns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from db.sql import StorePart, to_json


class ServerSettingsSQL(StorePart):
    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's settings as stored; empty if it never chose any."""
        row = await self.db.fetchone(
            "SELECT settings FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return {}
        found = json.loads(row[0])
        return found if isinstance(found, dict) else {}

    async def set_server_settings(
        self, guild_id: int, settings: Mapping[str, Any], at: float
    ) -> None:
        """Replace the server's settings, in one transaction."""
        await self.db.execute(
            "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE"
            " SET settings = excluded.settings, updated_at = excluded.updated_at",
            (guild_id, to_json(settings), at),
        )
