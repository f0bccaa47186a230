"""The heuristic player as it was before issue 15, kept unchanged on purpose.

``heuristic-v1`` bids with :mod:`bot.ai.baseline.bidding_v1` and plays with
:mod:`bot.ai.baseline.policy_v1`, frozen copies of the heuristic's rules of
that time, so that ``python -m benchmarks.ai`` can measure the improved
heuristic against a fixed opponent. Nothing else should import them.
"""

from __future__ import annotations

from bot.ai.base import Player, register_level
from bot.ai.baseline import bidding_v1, policy_v1
from bot.ai.heuristic import HeuristicPlayer

BASELINE_LEVEL = "heuristic-v1"


def heuristic_v1(seed: int | None = None) -> Player:
    return HeuristicPlayer(
        seed,
        choose_bid=bidding_v1.choose_bid,
        blind_nil_wanted=bidding_v1.blind_nil_wanted,
        choose_card=policy_v1.choose_card,
    )


register_level(BASELINE_LEVEL, heuristic_v1)
