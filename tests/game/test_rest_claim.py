"""Claiming the rest of the tricks: the claim, the opponents' answers, the
score of an accepted claim, replays of games with claims, and
the exact check a computer opponent answers with."""

from __future__ import annotations

import random

import pytest

from bot.ai.rest_claim import claim_holds, sure_win
from bot.game import refusals
from bot.game.cards import cards_of, parse_card
from bot.game.house import apply as apply_house
from bot.game.playout import random_card
from bot.game.rest_claim import NO_CLAIM, NO_SEAT, RestClaim, claimable
from bot.game.rules import preset
from bot.game.scoring import score_hand
from bot.game.state import Game
from bot.game.trick import legal_mask, winning
from bot.game.types import Action, ActionKind, Phase

from .helpers import (
    MIXED_DEAL,
    all_spades_deal,
    bid_round,
    make_deal,
    new_game,
    play_out_lowest,
    timeout_claimable,
)
from .test_replay import assert_rebuilt

BIDS = {0: 4, 1: 3, 2: 3, 3: 3}


def claim(game: Game, seat: int, at: float = 0.0) -> None:
    game.apply(Action(ActionKind.CLAIM_REST, seat, 0, at))


def accept(game: Game, seat: int, at: float = 0.0) -> None:
    game.apply(Action(ActionKind.ACCEPT_REST, seat, 0, at))


def refuse(game: Game, seat: int, at: float = 0.0) -> None:
    game.apply(Action(ActionKind.REFUSE_REST, seat, 0, at))


def game_at_turn_of(seat: int, deal: list[int], tricks: int = 4) -> Game:
    """A game of ``deal`` after the bidding and ``tricks`` tricks played
    lowest, then played on until it is ``seat``'s turn."""
    game = new_game("standard", [deal, deal], started_at=100.0)
    bid_round(game, BIDS, at=101.0)
    while len(game.tricks) < tricks or game.to_act != seat:
        game.play(game.to_act, cards_of(game.legal_play_mask(game.to_act))[0], at=102.0)
    return game


def test_an_accepted_claim_scores_the_hand_as_if_the_claimer_won_the_rest() -> None:
    game = game_at_turn_of(0, all_spades_deal(0))
    played = len(game.tricks)
    won_before = list(game.tricks_won)
    played_out = Game.from_json(game.to_json())
    claim(game, 0, at=110.0)
    assert game.rest == RestClaim(0, 0, 0b0001)
    accept(game, 1, at=111.0)
    assert game.waited_on() == 3 and not game.hand_records
    accept(game, 3, at=112.0)
    assert game.phase is Phase.HAND_OVER
    record = game.hand_records[-1]
    assert record.claim == (0, 13 - played)
    assert len(record.tricks) == played  # the tricks played, not the claimed ones
    expected_won = list(won_before)
    expected_won[0] += 13 - played
    assert record.tricks_won == expected_won
    expected = score_hand(game.rules, [BIDS[s] for s in range(4)], expected_won, [0, 0])
    assert record.hand_score == [expected[0].points, expected[1].points]
    # Seat 0 holds every spade: playing the hand out scores exactly the same.
    play_out_lowest(played_out)
    assert played_out.hand_records[-1].hand_score == record.hand_score
    assert played_out.hand_records[-1].claim is None
    text = record.to_json("g", game.rules)
    assert text["claim"] == {"seat": 0, "tricks": 13 - played}
    assert "claim" not in played_out.hand_records[-1].to_json("g", game.rules)


def test_a_refused_claim_lets_play_go_on_and_keeps_the_cards_shown() -> None:
    game = game_at_turn_of(2, MIXED_DEAL)
    claim(game, 2, at=110.0)
    assert game.legal_play_mask(2) == 0
    with pytest.raises(refusals.RestClaimRefused):
        game.play(2, cards_of(game.hands[2])[0], at=110.5)
    refuse(game, 3, at=111.0)
    assert game.rest == RestClaim(NO_SEAT, 0, 0b0100)
    assert game.waited_on() == 2 and game.legal_play_mask(2)
    play_out_lowest(game, at=112.0)
    assert game.phase is Phase.HAND_OVER
    assert game.hand_records[-1].claim is None
    assert sum(game.tricks_won) == 13
    game.next_hand(0, at=113.0)
    assert game.rest == NO_CLAIM


def test_a_refused_claimer_claims_again_on_its_next_turn_only() -> None:
    game = game_at_turn_of(2, MIXED_DEAL)
    claim(game, 2)
    refuse(game, 1)
    assert not claimable(game, 2)
    with pytest.raises(refusals.RestClaimRefused, match="claim again on your next turn"):
        claim(game, 2)
    game.play(2, cards_of(game.legal_play_mask(2))[0])
    while game.to_act != 2 or game.trick:
        game.play(game.to_act, cards_of(game.legal_play_mask(game.to_act))[0])
    assert claimable(game, 2)
    claim(game, 2)
    assert game.rest.claimer == 2


