"""The computer players' Nil pass: the Nil bidder gives away its dangerous
cards, its partner low ones; after the exchange each knows where the cards
it gave are; the search plays its bids' deals out after the pass; and every
level passes legally whatever the level across the table."""

from __future__ import annotations

import random

import pytest

from bot.ai.base import make_player, player_levels
from bot.ai.bidding import nil_bidder_pass, nil_danger
from bot.ai.knowledge import knowledge_of
from bot.ai.passing import choose_pass, cover_pass, exchanged
from bot.ai.sampling import DealSampler
from bot.game.cards import parse_cards
from bot.game.house import apply
from bot.game.rules import preset
from bot.game.scoring import NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.simulate import play_game
from tests.game.helpers import bid_round, make_deal


def cards(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


NIL_HAND = "AS 4S KH 2H 3H QD 2D 3D 4D 5C 6C 7C 8C"
PARTNER_HAND = "KS QS JS AH QH JH AD KD AC KC 2S 9H 5D"
DEAL = make_deal({1: NIL_HAND, 3: PARTNER_HAND})


@pytest.mark.parametrize(
    ("count", "given"),
    [(1, "AS"), (2, "AS KH"), (3, "AS KH QD")],  # the top spade, then unguarded highs
)
def test_the_nil_bidder_passes_its_most_dangerous_cards(count: int, given: str) -> None:
    hand = cards(NIL_HAND)
    passed = nil_bidder_pass(hand, count, "standard")
    assert passed == cards(given)
    assert nil_danger(hand & ~passed) < nil_danger(hand)


def test_a_nil_with_nothing_dangerous_passes_its_highest_cards() -> None:
    hand = cards("2S 3S 2H 3H 4H 2D 3D 4D 5D 2C 3C 4C 6C")
    assert nil_bidder_pass(hand, 2, "standard") == cards("6C 5D")


@pytest.mark.parametrize(
    ("count", "given"),
    # The lowest cards, a spade counting as a higher side card: a two of
    # spades is safer for a Nil than a nine.
    [(1, "5D"), (2, "5D 2S"), (3, "5D 2S 9H")],
)
def test_the_partner_passes_low_cards_and_keeps_its_high_ones(count: int, given: str) -> None:
    assert cover_pass(cards(PARTNER_HAND), count) == cards(given)


def _after_bids(nil_pass: int = 3) -> Game:
    rules = apply(preset("standard"), f"nil_pass={nil_pass}")
    game = Game.new(rules, 5, fixed_deals=[DEAL])  # dealer 0: seat 1 bids first
    bid_round(game, {1: NIL, 2: 3, 3: 6, 0: 3})
    return game


def test_each_partner_chooses_its_side_of_the_exchange() -> None:
    game = _after_bids()
    assert game.phase is Phase.PASSING
    assert choose_pass(view_of(game, 1)) == cards("AS KH QD")
    assert choose_pass(view_of(game, 3)) == cards("5D 2S 9H")


def test_the_search_plays_its_bids_out_after_the_pass() -> None:
    rules = apply(preset("standard"), "nil_pass=2")
    hands = list(DEAL)
    after = exchanged(rules, [3, NIL, 3, 6], hands)
    assert after[1] == hands[1] & ~cards("AS KH") | cards("5D 2S")
    assert after[3] == hands[3] & ~cards("5D 2S") | cards("AS KH")
    assert after[0] == hands[0] and after[2] == hands[2]
    assert exchanged(rules, [3, NIL, 3, NIL], hands) == hands  # two Nils: no exchange
    assert exchanged(preset("standard"), [3, NIL, 3, 6], hands) == hands  # no rule


def test_after_the_exchange_each_partner_knows_where_its_cards_are() -> None:
    game = _after_bids()
    for seat in (1, 3):
        game.apply(Action(ActionKind.PASS, seat, choose_pass(view_of(game, seat))))
    assert game.phase is Phase.PLAYING
    rng = random.Random(3)
    for seat, gave, partner in ((1, cards("AS KH QD"), 3), (3, cards("5D 2S 9H"), 1)):
        view = view_of(game, seat)
        assert view.passed == gave and view.received == game.exchange.received(seat)
        knowledge = knowledge_of(view)
        for opponent in (seat ^ 1, seat ^ 3):
            assert knowledge.forbidden[opponent] & gave == gave
        sampler = DealSampler(knowledge, view.bids, dealer=view.dealer)
        for _ in range(20):
            assert sampler.sample(rng)[partner] & gave == gave
    # The opponents know nothing of the cards: none is placed for them.
    theirs = knowledge_of(view_of(game, 0))
    assert not any(theirs.forbidden[s] & cards("AS KH QD 5D 9H 2S") for s in (1, 2, 3))


@pytest.mark.parametrize("level", player_levels())
@pytest.mark.parametrize("house", ["nil_pass=3,blind_nil_pass=2", "nil_pass=1,bidding=suicide"])
def test_every_level_passes_and_finishes_a_game(level: str, house: str) -> None:
    rules = apply(preset("blind-nil"), f"target=200,floor=-200,{house}")
    passes = 0
    for seed in range(11, 19):  # until a game had an exchange
        if passes:
            break
        game = Game.new(rules, seed)
        players = [
            make_player(level, 4 * seed + seat, 0.02)
            if seat % 2 == 0
            else make_player("heuristic", seat)
            for seat in range(4)
        ]
        play_game(game, players)
        assert game.over and game.result is not None
        passes += sum(bool(record.passes) for record in game.hand_records)
    assert passes
