"""Bidding from one's own cards: counting tricks, judging Nil and Blind Nil.

The trick count adds up what each card and each shape is worth, as the usual
advice counts them (text 002's tips): aces, guarded kings, the top spades,
length in spades and short side suits to trump. The worths are fitted (least
squares over 80,000 hands of the heuristic's own play) to the tricks a seat
with them goes on to take, so a count of n is a hand that takes about n.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.cards import ACE, JACK, KING, QUEEN, SIDE_SUITS, SPADES, suit_pattern
from bot.game.rules import RuleSet
from bot.game.scoring import BLIND_NIL, NIL

ROUNDING = 0.0  # a trick count of n to n + 0.99 bids n: the worths are fitted to
# the tricks taken, so rounding down leans to the safe side of the count
NIL_DANGER_LIMIT = 0.9  # the most danger a Nil worth 100 accepts
LOW_NIL_DANGER_LIMIT = 0.5  # ... and a Nil worth less
NIL_MAX_TRICKS = 2.8  # hands counting this many tricks never bid Nil
# A bid takes in this share of the tricks the table leaves over (or short):
# a seat gets some of the tricks nobody bid for, and fewer when the others
# bid for more than their share.
SPARE_SHARE = 0.4
UNBID_SEAT_TRICKS = 3.25  # what a seat yet to bid is counted at

# Tricks per card of a side suit, by the suit's length (index 0-13): long
# suits get trumped before their honours make, a lone king falls to the ace.
SIDE_ACE = (0.0, 0.98, 0.98, 0.98, 0.98, 1.0, 0.99) + (0.82,) * 7
SIDE_KING = (0.0, 0.03, 0.77, 0.79, 0.71, 0.61) + (0.45,) * 8
SIDE_QUEEN = (0.0, 0.09, 0.09, 0.37, 0.30) + (0.18,) * 9
# A void, singleton or doubleton side suit: its own worth, and what it adds
# per spade held (up to three) that can trump it.
SHORT_SUIT = (-0.17, 0.31, 0.17)
RUFF_PER_SPADE = (0.42, 0.11, 0.03)
# Tricks of the top spades, by rank (ace to ten) and by the number of spades
# held (one, two, three, four or more): a short honour is caught by higher ones.
SPADE_HONOURS = {
    ACE: (0.81, 0.97, 1.01, 0.95),
    KING: (0.21, 0.68, 0.88, 0.93),
    QUEEN: (0.12, 0.34, 0.57, 0.67),
    JACK: (0.07, 0.21, 0.33, 0.44),
    8: (0.0, 0.12, 0.20, 0.25),
}
# What the number of spades is worth on its own (index 0-8; each spade past
# eight adds SPADE_PAST_EIGHT), the tricks small spades make by length and
# by trumping, and the few tricks any hand picks up.
SPADE_LENGTH = (-0.12, 0.06, 0.27, 0.46, 0.91, 1.58, 2.31, 3.10, 3.75)
SPADE_PAST_EIGHT = 0.75


def estimate_tricks(hand: int) -> float:
    """Tricks a hand of 13 cards can expect to take, never fewer than its
    sure spade tricks."""
    spades = suit_pattern(hand, SPADES)
    n_spades = spades.bit_count()
    # Spades spent on ruffs no longer make length tricks: past five spades,
    # the length already counts most of them.
    trumps = max(0, min(n_spades, 3, 8 - n_spades))
    tricks = SPADE_LENGTH[min(n_spades, 8)] + SPADE_PAST_EIGHT * max(0, n_spades - 8)
    if n_spades:
        by_length = min(n_spades, 4) - 1
        for rank, worth in SPADE_HONOURS.items():
            if spades >> rank & 1:
                tricks += worth[by_length]
    for suit in SIDE_SUITS:
        ranks = suit_pattern(hand, suit)
        n = ranks.bit_count()
        if n <= 2:
            tricks += SHORT_SUIT[n] + RUFF_PER_SPADE[n] * trumps
        if ranks >> ACE & 1:
            tricks += SIDE_ACE[n]
        if ranks >> KING & 1:
            tricks += SIDE_KING[n]
        if ranks >> QUEEN & 1:
            tricks += SIDE_QUEEN[n]
    return max(tricks, float(sure_spade_tricks(spades)))


def sure_spade_tricks(spades: int) -> int:
    """Spade tricks nobody can take away: the unbroken run from the ace, and
    every spade once the run outlasts the other hands' spades."""
    n_spades = spades.bit_count()
    run = 0
    while run < n_spades and spades >> (ACE - run) & 1:
        run += 1
    return n_spades if run >= 13 - n_spades else run


def nil_danger(hand: int) -> float:
    """How likely a hand is to be forced to take a trick: 0 is a safe Nil,
    1 or more a poor one."""
    spades = suit_pattern(hand, SPADES)
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
    for suit in SIDE_SUITS:
        ranks = suit_pattern(hand, suit)
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


def team_room(bids: Sequence[int | None], seat: int) -> int:
    """The most tricks ``seat`` can bid without its side's contract passing
    13, a certain set (at least 1: a numeric bid is never below it)."""
    partner_bid = bids[seat ^ 2]
    partner = partner_bid if partner_bid is not None and partner_bid > 0 else 0
    return max(1, 13 - partner)


def numeric_bid(hand: int, bids: Sequence[int | None], seat: int) -> int:
    """A bid of 1-13 from the hand's trick count, shaded to the table: up or
    down by a share of the tricks the other bids leave over, never so high
    that the side's two bids pass 13, and the last bidder of a side trims
    when the four bids would overrun 13."""
    count = estimate_tricks(hand)
    shaded = int(count + SPARE_SHARE * spare_per_seat(count, bids, seat) + ROUNDING)
    # Never below the sure spade tricks, whatever the others bid.
    bid = max(shaded, sure_spade_tricks(suit_pattern(hand, SPADES)))
    others = sum(b for s, b in enumerate(bids) if s != seat and b is not None and b > 0)
    made = sum(1 for s, b in enumerate(bids) if s != seat and b is not None)
    if made == 3 and others + bid > 13 and bid > 1:
        bid = max(1, min(bid, 13 - others + 1))
    return max(1, min(team_room(bids, seat), bid))


def spare_per_seat(count: float, bids: Sequence[int | None], seat: int) -> float:
    """The tricks nobody counts on, shared among the seats that take tricks:
    the other bids made (a seat yet to bid counted at a quarter of the
    tricks) and this hand's ``count`` leave them over, or short when negative."""
    spare = 13.0 - count
    takers = 4
    for other, bid in enumerate(bids):
        if other == seat:
            continue
        if bid is None:
            spare -= UNBID_SEAT_TRICKS
        elif bid > 0:
            spare -= bid
        else:
            takers -= 1  # a Nil bidder tries to take none
    return spare / takers


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
    """The heuristic bid of a seat that has looked at its cards. Behind a
    partner's 13 any numeric bid is a certain set, while a Nil is covered by
    a partner taking every trick."""
    partner_bid = bids[seat ^ 2]
    if NIL in legal and (partner_bid == 13 or wants_nil(hand, rules, partner_bid)):
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
    "spare_per_seat",
    "team_room",
    "wants_nil",
]
