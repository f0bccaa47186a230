"""What a hand's result is worth in the game: the chance of winning after it.

The search player compares its options by the result of the hand they lead
to, but a point is not worth the same at every score: making a contract that
reaches the target wins the game, a set near the losing score loses it, and
far from the end the points simply add up. :func:`position_value` turns the
scores and bags after a hand into an estimated chance of winning for one
side, exactly 1 or 0 when the hand ends the game.

The estimate models the rest of the game as a race: each hand moves the
point difference by a random amount of spread :data:`HAND_SPREAD`, and about
``distance to the target / PACE`` hands remain. In solo (``teams=solo``) a
player races three others: its chance is the product of its chances against
each (as if the three races were independent), at a player's slower pace.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.game.rules import RuleSet, Teams, TieRule
from bot.game.scoring import score_hand

PACE = 55.0  # points a side typically gains per hand
HAND_SPREAD = 85.0  # spread of the point difference of one hand
MIN_HANDS_LEFT = 0.6
SOLO_PACE = 30.0  # points a solo player typically gains per hand
SOLO_HAND_SPREAD = 60.0  # spread of the difference of two solo players' hands


def normal_cdf(x: float) -> float:
    """The standard normal distribution at ``x``."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _hands_left(rules: RuleSet, best: int, lowest: int, pace: float) -> float:
    """About how many hands the game has left: until the best score reaches the
    target or, near the losing score, until the lowest falls to it."""
    left = max(MIN_HANDS_LEFT, (rules.target - best) / pace)
    if rules.losing_score is not None:
        left = min(left, max(MIN_HANDS_LEFT, (lowest - rules.losing_score) / pace))
    return left


def position_value(rules: RuleSet, team: int, scores: Sequence[int], bags: Sequence[int]) -> float:
    """The chance that side ``team`` wins from these totals (after a hand)."""
    if rules.teams is Teams.SOLO:
        return _solo_value(rules, team, scores, bags)
    mine, theirs = scores[team], scores[1 - team]
    reached = mine >= rules.target or theirs >= rules.target
    fell = rules.losing_score is not None and min(mine, theirs) <= rules.losing_score
    if (reached or fell) and mine != theirs:
        return 1.0 if mine > theirs else 0.0
    if (reached or fell) and rules.tie is TieRule.DRAW:
        return 0.5
    bag_cost = rules.bag_penalty / rules.bag_limit
    diff = (mine - bag_cost * bags[team]) - (theirs - bag_cost * bags[1 - team])
    hands_left = _hands_left(rules, max(mine, theirs), min(mine, theirs), PACE)
    return normal_cdf(diff / (HAND_SPREAD * math.sqrt(hands_left)))


def _solo_value(rules: RuleSet, seat: int, scores: Sequence[int], bags: Sequence[int]) -> float:
    mine, best = scores[seat], max(scores)
    reached = best >= rules.target
    fell = rules.losing_score is not None and min(scores) <= rules.losing_score
    if reached or fell:  # the game is over unless the best are level (another hand)
        if mine < best:
            return 0.0
        return 1.0 / scores.count(best)
    bag_cost = rules.bag_penalty / rules.bag_limit
    spread = SOLO_HAND_SPREAD * math.sqrt(_hands_left(rules, best, min(scores), SOLO_PACE))
    value = 1.0
    for other, theirs in enumerate(scores):
        if other != seat:
            diff = (mine - bag_cost * bags[seat]) - (theirs - bag_cost * bags[other])
            value *= normal_cdf(diff / spread)
    return value


class HandValuer:
    """The value to one side of each way a hand can end, cached by the bids
    and the tricks each seat took."""

    def __init__(
        self, rules: RuleSet, team: int, scores: Sequence[int], bags: Sequence[int]
    ) -> None:
        self.rules = rules
        self.team = team
        self.scores = tuple(scores)
        self.bags = tuple(bags)
        self._cache: dict[tuple[int, ...], float] = {}

    def value(self, bids: Sequence[int], won: Sequence[int]) -> float:
        key = (*bids, *won)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        results = score_hand(self.rules, list(bids), list(won), self.bags)
        scores = tuple(score + r.points for score, r in zip(self.scores, results, strict=True))
        bags = tuple(r.bags_after for r in results)
        value = position_value(self.rules, self.team, scores, bags)
        self._cache[key] = value
        return value
