"""Bidding from one's own cards: counting tricks, judging Nil and Blind Nil.

The trick count adds up what each card and each shape is worth, as the usual
advice counts them (text 002's tips): aces, guarded kings, the top spades,
length in spades and short side suits to trump. The worths are fitted (least
squares over 80,000 hands of the heuristic's own play) to the tricks a seat
with them goes on to take, so a count of n is a hand that takes about n.

Every deck is counted as the standard one: a hand's trumps are read by their
place in the deck's trump order (:func:`as_standard`), so a Big Joker counts
as an ace of spades would, and the jjdd two of diamonds as a spade.

The bidding formats choose among the bids they leave: under Suicide the
first partner of a side to bid decides who bids Nil (:func:`suicide_nil`),
under Whiz each seat weighs Nil against its number of spades
(:func:`whiz_nil`); a side that can reach a contract of 10 at a 10-for-200
table stretches to it. The price of a bag moves the rounding of a count
(:func:`bag_lean`). A Boston moves no bid: its bonus comes with all 13
tricks whatever the side bid, so bidding up for it only risks a set (in
simulated hands a side stretching to 13 when its counts reached 11.5 lost
points); the side goes for it in the play (:mod:`bot.ai.policy`). In solo
(``teams=solo``) a seat bids its own count with no partner to lean on or to
cover a Nil.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

from bot.ai.utility import normal_cdf
from bot.game.bidding import spade_count
from bot.game.cards import (
    ACE,
    DECK_MASKS,
    FIRST_TRUMP,
    JACK,
    KING,
    NON_SPADE_MASK,
    QUEEN,
    SIDE_SUITS,
    SPADE_MASK,
    SPADES,
    card_of,
    cards_of,
    rank_of,
    suit_pattern,
)
from bot.game.rules import PRESETS, Bidding, Deck, RuleSet
from bot.game.scoring import NIL, TEN_FOR_200_CONTRACT
from bot.game.sides import deficit, partner_of, side_of

ROUNDING = 0.0  # a trick count of n to n + 0.99 bids n: the worths are fitted to
# the tricks taken, so rounding down leans to the safe side of the count
# What a bag costs shifts the rounding: the dearer an overtrick (the bag
# penalty's share per bag), the closer to its count a hand bids; where bags
# cost nothing, lower.
USUAL_BAG_COST = 10.0  # 100 points for every 10 bags
BAG_LEAN = 0.015  # tricks of count per point a bag costs above the usual
BAG_LEAN_RANGE = (-0.25, 0.5)
NIL_DANGER_LIMIT = 0.9  # the most danger a Nil worth 100 accepts
LOW_NIL_DANGER_LIMIT = 0.5  # ... and a Nil worth less
NIL_MAX_TRICKS = 2.8  # hands counting this many tricks never bid Nil
# A Nil in solo has nobody to cover it and three players chasing it: among
# heuristic players only the hands of no danger at all made half their Nils
# (3,200 hands: 46% at a danger under 0.1, 20% or less from 0.2 up).
SOLO_NIL_DANGER_LIMIT = 0.05
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
TOP_TRUMP_DANGER = 9.0  # a Nil holding one of the top three trumps
# Suicide: the first partner of a side to bid takes the Nil when its count
# of tricks plus a share of its Nil danger (capped: a top trump alone does not
# rule the Nil out, the partner may cover it) is below the score the
# partner's hand yet unseen is likely to have (fitted on simulated hands).
SUICIDE_NIL_SCORE = 3.75
SUICIDE_DANGER_SHARE = 0.2
SUICIDE_DANGER_CAP = 4.0
# Whiz: how surely a count of tricks makes a bid (the spread of the tricks a
# hand of that count takes) and a Nil holds (its danger's weight).
WHIZ_SPREAD = 1.3
WHIZ_NIL_STRICTNESS = 1.2
# 10-for-200: a side stretches its contract to 10 when its counts reach this.
TEN_FOR_200_REACH = 9.6


@cache
def deck_trumps(deck: str) -> tuple[int, ...]:
    """The trumps of ``deck``, highest first."""
    return tuple(reversed(cards_of(DECK_MASKS[deck] & SPADE_MASK)))


def trump_total(deck: str) -> int:
    """How many trumps ``deck`` holds (13 in the standard deck, up to 16)."""
    return len(deck_trumps(deck))


def as_standard(hand: int, deck: str) -> int:
    """``hand`` with its trumps renamed as the standard deck's by their place
    in ``deck``'s trump order: its top trump is the ace of spades, the next
    the king ... ; trumps below the thirteenth take the lowest ranks left, so
    the hand keeps its length. The side suits are read as they are."""
    if deck == Deck.STANDARD:
        return hand
    held = hand & SPADE_MASK
    renamed = 0
    for from_top, card in enumerate(deck_trumps(deck)):
        if held >> card & 1:
            if from_top <= ACE:
                renamed |= 1 << card_of(SPADES, ACE - from_top)
            else:
                free = ~(renamed >> FIRST_TRUMP)
                renamed |= (free & -free) << FIRST_TRUMP  # the lowest rank left
    return hand & NON_SPADE_MASK | renamed


def estimate_tricks(hand: int, deck: str = Deck.STANDARD) -> float:
    """Tricks a hand of 13 cards dealt from ``deck`` can expect to take,
    never fewer than its sure spade tricks."""
    hand = as_standard(hand, deck)
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
    return max(tricks, float(sure_spade_tricks(spades, trump_total(deck))))


def sure_spade_tricks(spades: int, trumps: int = 13) -> int:
    """Spade tricks nobody can take away: the unbroken run from the top, and
    every spade once the run outlasts the other hands' spades (``spades`` as
    standard ranks, see :func:`as_standard`; ``trumps`` in the deck)."""
    n_spades = spades.bit_count()
    run = 0
    while run < n_spades and spades >> (ACE - run) & 1:
        run += 1
    return n_spades if run >= trumps - n_spades else run


def nil_danger(hand: int, deck: str = Deck.STANDARD) -> float:
    """How likely a hand is to be forced to take a trick: 0 is a safe Nil,
    1 or more a poor one."""
    hand = as_standard(hand, deck)
    spades = suit_pattern(hand, SPADES)
    n_spades = spades.bit_count()
    if spades >> QUEEN:  # the ace, king or queen of spades (the top three trumps)
        return TOP_TRUMP_DANGER
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


def nil_bidder_pass(hand: int, count: int, deck: str) -> int:
    """The ``count`` cards a Nil bidder passes (bot.game.passing): one by
    one, the card whose loss leaves the hand safest, the highest on a tie."""
    given = 0
    for _ in range(count):
        rest = hand & ~given
        card = min(
            cards_of(rest), key=lambda c: (nil_danger(rest & ~(1 << c), deck), -rank_of(c), -c)
        )
        given |= 1 << card
    return given


def kept_for_nil(hand: int, rules: RuleSet) -> int:
    """The cards a Nil bidder keeps after its pass (all of them without ``nil_pass``)."""
    return hand & ~nil_bidder_pass(hand, rules.nil_pass or 0, rules.deck)


def wants_nil(hand: int, rules: RuleSet, partner_bid: int | None) -> bool:
    """Whether to bid Nil: low cards, no high spades, partner not Nil. The
    cards a Nil pass gives away do not count."""
    if partner_bid is not None and partner_bid <= 0:
        return False
    limit = NIL_DANGER_LIMIT if (rules.nil_value or 0) >= 100 else LOW_NIL_DANGER_LIMIT
    if partner_of(rules, 0) is None:
        limit = SOLO_NIL_DANGER_LIMIT
    if partner_bid is not None and partner_bid >= 4:
        limit += 0.2  # a strong partner covers well
    deck = rules.deck
    kept = kept_for_nil(hand, rules)
    return nil_danger(kept, deck) <= limit and estimate_tricks(kept, deck) < NIL_MAX_TRICKS


def suicide_nil(hand: int, rules: RuleSet) -> bool:
    """Under Suicide, whether the first partner of a side to bid takes the
    Nil: its hand is likely a better Nil than the partner's (who then bids
    4 or more for both)."""
    return suicide_nil_score(hand, rules.deck) < SUICIDE_NIL_SCORE


def suicide_nil_score(hand: int, deck: str = Deck.STANDARD) -> float:
    """How poor a Nil ``hand`` makes beside a partner who must cover it:
    its trick count plus a capped share of its Nil danger."""
    danger = min(nil_danger(hand, deck), SUICIDE_DANGER_CAP)
    return estimate_tricks(hand, deck) + SUICIDE_DANGER_SHARE * danger


def whiz_nil(hand: int, rules: RuleSet, partner_bid: int | None) -> bool:
    """Under Whiz, whether Nil is worth more than the bid of the hand's
    number of spades: each bid's chance (the count against the number, the
    Nil's danger) weighed by what it wins or loses."""
    deck = rules.deck
    spades = spade_count(hand)
    made = normal_cdf((estimate_tricks(hand, deck) + 0.5 - spades) / WHIZ_SPREAD)
    count_worth = (2 * made - 1) * 10 * spades
    nil_holds = math.exp(-WHIZ_NIL_STRICTNESS * nil_danger(hand, deck))
    if (partner_bid is not None and partner_bid <= 0) or partner_of(rules, 0) is None:
        nil_holds *= 0.7  # nobody covers a Nil beside another, nor in solo
    nil_worth = (2 * nil_holds - 1) * (rules.nil_value or 0)
    return nil_worth > count_worth


