"""A hint: the search player's choice from the seat's view, and why; a fixed number of
samples, so the same position always gets the same hint."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.base import Player
from bot.ai.search import SearchPlayer
from bot.coach.reasons import Reason, reason_for
from bot.game.types import Action, Phase
from bot.game.view import PlayerView

#: Wall-clock limit of one hint's search (its p95 target is 1 s).
HINT_TIME_BUDGET_S = 0.6
#: Samples of one hint's search: enough to settle most choices, and the cap
#: that makes a hint reproducible when the search reaches it in time.
HINT_SAMPLES = 96
HINT_SEED = 15
#: Wall-clock limit of a stored review's search: far more than the hint's
#: samples need, so that the sample limit ends it and the review does not
#: depend on the machine's load (it is made once per game, in the background).
REVIEW_TIME_BUDGET_S = 30.0


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    reason: Reason


def hint_player() -> Player:
    return SearchPlayer(seed=HINT_SEED, time_budget=HINT_TIME_BUDGET_S, max_samples=HINT_SAMPLES)


def review_player() -> Player:
    """The hint's search, patient: the same choice on a busy machine as on an idle one."""
    return SearchPlayer(seed=HINT_SEED, time_budget=REVIEW_TIME_BUDGET_S, max_samples=HINT_SAMPLES)


def can_hint(view: PlayerView) -> bool:
    """Whether the view's seat has a decision to be hinted: its bid or card."""
    return view.my_turn and view.phase in (Phase.BIDDING, Phase.PLAYING)


def hint_for(view: PlayerView, player: Player | None = None) -> Hint:
    """The hint for the seat of ``view``, which must be on turn. CPU work for
    up to :data:`HINT_TIME_BUDGET_S`: run it off the event loop."""
    if not can_hint(view):
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    action = (player or hint_player()).decide(view)
    return Hint(action, reason_for(view, action))
