"""Which bids a seat may make: the bidding format, Nil and the team minimum.

A pure function of the rules, the seat's cards, its partner's bid (None
until made) and whether Blind Nil is open to it. The partner who bids second
is offered only the bids that complete the format (Suicide) and reach the
team minimum (``min_team_bid``); under Mirror the one bid offered is forced.
"""

from __future__ import annotations

from typing import Final

from bot.game.cards import HAND_SIZE, SPADE_MASK
from bot.game.rules import Bidding, RuleSet
from bot.game.scoring import BLIND_NIL, NIL

_NUMBERS: Final = tuple(range(1, HAND_SIZE + 1))
#: The bids of an open table without a team minimum.
_OPEN_BIDS: Final = (NIL, *_NUMBERS)
_OPEN_BIDS_BLIND: Final = (BLIND_NIL, *_OPEN_BIDS)
#: Under Suicide, the partner of the Nil bidder bids at least this.
SUICIDE_MIN_BID: Final = 4


def spade_count(hand: int) -> int:
    """The hand's spades, the jokers and the jjdd two of diamonds included:
    what Mirror and Whiz bid."""
    return (hand & SPADE_MASK).bit_count()


def legal_bids(
    rules: RuleSet, hand: int, partner_bid: int | None, blind_nil_open: bool
) -> tuple[int, ...]:
    """The bids open to a seat holding ``hand`` (Blind Nil first when open,
    then Nil, then the numbers up)."""
    if rules.bidding is Bidding.OPEN and not rules.min_team_bid and rules.nil_value is not None:
        return _OPEN_BIDS_BLIND if blind_nil_open else _OPEN_BIDS  # (the common case first)
    if rules.bidding is Bidding.MIRROR:
        return (spade_count(hand) or NIL,)
    if rules.bidding is Bidding.WHIZ:
        count = spade_count(hand)
        return (NIL, count) if count else (NIL,)
    zero_open = True  # whether the format and the minimum let the seat bid no tricks
    least = 1
    minimum = rules.min_team_bid
    if rules.bidding is Bidding.SUICIDE:
        # Exactly one Nil a team, its partner reaching 4 and the minimum alone.
        least = max(SUICIDE_MIN_BID, minimum)
        if partner_bid is not None:
            zero_open = partner_bid > 0
            if zero_open:
                least = HAND_SIZE + 1
    elif minimum and partner_bid is not None:
        partner_tricks = max(partner_bid, 0)
        least = max(least, minimum - partner_tricks)
        zero_open = partner_tricks >= minimum
    numbers = _NUMBERS[least - 1 :]
    if not zero_open:
        return numbers
    zeros: tuple[int, ...] = (BLIND_NIL,) if blind_nil_open else ()
    if rules.nil_value is not None:
        zeros += (NIL,)
    return zeros + numbers


def forced_bid(bids: tuple[int, ...] | list[int]) -> int | None:
    """The bid a seat makes without a choice (Mirror, or a format that leaves
    one bid), else None: a table may make it for the seat."""
    return bids[0] if len(bids) == 1 else None
