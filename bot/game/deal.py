"""The deal: every hand of a game and its first dealer, from the game's seed."""

from __future__ import annotations

import hashlib
import struct
from typing import Final

from bot.game.cards import DECK_SIZE, deck_cards
from bot.game.rules import Deck, FirstDealer, RuleSet

#: A 64-bit sort key per card.
_DEAL_KEYS: Final = struct.Struct(f"<{DECK_SIZE}Q")
_DECK_ORDER: Final = range(DECK_SIZE)


def seeded_bytes(seed: int, label: str, size: int) -> bytes:
    """``size`` bytes determined by the game's seed and ``label`` alone (the
    same on every machine and Python version)."""
    return hashlib.shake_128(f"spades:{seed}:{label}".encode()).digest(size)


def deal(seed: int, hand_number: int, dealer: int, deck_name: Deck = Deck.STANDARD) -> list[int]:
    """The four hands (masks) of one hand of a game: same seed, same deal.

    The deck's cards, in the one card order, are shuffled by sorting them on
    64-bit keys derived from the seed and the hand number (equal keys, about
    one deal in 10**16, would keep card order), then dealt one card at a time
    from the dealer's next seat.
    """
    keys = _DEAL_KEYS.unpack(seeded_bytes(seed, f"hand {hand_number}", _DEAL_KEYS.size))
    deck = sorted(_DECK_ORDER, key=keys.__getitem__)
    if deck_name is not Deck.STANDARD:  # (the standard deck's cards are its positions)
        cards = deck_cards(deck_name.value)
        deck = [cards[position] for position in deck]
    # Dealt one card at a time: position k of the deck goes to the dealer's
    # next seat plus k (four masks built in one pass over the deck).
    first = second = third = fourth = 0
    for k in range(0, DECK_SIZE, 4):
        first |= 1 << deck[k]
        second |= 1 << deck[k + 1]
        third |= 1 << deck[k + 2]
        fourth |= 1 << deck[k + 3]
    hands = [0, 0, 0, 0]
    hands[(dealer + 1) & 3] = first
    hands[(dealer + 2) & 3] = second
    hands[(dealer + 3) & 3] = third
    hands[dealer & 3] = fourth
    return hands


def first_dealer(rules: RuleSet, seed: int) -> int:
    if rules.first_dealer is FirstDealer.RANDOM:
        return seeded_bytes(seed, "first dealer", 1)[0] & 3
    return 0  # the host's seat
