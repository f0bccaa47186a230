"""The deck: how a card maps to its suit and rank, the text notation, hands as masks.

A card is an int from 0 to ``DECK_SIZE - 1`` and a hand is a mask with bit
``c`` set for each card ``c`` it holds. This module alone knows the layout of
the deck; the engine, the play-outs, the solver, the computer players, the
coach and the renderers ask it (:func:`suit_of`, :func:`rank_of`,
:func:`card_of`, the masks and the per-suit tables) instead of doing
arithmetic on card numbers, so a deck of other than 52 cards (jokers that
rank above the ace of spades, a deck without some twos) is a change of this
module alone.

The layout of the standard deck: four suits of 13 cards, clubs 0-12,
diamonds 13-25, hearts 26-38 and spades, the trump suit, 39-51; within a
suit the rank counts from 0 for the two to 12 for the ace. Two properties of
the layout the rest of the code relies on, which any other deck keeps:

* within a suit, a higher int is a higher card;
* the trumps are the top ints (from :data:`FIRST_TRUMP` up), so a trump is
  higher than any card of another suit.

The one text notation is rank then suit: ``AS``, ``TD``, ``9H``, ``2C``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
#: The trump suit.
TRUMP: Final = SPADES
#: The suits that are not trumps.
SIDE_SUITS: Final = (CLUBS, DIAMONDS, HEARTS)
SUITS: Final = "CDHS"
RANKS: Final = "23456789TJQKA"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
#: Ranks by name (the rank of a card within its suit, 0 for the two).
JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12

#: Cards in a suit, and in the deck.
SUIT_SIZE: Final = 13
DECK_SIZE: Final = 52
#: Cards dealt to each seat, so tricks per hand.
HAND_SIZE: Final = 13
#: The lowest trump: every card from it up is a trump.
FIRST_TRUMP: Final = 39

#: The rank pattern of a whole suit (see :func:`suit_pattern`).
FULL_SUIT: Final = (1 << SUIT_SIZE) - 1
SUIT_MASKS: Final = tuple(FULL_SUIT << (SUIT_SIZE * s) for s in range(4))
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = SUIT_MASKS[CLUBS] | SUIT_MASKS[DIAMONDS] | SUIT_MASKS[HEARTS]
DECK_MASK: Final = (1 << DECK_SIZE) - 1


def suit_of(card: int) -> int:
    return card // SUIT_SIZE


def rank_of(card: int) -> int:
    """The card's rank within its suit: 0 for the two up to :data:`ACE`."""
    return card % SUIT_SIZE


def card_of(suit: int, rank: int) -> int:
    return suit * SUIT_SIZE + rank


def is_trump(card: int) -> bool:
    return card >= FIRST_TRUMP


def suit_pattern(hand: int, suit: int) -> int:
    """The ranks of ``suit`` that ``hand`` holds, as a mask (bit ``r`` for rank ``r``)."""
    return hand >> SUIT_SIZE * suit & FULL_SUIT


def _cards_by_pattern(suit: int) -> tuple[tuple[int, ...], ...]:
    """Entry ``p`` holds the cards of ``suit`` whose ranks are set in ``p``, lowest first."""
    table: list[tuple[int, ...]] = [()]
    for rank in range(SUIT_SIZE):
        card = (card_of(suit, rank),)
        table += [cards + card for cards in table]
    return tuple(table)


# For each suit and each rank pattern of that suit, its cards lowest first:
# the hot loops list the cards of a mask with a few table look-ups instead of
# testing every bit.
_CARDS_OF_PATTERN: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _cards_by_pattern(suit) for suit in range(4)
)
_CLUB_CARDS: Final = _CARDS_OF_PATTERN[CLUBS]
_DIAMOND_CARDS: Final = _CARDS_OF_PATTERN[DIAMONDS]
_HEART_CARDS: Final = _CARDS_OF_PATTERN[HEARTS]
_SPADE_CARDS: Final = _CARDS_OF_PATTERN[SPADES]


def suit_cards(hand: int, suit: int) -> tuple[int, ...]:
    """The cards of ``suit`` in ``hand``, lowest first."""
    return _CARDS_OF_PATTERN[suit][hand >> SUIT_SIZE * suit & FULL_SUIT]


def cards_tuple(mask: int) -> tuple[int, ...]:
    """The cards of a mask in the one card order (clubs 2 up to spades ace),
    the fastest way to list or pick them (the trumps are the top bits, so
    ``mask >> FIRST_TRUMP`` is their pattern)."""
    return (
        _CLUB_CARDS[mask & FULL_SUIT]
        + _DIAMOND_CARDS[mask >> SUIT_SIZE & FULL_SUIT]
        + _HEART_CARDS[mask >> 2 * SUIT_SIZE & FULL_SUIT]
        + _SPADE_CARDS[mask >> FIRST_TRUMP]
    )


def cards_of(mask: int) -> list[int]:
    """:func:`cards_tuple` as a list."""
    return list(cards_tuple(mask))


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest_card(mask: int) -> int:
    return mask.bit_length() - 1


#: Per card, the higher cards of its suit.
ABOVE: Final[tuple[int, ...]] = tuple(
    SUIT_MASKS[suit_of(c)] & ~((2 << c) - 1) for c in range(DECK_SIZE)
)
#: Per card, the lower cards of its suit.
BELOW: Final[tuple[int, ...]] = tuple(
    SUIT_MASKS[suit_of(c)] & ((1 << c) - 1) for c in range(DECK_SIZE)
)


# -- the text notation -------------------------------------------------------------


class CardError(ValueError):
    """A card name that is not in the rank-then-suit notation."""


def card_name(card: int) -> str:
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(text: str) -> int:
    name = text.strip().upper()
    if name.startswith("10"):
        name = "T" + name[2:]
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise CardError(f"{text!r} is not a card: write rank then suit, like AS, TD, 9H or 2C")
    return card_of(SUITS.index(name[1]), RANKS.index(name[0]))


def parse_cards(text: str) -> list[int]:
    return [parse_card(part) for part in text.split()]


def hand_text(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))
