"""The deck: how a card maps to its suit and rank, the text notation, hands as masks.

A card is an int from 0 to ``CARD_COUNT - 1`` and a hand is a mask with bit
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

The other decks (:data:`DECKS`) deal 52 cards too, swapping some twos for
the jokers. Each card that ranks or belongs differently in them is an int of
its own above 51, placed so that both properties hold in every deck: 52 is
the two of spades ranked above the ace (``jokers-deuce``, ``jjdd``), 53 the
two of diamonds as a trump ranked above it (``jjdd``), 54 the Little Joker,
55 the Big Joker. They are all spades, so a card's suit and order never
depend on the deck: the rules of play read the same ints the same way, and a
deck is only the set of cards dealt. The two of spades keeps the name
``2S`` and the trump two of diamonds ``2D`` (no deck holds both of a name);
the jokers are ``LJ`` and ``BJ``.
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

#: Cards in a suit, and in every deck.
SUIT_SIZE: Final = 13
DECK_SIZE: Final = 52
#: The top trumps of the other decks (see the module's text), in trump order.
HIGH_TWO_OF_SPADES: Final = 52
TRUMP_TWO_OF_DIAMONDS: Final = 53
LITTLE_JOKER: Final = 54
BIG_JOKER: Final = 55
#: Every card int of every deck is below this.
CARD_COUNT: Final = 56
#: Cards dealt to each seat, so tricks per hand.
HAND_SIZE: Final = 13
#: The lowest trump: every card from it up is a trump.
FIRST_TRUMP: Final = 39

#: The rank pattern of a whole suit (see :func:`suit_pattern`).
FULL_SUIT: Final = (1 << SUIT_SIZE) - 1
#: The trumps' pattern reaches above the ace, to the Big Joker.
_TRUMP_PATTERN: Final = (1 << CARD_COUNT - FIRST_TRUMP) - 1
_PATTERNS: Final = (FULL_SUIT, FULL_SUIT, FULL_SUIT, _TRUMP_PATTERN)
SUIT_MASKS: Final = tuple(_PATTERNS[s] << (SUIT_SIZE * s) for s in range(4))
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = SUIT_MASKS[CLUBS] | SUIT_MASKS[DIAMONDS] | SUIT_MASKS[HEARTS]
#: The cards of the standard deck.
DECK_MASK: Final = (1 << DECK_SIZE) - 1
#: The top trumps above the ace: the ints from 52 up.
_HIGH_TRUMPS: Final = CARD_COUNT - DECK_SIZE


def suit_of(card: int) -> int:
    return card // SUIT_SIZE if card < DECK_SIZE else SPADES


def rank_of(card: int) -> int:
    """The card's rank within its suit: 0 for the two up to :data:`ACE`, and
    on up for the top trumps above the ace (13 for int 52 ... 16 for the Big Joker)."""
    return card % SUIT_SIZE if card < DECK_SIZE else card - FIRST_TRUMP


def card_of(suit: int, rank: int) -> int:
    return suit * SUIT_SIZE + rank


def is_trump(card: int) -> bool:
    return card >= FIRST_TRUMP


def suit_pattern(hand: int, suit: int) -> int:
    """The ranks of ``suit`` that ``hand`` holds, as a mask (bit ``r`` for
    rank ``r``; the trumps' reaches above the ace)."""
    return hand >> SUIT_SIZE * suit & _PATTERNS[suit]


def _cards_by_pattern(first: int, size: int) -> tuple[tuple[int, ...], ...]:
    """Entry ``p`` holds the cards ``first + r`` for the bits ``r`` set in ``p``
    (``size`` bits), lowest first."""
    table: list[tuple[int, ...]] = [()]
    for rank in range(size):
        card = (first + rank,)
        table += [cards + card for cards in table]
    return tuple(table)


# For each suit and each rank pattern of that suit, its cards lowest first:
# the hot loops list the cards of a mask with a few table look-ups instead of
# testing every bit.
# (The top trumps above the ace have a small table of their own, so that the
# spades' table keeps 2**13 entries.)
_CARDS_OF_PATTERN: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _cards_by_pattern(card_of(suit, 0), SUIT_SIZE) for suit in range(4)
)
_CLUB_CARDS: Final = _CARDS_OF_PATTERN[CLUBS]
_DIAMOND_CARDS: Final = _CARDS_OF_PATTERN[DIAMONDS]
_HEART_CARDS: Final = _CARDS_OF_PATTERN[HEARTS]
_SPADE_CARDS: Final = _CARDS_OF_PATTERN[SPADES]
_HIGH_TRUMP_CARDS: Final = _cards_by_pattern(DECK_SIZE, _HIGH_TRUMPS)


