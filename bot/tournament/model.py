"""A tournament as a frozen value, changed only by replaying events through ``apply``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Format = Literal["single", "double"]
#: ``pairs``: register with a partner (solos are paired); ``draw``: partners drawn at the start.
TeamsMode = Literal["pairs", "draw"]
Phase = Literal["registering", "running", "over", "cancelled"]
#: The winners' bracket, the losers' bracket, the grand final and its second game.
Bracket = Literal["W", "L", "GF", "GF2"]
MatchState = Literal["waiting", "ready_check", "playing", "done"]
#: How a match was settled: at the table, by a missed ready check, or by the organizer.
How = Literal["played", "no_show", "decided"]
Slot = Literal["a", "b"]

DEFAULT_READY_S = 900
MAX_TEAMS = 64
TEAM_SIZE = 2


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organizer chose; ``house`` and ``turn_limit`` pass to every match's table unread."""

    name: str
    format: Format = "single"
    target: int = 500
    house: str = ""
    turn_limit: str | int = ""
    teams: TeamsMode = "pairs"
    ready_s: int = DEFAULT_READY_S


@dataclass(frozen=True, slots=True)
class Registrations:
    """Who signed up before the start, in the order they did."""

    #: ``(user, partner)``: the user asked the partner, who has not answered yet.
    pending: tuple[tuple[int, int], ...] = ()
    #: Confirmed partners, the one who asked first.
    pairs: tuple[tuple[int, int], ...] = ()
    #: People who registered alone.
    solo: tuple[int, ...] = ()

    def users(self) -> frozenset[int]:
        """Everyone taken: registered, or asked as someone's partner."""
        return frozenset(
            [u for pair in self.pending for u in pair]
            + [u for pair in self.pairs for u in pair]
            + list(self.solo)
        )


@dataclass(frozen=True, slots=True)
class Team:
    """A team, numbered by seed (``id == seed``, 1 best); ``rating`` None when unrated."""

    id: int
    players: tuple[int, ...]
    seed: int
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a team goes after a match: a slot of a later match."""

    match: int
    slot: Slot


@dataclass(frozen=True, slots=True)
class Match:
    """One game of the bracket, numbered in round order; ``winner_to``/``loser_to`` None: out.

    A bye leaves no match: its team already sits in its next one, so a ready match has two teams."""

    number: int
    bracket: Bracket
    round: int
    #: Its position from the top in its round of the full bracket (byes included).
    position: int = 0
    a: int | None = None
    b: int | None = None
    winner_to: Destination | None = None
    loser_to: Destination | None = None
    state: MatchState = "waiting"
    #: The end of the ready check (state ``ready_check``).
    deadline: float | None = None
    #: The teams that pressed Ready.
    ready: frozenset[int] = frozenset()
    #: The match's table (state ``playing``, and kept once done).
    table_id: int | None = None
    winner: int | None = None
    scores: tuple[int, int] | None = None
    how: How | None = None
    reason: str = ""

    @property
    def teams(self) -> tuple[int, ...]:
        """The teams known so far, slot a first."""
        return tuple(t for t in (self.a, self.b) if t is not None)

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a

    @property
    def all_ready(self) -> bool:
        """Both teams pressed Ready: the table may open."""
        return self.state == "ready_check" and len(self.ready) == TEAM_SIZE


@dataclass(frozen=True, slots=True)
class Standing:
    """A final place; teams knocked out at the same stage share it."""

    place: int
    team: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament; ``version`` counts events, ``left_out`` the registrants without a team."""

    id: int
    guild_id: int
    channel_id: int
    organizer_id: int
    settings: Settings
    phase: Phase = "registering"
    registrations: Registrations = field(default_factory=Registrations)
    teams: tuple[Team, ...] = ()
    matches: tuple[Match, ...] = ()
    left_out: tuple[int, ...] = ()
    standings: tuple[Standing, ...] = ()
    version: int = 0

    def match(self, number: int) -> Match | None:
        if 1 <= number <= len(self.matches):
            return self.matches[number - 1]
        return None

    def team(self, team_id: int) -> Team | None:
        if 1 <= team_id <= len(self.teams):
            return self.teams[team_id - 1]
        return None

    def team_of(self, user: int) -> Team | None:
        """The user's team once the bracket is drawn."""
        return next((t for t in self.teams if user in t.players), None)

    def match_to_ready(self, user: int) -> Match | None:
        """The match whose ready check waits on the user's team, if any."""
        team = self.team_of(user)
        waiting = (m for m in self.matches if m.state == "ready_check")
        return next((m for m in waiting if team is not None and team.id in m.teams), None)

    @property
    def champion(self) -> int | None:
        return next((s.team for s in self.standings if s.place == 1), None)
