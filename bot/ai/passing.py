"""Which cards a computer player passes in a Nil pass (bot.game.passing).

The two partners want the same thing, a Nil that survives, and trade the
cards that make it:

* the Nil bidder gives away what could be forced to win a trick: the top
  spades first, then the high cards its hand cannot guard with low ones
  (:func:`bot.ai.bidding.nil_bidder_pass`);
* its partner gives the lowest cards it holds, which let the Nil duck: side
  suits before spades (a low spade can still be forced to ruff), and from
  its longest suits, where it keeps the high cards that cover the Nil.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.bidding import nil_bidder_pass
from bot.game.cards import SPADES, SUIT_MASKS, cards_of, rank_of, suit_of
from bot.game.passing import counts_for
from bot.game.rules import RuleSet
from bot.game.view import PlayerView

#: How much lower a partner's spade must be than a side card to be given first.
SPADE_PENALTY = 6


def choose_pass(view: PlayerView) -> int:
    """The mask of the ``view.pass_count`` cards the seat passes."""
    bid = view.bids[view.seat]
    if bid is not None and bid <= 0:
        return nil_bidder_pass(view.hand, view.pass_count, view.rules.deck)
    return cover_pass(view.hand, view.pass_count)


def cover_pass(hand: int, count: int) -> int:
    """The ``count`` lowest cards of the partner's hand, side suits and long suits first."""

    def cost(card: int) -> tuple[int, int, int]:
        length = (hand & SUIT_MASKS[suit_of(card)]).bit_count()
        return _weight(card), -length, card

    return sum(1 << c for c in sorted(cards_of(hand), key=cost)[:count])


def _weight(card: int) -> int:
    """How high a card plays: its rank, more for a spade (the jokers above all)."""
    return rank_of(card) + (SPADE_PENALTY if suit_of(card) == SPADES else 0)


def exchanged(rules: RuleSet, bids: Sequence[int | None], hands: Sequence[int]) -> list[int]:
    """The four ``hands`` after the Nil passes the bids ``bids`` call for,
    each seat passing as :func:`choose_pass` would (a deal a search plays out)."""
    counts = counts_for(rules, list(bids))
    after = list(hands)
    for nil_seat in range(4):
        bid = bids[nil_seat]
        if not counts[nil_seat] or bid is None or bid > 0:
            continue
        partner = nil_seat ^ 2
        given = nil_bidder_pass(hands[nil_seat], counts[nil_seat], rules.deck)
        taken = cover_pass(hands[partner], counts[partner])
        after[nil_seat] = hands[nil_seat] ^ given | taken
        after[partner] = hands[partner] ^ taken | given
    return after
