"""The computer players weigh what the table's rules put at stake: who takes
a Suicide Nil and what a forced Nil says of a hand, what a bag costs, and a
Boston for all 13 tricks."""

from __future__ import annotations

import random
import statistics

from bot.ai import policy
from bot.ai.bidding import estimate_tricks
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.knowledge import knowledge_of
from bot.ai.plan import plan_of
from bot.ai.sampling import DealSampler, bid_likelihood
from bot.game.cards import card_name, mask_of, parse_cards
from bot.game.house import apply
from bot.game.rules import RuleSet, preset
from bot.game.scoring import NIL
from bot.game.view import view_of
from tests.ai.positions import position


def rules(house: str) -> RuleSet:
    return apply(preset("standard"), house)


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def first_bid(house: str, cards: str) -> int:
    """The heuristic's bid with ``cards``, bidding first (seat 1)."""
    game = position({1: cards}, rules=rules(house))
    return HeuristicPlayer().decide(view_of(game, 1)).value


# -- Suicide ----------------------------------------------------------------

LONE_KING = "KS 2S 2H 3H 4H 5H 6H 2D 3D 4D 5D 2C 3C"  # about one trick
STRONG = "AS KS QS 5S AH KH 4H AD KD 3D 2C 3C 4C"


def test_suicide_a_hand_of_one_trick_takes_the_nil_despite_a_high_spade() -> None:
    # The king of spades is a danger to a Nil, but the partner's unseen
    # hand is likely worse for one, and the partner covers the king.
    assert first_bid("bidding=suicide", LONE_KING) == NIL
    assert first_bid("", LONE_KING) != NIL  # where a Nil is a free choice, no


def test_suicide_a_nil_behind_the_partners_number_says_nothing_of_the_hand() -> None:
    suicide = rules("bidding=suicide")
    strong = hand(STRONG)
    assert bid_likelihood(strong, NIL, suicide, first=False) == 1.0  # forced
    assert bid_likelihood(strong, NIL, suicide, first=True) < 0.01  # chosen


def test_the_search_deals_a_forced_suicide_nil_any_hand() -> None:
    # Seat 1 bids 5, so its partner (seat 3) must bid Nil; seat 2 chooses
    # Nil. Seat 0, to bid, imagines seat 3's hand as it may be, and seat 2's
    # as a hand that chose the Nil.
    game = position({}, bids=[5, NIL, NIL], rules=rules("bidding=suicide"))
    view = view_of(game, 0)
    knowledge = knowledge_of(view)

    def mean_count(dealer: int | None, seat: int) -> float:
        sampler = DealSampler(knowledge, view.bids, dealer=dealer)
        rng = random.Random(4)
        return statistics.mean(estimate_tricks(sampler.sample(rng)[seat]) for _ in range(150))

    forced_read, forced_as_chosen = mean_count(0, 3), mean_count(None, 3)
    assert forced_read > forced_as_chosen + 0.5
    assert mean_count(0, 2) < forced_read - 0.5  # the chosen Nil stays weak


# -- bags -------------------------------------------------------------------

NEAR_THREE = "TS 5S 3S KH 9H KD 8D QC JC 6C 4C 3C 2C"  # counts 2.9 tricks
NEAR_FIVE = "AS JS 8S 2S AH KH JH 8H KD TD 6D 4D 4C"  # counts 5.34


def test_dear_bags_round_a_count_up_and_free_bags_round_it_down() -> None:
    assert first_bid("", NEAR_THREE) == 2
    assert first_bid("bags=5:100", NEAR_THREE) == 3  # 20 points a bag
    assert first_bid("", NEAR_FIVE) == 5
    assert first_bid("bags=off", NEAR_FIVE) == 4  # an overtrick costs nothing


def test_a_tighter_bag_limit_at_the_same_cost_a_bag_bids_the_same() -> None:
    # Five bags for 50 cost what ten for 100 do, a bag at a time.
    for cards in (NEAR_THREE, NEAR_FIVE):
        assert first_bid("bags=5:50", cards) == first_bid("", cards)


# -- Boston -----------------------------------------------------------------


def boston_lead(house: str) -> str:
    """What seat 0 leads with three tricks left, its side (bidding 4 and 4)
    having taken all ten so far."""
    held = [hand("AH 2D 3C"), hand("KH 4D 4C"), hand("QH 5D 5C"), hand("JH 6D 6C")]
    plan = plan_of(rules(house), [4, 3, 4, 2], (0, 0))
    card = policy.choose_card(plan, 0, held[0], [], 0, held, [5, 0, 5, 0], 3)
    return card_name(card)


def test_a_side_with_every_trick_so_far_plays_on_for_a_boston() -> None:
    assert boston_lead("boston=200") == "AH"  # the sure winner: all 13 in sight
    assert boston_lead("") != "AH"  # contract made: no bags for nothing
