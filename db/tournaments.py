"""SQL of tournaments: rows, the append-only event log, their match tables and deadlines.

Every step is one :meth:`TournamentStore.commit_event` transaction, like a table's action."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from db.errors import VersionConflict
from db.sql import Deadline, DeadlineSQL, Statements, deadline_rows, to_json
from db.stats_store import rows_in
from db.store import StoreSection


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """One row of a tournament's log."""

    kind: str
    actor: int | None
    payload: Mapping[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    organizer_id: int
    name: str
    settings: dict[str, Any]
    status: str
    version: int
    created_at: float


@dataclass(frozen=True, slots=True)
class MatchTable:
    """A match's channel (written before its table opens) and its table once open."""

    tournament_id: int
    match_no: int
    channel_id: int  # column place_id (migration 033)
    table_id: int | None


@dataclass(frozen=True, slots=True)
class GameMatch:
    """The tournament match a game was played for."""

    name: str
    match_no: int


_COLUMNS = (
    "id, guild_id, channel_id, message_id, organizer_id, name, settings, status, version,"
    " created_at"
)


class TournamentStore(StoreSection, DeadlineSQL):
    """Tournaments' SQL; its deadline rows are the scheduler's store, keyed by tournament."""

    deadline_table = "tournament_deadlines"
    owner_column = "tournament_id"

    # -- tournaments --------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        organizer_id: int,
        name: str,
        settings: Mapping[str, Any],
        first: TournamentEvent,
    ) -> int:
        """Insert a tournament at version 1 with its first event; returns its id."""
        async with self.transaction() as db:
            tournament_id = await db.insert(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, settings,"
                " status, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, 'registering', 1, ?, ?)",
                (guild_id, channel_id, organizer_id, name, to_json(settings), first.at, first.at),
            )
            await _insert_event(db, tournament_id, 1, first)
        return tournament_id

    async def commit_event(
        self,
        tournament_id: int,
        version: int,
        event: TournamentEvent,
        *,
        status: str | None = None,
        deadlines: Sequence[Deadline] | None = None,
    ) -> int:
        """Append ``event`` at ``version`` with its ``status`` and deadlines in one transaction.

        Raises :class:`VersionConflict`, writing nothing, if the stored version differs."""
        rows = None if deadlines is None else deadline_rows(tournament_id, deadlines)
        new_version = version + 1
        async with self.transaction() as db:
            changed = await db.execute(
                "UPDATE tournaments SET version = ?, updated_at = ?,"
                " status = coalesce(?, status) WHERE id = ? AND version = ?",
                (new_version, event.at, status, tournament_id, version),
            )
            if changed != 1:
                raise VersionConflict(
                    f"tournament {tournament_id} is no longer at version {version}"
                )
            await _insert_event(db, tournament_id, new_version, event)
            if rows is not None:
                await self.replace_deadlines(db, tournament_id, rows)
        return new_version

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the tournament's public message (not a step: the version stays)."""
        await self.db.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )

    async def _select(self, where: str, args: Sequence[Any] = ()) -> list[TournamentRow]:
        rows = await self.db.fetchall(f"SELECT {_COLUMNS} FROM tournaments WHERE {where}", args)
        return [_tournament(row) for row in rows]

    async def get(self, tournament_id: int) -> TournamentRow | None:
        found = await self._select("id = ?", (tournament_id,))
        return found[0] if found else None

    async def open_ones(self) -> list[TournamentRow]:
        """Every tournament registering or running, oldest first."""
        return await self._select("status IN ('registering', 'running') ORDER BY id")

    async def latest_in_channel(self, channel_id: int) -> TournamentRow | None:
        """The channel's newest open tournament, else its newest one; None if it never had one."""
        found = await self._select(
            "channel_id = ? ORDER BY CASE WHEN status IN ('registering', 'running') THEN 0"
            " ELSE 1 END, id DESC LIMIT 1",
            (channel_id,),
        )
        return found[0] if found else None

    async def unshown(self) -> list[TournamentRow]:
        """Finished tournaments whose message never showed their last step, oldest first."""
        return await self._select(
            "status NOT IN ('registering', 'running') AND shown_version < version ORDER BY id"
        )

    async def shown(self, tournament_id: int, version: int) -> None:
        """The tournament's message shows it at ``version`` (or later)."""
        await self.db.execute(
            "UPDATE tournaments SET shown_version = ? WHERE id = ? AND shown_version < ?",
            (version, tournament_id, version),
        )

    async def standings_owed(self) -> list[TournamentRow]:
        """Finished tournaments whose final standings were never posted, oldest first."""
        return await self._select("status = 'over' AND standings_posted_at IS NULL ORDER BY id")

    async def owes_standings(self, tournament_id: int) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM tournaments"
            " WHERE id = ? AND status = 'over' AND standings_posted_at IS NULL",
            (tournament_id,),
        )
        return row is not None

    async def standings_posted(self, tournament_id: int, at: float) -> None:
        await self.db.execute(
            "UPDATE tournaments SET standings_posted_at = ?"
            " WHERE id = ? AND standings_posted_at IS NULL",
            (at, tournament_id),
        )

    async def over_with(self, guild_id: int, user_id: int) -> list[TournamentRow]:
        """The server's finished tournaments the user registered in, oldest first."""
        return await self._select(
            "guild_id = ? AND status = 'over' AND id IN (SELECT tournament_id"
            " FROM tournament_events WHERE actor = ? AND kind IN ('register', 'confirm_partner'))"
            " ORDER BY id",
            (guild_id, user_id),
        )

    async def events(self, tournament_id: int) -> list[TournamentEvent]:
        """The tournament's log, in order."""
        rows = await self.db.fetchall(
            "SELECT kind, actor, payload, at FROM tournament_events"
            " WHERE tournament_id = ? ORDER BY seq",
            (tournament_id,),
        )
        return [TournamentEvent(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    # -- the matches' tables ------------------------------------------------------

    async def set_channel(self, tournament_id: int, match_no: int, channel_id: int) -> None:
        """Where the match's table is to open; kept if one was written before."""
        await self.db.execute(
            "INSERT INTO tournament_tables (tournament_id, match_no, place_id)"
            " VALUES (?, ?, ?) ON CONFLICT (tournament_id, match_no) DO NOTHING",
            (tournament_id, match_no, channel_id),
        )

    async def set_table(self, tournament_id: int, match_no: int, table_id: int) -> None:
        await self.db.execute(
            "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND match_no = ?",
            (table_id, tournament_id, match_no),
        )

    async def match_tables(self, tournament_id: int) -> list[MatchTable]:
        rows = await self.db.fetchall(
            "SELECT tournament_id, match_no, place_id, table_id FROM tournament_tables"
            " WHERE tournament_id = ? ORDER BY match_no",
            (tournament_id,),
        )
        return [MatchTable(*r) for r in rows]

    async def matches_of_games(self, game_ids: Sequence[int]) -> dict[int, GameMatch]:
        """The tournament match of each of ``game_ids`` played for one, by game id."""
        rows = await rows_in(
            self.db,
            "SELECT g.id, t.name, m.match_no FROM games AS g"
            " JOIN tournament_tables AS m ON m.table_id = g.table_id"
            " JOIN tournaments AS t ON t.id = m.tournament_id"
            " WHERE g.id IN ({ids})",
            game_ids,
        )
        return {r[0]: GameMatch(r[1], r[2]) for r in rows}


async def _insert_event(
    db: Statements, tournament_id: int, seq: int, event: TournamentEvent
) -> None:
    await db.execute(
        "INSERT INTO tournament_events (tournament_id, seq, kind, actor, payload, at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, seq, event.kind, event.actor, to_json(event.payload), event.at),
    )


def _tournament(row: Sequence[Any]) -> TournamentRow:
    fields = list(row)
    fields[6] = json.loads(row[6])  # the settings
    return TournamentRow(*fields)
