"""Every worked example of the five rule texts, each under its own preset.

Scoring examples go through ``score_hand`` (a team's two seats: seats 0 and 2
for team 0); the examples about bidding order, dealing and leads go through a
game built on a fixed deal.
"""

from __future__ import annotations

import pytest

from bot.game import refusals
from bot.game.cards import parse_card
from bot.game.rules import FirstDealer, preset
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult, score_hand
from bot.game.state import Game
from bot.game.types import Phase

from .helpers import all_spades_deal, bid_round, make_deal, new_game, play_out_lowest


def team0(
    preset_name: str, bids: tuple[int, int], tricks: tuple[int, int], bags: int = 0
) -> TeamHandResult:
    """Score team 0 (seats 0 and 2) of a hand; team 1 bid 1 and 1 and took the rest."""
    rest = 13 - sum(tricks)
    result, _ = score_hand(
        preset(preset_name),
        [bids[0], 1, bids[1], 1],
        [tricks[0], rest, tricks[1], 0],
        (bags, 0),
    )
    return result


# (text, preset, bids of the two partners, tricks they took, bags before,
#  hand score, bags after)
SCORING_EXAMPLES = [
    # 000: a contract of 4 + 3 taking 9 scores 70 + 2 bags = 72 and adds 2 bags.
    ("000 contract 7 takes 9", "standard", (4, 3), (5, 4), 0, 72, 2),
    ("000 set loses 10 per trick bid", "standard", (4, 3), (3, 3), 0, -70, 0),
    ("000 nil made +100", "standard", (NIL, 4), (0, 4), 0, 140, 0),
    # 000: a failed Nil loses 100; its tricks become bags, not the partner's.
    ("000 nil failed, tricks are bags", "standard", (NIL, 4), (2, 4), 0, -58, 2),
    ("000 ten bags cost 100, count restarts", "standard", (4, 3), (5, 4), 8, -28, 0),
    ("000 bags beyond ten carry over", "standard", (2, 2), (6, 5), 5, -53, 2),
    # 001: bid 5 take 6 = 51; bid 5 take 4 = -10 (10 per missing trick).
    ("001 bid 5 take 6", "low-club", (3, 2), (4, 2), 0, 51, 1),
    ("001 bid 5 take 4", "low-club", (3, 2), (2, 2), 0, -10, 0),
    # 001: bid 2 take 12 with no bags: 20 + 10 - 100 = -70, and ten bags removed.
    ("001 bid 2 take 12", "low-club", (1, 1), (6, 6), 0, -70, 0),
    # 001: Nil is +/-50 and the Nil bidder's tricks count for the team.
    ("001 nil made +50", "low-club", (NIL, 4), (0, 5), 0, 91, 1),
    ("001 nil failed -50, its tricks count", "low-club", (NIL, 4), (2, 3), 0, -9, 1),
    ("001 nil tricks save the contract", "low-club", (NIL, 5), (3, 2), 0, -50 + 50, 0),
    # 002: bid 7 take 8 = 71; bid 7 take 6 = -70.
    ("002 bid 7 take 8", "standard", (4, 3), (4, 4), 0, 71, 1),
    ("002 bid 7 take 6", "standard", (4, 3), (3, 3), 0, -70, 0),
    ("002 nil made +100", "standard", (NIL, 3), (0, 3), 0, 130, 0),
    ("002 nil failed -100", "standard", (NIL, 3), (1, 3), 0, -69, 1),
    # 002: a failed Nil's tricks are extra tricks, not towards the contract.
    ("002 failed nil tricks do not make the contract", "standard", (NIL, 4), (3, 3), 0, -137, 3),
    # 003: 10 points per undertrick.
    ("003 set by two", "cardgames", (3, 2), (2, 1), 0, -20, 0),
    ("003 nil made", "cardgames", (NIL, 3), (0, 4), 0, 131, 1),
    ("003 failed nil tricks are bags", "cardgames", (NIL, 3), (1, 2), 0, -109, 1),
    # 004: Nil +/-100, Blind Nil +/-200, set loses the bid times 10.
    ("004 blind nil made", "blind-nil", (BLIND_NIL, 4), (0, 4), 0, 240, 0),
    ("004 blind nil failed", "blind-nil", (BLIND_NIL, 4), (1, 4), 0, -159, 1),
    ("004 set loses the bid", "blind-nil", (3, 2), (2, 2), 0, -50, 0),
]


