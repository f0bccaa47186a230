"""What the statistics part of the store takes and gives back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class SortKey(StrEnum):
    """The orders of the leaderboard."""

    RATING = "rating"
    WINS = "wins"


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    rating: int
    rated_games: int
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A finished game as the main store keeps it."""

    game_id: int
    table_id: int
    game_no: int
    guild_id: int | None
    rules: dict[str, Any]
    seed: int
    started_at: float
    finished_at: float
    winner: int | None  # the winning side (a team, or in solo a seat); None: a draw
    reason: str
    reason_seat: int | None
    scores: tuple[int, ...]  # per side: two teams, or four seats in solo
    hand_records: list[dict[str, Any]]
    seats: tuple[tuple[int | None, str | None], ...]  # (user_id, computer_level) per seat
    challenger_seat: int | None  # as counted; None if not counted or no challenge
    counted: bool
    hints: bool = False  # played with the coach's hints on


@dataclass(frozen=True, slots=True)
class LoggedAction:
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class SeatWrite:
    """What recording a game writes for one seat."""

    seat: int
    user_id: int | None
    computer_level: str | None
    tally: Mapping[str, int]
    new_skill: tuple[float, float, int] | None  # (mu, sigma, display rating) when rated
    rating_before: int | None
    start_skill: tuple[float, float, int]  # a newcomer's skill, stored if unrated
    #: The season's rating after the game (mu, sigma, display) when rated.
    season_skill: tuple[float, float, int] | None = None


@dataclass(frozen=True, slots=True)
class GameWrite:
    """Everything counting one finished game writes."""

    game_id: int
    guild_id: int
    finished_at: float
    rated: bool
    challenger_seat: int | None
    seats: tuple[SeatWrite, ...]
    partner_results: tuple[tuple[int, int, int, int], ...]  # (user, partner, won, drew)
    computer_skills: Mapping[str, tuple[float, float]]  # level -> new (mu, sigma)
    season_no: int = 1  # the season of its server it counts in


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    rating: int
    rated_games: int
    tally: dict[str, int]


@dataclass(frozen=True, slots=True)
class PartnerRow:
    partner_id: int
    games: int
    wins: int
    draws: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: int
    finished_at: float
    seat: int
    winner: int | None  # the winning side (a team, or in solo a seat); None: a draw
    reason: str
    scores: tuple[int, ...]  # per side: two teams, or four seats in solo
    hands: int
    partner_id: int | None  # None in solo, as partner_level
    partner_level: str | None
    rating_before: int | None
    rating_after: int | None
    #: A moderator's reason for ending the game, if any.
    note: str | None = None

    @property
    def solo(self) -> bool:
        """Whether each seat played for itself (house rule teams=solo)."""
        return len(self.scores) == 4

    @property
    def side(self) -> int:
        """The player's side: its team, or in solo its seat."""
        return self.seat if self.solo else self.seat & 1


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A season of a server; the first has no name or start, the running one is not closed."""

    guild_id: int
    number: int
    name: str | None
    started_at: float | None
    closed_at: float | None
    posted_at: float | None = None


@dataclass(frozen=True, slots=True)
class SeasonPlayerRow:
    """A player's rating and record in one season."""

    rating: int
    rated_games: int
    games: int
    wins: int
    losses: int
    draws: int
