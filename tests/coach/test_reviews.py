"""Reviews: after a hand, the seat's bid against its tricks and the one card
of its that cost the most, judged on the known deal."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.baseline import heuristic_v1
from bot.ai.heuristic import HeuristicPlayer
from bot.coach.review import Effect, Mistake, Review, _decisions, review_hand
from bot.game.cards import is_trump, parse_card
from bot.game.house import apply
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.render.coach_text import mistake_text, review_text
from tests.coach.scenarios import (
    Scenario,
    count_sure_tricks,
    cover_partner_nil,
    lead_low_into_nil,
    stop_once_made,
)


def review_after_the_wrong_move(scenario: Scenario) -> Review:
    """The seat to act goes against the tip; everyone else, and the seat
    afterwards, plays the frozen baseline heuristic to the end of the hand (a
    continuation that stays the same while the computer players improve)."""
    game = scenario.game
    seat = game.to_act
    kind = ActionKind.BID if game.phase is Phase.BIDDING else ActionKind.PLAY
    game.apply(Action(kind, seat, scenario.wrong))
    player = heuristic_v1()
    while game.phase is not Phase.HAND_OVER:
        game.apply(player.decide(view_of(game, game.to_act)))
    return review_hand(game.rules, game.hand_records[-1], seat)


CARD_TIPS: list[tuple[Callable[[], Scenario], int, str, str, Effect | None, str]] = [
    (
        cover_partner_nil,
        1,
        "3H",
        "AH",
        Effect.KEEP_PARTNER_NIL,
        "Trick 1: the A♥ instead of the 3♥ would have kept your partner's Nil.",
    ),
    (lead_low_into_nil, 1, "8C", "2D", None, "Trick 1: the 2♦ instead of the 8♣ would have"),
    (
        stop_once_made,
        3,
        "AD",
        "3D",
        Effect.FEWER_BAGS,
        "Trick 3: the 3♦ instead of the A♦ would have saved your team 2 bags.",
    ),
]


@pytest.mark.parametrize(
    ("make", "trick", "played", "better", "effect", "text"),
    CARD_TIPS,
    ids=lambda t: getattr(t, "__name__", ""),
)
def test_the_review_names_the_card_against_the_tip(
    make: Callable[[], Scenario],
    trick: int,
    played: str,
    better: str,
    effect: Effect | None,
    text: str,
) -> None:
    review = review_after_the_wrong_move(make())
    mistake = review.mistake
    assert mistake is not None
    assert (mistake.trick, mistake.played, mistake.better) == (
        trick,
        parse_card(played),
        parse_card(better),
    )
    if effect is not None:
        assert mistake.effect is effect
    assert mistake.points > 0
    assert text in review_text(review, 7).splitlines()[-1]


def test_the_review_sets_the_bid_against_the_tricks() -> None:
    scenario = count_sure_tricks()
    review = review_after_the_wrong_move(scenario)
    assert review.bid == 7 and review.taken < 7
    first = review_text(review, 7).splitlines()[0]
    assert first == (
        f"Table 7, hand 1: you bid 7 and took {review.taken}, "
        f"{7 - review.taken} fewer than you bid."
    )


def test_a_hand_played_as_the_tips_say_has_no_costly_card() -> None:
    """The duck taken: nothing of seat 3's play costs its team a bag any more."""
    scenario = stop_once_made()
    game = scenario.game
    seat = game.to_act
    game.play(seat, parse_card("3D"))
    player = heuristic_v1()
    while game.phase is not Phase.HAND_OVER:
        game.apply(player.decide(view_of(game, game.to_act)))
    review = review_hand(game.rules, game.hand_records[-1], seat)
    assert review.mistake is None or review.mistake.trick != 3


def test_every_effect_has_its_sentence() -> None:
    for effect in Effect:
        for number in (1, 2):
            mistake = Mistake(4, parse_card("KD"), parse_card("9D"), effect, number, 30)
            text = mistake_text(mistake)
            assert text.startswith("Trick 4: the 9♦ instead of the K♦ would have ")
            assert text.endswith(".") and "{" not in text


def test_the_review_replays_a_hand_with_spades_led_at_any_time() -> None:
    # Seed 10 under spades_lead=any: the heuristic leads a spade at trick 1.
    rules = apply(preset("standard"), "spades_lead=any")
    game = Game.new(rules, 10)
    player = HeuristicPlayer()
    while game.phase is not Phase.HAND_OVER:
        game.apply(player.decide(view_of(game, game.to_act)))
    record = game.hand_records[-1]
    leader = record.tricks[0].leader
    assert is_trump(record.tricks[0].cards[0])
    _, first, card = _decisions(rules, record, leader)[0]
    assert first.spades_broken  # so the spade lead is one of the cards weighed
    assert first.legal_mask() >> card & 1
    review_hand(rules, record, leader)