@pytest.mark.parametrize(
    ("preset_name", "bids", "tricks", "bags", "points", "bags_after"),
    [example[1:] for example in SCORING_EXAMPLES],
    ids=[example[0] for example in SCORING_EXAMPLES],
)
def test_scoring_example(
    preset_name: str,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    bags: int,
    points: int,
    bags_after: int,
) -> None:
    result = team0(preset_name, bids, tricks, bags)
    assert result.points == points
    assert result.bags_after == bags_after


@pytest.mark.parametrize(
    ("tricks", "score_after", "bags_after"),
    [(7, 389, 9), (8, 290, 0), (9, 291, 1)],
    ids=["takes 7", "takes 8", "takes 9"],
)
def test_003_team_with_337_points_and_7_bags_bids_5(
    tricks: int, score_after: int, bags_after: int
) -> None:
    result = team0("cardgames", (3, 2), (tricks - 2, 2), bags=7)
    assert 337 + result.points == score_after
    assert result.bags_after == bags_after
    assert result.contract_points == 50 + tricks - 5  # 52, 53, 54 before the bag penalty


def test_004_the_153_point_nil_example() -> None:
    # South 0, West 1, North 2, East 3. South bid 3 took 4, North bid 2 took 1,
    # East bid Nil took 0, West bid 5 took 8.
    ns, ew = score_hand(preset("blind-nil"), [3, 5, 2, NIL], [4, 8, 1, 0], (0, 0))
    assert (ns.points, ns.bags_after) == (50, 0)
    assert (ew.points, ew.new_bags, ew.nil_points) == (153, 3, 100)


def test_000_a_game_scores_the_hand_it_played() -> None:
    # Seat 1 holds every spade and takes all 13 tricks: team 1 bid 4 + 3 and
    # takes 13 (70 + 6 bags = 76), team 0 bid 2 + 2 and is set (-40).
    game = new_game("standard", [all_spades_deal(1)])
    bid_round(game, {0: 2, 1: 4, 2: 2, 3: 3})
    play_out_lowest(game)
    assert game.phase is Phase.HAND_OVER
    assert game.tricks_won == [0, 13, 0, 0]
    assert game.scores == [-40, 76]
    assert game.bags == [0, 6]
    record = game.hand_records[0]
    assert record.hand_score == [-40, 76]
    assert record.score_after == game.scores


def test_003_south_deals_and_the_bidding_goes_round_to_the_left() -> None:
    rules = preset("cardgames")
    seed = next(s for s in range(100) if Game.new(rules, s).dealer == 0)
    game = Game.new(rules, seed)
    assert game.dealer == 0  # South
    assert game.to_act == 1  # West bids first
    order = []
    for bid in (3, 1, 4, 4):  # West 3, North 1, East 4, South 4
        order.append(game.to_act)
        game.bid(game.to_act, bid)
    assert order == [1, 2, 3, 0]
    assert game.bid_order == [(1, 3), (2, 1), (3, 4), (0, 4)]
    assert game.contract(0) == 5  # North and South: 1 + 4
    assert game.contract(1) == 7  # East and West: 3 + 4
    assert game.phase is Phase.PLAYING and game.to_act == 1  # West leads


def test_003_the_first_dealer_is_random_but_fixed_by_the_seed() -> None:
    rules = preset("cardgames")
    dealers = [Game.new(rules, seed).dealer for seed in range(200)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Game.new(rules, seed).dealer for seed in range(200)]
    assert rules.first_dealer is FirstDealer.RANDOM
    assert {Game.new(preset("standard"), seed).dealer for seed in range(50)} == {0}


def test_003_first_lead_may_be_anything_but_a_spade() -> None:
    rules = preset("cardgames").with_options(first_dealer="host")
    deal = make_deal({1: "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"})
    game = Game.new(rules, 1, fixed_deals=[deal])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    with pytest.raises(refusals.FirstLeadRule):
        game.play(1, parse_card("AS"))
    game.play(1, parse_card("2H"))
    assert game.trick == [parse_card("2H")]


def test_003_a_hand_of_spades_may_lead_a_spade() -> None:
    rules = preset("cardgames").with_options(first_dealer="host")
    game = Game.new(rules, 1, fixed_deals=[all_spades_deal(1)])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(1, parse_card("2S"))
    assert game.trick == [parse_card("2S")]
    assert not game.spades_broken  # led, not played off suit: see test_what_breaks_spades


def test_001_the_first_trick_opens_with_the_lowest_club() -> None:
    deal = make_deal({1: "3C 9C AS 2H", 2: "2C"})
    game = new_game("low-club", [deal])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    for refused in ("9C", "2H", "AS"):
        with pytest.raises(refusals.FirstLeadRule):
            game.play(1, parse_card(refused))
    assert game.legal_play_mask(1) == 1 << parse_card("3C")
    game.play(1, parse_card("3C"))


