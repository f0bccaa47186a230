"""The review of a seat's Nil pass (house rules ``nil_pass`` and ``blind_nil_pass``).

The pass is measured by what it is for: the Nil bidder's hand once the
cards have changed hands, scored by :func:`bot.ai.bidding.nil_danger` (how
likely a hand is to be forced to win a trick). The seat's pass is set
against the coach's (:func:`bot.ai.passing.choose_pass`, what the computer
players pass), the partner's pass staying as it was made. Where the coach's
leaves the Nil clearly safer, the review names the card that makes the
difference: a high spade or high card the Nil bidder kept, or one its
partner gave it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.ai.bidding import nil_bidder_pass, nil_danger
from bot.ai.passing import cover_pass
from bot.game.cards import SPADES, cards_of, rank_of, suit_of
from bot.game.record import HandRecord
from bot.game.rules import RuleSet

#: Less danger than this between the two passes is a matter of taste, not a
#: mistake (a jack guarded by one low card is 0.35).
MIN_DANGER = 0.3


class PassEffect(StrEnum):
    """Why the coach's pass was safer for the Nil."""

    KEPT_HIGH_SPADE = "kept_high_spade"  # the Nil bidder kept a spade the coach gives
    KEPT_HIGH_CARD = "kept_high_card"  # ... or a side card its low cards cannot guard
    GAVE_SPADE = "gave_spade"  # the partner gave the Nil a spade, which can be forced to ruff
    GAVE_HIGH_CARD = "gave_high_card"  # ... or a high card that may win it a trick


@dataclass(frozen=True, slots=True)
class PassReview:
    seat: int
    nil_seat: int  # whose Nil the exchange was for: the seat, or its partner
    gave: int  # the cards the seat passed (a mask)
    coach: int  # the cards the coach would have passed
    effect: PassEffect | None  # None: the pass was as safe for the Nil as the coach's
    card: int | None  # the card the effect names
    danger: float  # how much more danger the Nil kept than with the coach's pass

    @property
    def own_nil(self) -> bool:
        return self.nil_seat == self.seat

    @property
    def as_coach(self) -> bool:
        return self.gave == self.coach


def review_pass(rules: RuleSet, record: HandRecord, seat: int) -> PassReview | None:
    """The review of the cards ``seat`` passed in the hand ``record``; None
    when it passed none."""
    exchange = {giver: (to, cards) for giver, to, cards in record.passes}
    if seat not in exchange:
        return None
    partner, gave = exchange[seat]
    received = exchange[partner][1] if partner in exchange else 0
    bids = dict(record.bids)
    nil_seat = seat if bids.get(seat, 1) <= 0 else partner
    dealt = record.dealt[seat]
    count = gave.bit_count()
    if nil_seat == seat:
        coach = nil_bidder_pass(dealt, count, rules.deck)
        actual = dealt & ~gave | received
        better = dealt & ~coach | received
        # The card the coach gives that the seat kept and that costs the most.
        suspects = coach & ~gave
    else:
        coach = cover_pass(dealt, count)
        nil_hand = record.dealt[partner] & ~received
        actual = nil_hand | gave
        better = nil_hand | coach
        suspects = gave & ~coach  # a card the seat gave that the coach keeps
    danger = nil_danger(actual, rules.deck) - nil_danger(better, rules.deck)
    if danger < MIN_DANGER or not suspects:
        return PassReview(seat, nil_seat, gave, coach, None, None, max(danger, 0.0))
    card = max(
        cards_of(suspects),
        key=lambda c: (-nil_danger(actual & ~(1 << c), rules.deck), rank_of(c), c),
    )
    spade = suit_of(card) == SPADES
    if nil_seat == seat:
        effect = PassEffect.KEPT_HIGH_SPADE if spade else PassEffect.KEPT_HIGH_CARD
    else:
        effect = PassEffect.GAVE_SPADE if spade else PassEffect.GAVE_HIGH_CARD
    return PassReview(seat, nil_seat, gave, coach, effect, card, danger)