def partner_bid_of(rules: RuleSet, bids: Sequence[int | None], seat: int) -> int | None:
    """The bid of the seat's partner (None until made, and always in solo)."""
    partner = partner_of(rules, seat)
    return None if partner is None else bids[partner]


def team_room(rules: RuleSet, bids: Sequence[int | None], seat: int) -> int:
    """The most tricks ``seat`` can bid without its side's contract passing
    13, a certain set (at least 1: a numeric bid is never below it)."""
    partner_bid = partner_bid_of(rules, bids, seat)
    partner = partner_bid if partner_bid is not None and partner_bid > 0 else 0
    return max(1, 13 - partner)


def bag_cost(rules: RuleSet) -> float:
    """Points a bag costs in the long run: its share of the penalty. (A bag
    close to the limit costs no more: the bags held are a debt paid sooner
    or later, and bidding up to spare them costs more in sets.)"""
    return rules.bag_penalty / rules.bag_limit


def bag_lean(rules: RuleSet) -> float:
    """Tricks added to a count before it is rounded down to a bid, for what
    an overtrick costs (0 at the usual 100 points per 10 bags)."""
    lean = BAG_LEAN * (bag_cost(rules) - USUAL_BAG_COST)
    low, high = BAG_LEAN_RANGE
    return min(max(lean, low), high)


