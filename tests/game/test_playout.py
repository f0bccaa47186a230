"""Fast play-outs agree with the engine card for card."""

from __future__ import annotations

import random

import pytest

from bot.game.cards import cards_of
from bot.game.playout import CardPolicy, Position, play_out, random_card, random_play_out
from bot.game.rules import PRESETS, FirstLead, preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of

from .helpers import all_spades_deal, bid_round, make_deal


def bid_game(name: str, seed: int) -> Game:
    game = Game.new(preset(name), seed)
    bid_round(game, {0: 3, 1: 3, 2: 3, 3: 3})
    return game


def random_policy(rng: random.Random) -> CardPolicy:
    def choose(position: Position, seat: int, legal: int) -> int:
        return random_card(legal, rng)

    return choose


def engine_finish(game: Game, rng: random.Random) -> list[int]:
    """The rest of the hand through ``Game.play``, cards drawn like the play-outs draw them."""
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        game.play(seat, random_card(game.legal_play_mask(seat), rng))
    return game.hand_records[-1].tricks_won


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_play_outs_play_the_engines_cards(name: str) -> None:
    for seed in range(40):
        game = bid_game(name, seed)
        warmup = random.Random(seed)
        for _ in range(seed % 37):  # start anywhere: mid-trick, first lead, late
            seat = game.to_act
            game.play(seat, random_card(game.legal_play_mask(seat), warmup))
        position = Position.from_game(game)
        before = position.copy()
        fast = play_out(position, rng=random.Random(seed))
        plain = random_play_out(
            position.hands,
            position.trick,
            position.leader,
            position.spades_broken,
            position.tricks_won,
            random.Random(seed),
            position.first_lead,
        )
        stepped = play_out(position, random_policy(random.Random(seed)))
        assert fast == plain == stepped == engine_finish(game, random.Random(seed))
        assert position == before  # play-outs work on copies
        assert sum(fast) == 13


def test_a_policy_sees_the_position_and_its_legal_cards() -> None:
    game = bid_game("low-club", 3)
    position = Position.from_game(game)
    calls: list[tuple[int, int]] = []

    def lowest(pos: Position, seat: int, legal: int) -> int:
        assert seat == pos.to_act and legal == pos.legal_mask() and legal & pos.hands[seat] == legal
        calls.append((seat, legal))
        return cards_of(legal)[0]

    won = play_out(position, lowest)
    assert len(calls) == 52 and sum(won) == 13
    assert calls[0][1].bit_count() == 1  # the lowest club opens
    # The caller's position is untouched.
    assert position == Position.from_game(game)


def test_a_policy_that_picks_an_illegal_card_is_stopped() -> None:
    position = Position.from_game(bid_game("standard", 1))
    seat = position.to_act
    illegal = cards_of(position.hands[seat] & ~position.legal_mask())
    illegal += cards_of(position.hands[(seat + 1) % 4])
    with pytest.raises(ValueError):
        play_out(position, lambda p, s, legal: illegal[0])


def test_the_holder_of_every_spade_takes_every_trick() -> None:
    for holder in range(4):
        position = Position(all_spades_deal(holder), leader=(holder + 1) % 4)
        for seed in range(5):
            won = play_out(position, rng=random.Random(seed))
            assert won[holder] == 13


def test_a_position_from_a_view_uses_the_given_hands() -> None:
    deal = make_deal({0: "AS KS QS"})
    game = Game.new(preset("cardgames").with_options(first_dealer="host"), 2, fixed_deals=[deal])
    bid_round(game, {0: 3, 1: 3, 2: 3, 3: 3})
    view = view_of(game, 0)
    position = Position.from_view(view, game.hands)
    assert position == Position.from_game(game)
    assert position.first_lead is FirstLead.NO_SPADE and position.first_card
    assert position.tricks_left == 13