def suit_cards(hand: int, suit: int) -> tuple[int, ...]:
    """The cards of ``suit`` in ``hand``, lowest first."""
    cards = _CARDS_OF_PATTERN[suit][hand >> SUIT_SIZE * suit & FULL_SUIT]
    if hand >> DECK_SIZE and suit == SPADES:
        return cards + _HIGH_TRUMP_CARDS[hand >> DECK_SIZE]
    return cards


def cards_tuple(mask: int) -> tuple[int, ...]:
    """The cards of a mask in the one card order (clubs 2 up to spades ace,
    then the top trumps), the fastest way to list or pick them."""
    high = mask >> DECK_SIZE
    if high:
        return cards_tuple(mask & DECK_MASK) + _HIGH_TRUMP_CARDS[high]
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
    SUIT_MASKS[suit_of(c)] & ~((2 << c) - 1) for c in range(CARD_COUNT)
)
#: Per card, the lower cards of its suit.
BELOW: Final[tuple[int, ...]] = tuple(
    SUIT_MASKS[suit_of(c)] & ((1 << c) - 1) for c in range(CARD_COUNT)
)


# -- the text notation -------------------------------------------------------------


class CardError(ValueError):
    """A card name that is not in the rank-then-suit notation."""


#: The names of the top trumps above the ace, from int 52 up.
_HIGH_TRUMP_NAMES: Final = ("2S", "2D", "LJ", "BJ")


def card_name(card: int) -> str:
    if card >= DECK_SIZE:
        return _HIGH_TRUMP_NAMES[card - DECK_SIZE]
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(text: str, deck: str = "standard") -> int:
    """The card of ``deck`` (one of :data:`DECKS`) with this name."""
    name = text.strip().upper()
    if name.startswith("10"):
        name = "T" + name[2:]
    card = _BY_NAME[deck].get(name)
    if card is None:
        if name in _ANY_DECK_NAMES:
            raise CardError(f"{text!r} is not a card of the {deck} deck")
        raise CardError(f"{text!r} is not a card: write rank then suit, like AS, TD, 9H or 2C")
    return card


def parse_cards(text: str, deck: str = "standard") -> list[int]:
    return [parse_card(part, deck) for part in text.split()]


def hand_text(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


# -- the decks -------------------------------------------------------------------

#: The decks by name (the values of the rules' ``deck``), the standard first.
DECKS: Final = ("standard", "jokers", "jokers-deuce", "jjdd")
_TWO_OF_CLUBS: Final = card_of(CLUBS, 0)
_TWO_OF_DIAMONDS: Final = card_of(DIAMONDS, 0)
_TWO_OF_HEARTS: Final = card_of(HEARTS, 0)
_TWO_OF_SPADES: Final = card_of(SPADES, 0)
_JOKERS: Final = 1 << LITTLE_JOKER | 1 << BIG_JOKER
#: Each deck's 52 cards as a mask. ``jokers`` trades the two of clubs and of
#: diamonds for the jokers; ``jokers-deuce`` also ranks the two of spades
#: above the ace (int 52 for int 39); ``jjdd`` trades the two of clubs and of
#: hearts for the jokers, and ranks the two of diamonds (a trump) and the two
#: of spades above the ace.
DECK_MASKS: Final[dict[str, int]] = {
    "standard": DECK_MASK,
    "jokers": DECK_MASK & ~(1 << _TWO_OF_CLUBS | 1 << _TWO_OF_DIAMONDS) | _JOKERS,
    "jokers-deuce": DECK_MASK & ~(1 << _TWO_OF_CLUBS | 1 << _TWO_OF_DIAMONDS | 1 << _TWO_OF_SPADES)
    | 1 << HIGH_TWO_OF_SPADES
    | _JOKERS,
    "jjdd": DECK_MASK
    & ~(1 << _TWO_OF_CLUBS | 1 << _TWO_OF_DIAMONDS | 1 << _TWO_OF_HEARTS | 1 << _TWO_OF_SPADES)
    | 1 << HIGH_TWO_OF_SPADES
    | 1 << TRUMP_TWO_OF_DIAMONDS
    | _JOKERS,
}
_BY_NAME: Final[dict[str, dict[str, int]]] = {
    deck: {card_name(c): c for c in cards_of(mask)} for deck, mask in DECK_MASKS.items()
}
_ANY_DECK_NAMES: Final = frozenset(name for names in _BY_NAME.values() for name in names)


def deck_cards(deck: str) -> tuple[int, ...]:
    """The cards of ``deck`` in the one card order."""
    return cards_tuple(DECK_MASKS[deck])