def test_001_without_clubs_the_first_lead_is_a_heart_or_diamond() -> None:
    deal = make_deal({1: "AS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"})
    game = new_game("low-club", [deal])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    with pytest.raises(refusals.SpadesNotBroken):
        game.play(1, parse_card("AS"))
    game.play(1, parse_card("QH"))


def test_001_only_a_hand_of_spades_opens_with_a_spade() -> None:
    game = new_game("low-club", [all_spades_deal(1)])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(1, parse_card("7S"))


def test_004_blind_nil_scores_200_for_a_team_trailing_by_100() -> None:
    # Hand 1: seat 1 takes every trick: team 1 makes 7 + 6 (130), team 0 makes
    # its Nil and is set on 7 (100 - 70 = 30): team 0 trails by exactly 100.
    # Hand 2 (dealer 1, seat 2 bids first): seat 0 takes every trick, so seat
    # 2's Blind Nil is made.
    game = new_game("blind-nil", [all_spades_deal(1), all_spades_deal(0)])
    bid_round(game, {0: NIL, 1: 7, 2: 7, 3: 6})
    play_out_lowest(game)
    assert game.scores == [30, 130]
    game.next_hand(0)
    assert game.to_act == 2
    assert BLIND_NIL in game.legal_bids(2)
    game.bid(2, BLIND_NIL)
    assert BLIND_NIL not in game.legal_bids(3)  # seat 3's team leads
    bid_round(game, {3: 1, 0: 13, 1: 1})
    play_out_lowest(game)
    assert game.hand_records[1].hand_score == [130 + 200, -20]


def test_004_failed_blind_nil_loses_200() -> None:
    game = new_game("blind-nil", [all_spades_deal(1), all_spades_deal(2)])
    bid_round(game, {0: NIL, 1: 7, 2: 7, 3: 6})
    play_out_lowest(game)
    game.next_hand(0)
    game.bid(2, BLIND_NIL)  # seat 2 then takes every trick
    bid_round(game, {3: 1, 0: 1, 1: 1})
    play_out_lowest(game)
    # Seat 0's contract of 1 is set (-10); seat 2's 13 tricks are bags: +13,
    # and ten of them cost 100.
    assert game.hand_records[1].hand_score[0] == -200 - 10 + 13 - 100
    assert game.bags[0] == 3


def test_004_a_team_at_minus_300_loses() -> None:
    # Team 1 bids 13 + 12 and takes nothing: -250 leaves the game running at
    # this table (it would end a standard one); another -250 ends it.
    deals = [all_spades_deal(0), all_spades_deal(2)]
    for name, over_after in (("blind-nil", 2), ("standard", 1)):
        game = new_game(name, deals)
        for hand in range(over_after):
            if hand:
                game.next_hand(0)
            bid_round(game, {0: 1, 1: 13, 2: 1, 3: 12})
            play_out_lowest(game)
        assert game.phase is Phase.GAME_OVER, name
        assert game.result is not None and game.result.winner == 0
        assert game.scores[1] == -250 * over_after


# Seat 1 holds two hearts and twelve spades: it wins the two heart tricks, then
# leads a spade from a hand of only spades; seat 3 follows with the KS and wins.
SPADE_LEAD_DEAL = make_deal(
    {
        1: "AH KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        3: "KS AS 2H 3H",
        2: "4H 5H",
        0: "6H 7H 8H 9H TH JH QH",
    }
)


@pytest.mark.parametrize(
    ("preset_name", "broken"),
    [
        ("standard", True),  # 000: any spade played breaks spades
        ("low-club", False),  # 001: only a spade played on a non-spade trick
        ("cardgames", False),  # 003: a spade played when unable to follow
        ("blind-nil", False),  # 004: a spade played "in this manner", off suit
    ],
)
def test_what_breaks_spades(preset_name: str, broken: bool) -> None:
    rules = preset(preset_name).with_options(first_dealer="host")
    game = Game.new(rules, 1, fixed_deals=[SPADE_LEAD_DEAL])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    for _ in range(12):
        seat = game.to_act
        game.play(seat, game.legal_cards(seat)[0])
    assert [t.cards[0] for t in game.tricks] == [parse_card(c) for c in ("KH", "AH", "2S")]
    assert game.tricks[2].winner == 3 and game.to_act == 3
    assert game.spades_broken is broken
    if broken:
        game.play(3, parse_card("AS"))
    else:
        with pytest.raises(refusals.SpadesNotBroken):
            game.play(3, parse_card("AS"))
