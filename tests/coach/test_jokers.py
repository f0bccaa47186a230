"""The coach at a jokers table: hints and the review read the jokers as the
top trumps and name them."""

from __future__ import annotations

from bot.ai.heuristic import HeuristicPlayer
from bot.coach.hint import hint_for
from bot.coach.review import review_hand
from bot.game.cards import BIG_JOKER, LITTLE_JOKER
from bot.game.house import apply
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import ActionKind, Phase
from bot.game.view import view_of
from bot.render.coach_text import hint_text, review_text

NAMES = ["Ann", "Bob", "Cat", "Dan"]
JOKERS = 1 << BIG_JOKER | 1 << LITTLE_JOKER


def test_hints_and_a_review_on_a_jokers_deal() -> None:
    rules = apply(preset("standard"), "deck=jokers")
    game = Game.new(rules, 3)
    holder = next(s for s in range(4) if game.hands[s] & 1 << BIG_JOKER)
    player = HeuristicPlayer()
    hinted_jokers = 0
    while game.phase is not Phase.HAND_OVER:
        view = view_of(game, game.to_act)
        if view.seat == holder:  # plays as the hints say
            hint = hint_for(view)
            text = hint_text(hint.reason, NAMES)
            assert text and "{" not in text
            if hint.action.kind is ActionKind.BID:
                assert hint.action.value in view.legal_bids
                assert hint.action.value >= 1  # the Big Joker is a sure trick
            else:
                assert view.legal_cards >> hint.action.value & 1
                if JOKERS >> hint.action.value & 1:
                    hinted_jokers += 1
                    assert "🃏" in text or not hint.reason.card  # a joker is named as one
            game.apply(hint.action)
        else:
            game.apply(player.decide(view))
    assert hinted_jokers  # the Big Joker was played on a hint
    record = game.hand_records[-1]
    assert any(JOKERS >> card & 1 for trick in record.tricks for card in trick.cards)
    for seat in range(4):
        review = review_hand(rules, record, seat)
        assert review.taken == record.tricks_won[seat]
        if review.mistake is not None:
            dealt = record.dealt[seat]
            assert dealt >> review.mistake.played & 1 and dealt >> review.mistake.better & 1
        assert "{" not in review_text(review, 1)
