"""The coach's hint during the Nil pass: the cards to pass and why, for the
Nil bidder and for its partner, and the decision the Hint button names."""

from __future__ import annotations

from bot.coach.hint import can_hint, decision_stamp, hint_for
from bot.coach.reasons import Why
from bot.game.cards import SPADE_MASK
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.render.coach_text import reason_text
from tests.game.helpers import MIXED_DEAL, bid_round, new_game
from tests.game.test_nil_pass import ONE_NIL, rules_of

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _passing() -> Game:
    game = new_game(rules_of("nil_pass=3", "blind-nil"), [MIXED_DEAL, MIXED_DEAL], seed=3)
    bid_round(game, ONE_NIL, at=10.0)
    assert game.phase is Phase.PASSING and game.exchange.choosing() == (1, 3)
    return game


def test_the_nil_bidder_is_told_to_pass_its_dangerous_cards() -> None:
    view = view_of(_passing(), 1)  # seat 1 bid Nil, and holds spades 2-7
    assert can_hint(view)
    hint = hint_for(view)
    assert hint.action.kind is ActionKind.PASS and hint.action.value.bit_count() == 3
    assert hint.action.value & ~view.hand == 0
    assert hint.reason.why is Why.PASS_NIL_SPADES and hint.action.value & SPADE_MASK
    assert hint.reason.cards == hint.action.value
    text = reason_text(hint.reason, NAMES)
    assert "spades" in text and "{" not in text


def test_the_partner_is_told_to_pass_low_cards_and_keep_cover() -> None:
    game = _passing()
    view = view_of(game, 3)
    assert view.to_act != 3 and can_hint(view)  # the partners choose at once
    hint = hint_for(view)
    assert hint.reason.why is Why.PASS_COVER and hint.reason.seat == 1
    text = reason_text(hint.reason, NAMES)
    assert text.startswith("Bob bid Nil") and "{" not in text


def test_the_decision_stays_through_the_partners_pass_only() -> None:
    game = _passing()
    stamp = decision_stamp(game)
    partner = view_of(game, 3)
    game.apply(Action(ActionKind.PASS, 3, hint_for(partner).action.value, 11.0))
    assert decision_stamp(game) == stamp  # the Nil bidder's Hint button still holds
    assert not can_hint(view_of(game, 3))  # nothing left to decide for the partner
    game.apply(Action(ActionKind.PASS, 1, hint_for(view_of(game, 1)).action.value, 12.0))
    assert game.phase is Phase.PLAYING and decision_stamp(game) == game.action_count
