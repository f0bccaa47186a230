"""What a hand's result is worth in the game: the chance of winning after it.

The search player compares its options by the result of the hand they lead
to, but a point is not worth the same at every score: making a contract that
reaches the target wins the game, a set near the losing score loses it, and
far from the end the points simply add up. :func:`position_value` turns the
scores and bags after a hand into an estimated chance of winning for one
side, exactly 1 or 0 when the hand ends the game.

The estimate models the rest of the game as a race: each hand moves the
point difference by a random amount of spread :data:`HAND_SPREAD`, and about
``distance to the target / PACE`` hands remain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.game.rules import RuleSet, TieRule
from bot.game.scoring import score_hand

PACE = 55.0  # points a side typically gains per hand
HAND_SPREAD = 85.0  # spread of the point difference of one hand
MIN_HANDS_LEFT = 0.6


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def position_value(rules: RuleSet, team: int, scores: Sequence[int], bags: Sequence[int]) -> float:
    """The chance that ``team`` wins from these totals (after a hand)."""
    mine, theirs = scores[team], scores[1 - team]
    reached = mine >= rules.target or theirs >= rules.target
    fell = rules.losing_score is not None and min(mine, theirs) <= rules.losing_score
    if (reached or fell) and mine != theirs:
        return 1.0 if mine > theirs else 0.0
    if (reached or fell) and rules.tie is TieRule.DRAW:
        return 0.5
    bag_cost = rules.bag_penalty / rules.bag_limit
    diff = (mine - bag_cost * bags[team]) - (theirs - bag_cost * bags[1 - team])
    hands_left = max(MIN_HANDS_LEFT, (rules.target - max(mine, theirs)) / PACE)
    if rules.losing_score is not None:
        # A side near the losing score can lose within a hand or two.
        hands_left = min(
            hands_left, max(MIN_HANDS_LEFT, (min(mine, theirs) - rules.losing_score) / PACE)
        )
    return _normal_cdf(diff / (HAND_SPREAD * math.sqrt(hands_left)))


class HandValuer:
    """The value to one side of each way a hand can end, cached by the bids
    and the tricks each seat took."""

    def __init__(
        self, rules: RuleSet, team: int, scores: Sequence[int], bags: Sequence[int]
    ) -> None:
        self.rules = rules
        self.team = team
        self.scores = (scores[0], scores[1])
        self.bags = (bags[0], bags[1])
        self._cache: dict[tuple[int, ...], float] = {}

    def value(self, bids: Sequence[int], won: Sequence[int]) -> float:
        key = (*bids, *won)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        results = score_hand(self.rules, list(bids), list(won), self.bags)
        scores = (self.scores[0] + results[0].points, self.scores[1] + results[1].points)
        bags = (results[0].bags_after, results[1].bags_after)
        value = position_value(self.rules, self.team, scores, bags)
        self._cache[key] = value
        return value
