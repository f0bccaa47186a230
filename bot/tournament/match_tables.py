"""Opening a match's table once, whatever stops the process on the way.

The channel (a thread, else the tournament's channel) is written down before the table
opens and holds at most one open table, so a repeated step finds the table it opened and
carries on seating and starting. Only a thread started just before a crash is left empty."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot import refusals
from bot.app import SpadesApp
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tournament.model import Match, Tournament
from db.tournaments import TournamentStore

log = logging.getLogger(__name__)


#: Called with the channel found for a match's table.
Found = Callable[[int], Awaitable[None]]


class MatchChannels(Protocol):
    """Where match tables open (the Discord layer knows threads)."""

    def request(self, tournament: Tournament, match: Match, found: Found) -> None:
        """Find the match's table a channel in the background, then call ``found``; once a match."""


def seating(tournament: Tournament, match: Match) -> list[int]:
    """The match's four players in seat order: a, b, a's partner, b's partner."""
    a = tournament.team(match.a or 0)
    b = tournament.team(match.b or 0)
    assert a is not None and b is not None, "a match is opened once both its teams are known"
    return [a.players[0], b.players[0], a.players[1], b.players[1]]


def match_options(settings: dict[str, object]) -> TableOptions:
    """The tables' options from the tournament's stored settings."""
    minutes = settings.get("turn_limit") or 0
    chosen: dict[str, object] = {
        "target": settings.get("target", 500),
        "house": settings.get("house", ""),
        "language": settings.get("language", "en"),
        "thread": False,  # the table's channel is already its own thread
        "rematch": False,  # the match is its one game
    }
    if minutes:
        chosen["turn_limit_s"] = int(str(minutes)) * 60
    return TableOptions.chosen(**chosen)


class MatchTables:
    def __init__(self, app: SpadesApp, store: TournamentStore, channels: MatchChannels) -> None:
        self.app = app
        self.store = store
        self.channels = channels
        self.opened = 0  # tables opened by this process (benchmarks count them)

    async def open(self, tournament: Tournament, match: Match, then: Found) -> int | None:
        """The match's table, open and started; None while its channel is asked for or taken."""
        found = {m.match_no: m for m in await self.store.match_tables(tournament.id)}
        known = found.get(match.number)
        if known is not None and known.table_id is not None:
            return known.table_id
        if known is None:

            async def channel_found(channel_id: int) -> None:
                await self.store.set_channel(tournament.id, match.number, channel_id)
                await then(channel_id)

            self.channels.request(tournament, match, channel_found)
            return None
        players = seating(tournament, match)
        table = await self._table_at(tournament, known.channel_id, players)
        if table is None:
            return None
        if known.channel_id != tournament.channel_id and table.thread_id is None:
            # Its channel is its thread, archived after the game like any table's.
            table = await self.app.set_thread(table.id, known.channel_id)
        for user in (u for u in players if not table.is_seated(u)):
            table = await self.app.tables.join(table.id, user, table.version)
        if table.status is TableStatus.LOBBY:
            table = await self.app.tables.start(table.id, players[0], table.version)
        await self.store.set_table(tournament.id, match.number, table.id)
        return table.id

    async def _table_at(
        self, tournament: Tournament, channel_id: int, players: list[int]
    ) -> Table | None:
        """The match's table in its channel: the one opened there before, or a new one."""
        there = await self.app.tables.in_channel(channel_id)
        if there is not None:
            seated = {s.user_id for s in there.seats if s.user_id is not None}
            if there.host_id == players[0] and seated <= set(players):
                return there
            return None  # another table holds the channel
        row = await self.store.get(tournament.id)
        assert row is not None
        try:
            table = await self.app.tables.create(
                tournament.guild_id or None, channel_id, players[0], match_options(row.settings)
            )
        except refusals.ChannelBusy:
            return None
        self.opened += 1
        return table
