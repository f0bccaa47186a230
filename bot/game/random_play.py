"""Random legal play: the baseline computer player's pick among legal cards."""

from __future__ import annotations

import random

from bot.game.cards import cards_tuple


def random_card(mask: int, rng: random.Random) -> int:
    """A uniformly random card of a non-empty mask."""
    cards = cards_tuple(mask)
    if not cards:
        raise ValueError("empty mask")
    return cards[int(rng.random() * len(cards))]
