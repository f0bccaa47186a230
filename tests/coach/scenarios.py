"""The positions of the beginners' tips of rule texts 000 and 002, one per tip.

Hand 1 of a standard game: seat 0 deals, seat 1 bids first and leads the
first trick. Each scenario stops where the seat to act meets the tip.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.cards import parse_card
from bot.game.state import Game
from tests.ai.positions import position


@dataclass(frozen=True)
class Scenario:
    name: str
    game: Game
    right: frozenset[int]  # the cards (or bids) the tip asks for
    wrong: int  # a card (or bid) against the tip


def _cards(text: str) -> frozenset[int]:
    return frozenset(parse_card(name) for name in text.split())


def cover_partner_nil() -> Scenario:
    """Seat 2 bid Nil and had to play its lone K♥ on the J♥: seat 0, last to
    play, covers it with the A♥."""
    hands = {
        2: "KH 2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 2S 3S",
        0: "AH 3H 2H 9C TC JC QC KC AC 9D TD 7S 8S",
        1: "QH JH 6C 7C 8C AD KD QD JD 8D 4S 5S 6S",
        3: "TH 9H 8H 7H 6H 5H 4H AS KS QS JS TS 9S",
    }
    game = position(hands, bids=[3, 0, 4, 4], plays="JH KH 4H")
    return Scenario("cover a partner's Nil", game, _cards("AH"), parse_card("3H"))


def lead_low_into_nil() -> Scenario:
    """Seat 2 bid Nil, holds a lone K♦ that nobody after it can beat, and no
    club; seat 1 leads: its low 2♦ makes the Nil take the trick, while a club
    lets it throw the king away."""
    hands = {
        1: "2D 3D 4C 5C 6C 7C 9H TH JH 8S 9S 8C 9C",
        2: "KD 2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S",
        3: "AD 4D 5D 6D 7D 8D 9D TD TC JC QC TS JS",
        0: "QD JD 2C 3C AC KC QH KH AH 7S QS KS AS",
    }
    game = position(hands, bids=[3, 0, 3, 3])
    return Scenario("lead low into an opponent's Nil", game, _cards("2D"), parse_card("8C"))


def stop_once_made() -> Scenario:
    """Seats 1 and 3 bid 1 each (their opponents too, who cannot be set) and
    seat 1 has taken two tricks: seat 3 ducks
    under the 5♦ rather than take a bag with the A♦."""
    hands = {
        1: "AC KC 2D 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S",
        2: "2C 3C 5D 6D 7D TH JH QH KH AH 5S 6S 7S",
        3: "4C 5C AD 3D 8D 9D TD 2H 8S 9S TS JS QS",
        0: "6C 7C 8C 9C TC JC QC 4D JD QD KD KS AS",
    }
    game = position(hands, bids=[1, 1, 1, 1], plays="AC 2C 4C 6C KC 3C 5C 7C 2D 5D")
    return Scenario(
        "stop taking tricks once the contract is made", game, _cards("3D"), parse_card("AD")
    )


def count_sure_tricks() -> Scenario:
    """Seat 1 bids first with A♠ K♠ and a small spade, the A♥ and no diamond:
    four sure tricks."""
    hands = {1: "AS KS 5S AH 7H 4H 2H 9C 8C 6C 5C 3C 2C"}
    game = position(hands)
    return Scenario("count sure tricks when bidding", game, frozenset({4}), 7)


SCENARIOS = (cover_partner_nil, lead_low_into_nil, stop_once_made, count_sure_tricks)
