"""Skill ratings per server: openskill's Plackett-Luce model, partners rated
as one team; a solo game (house rule teams=solo) as a ranking of four teams of one.

Shown as ``1000 + 40 * (mu - 3 * sigma)``: a newcomer starts at 1000 (ordinal 0)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from openskill.models import PlackettLuce

from bot.game.types import EndReason
from bot.stats.records import FinishedGame

START_MU = 25.0
START_SIGMA = 25.0 / 3
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def display(self) -> int:
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - 3 * self.sigma))


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    return PlackettLuce(mu=START_MU, sigma=START_SIGMA)


def rate_teams(
    team0: tuple[Skill, Skill], team1: tuple[Skill, Skill], winner: int | None
) -> tuple[tuple[Skill, Skill], tuple[Skill, Skill]]:
    """New skills after a game won by team ``winner`` (None: a draw)."""
    model = _model()
    teams = [[model.create_rating([s.mu, s.sigma]) for s in team] for team in (team0, team1)]
    if winner is None:
        ranks = [1.0, 1.0]
    elif winner in (0, 1):
        ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    else:
        raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
    rated = model.rate(teams, ranks=ranks)
    new = [tuple(Skill(r.mu, r.sigma) for r in team) for team in rated]
    return (new[0][0], new[0][1]), (new[1][0], new[1][1])


def rate_ranking(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills of players each on their own after a game they finished in
    ``places`` (1 the best; equal places tie)."""
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("a ranking needs a place for each of at least two players")
    model = _model()
    teams = [[model.create_rating([s.mu, s.sigma])] for s in skills]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def is_rated(game: FinishedGame, rate_computer_games: bool) -> bool:
    """Whether a game moves ratings: never if a moderator ended it; computers or hints if chosen."""
    if game.reason is EndReason.MODERATOR:
        return False
    return rate_computer_games or not game.has_help
