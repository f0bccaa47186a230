"""The parts of the computer players: inference, stakes, sampling, solving."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from bot.ai.bidding import estimate_tricks, nil_danger
from bot.ai.knowledge import Knowledge, knowledge_of
from bot.ai.plan import plan_of
from bot.ai.policy import roll_out
from bot.ai.sampling import DealSampler, deal_unseen
from bot.ai.solver import Solver, distinct_moves
from bot.ai.utility import HandValuer, position_value
from bot.game.cards import DECK_MASK, SUIT_MASKS, mask_of, parse_card, parse_cards
from bot.game.playout import Position
from bot.game.rules import preset
from bot.game.scoring import NIL
from bot.game.sides import PARTNER_SIDES
from bot.game.view import view_of
from tests.ai.positions import STANDARD, position


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def test_knowledge_sees_voids_and_only_spades_leads() -> None:
    hands = {
        1: "3D AD 5S 7D 8D 9C 8C 7C 6H 7H 8H 9H 2D",
        2: "2C 3C 4C 5C 6C TC JC QC KC AC TH JH QH",
        3: "5D 6D 3S KS QS JS TS 2H 3H 4H 5H KH AH",
        0: "4D 6S 4S",
    }
    game = position(hands, bids=[3, 2, 5, 3], plays="3D 2C 5D 4D 4H 6S 6H TH 4S 5S 3C")
    k = knowledge_of(view_of(game, 3))
    # Seat 2 showed out of diamonds and spades, seat 0 out of hearts.
    possible = k.possible()
    assert [s for s in range(4) if not possible[2] & SUIT_MASKS[s]] == [1, 3]
    assert [s for s in range(4) if not possible[0] & SUIT_MASKS[s]] == [2]
    assert all(possible[1] & SUIT_MASKS[s] for s in range(4))
    assert k.counts == (10, 10, 10, 11)
    assert k.hand == game.hands[3]
    assert not k.unseen & k.hand
    assert k.unseen.bit_count() == 52 - 11 - 11


def test_knowledge_reads_the_lowest_club_lead() -> None:
    rules = preset("low-club")
    game = position({1: "5C 9C", 0: "2C 3C 4C"}, bids=[3, 3, 3, 3], plays="5C", rules=rules)
    k = knowledge_of(view_of(game, 2))
    # The leader's lowest club was the five: it holds no lower club.
    assert k.forbidden[1] & SUIT_MASKS[0] == cards("2C 3C 4C")


def test_plan_counts_needs_bags_and_set_swings() -> None:
    plan = plan_of(STANDARD, [4, NIL, 3, 2], [8, 0])
    assert plan.contract == (7, 2)
    assert plan.nil == (False, True, False, False)
    won = [5, 1, 3, 0]
    assert plan.need(0, won) == 0 and plan.need(1, won) == 2
    assert plan.bags_so_far(0, won) == 1
    assert plan.bags_so_far(1, won) == 1  # the failed Nil's trick is a bag
    assert plan.bag_cost(0, won, 1) == 99  # the tenth bag
    assert plan.set_swing == (140, 40)
    short = plan_of(preset("low-club"), [4, NIL, 3, 2], [0, 0])
    assert short.set_swing == (80, 30)
    assert short.need(1, won) == 1  # the Nil's trick counts for its partner


def test_deal_unseen_respects_counts_and_voids() -> None:
    rng = random.Random(3)
    unseen = cards("2C 3C 4C 5C 2H 3H 4H 5H 2S")
    allowed = [0, unseen & ~SUIT_MASKS[0], unseen, unseen & ~SUIT_MASKS[2]]
    for _ in range(50):
        hands = deal_unseen(rng, unseen, [1, 2, 3], [0, 3, 3, 3], allowed)
        assert hands is not None
        assert hands[1] | hands[2] | hands[3] == unseen
        assert [h.bit_count() for h in hands[1:]] == [3, 3, 3]
        assert not hands[1] & SUIT_MASKS[0] and not hands[3] & SUIT_MASKS[2]


def test_sampler_survives_impossible_voids() -> None:
    # After a revoke at a table that allows them, the inferred voids can
    # leave some unseen cards with no seat to hold them: the sampler then
    # forgets the voids rather than fail.
    unseen = cards("2C 3C 4C")
    clubs = SUIT_MASKS[0]
    k = Knowledge(
        seat=0,
        hand=cards("AS"),
        unseen=unseen,
        forbidden=(DECK_MASK & ~cards("AS"), clubs, clubs, clubs),
        counts=(1, 1, 1, 1),
        played_by=(0, 0, 0, 0),
    )
    sampler = DealSampler(k, [None, None, None, None])
    dealt = sampler.sample(random.Random(4))
    assert dealt[0] == cards("AS")
    assert dealt[1] | dealt[2] | dealt[3] == unseen


def mean_worth(weighted: bool, seat: int, measure: Callable[[int], float]) -> float:
    # Seat 1 bid Nil, seat 2 nine, seat 3 one; seat 0 samples their hands.
    view = view_of(position({}, bids=[NIL, 9, 1]), 0)
    sampler = DealSampler(knowledge_of(view), view.bids if weighted else [None] * 4)
    rng = random.Random(1)
    return sum(measure(sampler.sample(rng)[seat]) for _ in range(80)) / 80


def test_sampling_weighs_hands_by_their_bids() -> None:
    assert mean_worth(True, 1, nil_danger) < mean_worth(False, 1, nil_danger) - 1
    assert mean_worth(True, 2, estimate_tricks) > mean_worth(False, 2, estimate_tricks) + 1.5


def test_distinct_moves_keep_one_card_of_each_run() -> None:
    legal = cards("2H 3H 5H KH AH")
    live = cards("4H QH")
    assert distinct_moves(legal, live) == [parse_card("2H"), parse_card("5H"), parse_card("KH")]


def plain_minimax(position: Position, team: int, value: Callable[[Sequence[int]], float]) -> float:
    if not position.tricks_left:
        return value(position.tricks_won)
    seat = position.to_act
    results = []
    legal = position.legal_mask()
    for card in range(52):
        if legal >> card & 1:
            child = position.copy()
            child.play(card)
            results.append(plain_minimax(child, team, value))
    return max(results) if seat & 1 == team else min(results)


def test_solver_agrees_with_plain_minimax() -> None:
    rng = random.Random(8)
    for trial in range(12):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [mask_of(deck[3 * s : 3 * s + 3]) for s in range(4)]
        won = rng.choice([[2, 3, 3, 2], [0, 5, 4, 1], [6, 0, 4, 0]])
        bids = [rng.choice([NIL, 2, 3, 4]) for _ in range(4)]
        team = trial % 2
        valuer = HandValuer(STANDARD, team, (rng.randrange(400), rng.randrange(400)), (8, 9))

        value = partial(valuer.value, bids)

        position = Position(hands, [], trial % 4, True, list(won))
        moves = distinct_moves(position.legal_mask(), hands[0] | hands[1] | hands[2] | hands[3])
        solved = Solver(PARTNER_SIDES[team], value).values_of_moves(position, moves)
        for card, got in zip(moves, solved, strict=True):
            child = position.copy()
            child.play(card)
            assert abs(got - plain_minimax(child, team, value)) < 1e-12


def test_rollout_plays_a_whole_legal_hand() -> None:
    game = position({}, bids=[3, 3, 3, 3])
    start = Position.from_game(game)
    won = roll_out(start, plan_of(STANDARD, game.bids, game.bags))
    assert sum(won) == 13
    assert start.hands == game.hands  # left unchanged


def test_position_value_knows_the_end_of_the_game() -> None:
    rules = STANDARD
    assert position_value(rules, 0, (510, 480), (0, 0)) == 1.0
    assert position_value(rules, 1, (510, 480), (0, 0)) == 0.0
    assert position_value(rules, 0, (-210, 100), (0, 0)) == 0.0
    even = position_value(rules, 0, (100, 100), (0, 0))
    assert abs(even - 0.5) < 1e-9
    assert position_value(rules, 0, (150, 100), (0, 0)) > even
    # Bags carried are a debt.
    assert position_value(rules, 0, (100, 100), (9, 0)) < even
    # The same lead is worth more near the end.
    assert position_value(rules, 0, (450, 400), (0, 0)) > position_value(rules, 0, (50, 0), (0, 0))
