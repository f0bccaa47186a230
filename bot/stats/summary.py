"""What the statistics queries return, drawn by :mod:`bot.render.leaderboard`."""

from __future__ import annotations

from dataclasses import dataclass

from bot.stats.tally import Tally
from db.stats_records import HistoryRow, SeasonPlayerRow, SeasonRow


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    partner_id: int
    games: int
    wins: int
    draws: int

    @property
    def smoothed_win_rate(self) -> float:
        # An imaginary win and loss keep one lucky game from outranking a long partnership.
        return (self.wins + self.draws / 2 + 1) / (self.games + 2)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    tally: Tally
    rating: int
    rated_games: int
    rank: int | None  # place on the rating leaderboard, None before a rated game
    ranked_players: int
    best_partners: tuple[PartnerRecord, ...]
    #: The player's latest finished game here (ended by a moderator, it counts in none above).
    last_game: HistoryRow | None = None
    #: The running season, on a server that started one (the figures above are all time).
    season: SeasonStanding | None = None


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """A player's place in the running season (``/spades stats``)."""

    season: SeasonRow
    row: SeasonPlayerRow | None  # None: no game yet this season
    rank: int | None  # place by rating, None before a rated game this season
    ranked_players: int
