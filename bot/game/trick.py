"""Tricks: who takes one, which cards a seat may play to one, what breaks spades.

The rules of card play, once, for everything that plays cards: the engine
(:mod:`bot.game.state`), the play-outs (:mod:`bot.game.playout`), the
solver, the computer players and the coach. They know cards only through
:mod:`bot.game.cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from bot.game.cards import (
    ABOVE,
    CARD_COUNT,
    CLUBS,
    NON_SPADE_MASK,
    SPADE_MASK,
    SUIT_MASKS,
    TRUMP,
    cards_tuple,
    is_trump,
    suit_cards,
    suit_of,
)
from bot.game.rules import SpadesBreak

_CLUB_MASK: Final = SUIT_MASKS[CLUBS]


class Trick(NamedTuple):
    """A finished trick: the seat that led, the cards in play order from it,
    and the seat that took it."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    @classmethod
    def taken(cls, leader: int, cards: Sequence[int]) -> Trick:
        """The trick of these four cards led by ``leader``, with its winner by the rule."""
        return cls(leader, tuple(cards), (leader + winning_index(cards)) & 3)


# -- who takes the trick -------------------------------------------------------------
#
# A card takes the trick from the best card so far (which is always of the
# suit led or a trump) when it is higher and a trump or of that card's suit:
# the trumps are the top ints, so a trump is higher than any card of another
# suit. The rule is written once on card numbers (winning_index) and once on
# masks for the hot loops (BEATERS); tests check that both agree on every
# trick of many games.


def winning_index(cards: Sequence[int]) -> int:
    """Index in play order of the card that takes the trick (complete or not)."""
    best = cards[0]
    best_at = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card > best and (is_trump(card) or suit_of(card) == suit_of(best)):
            best, best_at = card, i
    return best_at


def winning(cards: Sequence[int], leader: int) -> tuple[int, int]:
    """The card that takes the trick so far (complete or not) and the seat that played it."""
    at = winning_index(cards)
    return cards[at], (leader + at) & 3


#: Per card, the mask of the cards that take the trick from it once it is the
#: best card on the table: a higher card of its suit, or any trump over a card
#: of another suit.
BEATERS: Final[tuple[int, ...]] = tuple(
    ABOVE[c] | (0 if is_trump(c) else SPADE_MASK) for c in range(CARD_COUNT)
)
#: :data:`BEATERS` as flags, for the play-outs' hot loop (a look-up is cheaper
#: there than a test on a mask): ``TAKES_FROM[best][card]`` is 1 when ``card``
#: takes the trick from ``best``, else 0.
TAKES_FROM: Final[tuple[bytes, ...]] = tuple(
    bytes(beaters >> card & 1 for card in range(CARD_COUNT)) for beaters in BEATERS
)


# -- which cards may be played -------------------------------------------------------


def follow_mask(hand: int, led_suit: int) -> int:
    """The cards of ``hand`` that follow ``led_suit`` without revoking: that
    suit's, or any card when it has none."""
    return hand & SUIT_MASKS[led_suit] or hand


def follow_cards(hand: int, led_suit: int) -> tuple[int, ...]:
    """:func:`follow_mask` as its cards in the one card order: the form the
    hot loops of the engine and the play-outs pick a card from."""
    return suit_cards(hand, led_suit) or cards_tuple(hand)


def lead_mask(hand: int, spades_broken: bool, lowest_club: bool) -> int:
    """The cards of ``hand`` that may lead a trick: any but an unbroken
    spade, unless the hand holds nothing else; when ``lowest_club`` (the
    table's first lead of the hand), only the lowest club, and without one no
    spade unless the hand holds nothing else, even where spades may be led
    at any time."""
    if lowest_club:
        clubs = hand & _CLUB_MASK
        if clubs:
            return clubs & -clubs
        return hand & NON_SPADE_MASK or hand
    if spades_broken:
        return hand
    return hand & NON_SPADE_MASK or hand


def legal_mask(hand: int, trick: Sequence[int], spades_broken: bool, lowest_club: bool) -> int:
    """The cards of ``hand`` a seat may play to ``trick`` (its cards so far)
    without revoking; ``lowest_club`` as for :func:`lead_mask`."""
    if trick:
        return follow_mask(hand, suit_of(trick[0]))
    return lead_mask(hand, spades_broken, lowest_club)


def breaks_spades(card: int, led_suit: int, rule: SpadesBreak) -> bool:
    """Whether playing ``card`` to a trick of ``led_suit`` breaks spades under
    ``rule``: a trump played off suit does, a trump led or followed only
    under :attr:`SpadesBreak.ANY_SPADE`. (It is also what the winning card
    of a finished trick says: a trump wins exactly when one was played.)"""
    return is_trump(card) and (led_suit != TRUMP or rule is SpadesBreak.ANY_SPADE)
