"""Issue 15's classes of bidding mistake, each with a hand of its own."""

from __future__ import annotations

import math

import pytest

from benchmarks.baseline import bidding_v1, heuristic_v1
from bot.ai.bid_study import position_view, study_lines
from bot.ai.bidding import ROUNDING, estimate_tricks
from bot.ai.search import SearchPlayer
from bot.game.cards import mask_of, parse_cards
from bot.game.rules import preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.types import ActionKind
from bot.game.view import view_of
from tests.ai.positions import position
from tests.ai.test_scenarios import NIL_HAND, PLAYERS, MakePlayer, decide, heuristic, search

ALL_SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
LONG_SPADES_AND_RUFFS = "AS 6S 5S 4S 3S 2S QH 2D 3D 4D 5D 6D 7D"  # club void, singleton QH
MIDDLING = [
    "AH KH 7H 3H QD 8D 4D KC 9C 5C 2C 6S 3S",
    "AS QS 7S 4S KH 9H 5H AD 8D 3D QC 6C 2C",
    "KS JS 8S 5S 2S AH QH 6H KD 7D 4D 9C 3C",
]


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


@pytest.mark.parametrize("make", PLAYERS)
def test_thirteen_sure_tricks_bid_thirteen(make: MakePlayer) -> None:
    # The first to bid: its partner, seeing the 13, should bid Nil behind it
    # rather than a number that sets the side for sure.
    game = position({1: ALL_SPADES})
    assert decide(make, game).value == 13


@pytest.mark.parametrize("make", PLAYERS)
def test_thirteen_sure_tricks_behind_a_partners_one_bid_twelve(make: MakePlayer) -> None:
    # Seat 3's partner bid 1: 12 makes the side's 13, 13 would be a certain set.
    game = position({3: ALL_SPADES}, bids=[1, 3])
    assert decide(make, game).value == 12


@pytest.mark.parametrize("make", PLAYERS)
def test_never_outbids_the_thirteen_tricks_with_its_partner(make: MakePlayer) -> None:
    game = position({3: "AS KS QS JS TS 9S 8S 7S AH AD AC KH KD"}, bids=[4, 2])
    action = decide(make, game)
    assert action.value == NIL or 1 <= action.value <= 9


def test_partner_of_a_thirteen_bids_nil() -> None:
    game = position({3: "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D AH KH"}, bids=[13, 3])
    assert decide(heuristic, game).value == NIL


@pytest.mark.parametrize("make", PLAYERS)
def test_no_nil_after_partners_blind_nil(make: MakePlayer) -> None:
    # Seat 1 bids Blind Nil (its side trails by 300); seat 3, its partner,
    # holds a perfect Nil hand but must look and bid tricks to cover.
    rules = preset("blind-nil")
    game = position({3: NIL_HAND}, rules=rules, scores=(300, 0))
    game.bid(1, BLIND_NIL)
    game.look(2)
    game.bid(2, 3)
    action = make().decide(view_of(game, 3))
    assert action.kind is ActionKind.LOOK
    game.look(3)
    action = make().decide(view_of(game, 3))
    assert action.kind is ActionKind.BID and action.value >= 1


def test_long_spades_and_ruffs_are_not_counted_twice() -> None:
    hand = cards(LONG_SPADES_AND_RUFFS)
    assert int(estimate_tricks(hand) + ROUNDING) == 4
    # Today's count, frozen in the baseline, makes it 6.
    assert int(bidding_v1.estimate_tricks(hand) + bidding_v1.ROUNDING) == 6


def test_search_bids_about_four_with_long_spades_and_ruffs() -> None:
    assert decide(search, position({1: LONG_SPADES_AND_RUFFS})).value in (4, 5)


@pytest.mark.parametrize("hand", MIDDLING)
def test_middling_hands_are_not_overbid(hand: str) -> None:
    count = estimate_tricks(cards(hand))
    bid = decide(search, position({2: hand}, bids=[3])).value
    assert 1 <= bid <= round(count)


def test_the_bid_study_values_every_bid_over_the_same_samples() -> None:
    view = position_view(LONG_SPADES_AND_RUFFS, [3], "standard")
    bids = [NIL, *range(1, 14)]
    player = search()
    assert isinstance(player, SearchPlayer)
    tally = player.study_bids(view, bids)
    assert tally.options == len(bids)
    assert all(not any(math.isnan(v) for v in row) for row in tally.samples)  # none pruned
    assert tally.mean(bids.index(4)) > tally.mean(bids.index(13))
    lines = study_lines(bids, tally, 4)
    assert lines[0].endswith("bids 4") and len(lines) == 1 + len(bids)


def test_the_baseline_level_keeps_todays_bids() -> None:
    game = position({1: LONG_SPADES_AND_RUFFS})
    assert heuristic_v1().decide(view_of(game, 1)).value == 6


SOLID = "AS KS 4S 3S AH 7H 5H 3H KD 6D 4D 8C 2C"  # counts a little under five


def test_the_count_is_the_tricks_a_hand_takes() -> None:
    # Three side aces and nothing else take about three tricks; a king
    # makes a trick when guarded, seldom alone.
    assert int(estimate_tricks(cards("AC 2C 3C AD 2D 3D AH 2H 3H 4H 2S 3S 4S")) + ROUNDING) == 3
    guarded = estimate_tricks(cards("KC 2C 5D 6D 7D 8D 2H 3H 4H 6H 2S 3S 4S"))
    alone = estimate_tricks(cards("KC 5D 6D 7D 8D 2H 3H 4H 6H 7H 2S 3S 4S"))
    assert guarded > alone + 0.3


def test_the_last_bidder_takes_in_the_tricks_nobody_bid() -> None:
    # Alone the hand bids 4; after bids of 2, 2 and 1 the table leaves tricks
    # over and some of them fall to it.
    assert decide(heuristic, position({1: SOLID})).value == 4
    assert decide(heuristic, position({0: SOLID}, bids=[2, 2, 1])).value == 5


def test_bids_above_the_share_of_tricks_shade_the_count_down() -> None:
    # A count of five and a half bids 5 alone; after bids of 6 and 5 (eleven
    # tricks with a seat still to bid) it can count on fewer and bids 4.
    hand = "AS KS 4S 3S AH 7H 5H 3H KD 6D 4D KC 2C"
    assert decide(heuristic, position({1: hand})).value == 5
    assert decide(heuristic, position({3: hand}, bids=[6, 5])).value == 4
