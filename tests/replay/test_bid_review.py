"""The coach's review of bids: the bid it would have made from the seat's view
at its turn, its worth in points with the tricks as they fell, and the line
on the hand's bidding frame of a replay."""

from __future__ import annotations

from dataclasses import replace

from bot.coach.bid_review import BidEffect, bidding_view, review_bids
from bot.coach.hint import hint_for, review_player
from bot.coach.review import MIN_COST
from bot.game.record import HandRecord
from bot.game.scoring import BLIND_NIL, NIL, score_hand
from bot.render.replay import bid_marks_at, coach_lines, viewer_spec
from bot.replay.frames import replay_of
from bot.replay.review import BidMark, GameReview, review_game
from tests.ai.positions import STANDARD, position
from tests.replay.games import finished, played_game

NAMES = ["Ann", "Bob", "Cat", "Dan"]
#: Seat 0 holds every spade and takes every trick; the others hold a suit each.
SUITS = {
    0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    1: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    2: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    3: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}


def all_spades_hand(seat0_bid: int) -> HandRecord:
    """Hand 1: seats 1, 2 and 3 bid Nil (and take no trick), seat 0 bids
    ``seat0_bid`` last and takes all 13 tricks, each seat playing its lowest card."""
    game = position(SUITS, bids=[NIL, NIL, NIL, seat0_bid])
    while not game.hand_records:
        seat = game.to_act
        legal = game.legal_play_mask(seat)
        game.play(seat, (legal & -legal).bit_length() - 1)
    record = game.hand_records[0]
    assert record.tricks_won == [13, 0, 0, 0]
    return record


def worth(bids: list[int], record: HandRecord) -> int:
    """Team 0's points less team 1's, each bag charged its share of the penalty."""
    rules = STANDARD
    results = score_hand(rules, bids, record.tricks_won, record.bags_before)
    share = rules.bag_penalty / rules.bag_limit
    each = [r.points - r.bag_penalty - round(r.new_bags * share) for r in results]
    return each[0] - each[1]


def test_a_bid_far_below_the_tricks_taken_is_marked_with_its_cost() -> None:
    record = all_spades_hand(1)
    marks = review_bids(STANDARD, record, review_player())
    assert [m.seat for m in marks] == [0]  # the Nils were made: nothing better
    mark = marks[0]
    assert mark.bid == 1 and mark.better > 1
    bids = [1, NIL, NIL, NIL]
    better = [mark.better, NIL, NIL, NIL]
    assert mark.points == worth(better, record) - worth(bids, record) >= MIN_COST
    assert mark.effect is BidEffect.FEWER_BAGS and mark.number == 12 - (13 - mark.better)
    # The real hand crossed the bag limit: the coach's bid would not have.
    assert score_hand(STANDARD, bids, record.tricks_won, record.bags_before)[0].bag_penalty < 0


def test_the_coachs_own_bid_is_not_marked() -> None:
    view = bidding_view(STANDARD, all_spades_hand(1), 0)
    assert view is not None and view.bids == (None, NIL, NIL, NIL) and view.hand
    coach = hint_for(view, review_player()).action.value
    assert review_bids(STANDARD, all_spades_hand(coach), review_player()) == []


def test_blind_nil_and_forced_bids_are_not_judged() -> None:
    record = all_spades_hand(1)
    blind = replace(record, bids=[(1, BLIND_NIL), *record.bids[1:]])
    assert bidding_view(STANDARD, blind, 1) is None
    assert bidding_view(STANDARD, blind, 0) is not None
    mirror = replay_of(finished(played_game("standard", seed=3, house="bidding=mirror")))
    assert all(
        bidding_view(mirror.rules, record, seat) is None
        for record in mirror.records
        for seat in range(4)
    )


def test_a_games_bid_marks_are_its_hands_reviews() -> None:
    replay = replay_of(finished(played_game("standard", seed=3)))
    review = review_game(replay.rules, replay.records)
    player = review_player()
    expected = [
        (record.hand, m.seat, m.bid, m.better, m.points)
        for record in replay.records
        for m in review_bids(replay.rules, record, player)
    ]
    assert [(m.hand, m.seat, m.bid, m.better, m.points) for m in review.bids] == expected
    assert expected  # the game has costly bids to show


def test_the_bidding_frame_carries_the_costliest_bid_first() -> None:
    replay = replay_of(finished(played_game("standard", seed=3)))
    small = BidMark(1, 2, 4, 5, BidEffect.FEWER_BAGS, 1, 19)
    large = BidMark(1, 1, 3, NIL, BidEffect.MAKE_NIL, 0, 120)
    later = BidMark(2, 0, 6, 5, BidEffect.MAKE_CONTRACT, 0, 110)
    review = GameReview([], [small, later, large])
    bidding = replay.frames[0]
    assert bid_marks_at(bidding, review.bids) == [large, small]
    lines = coach_lines(bidding, review, NAMES)
    assert lines == [
        "Coach: with the tricks as they fell, Bob's bid of 3 cost 120 points; "
        "the coach would have bid Nil: a Nil made, as they took no trick.",
        "Coach: with the tricks as they fell, Cat's bid of 4 cost 19 points; "
        "the coach would have bid 5: 1 bag fewer.",
    ]
    assert all(line in viewer_spec(replay, 0, lines, False).content for line in lines)
    assert coach_lines(replay.frames[1], review, NAMES) == []  # a trick: no bids
    second = replay.hand_starts()[1]
    assert coach_lines(replay.frames[second], review, NAMES) == [
        "Coach: with the tricks as they fell, Ann's bid of 6 cost 110 points; "
        "the coach would have bid 5: the contract made."
    ]
    german = coach_lines(bidding, review, NAMES, "de")
    assert len(german) == 2 and german[0] != lines[0] and "120" in german[0]
