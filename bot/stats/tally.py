"""Per-player counters: one :class:`Tally` is both one game's share and a player's running sum."""

from __future__ import annotations

from dataclasses import dataclass, fields

from bot.game.scoring import BLIND_NIL, NIL
from bot.game.types import EndReason
from bot.stats.records import FinishedGame, RecordedHand


@dataclass(slots=True)
class Tally:
    """A player's counters over games of both kinds. Team figures (points,
    sets, bags) are the player's side's: its team's, or in solo its own. A
    solo game is won by its first place alone: every other place is a loss
    (solo has no draws), so ``wins`` always means games won, whatever the kind."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    hands: int = 0
    points: int = 0  # the side's points over the hands the player played
    nils_bid: int = 0
    nils_made: int = 0
    blind_nils_bid: int = 0
    blind_nils_made: int = 0
    sets: int = 0  # hands where the player's side missed its contract
    bags: int = 0  # bags the player's side took in the player's hands
    revokes_proven: int = 0  # the player's revokes that an opponent proved
    revokes_caught: int = 0  # the player's challenges that proved a revoke
    false_claims: int = 0  # the player's challenges that proved nothing

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def win_rate(self) -> float:
        """Wins over games, a draw counting as half a win."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


def seat_tally(game: FinishedGame, seat: int, hands: list[RecordedHand] | None = None) -> Tally:
    """What ``game`` adds to the statistics of whoever sat in ``seat``."""
    team = game.side(seat)
    if hands is None:
        hands = game.hands()
    tally = Tally(games=1, hands=len(hands))
    if game.reason is EndReason.MODERATOR:
        # Nobody won or drew: the game is not in anyone's record of results.
        tally.games = 0
    elif game.winner is None:
        tally.draws = 1
    elif game.winner == team:
        tally.wins = 1
    else:
        tally.losses = 1
    for hand in hands:
        tally.points += hand.hand_score[team]
        tally.bags += hand.results[team].new_bags
        tally.sets += hand.set[team]
        bid = hand.bids[seat]
        made = hand.tricks_won[seat] == 0
        if bid == NIL:
            tally.nils_bid += 1
            tally.nils_made += made
        elif bid == BLIND_NIL:
            tally.blind_nils_bid += 1
            tally.blind_nils_made += made
    if game.reason is EndReason.REVOKE:
        tally.revokes_proven = int(game.reason_seat == seat)
        tally.revokes_caught = int(game.challenger_seat == seat)
    elif game.reason is EndReason.FALSE_CLAIM:
        tally.false_claims = int(game.reason_seat == seat)
    return tally


def game_tallies(game: FinishedGame) -> list[Tally]:
    """The four seats' tallies of one game."""
    hands = game.hands()
    return [seat_tally(game, seat, hands) for seat in range(4)]
