"""The record of a finished hand: what was dealt, bid and played, and the score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.game.cards import card_name, cards_of
from bot.game.house import resolved
from bot.game.rules import RuleSet
from bot.game.scoring import TeamHandResult, bid_text
from bot.game.trick import Trick


class PlayedHand(Protocol):
    """What a record is taken from: a game at the end of a hand (the game
    module implements it; naming it here keeps this module below the game)."""

    @property
    def hand_number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def dealt(self) -> Sequence[int]: ...
    @property
    def bid_order(self) -> Sequence[tuple[int, int]]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def tricks_won(self) -> Sequence[int]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def bags(self) -> Sequence[int]: ...


@dataclass(slots=True)
class HandRecord:
    """A finished hand, in the shape of the simulator's ``--record`` lines."""

    hand: int
    dealer: int
    dealt: list[int]  # the four hands as dealt, as masks (see :attr:`hands`)
    bids: list[tuple[int, int]]  # (seat, bid) in bidding order
    tricks: list[Trick]
    tricks_won: list[int]
    score_before: list[int]
    bags_before: list[int]
    hand_score: list[int]
    score_after: list[int]
    bags_after: list[int]
    #: Per side (bot.game.sides): the two teams, or in solo the four seats,
    #: as are the scores and bags above.
    results: tuple[TeamHandResult, ...]
    game_over: bool = False
    winner: int | str | None = None  # the winning side, or "draw"
    #: (seat, tricks) when the hand ended on an accepted claim of the rest:
    #: ``tricks`` holds the tricks played, ``tricks_won`` the claimed ones too.
    claim: tuple[int, int] | None = None
    #: The Nil passes' exchanges: (seat, to, cards as a mask), in the order made.
    passes: tuple[tuple[int, int, int], ...] = ()

    @classmethod
    def of_hand(cls, game: PlayedHand, results: tuple[TeamHandResult, ...]) -> HandRecord:
        """The record of the hand the game has just played, scored ``results``:
        the game's score is the score before it."""
        scores, bags = game.scores, game.bags
        return cls(
            game.hand_number,
            game.dealer,
            list(game.dealt),
            list(game.bid_order),
            list(game.tricks),
            list(game.tricks_won),
            list(scores),
            list(bags),
            [result.points for result in results],
            [scores[side] + result.points for side, result in enumerate(results)],
            [result.bags_after for result in results],
            results,
        )

    @property
    def held(self) -> list[int]:
        """The four hands as play began: as dealt, after the Nil passes (masks)."""
        hands = list(self.dealt)
        for seat, to, cards in self.passes:
            hands[seat] &= ~cards
            hands[to] |= cards
        return hands

    @property
    def hands(self) -> list[list[int]]:
        """The four hands as dealt, each as its cards (listed on reading: a
        finished hand keeps only its four masks)."""
        return [cards_of(mask) for mask in self.dealt]

    def to_json(self, game_id: str, rules: RuleSet) -> dict[str, Any]:
        data = {
            "game": game_id,
            "hand": self.hand,
            "preset": rules.preset,
            "rules": resolved(rules),
            "dealer": self.dealer,
            "hands": [[card_name(c) for c in hand] for hand in self.hands],
            "bids": [{"seat": s, "bid": bid_json(b)} for s, b in self.bids],
            "tricks": [
                {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "score_before": list(self.score_before),
            "bags_before": list(self.bags_before),
            "hand_score": list(self.hand_score),
            "score_after": list(self.score_after),
            "bags_after": list(self.bags_after),
            "game_over": self.game_over,
            "winner": self.winner,
        }
        if self.claim is not None:
            data["claim"] = {"seat": self.claim[0], "tricks": self.claim[1]}
        if self.passes:
            data["passes"] = [
                {"seat": seat, "to": to, "cards": [card_name(c) for c in cards_of(cards)]}
                for seat, to, cards in self.passes
            ]
        return data


def bid_json(bid: int) -> int | str:
    return bid if bid > 0 else bid_text(bid)