def numeric_bid(
    hand: int,
    bids: Sequence[int | None],
    seat: int,
    rules: RuleSet = PRESETS["standard"],
) -> int:
    """A bid of 1-13 from the hand's trick count, shaded to the table: up or
    down by a share of the tricks the other bids leave over, up where bags
    cost dearly and down where they are free, never so high that the side's
    two bids pass 13, and the last bidder of a side trims when the four bids
    would overrun 13."""
    deck = rules.deck
    count = estimate_tricks(hand, deck)
    spare = SPARE_SHARE * spare_per_seat(count, bids, seat)
    shaded = int(count + spare + ROUNDING + bag_lean(rules))
    # Never below the sure spade tricks, whatever the others bid.
    sure = sure_spade_tricks(suit_pattern(as_standard(hand, deck), SPADES), trump_total(deck))
    bid = max(shaded, sure)
    others = sum(b for s, b in enumerate(bids) if s != seat and b is not None and b > 0)
    made = sum(1 for s, b in enumerate(bids) if s != seat and b is not None)
    if made == 3 and others + bid > 13 and bid > 1:
        bid = max(1, min(bid, 13 - others + 1))
    return max(1, min(team_room(rules, bids, seat), bid))


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
    ordinary bids are unlikely to catch up before the leading side wins."""
    partner_bid = partner_bid_of(rules, bids, seat)
    if partner_bid is not None and partner_bid <= 0:
        return False
    side = side_of(rules, seat)
    behind = deficit(scores, side)
    if behind < rules.blind_nil_min_deficit:
        return False
    leader_to_go = rules.target - max(s for other, s in enumerate(scores) if other != side)
    return behind >= max(250, rules.blind_nil_value + 50) or (
        behind >= max(100, rules.blind_nil_min_deficit) and leader_to_go <= 150
    )


def choose_bid(
    hand: int, rules: RuleSet, seat: int, bids: Sequence[int | None], legal: Sequence[int]
) -> int:
    """The heuristic bid of a seat that has looked at its cards. Behind a
    partner's 13 any numeric bid is a certain set, while a Nil is covered by
    a partner taking every trick."""
    partner_bid = partner_bid_of(rules, bids, seat)
    if NIL in legal and len(legal) > 1 and _nil_chosen(hand, rules, partner_bid):
        return NIL
    bid = numeric_bid(hand, bids, seat, rules)
    if rules.ten_for_200 and partner_bid is not None and partner_bid > 0:
        bid = _stretch_to_ten(hand, rules, partner_bid, bid)
    if bid in legal:
        return bid
    numeric = [b for b in legal if b > 0]
    return min(numeric, key=lambda b: abs(b - bid)) if numeric else legal[0]


def _nil_chosen(hand: int, rules: RuleSet, partner_bid: int | None) -> bool:
    """Whether to bid Nil where both Nil and a number are open, by the
    table's bidding format."""
    if partner_bid == 13:
        return True  # any numeric bid is a certain set; the partner covers a Nil
    if rules.bidding is Bidding.WHIZ:
        return whiz_nil(hand, rules, partner_bid)
    if rules.bidding is Bidding.SUICIDE and partner_bid is None:
        return suicide_nil(hand, rules)
    return wants_nil(hand, rules, partner_bid)


def _stretch_to_ten(hand: int, rules: RuleSet, partner_bid: int, bid: int) -> int:
    """At a 10-for-200 table, the second partner's bid raised to a contract
    of 10 when the side's counts nearly reach it (20 a trick instead of 10)."""
    wanted = TEN_FOR_200_CONTRACT - partner_bid
    if bid < wanted and estimate_tricks(hand, rules.deck) + partner_bid >= TEN_FOR_200_REACH:
        return max(bid, wanted)
    return bid
