"""The heuristic bidder as it was before its rules were improved, frozen for
the benchmark's baseline ``heuristic-v1`` (:mod:`benchmarks.baseline`): do not
improve it, improve :mod:`bot.ai.bidding` instead. Counting tricks, judging
Nil and Blind Nil.

The counts follow the usual advice (text 002's tips): aces, kings with a
guard, the top spades, one trick per spade beyond the third, and short side
suits when there are spades left to trump them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.rules import RuleSet
from bot.game.scoring import BLIND_NIL, NIL

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
ROUNDING = 0.1  # a trick count of n + 0.9 or more bids n + 1: bids lean low
NIL_DANGER_LIMIT = 0.9  # the most danger a Nil worth 100 accepts
LOW_NIL_DANGER_LIMIT = 0.5  # ... and a Nil worth less
NIL_MAX_TRICKS = 2.5  # hands counting this many tricks never bid Nil


def _ranks(hand: int, suit: int) -> int:
    """The 13-bit rank pattern of one suit of a hand."""
    return (hand >> (13 * suit)) & 0x1FFF


def estimate_tricks(hand: int) -> float:
    """Tricks a hand of 13 cards can expect to take on its own."""
    spades = _ranks(hand, 3)
    n_spades = spades.bit_count()
    tricks = 0.0
    for suit in range(3):
        ranks = _ranks(hand, suit)
        n = ranks.bit_count()
        if not n:
            continue
        ace = ranks >> ACE & 1
        king = ranks >> KING & 1
        queen = ranks >> QUEEN & 1
        # Long suits get trumped before their honours make.
        long_factor = 1.0 if n <= 4 else 0.8 if n == 5 else 0.6 if n == 6 else 0.4
        if ace:
            tricks += 0.95 * (1.0 if n <= 6 else long_factor)
        if king:
            if n >= 2:
                tricks += (0.9 if ace else 0.7) * long_factor
            else:
                tricks += 0.2
        if queen and n >= 3:
            tricks += (0.5 if ace or king else 0.25) * long_factor
    honours = 0.0
    if spades >> ACE & 1:
        honours += 1.0
    if spades >> KING & 1:
        honours += 1.0 if n_spades >= 2 or spades >> ACE & 1 else 0.4
    if spades >> QUEEN & 1:
        if n_spades >= 3:
            honours += 0.9 if spades >> KING & 1 or spades >> ACE & 1 else 0.6
        elif n_spades == 2 and spades >> KING & 1:
            honours += 0.5
    if spades >> JACK & 1 and n_spades >= 4 and (spades >> 10) & 0x7:
        honours += 0.3
    length = max(0, n_spades - 3)
    tricks += honours + length
    # Spades not needed for the counted spade tricks can trump short suits.
    spare = min(n_spades, 3) - min(honours, 3.0)
    if spare > 0:
        ruffs = 0.0
        for suit in range(3):
            n = _ranks(hand, suit).bit_count()
            if n == 0:
                ruffs += 1.5
            elif n == 1:
                ruffs += 0.8
            elif n == 2:
                ruffs += 0.3
        tricks += min(spare, ruffs)
    return tricks


def nil_danger(hand: int) -> float:
    """How likely a hand is to be forced to take a trick: 0 is a safe Nil,
    1 or more a poor one."""
    spades = _ranks(hand, 3)
    n_spades = spades.bit_count()
    if spades >> QUEEN:  # the ace, king or queen of spades
        return 9.0
    danger = 0.0
    if n_spades >= 4:
        danger += 0.8 * (n_spades - 3)
    if spades >> JACK & 1:
        danger += 0.7 if n_spades <= 2 else 0.4
    if spades >> 8 & 1:  # the ten
        danger += 0.3 if n_spades <= 2 else 0.15
    for suit in range(3):
        ranks = _ranks(hand, suit)
        if ranks >> ACE & 1:
            danger += 1.5
        for rank, weight in ((KING, 1.0), (QUEEN, 0.6), (JACK, 0.35), (8, 0.15)):
            if ranks >> rank & 1:
                guards = (ranks & ((1 << 6) - 1)).bit_count()  # cards 2 to 7
                if guards < 2:
                    danger += weight * (2 - guards) / 2
    return danger


def wants_nil(hand: int, rules: RuleSet, partner_bid: int | None) -> bool:
    """Whether to bid Nil: low cards, no high spades, partner not Nil."""
    if partner_bid is not None and partner_bid <= 0:
        return False
    limit = NIL_DANGER_LIMIT if (rules.nil_value or 0) >= 100 else LOW_NIL_DANGER_LIMIT
    if partner_bid is not None and partner_bid >= 4:
        limit += 0.2  # a strong partner covers well
    return nil_danger(hand) <= limit and estimate_tricks(hand) < NIL_MAX_TRICKS


def numeric_bid(hand: int, bids: Sequence[int | None], seat: int) -> int:
    """A bid of 1-13 from the hand's trick count, shaded to the table: the
    last bidder of a side trims when the four bids would overrun 13."""
    estimate = estimate_tricks(hand)
    bid = int(estimate + ROUNDING)
    others = sum(b for s, b in enumerate(bids) if s != seat and b is not None and b > 0)
    made = sum(1 for s, b in enumerate(bids) if s != seat and b is not None)
    if made == 3 and others + bid > 13 and bid > 1:
        bid = max(1, min(bid, 13 - others + 1))
    return max(1, min(13, bid))


def blind_nil_wanted(
    rules: RuleSet, seat: int, scores: Sequence[int], bids: Sequence[int | None]
) -> bool:
    """A Blind Nil is a gamble worth taking only when far enough behind that
    ordinary bids are unlikely to catch up before the other side wins."""
    partner_bid = bids[seat ^ 2]
    if partner_bid is not None and partner_bid <= 0:
        return False
    team = seat & 1
    deficit = scores[1 - team] - scores[team]
    if deficit < rules.blind_nil_min_deficit:
        return False
    other_to_go = rules.target - scores[1 - team]
    return deficit >= max(250, rules.blind_nil_value + 50) or (
        deficit >= max(100, rules.blind_nil_min_deficit) and other_to_go <= 150
    )


def choose_bid(
    hand: int, rules: RuleSet, seat: int, bids: Sequence[int | None], legal: Sequence[int]
) -> int:
    """The heuristic bid of a seat that has looked at its cards."""
    if NIL in legal and wants_nil(hand, rules, bids[seat ^ 2]):
        return NIL
    bid = numeric_bid(hand, bids, seat)
    if bid in legal:
        return bid
    numeric = [b for b in legal if b > 0]
    return min(numeric, key=lambda b: abs(b - bid)) if numeric else legal[0]


__all__ = [
    "BLIND_NIL",
    "NIL",
    "blind_nil_wanted",
    "choose_bid",
    "estimate_tricks",
    "nil_danger",
    "numeric_bid",
    "wants_nil",
]
