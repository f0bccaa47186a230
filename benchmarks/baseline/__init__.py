"""The heuristic player as it was before its rules were improved, kept unchanged on purpose.

:func:`heuristic_v1` bids with :mod:`benchmarks.baseline.bidding_v1` and plays
with :mod:`benchmarks.baseline.policy_v1`, frozen copies of the heuristic's
rules of that time, so that ``python -m benchmarks.ai`` can measure the
improved heuristic against a fixed opponent. It is not a level players can
meet: a table or settings file that still names ``heuristic-v1`` gets the
heuristic player (see :data:`bot.ai.base.RETIRED_LEVELS`).
"""

from __future__ import annotations

from benchmarks.baseline import bidding_v1, policy_v1
from bot.ai.base import Player
from bot.ai.heuristic import HeuristicPlayer

#: The name the benchmark reports the frozen player under.
BASELINE_LEVEL = "heuristic-v1"


def heuristic_v1(seed: int | None = None) -> Player:
    return HeuristicPlayer(
        seed,
        choose_bid=bidding_v1.choose_bid,
        blind_nil_wanted=bidding_v1.blind_nil_wanted,
        choose_card=policy_v1.choose_card,
    )
