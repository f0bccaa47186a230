"""Reviews under the new variants: a Nil pass set against the coach's, and
solo hands judged by the player's own points, in every language."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.ai.bidding import nil_bidder_pass
from bot.ai.heuristic import HeuristicPlayer
from bot.coach.bid_review import bidding_view, review_bids
from bot.coach.hint import review_player
from bot.coach.pass_review import PassEffect
from bot.coach.reasons import Why, reason_for
from bot.coach.review import Effect, Mistake, Review, review_hand
from bot.game.cards import SPADES, cards_of, parse_card, rank_of, suit_of
from bot.game.house import apply
from bot.game.record import HandRecord
from bot.game.rules import RuleSet, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView, view_of
from bot.i18n import ENGLISH, TRANSLATED
from bot.render.coach_text import hint_text, mistake_text, review_text

NIL_PASS = apply(preset("standard"), "nil_pass=3")
SOLO = apply(preset("standard"), "teams=solo")

#: A seat's own pass: the cards it chooses from its view (None: the coach's).
Chooser = Callable[[PlayerView], int | None]


def lowest(view: PlayerView) -> int:
    """The lowest cards by rank, spades last: a pass that keeps the high spades."""
    ranked = sorted(cards_of(view.hand), key=lambda c: (suit_of(c) == SPADES, rank_of(c), c))
    return sum(1 << c for c in ranked[: view.pass_count])


def highest(view: PlayerView) -> int:
    """The highest cards by rank, spades first: a pass that hands over the top."""
    ranked = sorted(cards_of(view.hand), key=lambda c: (suit_of(c) == SPADES, rank_of(c), c))
    return sum(1 << c for c in ranked[-view.pass_count :])


def play_hand(rules: RuleSet, seed: int, chooser: Chooser) -> Game:
    """One hand by the heuristic player, but for the passes ``chooser`` makes."""
    game = Game.new(rules, seed)
    player = HeuristicPlayer()
    while game.phase is not Phase.HAND_OVER:
        view = view_of(game, game.to_act)
        own = chooser(view) if view.phase is Phase.PASSING else None
        if own is None:
            game.apply(player.decide(view))
        else:
            game.apply(Action(ActionKind.PASS, view.seat, own))
    return game


def nil_seat_of(record: HandRecord) -> int | None:
    return next((seat for seat, bid in record.bids if bid <= 0 and record.passes), None)


def find_hand(rules: RuleSet, wanted: Callable[[HandRecord], bool], chooser: Chooser) -> Game:
    """The first seeded hand whose deal ``wanted`` accepts, played with ``chooser``."""
    for seed in range(300):
        plain = play_hand(rules, seed, lambda view: None)
        if wanted(plain.hand_records[-1]):
            return play_hand(rules, seed, _only_for_nil_side(plain.hand_records[-1], chooser))
    raise AssertionError("no such deal in 300 seeds")


def _only_for_nil_side(record: HandRecord, chooser: Chooser) -> Chooser:
    nil = nil_seat_of(record)

    def choose(view: PlayerView) -> int | None:
        return chooser(view) if nil is not None and view.seat & 1 == nil & 1 else None

    return choose


def keeps_a_high_spade(record: HandRecord) -> bool:
    """A Nil bidder whose coach's pass gives away a spade from the queen up."""
    nil = nil_seat_of(record)
    if nil is None:
        return False
    coach = nil_bidder_pass(record.dealt[nil], 3, "standard")
    return any(suit_of(c) == SPADES and rank_of(c) >= 10 for c in cards_of(coach))


def reviewed(game: Game, seat: int) -> Review:
    return review_hand(game.rules, game.hand_records[-1], seat)


def test_a_nil_bidder_who_keeps_a_high_spade_is_told_so() -> None:
    game = find_hand(NIL_PASS, keeps_a_high_spade, lowest)
    record = game.hand_records[-1]
    nil = nil_seat_of(record)
    assert nil is not None
    review = reviewed(game, nil)
    exchange = review.exchange
    assert exchange is not None and exchange.own_nil and not exchange.as_coach
    assert exchange.effect is PassEffect.KEPT_HIGH_SPADE
    assert exchange.card is not None and suit_of(exchange.card) == SPADES
    assert exchange.coach >> exchange.card & 1
    text = review_text(review, 7)
    assert "a high spade that can be forced to win a trick for your Nil" in text
    assert "the coach would have passed" in text


