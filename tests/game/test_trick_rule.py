"""The rule of who takes a trick, written once per card representation (ints
for the engine and the players' reasoning, masks for the play-outs), gives
the same winner on every trick."""

from __future__ import annotations

import random

from bot.game.cards import NON_SPADE_MASK, SPADE_MASK, cards_of, parse_cards
from bot.game.playout import Position, random_play_out
from bot.game.rules import PRESETS
from bot.game.state import Game
from bot.game.trick import (
    BEATERS,
    TAKES_FROM,
    Trick,
    follow_cards,
    follow_mask,
    lead_mask,
    winning,
    winning_index,
)

from .helpers import play_random_game

GAMES = 2000


def mask_winner_index(cards: tuple[int, ...]) -> int:
    """The winner by the mask rule: each card tested against the best so far's beaters."""
    best_at = 0
    for i in range(1, len(cards)):
        if BEATERS[cards[best_at]] >> cards[i] & 1:
            best_at = i
    return best_at


def test_the_flags_of_the_play_outs_are_the_masks() -> None:
    for best in range(52):
        assert [TAKES_FROM[best][card] for card in range(52)] == [
            BEATERS[best] >> card & 1 for card in range(52)
        ]


def test_a_spade_or_a_higher_card_of_the_suit_led_takes_it() -> None:
    cards = tuple(parse_cards("KH AH 2S 3S"))
    assert [winning_index(cards[:n]) for n in (1, 2, 3, 4)] == [0, 1, 2, 3]
    assert [mask_winner_index(cards[:n]) for n in (1, 2, 3, 4)] == [0, 1, 2, 3]
    off_suit = tuple(parse_cards("5D AC KD 4D"))  # the ace of clubs does not follow
    assert winning_index(off_suit) == mask_winner_index(off_suit) == 2


def test_both_representations_agree_on_every_trick_of_many_games() -> None:
    rng = random.Random(2026)
    presets = sorted(PRESETS)
    tricks = 0
    for seed in range(GAMES):
        game = Game.new(PRESETS[presets[seed % len(presets)]], seed)
        play_random_game(game, rng)
        for record in game.hand_records:
            for trick in record.tricks:
                cards = trick.cards
                for n in range(1, 5):  # every trick so far, as the players see it
                    assert winning_index(cards[:n]) == mask_winner_index(cards[:n])
                at = winning_index(cards)
                assert (trick.leader + at) & 3 == trick.winner
                assert winning(cards, trick.leader) == (cards[at], trick.winner)
                assert Trick.taken(trick.leader, cards) == trick
                tricks += 1
    assert tricks >= 13 * GAMES


def test_the_card_lists_of_the_hot_loops_are_the_legal_masks() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        hand = rng.getrandbits(52)
        for suit in range(4):
            assert follow_cards(hand, suit) == tuple(cards_of(follow_mask(hand, suit)))
        for broken in (False, True):
            assert lead_mask(hand, broken, False) & hand == lead_mask(hand, broken, False)
            if not broken and hand & NON_SPADE_MASK:
                assert not lead_mask(hand, broken, False) & SPADE_MASK


def test_play_outs_take_the_tricks_the_engine_gives() -> None:
    """The play-outs' hot loop (flags) and the engine (ints) count the same tricks."""
    for seed in range(200):
        game = Game.new(PRESETS["standard"], seed)
        for _ in range(4):
            game.bid(game.to_act, 3)
        position = Position.from_game(game)
        won = random_play_out(
            position.hands, [], position.leader, False, [0, 0, 0, 0], random.Random(seed)
        )
        replay = random.Random(seed)
        while game.hand_records == []:
            seat = game.to_act
            cards = game.legal_cards(seat)
            game.play(seat, cards[int(replay.random() * len(cards))])
        assert won == game.hand_records[0].tricks_won
