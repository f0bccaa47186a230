"""Cards as ints 0-51 and hands as 52-bit masks.

``suit = card // 13`` (0 clubs, 1 diamonds, 2 hearts, 3 spades) and
``rank = card % 13`` (0 is the two, 12 the ace), so within a suit a higher int
is a higher card and spades, the trump suit, are the top 13 ints. The one text
notation is rank then suit: ``AS``, ``TD``, ``9H``, ``2C``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = "CDHS"
RANKS: Final = "23456789TJQKA"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
FULL_SUIT: Final = (1 << 13) - 1
SUIT_MASKS: Final = tuple(FULL_SUIT << (13 * s) for s in range(4))
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = SUIT_MASKS[CLUBS] | SUIT_MASKS[DIAMONDS] | SUIT_MASKS[HEARTS]
DECK_MASK: Final = (1 << 52) - 1


def _cards_by_pattern(base: int) -> tuple[tuple[int, ...], ...]:
    """Entry ``p`` holds the cards ``base + r`` for each bit ``r`` set in ``p``, lowest first."""
    table: list[tuple[int, ...]] = [()]
    for rank in range(13):
        card = (base + rank,)
        table += [cards + card for cards in table]
    return tuple(table)


# For each suit and each 13-bit pattern of that suit, its cards lowest first:
# hot loops list or pick the cards of a mask with four table look-ups instead
# of testing 52 bits.
CARDS_OF_PATTERN: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _cards_by_pattern(13 * suit) for suit in range(4)
)
#: Each suit's entry of CARDS_OF_PATTERN (constants: the hot paths index them directly).
CLUB_CARDS: Final = CARDS_OF_PATTERN[0]
DIAMOND_CARDS: Final = CARDS_OF_PATTERN[1]
HEART_CARDS: Final = CARDS_OF_PATTERN[2]
SPADE_CARDS: Final = CARDS_OF_PATTERN[3]


class CardError(ValueError):
    """A card name that is not in the rank-then-suit notation."""


def card_name(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> int:
    name = text.strip().upper()
    if name.startswith("10"):
        name = "T" + name[2:]
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise CardError(f"{text!r} is not a card: write rank then suit, like AS, TD, 9H or 2C")
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def parse_cards(text: str) -> list[int]:
    return [parse_card(part) for part in text.split()]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in the one card order (clubs 2 up to spades ace)."""
    return list(cards_tuple(mask))


def cards_tuple(mask: int) -> tuple[int, ...]:
    """:func:`cards_of` as a tuple, the fastest way to list or pick the cards of a mask."""
    return (
        CLUB_CARDS[mask & FULL_SUIT]
        + DIAMOND_CARDS[mask >> 13 & FULL_SUIT]
        + HEART_CARDS[mask >> 26 & FULL_SUIT]
        + SPADE_CARDS[mask >> 39 & FULL_SUIT]
    )


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def hand_text(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


# The rule of who takes a trick, once per card representation: on ints for the
# engine and the players' reasoning, on masks for the play-outs' hot loops
# (tests check that both agree on every trick of many games). A card takes a
# trick from the best card so far (which is always of the suit led or a
# spade) when it is higher and a spade or of that card's suit: spades are the
# top 13 ints, so any spade is higher than a card of another suit.


def trick_winner_index(cards: Sequence[int]) -> int:
    """Index in play order of the card that takes the trick (complete or not)."""
    best = cards[0]
    best_at = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card > best and (card >= 39 or card // 13 == best // 13):
            best, best_at = card, i
    return best_at


#: Per card, the higher cards of its suit.
ABOVE: Final[tuple[int, ...]] = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
#: Per card, the mask of the cards that take the trick from it once it is the
#: best card on the table: a higher card of its suit, or any spade over a card
#: of another suit.
BEATERS: Final[tuple[int, ...]] = tuple(
    ABOVE[c] | (SPADE_MASK if c < SPADES * 13 else 0) for c in range(52)
)
#: :data:`BEATERS` as flags, for the play-outs' hot loop (a look-up is cheaper
#: there than a test on a 52-bit mask): ``TAKES_FROM[best][card]`` is 1 when
#: ``card`` takes the trick from ``best``, else 0.
TAKES_FROM: Final[tuple[bytes, ...]] = tuple(
    bytes(beaters >> card & 1 for card in range(52)) for beaters in BEATERS
)
