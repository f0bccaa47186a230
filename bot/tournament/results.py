"""Tournaments rebuilt from their events, a player's places, and the matches among their games."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bot.tournament.events import event_from_json
from bot.tournament.model import Settings, Tournament
from bot.tournament.state import apply
from db.store import Store
from db.tournaments import GameMatch, TournamentEvent, TournamentRow, TournamentStore


def rebuild(row: TournamentRow, events: list[TournamentEvent]) -> Tournament:
    """The tournament its log describes, each event replayed at its own time."""
    tournament = Tournament(
        row.id, row.guild_id or 0, row.channel_id, row.organizer_id, settings_of(row.settings)
    )
    for stored in events[1:]:
        event = event_from_json({"kind": stored.kind, **stored.payload})
        tournament = apply(tournament, event, stored.at)
    return tournament


def settings_of(data: dict[str, Any]) -> Settings:
    """The core's settings from the stored ones (which also keep the language)."""
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True, slots=True)
class Placing:
    name: str
    place: int
    teams: int


async def placings(store: Store, guild_id: int, user_id: int) -> list[Placing]:
    """The user's final places in the server's finished tournaments, newest first."""
    tournaments = TournamentStore(store)
    found = []
    for row in await tournaments.over_with(guild_id, user_id):
        tournament = rebuild(row, await tournaments.events(row.id))
        team = tournament.team_of(user_id)
        place = next((s.place for s in tournament.standings if team and s.team == team.id), None)
        if place is not None:
            found.append(Placing(tournament.settings.name, place, len(tournament.teams)))
    return found[::-1]


async def tournament_matches(store: Store, game_ids: list[int]) -> dict[int, GameMatch]:
    """The tournament and match number of the games played at a match's table."""
    return await TournamentStore(store).matches_of_games(game_ids)
