"""Random legal play: the baseline computer player and the simulator's default.

It never revokes (it picks among the cards that follow suit) and never
challenges; it bids 1-13 or Nil uniformly, Blind Nil never.
"""

from __future__ import annotations

import random

from bot.game.cards import cards_tuple
from bot.game.state import Game
from bot.game.types import Phase


def random_card(mask: int, rng: random.Random) -> int:
    """A uniformly random card of a non-empty mask."""
    cards = cards_tuple(mask)
    if not cards:
        raise ValueError("empty mask")
    return cards[int(rng.random() * len(cards))]


def play_random_hand(game: Game, rng: random.Random) -> None:
    """Bid and play the current hand to its end with random legal actions."""
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        game.bid(seat, int(rng.random() * 14))
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        game.play(seat, random_card(game.legal_play_mask(seat), rng))


def play_random_game(game: Game, rng: random.Random, max_hands: int = 1000) -> None:
    while not game.over:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer)
        play_random_hand(game, rng)
        if game.hand_number >= max_hands:
            break
