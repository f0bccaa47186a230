"""Card notation and masks, trick winners, and what one seat's view reveals."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.game.cards import (
    ACE,
    DECK_MASK,
    DECK_SIZE,
    DIAMONDS,
    FIRST_TRUMP,
    HEARTS,
    SPADES,
    CardError,
    card_name,
    card_of,
    cards_of,
    cards_tuple,
    is_trump,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_cards,
    suit_of,
    suit_pattern,
)
from bot.game.playout import random_card
from bot.game.scoring import BLIND_NIL
from bot.game.state import Game
from bot.game.trick import winning_index
from bot.game.types import Phase
from bot.game.view import view_of

from .helpers import MIXED_DEAL, all_spades_deal, bid_round, new_game, play_out_lowest


def test_every_card_has_one_name_rank_then_suit() -> None:
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    assert names[:3] == ["2C", "3C", "4C"] and names[-1] == "AS"
    assert [card_name(c) for c in (8, 22, 38, 51)] == ["TC", "JD", "AH", "AS"]
    assert all(parse_card(name) == c for c, name in enumerate(names))


def test_each_card_has_one_suit_and_rank_and_the_trumps_are_on_top() -> None:
    cards = [card_of(suit, rank) for suit in range(4) for rank in range(13)]
    assert sorted(cards) == list(range(DECK_SIZE))
    assert all(
        suit_of(card_of(s, r)) == s and rank_of(card_of(s, r)) == r
        for s in range(4)
        for r in range(13)
    )
    assert card_of(SPADES, ACE) == parse_card("AS") and card_of(HEARTS, 0) == parse_card("2H")
    trumps = [c for c in range(DECK_SIZE) if is_trump(c)]
    assert trumps == list(range(FIRST_TRUMP, DECK_SIZE)) and all(
        suit_of(c) == SPADES for c in trumps
    )
    hand = mask_of(parse_cards("2C 9D TD AH 4S AS"))
    assert [suit_pattern(hand, s) for s in range(4)] == [
        0b1,
        0b11 << 7,
        1 << ACE,
        1 << 2 | 1 << ACE,
    ]
    assert [card_name(c) for c in suit_cards(hand, DIAMONDS)] == ["9D", "TD"]
    assert [hand >> c & 1 for c in range(DECK_SIZE)] == [
        1 if c in cards_of(hand) else 0 for c in range(DECK_SIZE)
    ]


@pytest.mark.parametrize(("text", "card"), [("as", 51), (" TD ", 21), ("10h", 34), ("2c", 0)])
def test_parsing_is_forgiving_about_case_spaces_and_ten(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "A", "1S", "AX", "ASS", "11H", "ZZ"])
def test_a_bad_card_name_is_refused(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_masks_and_card_lists_agree() -> None:
    rng = random.Random(3)
    for _ in range(200):
        cards = sorted(rng.sample(range(52), rng.randint(0, 52)))
        mask = mask_of(cards)
        assert cards_of(mask) == cards
        assert cards_tuple(mask) == tuple(cards)
        assert parse_cards(" ".join(card_name(c) for c in cards)) == cards
    assert cards_of(DECK_MASK) == list(range(52))


def test_random_card_draws_every_card_of_a_mask() -> None:
    rng = random.Random(1)
    mask = mask_of(parse_cards("2C AS 9H TD"))
    seen = {random_card(mask, rng) for _ in range(200)}
    assert seen == set(parse_cards("2C AS 9H TD"))
    with pytest.raises(ValueError):
        random_card(0, rng)


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("2C 3C 4C 5C", 3),  # highest of the suit led
        ("AC 3C 4C 5C", 0),
        ("2C AH KD 3C", 3),  # off-suit cards never win, however high
        ("2C 2S 3C AC", 1),  # the only spade trumps
        ("2C 2S 3S AC", 2),  # the highest spade
        ("KH 5S AH 4S", 1),
        ("2S AH AC AD", 0),  # spades led: the spade wins
        ("9D TD 2S JD", 2),
    ],
)
def test_the_trick_winner(cards: str, winner: int) -> None:
    assert winning_index(parse_cards(cards)) == winner


def test_a_view_shows_the_seats_own_cards_and_nothing_hidden() -> None:
    game = new_game("standard", [MIXED_DEAL])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(1, parse_card("2C"))
    for seat in range(4):
        view = view_of(game, seat)
        assert view.hand == game.hands[seat]
        others = {game.hands[s] for s in range(4) if s != seat}
        for item in dataclasses.fields(view):
            assert getattr(view, item.name) not in others, item.name
        assert view.my_turn == (seat == 2)
        assert view.trick == (parse_card("2C"),)
        assert view.bids == (1, 1, 1, 1)
    mine = view_of(game, 2)
    assert mine.legal_cards == game.legal_play_mask(2)
    assert mine.playable_cards == game.playable_mask(2) == game.hands[2]
    assert view_of(game, 3).legal_cards == 0


def test_a_view_lists_tricks_scores_and_the_played_cards() -> None:
    game = new_game("standard", [all_spades_deal(1), MIXED_DEAL])
    bid_round(game, {0: 1, 1: 4, 2: 1, 3: 4})
    play_out_lowest(game)
    view = view_of(game, 0)
    assert view.phase is Phase.HAND_OVER
    assert view.tricks_won == (0, 13, 0, 0)
    assert view.scores == tuple(game.scores) and view.bags == tuple(game.bags)
    assert view.played_mask == DECK_MASK
    assert view.to_act is None and view.legal_bids == () and view.legal_cards == 0


def test_at_a_blind_nil_table_the_hand_stays_hidden_until_looked_at() -> None:
    game = new_game("blind-nil", [all_spades_deal(1), all_spades_deal(0)])
    assert view_of(game, 1).hand == 0
    game.look(1)
    assert view_of(game, 1).hand == game.hands[1] and view_of(game, 1).looked
    bid_round(game, {0: 1, 1: 10, 2: 1, 3: 3})
    play_out_lowest(game)
    game.next_hand(0)
    blind = view_of(game, 2)
    assert blind.hand == 0 and blind.legal_bids[0] == BLIND_NIL
    game.bid(2, BLIND_NIL)
    assert view_of(game, 2).hand == game.hands[2]  # cards are seen once the bid is made


def test_elsewhere_hands_are_shown_from_the_deal() -> None:
    game = Game.new(new_game("standard").rules, 4)
    assert all(view_of(game, seat).hand == game.hands[seat] for seat in range(4))
