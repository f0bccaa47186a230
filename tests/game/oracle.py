"""The rules written again, plainly and independently of the engine's bit tricks,
to check it against: cards by name, hands as sets, scoring as the texts say it."""

from __future__ import annotations

from bot.game.cards import card_name
from bot.game.rules import FirstLead, RuleSet, SetPenalty, SpadesBreak, TieRule
from bot.game.scoring import BLIND_NIL, NIL

ORDER = "23456789TJQKA"


def suit(card: int) -> str:
    return card_name(card)[1]


def rank(card: int) -> int:
    return ORDER.index(card_name(card)[0])


def legal_cards(
    hand: set[int], trick: list[int], spades_broken: bool, first_trick: bool, rules: RuleSet
) -> set[int]:
    """The cards a player may play without revoking."""
    if trick:
        same_suit = {c for c in hand if suit(c) == suit(trick[0])}
        return same_suit or set(hand)
    if first_trick and rules.first_lead is FirstLead.LOWEST_CLUB:
        clubs = [c for c in hand if suit(c) == "C"]
        if clubs:
            return {min(clubs, key=rank)}
    if spades_broken:
        return set(hand)
    others = {c for c in hand if suit(c) != "S"}
    return others or set(hand)


def breaks_spades(card: int, led: int, rules: RuleSet) -> bool:
    """Whether playing ``card`` to a trick led by ``led`` breaks spades."""
    if suit(card) != "S":
        return False
    return rules.spades_break is SpadesBreak.ANY_SPADE or suit(led) != "S"


def trick_taker(leader: int, cards: list[int]) -> int:
    """The seat taking a full trick: the highest spade, else the highest card of
    the suit led."""
    spades = [c for c in cards if suit(c) == "S"]
    candidates = spades or [c for c in cards if suit(c) == suit(cards[0])]
    best = max(candidates, key=rank)
    return (leader + cards.index(best)) % 4


def team_hand(
    rules: RuleSet, bids: tuple[int, int], tricks: tuple[int, int], bags: int
) -> tuple[int, int]:
    """(points, bags after) of one team for one hand."""
    points = 0
    contract = 0
    toward_contract = 0
    loose_tricks = 0  # failed-Nil tricks that only count as bags
    for bid, took in zip(bids, tricks, strict=True):
        if bid in (NIL, BLIND_NIL):
            value = rules.blind_nil_value if bid == BLIND_NIL else rules.nil_value or 0
            points += value if took == 0 else -value
            if rules.failed_nil_tricks_count_for_partner:
                toward_contract += took
            else:
                loose_tricks += took
        else:
            contract += bid
            toward_contract += took
    overtricks = 0
    if toward_contract >= contract:
        overtricks = toward_contract - contract
        points += 10 * contract + overtricks
    elif rules.set_penalty is SetPenalty.PER_TRICK_BID:
        points -= 10 * contract
    else:
        points -= 10 * (contract - toward_contract)
    points += loose_tricks
    bags += overtricks + loose_tricks
    while bags >= rules.bag_limit:
        bags -= rules.bag_limit
        points -= rules.bag_penalty
    return points, bags


CONTINUES = "continues"
DRAW = "draw"


def game_end(rules: RuleSet, scores: list[int]) -> str | int:
    """After a hand: CONTINUES, DRAW, or the winning team."""
    high, low = max(scores), min(scores)
    at_target = high >= rules.target
    fallen = rules.losing_score is not None and low <= rules.losing_score
    if not at_target and not fallen:
        return CONTINUES
    if scores[0] == scores[1]:
        return DRAW if rules.tie is TieRule.DRAW else CONTINUES
    return scores.index(high)