def test_claims_and_answers_out_of_place_are_refused() -> None:
    game = game_at_turn_of(0, MIXED_DEAL)
    for seat in (1, 2, 3):
        with pytest.raises(refusals.RestClaimRefused):
            claim(game, seat)
    with pytest.raises(refusals.RestClaimRefused):
        accept(game, 1)  # nothing to answer
    claim(game, 0)
    with pytest.raises(refusals.RestClaimRefused):
        claim(game, 0)  # already waiting
    with pytest.raises(refusals.RestClaimRefused):
        accept(game, 2)  # the partner does not answer
    accept(game, 3)
    with pytest.raises(refusals.RestClaimRefused):
        accept(game, 3)
    assert game.waited_on() == 1
    # While the table waits on an answer, the claimer's team may claim the
    # turn clock's win against the opponent it waits on.
    assert timeout_claimable(game, 0, game.waiting_since + game.rules.turn_limit_s + 1)
    assert not timeout_claimable(game, 1, game.waiting_since + game.rules.turn_limit_s + 1)


def test_a_claim_waiting_when_the_game_ends_cannot_be_answered() -> None:
    game = game_at_turn_of(0, MIXED_DEAL)
    claim(game, 0)
    game.resign(1)
    with pytest.raises(refusals.GameIsOver):
        accept(game, 3)


def test_games_with_claims_replay() -> None:
    game = game_at_turn_of(2, MIXED_DEAL)
    claim(game, 2, at=110.0)
    assert_rebuilt(game)
    accept(game, 1, at=111.0)
    assert_rebuilt(game)
    refuse(game, 3, at=112.0)
    assert_rebuilt(game)
    game.play(2, cards_of(game.legal_play_mask(2))[0], at=113.0)
    while game.to_act != 0 or game.trick:
        game.play(game.to_act, cards_of(game.legal_play_mask(game.to_act))[0], at=114.0)
    claim(game, 0, at=115.0)
    accept(game, 1, at=116.0)
    accept(game, 3, at=117.0)
    assert game.hand_records[-1].claim is not None
    kinds = [a.kind for a in game.actions]
    assert kinds.count(ActionKind.CLAIM_REST) == 2
    assert ActionKind.ACCEPT_REST in kinds and ActionKind.REFUSE_REST in kinds
    assert_rebuilt(game)


# -- the exact check ---------------------------------------------------------


def brute_holds(
    hands: list[int], trick: list[int], leader: int, broken: bool, claimer: int
) -> bool:
    """Every legal card tried, nothing shortened: the definition itself."""
    if not trick and not hands[claimer]:
        return True
    seat = (leader + len(trick)) & 3
    outcomes = []
    for card in cards_of(legal_mask(hands[seat], trick, broken, False)):
        rest = list(hands)
        rest[seat] ^= 1 << card
        now = [*trick, card]
        now_broken = broken or card >= parse_card("2S")
        if len(now) == 4:
            winner = winning(now, leader)[1]
            holds = winner == claimer and brute_holds(rest, [], winner, now_broken, claimer)
            outcomes.append(holds)
        else:
            outcomes.append(brute_holds(rest, now, leader, now_broken, claimer))
    return any(outcomes) if (seat & 1) == (claimer & 1) else all(outcomes)


def test_the_check_agrees_with_trying_every_play_on_random_late_positions() -> None:
    rng = random.Random(5)
    held = refused = 0
    for seed in range(200):
        game = new_game("standard", seed=seed)
        bid_round(game, BIDS)
        stop = rng.randrange(36, 50)  # 1 to 4 tricks left, sometimes mid-trick
        while game.action_count - 4 < stop:
            game.play(game.to_act, random_card(game.legal_play_mask(game.to_act), rng))
        seat = game.to_act
        expected = brute_holds(
            list(game.hands), list(game.trick), game.leader, game.spades_broken, seat
        )
        assert claim_holds(game, seat) is expected
        held += expected
        refused += not expected
    assert held >= 10 and refused >= 10  # both answers were tested


def test_the_check_on_whole_hands() -> None:
    # Every spade: the claim holds from any seat's turn at any point.
    game = game_at_turn_of(0, all_spades_deal(0), tricks=0)
    assert claim_holds(game, 0)
    # Seat 2's top clubs and hearts fall to seat 0's spades.
    game = game_at_turn_of(2, MIXED_DEAL, tricks=1)
    assert not claim_holds(game, 2)
    hands = [0, 0, 0, 0]
    hands[0] = 1 << parse_card("AS") | 1 << parse_card("AH")
    hands[1] = 1 << parse_card("KS") | 1 << parse_card("KH")
    assert sure_win(hands, 0, broken=True)
    assert not sure_win(hands, 0, broken=False)  # it must lead the ace of hearts first


def test_a_claim_on_the_first_lead_keeps_the_lowest_club_rule() -> None:
    # Seat 1 leads first. With spades led at any time it draws seat 2's two
    # trumps and takes everything; made to open with its club, seat 2 (void in
    # clubs) ruffs.
    deal = make_deal(
        {
            1: "AC AH AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
            2: "3S 2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
            3: "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C 2H",
        }
    )
    any_lead = apply_house(preset("standard"), "spades_lead=any")
    for rules, expected in ((any_lead, True), (apply_house(any_lead, "first_lead=lowclub"), False)):
        game = new_game(rules, [deal])
        bid_round(game, BIDS)
        assert game.to_act == 1 and not game.trick
        assert claim_holds(game, 1) is expected
