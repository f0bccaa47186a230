"""Issue 15's classes of card-play mistake of the heuristic (which also plays
the search player's rollouts), each fixed and checked against the frozen
baseline that made it. The hands are all known, as in a rollout."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.baseline import policy_v1
from bot.ai import policy
from bot.ai.plan import plan_of
from bot.game.cards import card_name, mask_of, parse_card, parse_cards
from bot.game.scoring import NIL
from tests.ai.positions import STANDARD, deal


def choices(
    bids: Sequence[int],
    hands: dict[int, str],
    seat: int,
    trick: str = "",
    leader: int | None = None,
    won: Sequence[int] = (0, 0, 0, 0),
) -> tuple[str, str]:
    """The card ``seat`` plays with the improved rules and with the baseline's;
    ``bids`` per seat, ``hands`` the cards still held."""
    held = [mask_of(parse_cards(hands.get(s, ""))) for s in range(4)]
    cards = [parse_card(c) for c in trick.split()]
    first = seat - len(cards) & 3 if leader is None else leader
    plan = plan_of(STANDARD, bids, (0, 0))
    left = 13 - sum(won)
    picks = []
    for rules in (policy, policy_v1):
        card = rules.choose_card(
            plan, seat, _legal(held[seat], cards), cards, first, held, won, left
        )
        picks.append(card_name(card))
    return picks[0], picks[1]


def _legal(hand: int, trick: Sequence[int]) -> int:
    if not trick:
        return hand
    suit = mask_of([c for c in range(52) if c // 13 == trick[0] // 13])
    return hand & suit or hand


def test_takes_a_bag_to_set_when_the_set_needs_more_than_a_third_of_the_tricks() -> None:
    # Seats 1 and 3 bid 9 and have 3 tricks: they need 6 of the last 8, so
    # seats 0 and 2 (contract of 2 made) set them with 3 of 8. Seat 0, last,
    # can take the king with its ace: a bag well spent.
    hands = {
        0: "AH 2H 5C 6C 7C 8C 9C TC",
        1: "3C 4C 2D 3D 4D 5D 6D",
        2: "JC QC KC 7D 8D 9D TD",
        3: "JD QD KD AD AC 2S 3S",
    }
    improved, baseline = choices(
        [1, 5, 1, 4], hands, seat=0, trick="KH 4H 6H", leader=1, won=(1, 2, 1, 1)
    )
    assert (improved, baseline) == ("AH", "2H")


def test_covering_a_nil_keeps_the_winner_when_the_partner_is_safe() -> None:
    # Seat 2 bid Nil; its partner's 3 are made. Seat 3 leads the queen of
    # diamonds: seat 2 holds only lower diamonds and is safe under it, so
    # the ace of diamonds is kept for a trick where the Nil needs it.
    hands = {
        0: "AD 4D 5C 6C 7C 8C 9C TC JC",
        1: "KD 5D 2C 3C 4C QC KC AC",
        2: "2D 3D 2H 3H 4H 5H 6H 7H",
        3: "6D 7D 8D 9D TD JD 8H 9H",
    }
    bids = [3, 2, NIL, 2]
    improved, baseline = choices(bids, hands, seat=0, trick="QD", leader=3, won=(3, 1, 0, 0))
    assert (improved, baseline) == ("4D", "AD")


def test_third_hand_plays_high_when_the_partners_card_can_be_beaten() -> None:
    # Seat 0 leads the jack of hearts; seat 3, last, holds the ace and queen.
    # Seat 2 plays its king to make seat 3 spend the ace, not the queen.
    hands = {
        0: "5C 6C 7C 8C 9C TC JC QC",
        1: "2C 3C 4C 2D 3D 4D 5D 6D",
        2: "KH 4H 7D 8D 9D TD JD QD",
        3: "AH QH KD AD KC AC 2S 3S",
    }
    improved, baseline = choices(
        [4, 3, 4, 3], hands, seat=2, trick="JH 3H", leader=0, won=(2, 1, 1, 0)
    )
    assert (improved, baseline) == ("KH", "4H")


def test_contract_of_ten_does_not_chase_an_opponents_nil() -> None:
    # Seats 0 and 2 bid 10, seat 1 Nil. Seat 0 leads the first trick: it
    # cashes a winner instead of leading low into the Nil.
    own = "AC KC QC AD KD AH KH AS KS QS 2C 2D 2H"
    hands = dict(enumerate(_full_deal(own)))
    improved, baseline = choices([5, NIL, 5, 3], hands, seat=0)
    assert improved in ("AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC", "QS")
    assert baseline in ("2C", "2D", "2H")


def test_contract_of_nine_still_chases_an_opponents_nil() -> None:
    # The same cards with a contract of 9: four of the thirteen tricks can
    # be spared, so seat 0 leads low into the Nil.
    own = "AC KC QC AD KD AH KH AS KS QS 2C 2D 2H"
    hands = dict(enumerate(_full_deal(own)))
    improved, _ = choices([5, NIL, 4, 3], hands, seat=0)
    assert improved in ("2C", "2D", "2H")


def _full_deal(own: str) -> list[str]:
    hands = deal({0: own})
    return [" ".join(card_name(c) for c in range(52) if h >> c & 1) for h in hands]