def test_a_partner_who_hands_the_nil_high_cards_is_told_so() -> None:
    game = find_hand(NIL_PASS, lambda record: nil_seat_of(record) is not None, highest)
    record = game.hand_records[-1]
    nil = nil_seat_of(record)
    assert nil is not None
    review = reviewed(game, nil ^ 2)
    exchange = review.exchange
    assert exchange is not None and not exchange.own_nil
    assert exchange.effect in (PassEffect.GAVE_SPADE, PassEffect.GAVE_HIGH_CARD)
    assert exchange.card is not None and exchange.gave >> exchange.card & 1
    assert not exchange.coach >> exchange.card & 1
    assert "You passed the" in review_text(review, 7)
    assert "to your partner's Nil" in review_text(review, 7)


def test_a_pass_as_the_coach_would_make_it_is_said_to_be_one() -> None:
    game = find_hand(NIL_PASS, lambda record: nil_seat_of(record) is not None, lambda v: None)
    record = game.hand_records[-1]
    for seat, _, _ in record.passes:
        review = reviewed(game, seat)
        assert review.exchange is not None and review.exchange.as_coach
        assert review.exchange.effect is None
        assert "as the coach would have" in review_text(review, 7)
    # A seat outside every exchange hears nothing of passes.
    passers = {seat for seat, _, _ in record.passes}
    for seat in set(range(4)) - passers:
        assert reviewed(game, seat).exchange is None


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pass_reviews_are_translated(lang: str) -> None:
    game = find_hand(NIL_PASS, keeps_a_high_spade, lowest)
    nil = nil_seat_of(game.hand_records[-1])
    assert nil is not None
    for seat in (nil, nil ^ 2):
        review = reviewed(game, seat)
        english = review_text(review, 7, ENGLISH).splitlines()[1]
        translated = review_text(review, 7, lang).splitlines()[1]
        assert translated and translated != english


# -- solo ------------------------------------------------------------------------------


def solo_hand(seed: int) -> Game:
    return play_hand(SOLO, seed, lambda view: None)


def test_a_solo_review_speaks_of_the_player_alone() -> None:
    for seed in range(4):
        game = solo_hand(seed)
        record = game.hand_records[-1]
        for seat in range(4):
            review = reviewed(game, seat)
            assert review.solo and review.exchange is None
            assert review.team_bid == max(review.bid, 0) and review.team_taken == review.taken
            text = review_text(review, 3)
            assert "team" not in text and "partner" not in text, text
            if review.mistake is not None:
                assert review.mistake.effect not in (
                    Effect.KEEP_PARTNER_NIL,
                    Effect.BREAK_THEIR_NIL,
                    Effect.SET_THEM,
                )
        assert len(record.score_after) == 4


def test_a_solo_mistake_counts_the_player_s_own_points() -> None:
    two, three = parse_card("2D"), parse_card("AD")
    cases = {
        Effect.MAKE_CONTRACT: "would have made your bid.",
        Effect.FEWER_BAGS: "would have saved you 2 bags.",
        Effect.MORE_POINTS: "would have gained you 2 points.",
        Effect.KEEP_OWN_NIL: "would have kept your Nil.",
    }
    for effect, ending in cases.items():
        mistake = Mistake(4, three, two, effect, 2, 20)
        assert mistake_text(mistake, solo=True).endswith(ending)
        for lang in TRANSLATED:
            assert mistake_text(mistake, lang, solo=True) != mistake_text(mistake, solo=True)


def test_solo_bids_are_reviewed_on_the_bidder_s_own_score() -> None:
    game = solo_hand(1)
    record = game.hand_records[-1]
    for seat in range(4):
        view = bidding_view(SOLO, record, seat)
        if view is not None:
            assert view.scores == tuple(record.score_before) and len(view.bags) == 4
    for mistake in review_bids(SOLO, record, review_player()):
        assert mistake.points > 0 and mistake.better != mistake.bid


def test_solo_hints_speak_of_the_player_alone() -> None:
    """Over whole solo hands, no hint names a team or a partner, and a
    player whose bid is made is told to duck in its own name."""
    player = HeuristicPlayer()
    ducks = 0
    for seed in range(6):
        game = Game.new(SOLO, seed)
        while game.phase is not Phase.HAND_OVER:
            view = view_of(game, game.to_act)
            action = player.decide(view)
            reason = reason_for(view, action)
            text = hint_text(reason, ["South", "West", "North", "East"])
            assert "team" not in text and "partner" not in text, text
            spoken_alone = (Why.DUCK_MADE, Why.WIN_TRICK, Why.LOOK_FIRST, Why.BID_BLIND_NIL)
            assert reason.solo or reason.why not in spoken_alone
            assert reason.why not in (Why.COVER_NIL, Why.COVER_NIL_LOW, Why.PARTNER_WINNING)
            if reason.why is Why.DUCK_MADE:
                ducks += 1
                assert text.startswith(f"💡 You have made your {reason.number}: duck with")
            game.apply(action)
    assert ducks  # the case was met
