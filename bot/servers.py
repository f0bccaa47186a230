"""Each server's settings (``/spades-admin``); never cached, so every process sees changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, ValidationError

from bot import refusals
from bot.tables.model import TableOptions
from db.store import Store

#: A new table's options where neither host nor server chose, unlike earlier versions.
NEW_TABLE: Final[dict[str, Any]] = {"thread": True}


class ServerSettings(BaseModel):
    """One server's settings; the defaults are how earlier versions behaved."""

    # Keys written by a newer version are left alone rather than refused.
    model_config = ConfigDict(frozen=True, extra="ignore")

    #: Where tables may open (a thread counts as its parent); empty: anywhere.
    channels: tuple[int, ...] = ()
    #: Only members with this role may open tables; None: anyone.
    host_role: int | None = None
    #: Mentioned once by each new table; None: nobody.
    notify_role: int | None = None
    #: Where every finished game is announced; None: only at its table.
    results_channel: int | None = None
    #: The server's defaults for a new table: a partial TableOptions.
    defaults: dict[str, Any] = {}
    #: The computer players' level at this server's tables (None: the bot's).
    computer_level: str | None = None
    #: Anyone may share any game's replay in the channel (else: its players only).
    replays_shared: bool = False

    def table_options(self, **chosen: Any) -> TableOptions:
        """The host's ``chosen`` options over the server's defaults; Malformed if they clash."""
        explicit = {name: value for name, value in chosen.items() if value is not None}
        try:
            return TableOptions.chosen(**{**NEW_TABLE, **self.defaults, **explicit})
        except (refusals.Malformed, refusals.BadHouseRule):
            # Defaults that no longer fit must not keep tables from opening: the host's alone.
            return TableOptions.chosen(**{**NEW_TABLE, **explicit})


class ServerSettingsService:
    def __init__(self, store: Store, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now

    async def of(self, guild_id: int | None) -> ServerSettings:
        """The server's settings (those of no server: the defaults)."""
        if guild_id is None:
            return ServerSettings()
        stored = await self.store.server_settings(guild_id)
        try:
            return ServerSettings.model_validate(stored)
        except ValidationError:
            # A document this version cannot read keeps the earlier behaviour.
            return ServerSettings()

    async def change(self, guild_id: int, **changes: Any) -> ServerSettings:
        """Set some settings of the server and return them all."""
        current = await self.of(guild_id)
        updated = current.model_copy(update=changes)
        await self.store.set_server_settings(guild_id, updated.model_dump(mode="json"), self.now())
        return updated
