"""A hint: the search player's choice from the seat's view and why, the same every time."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.base import Player
from bot.ai.passing import choose_pass
from bot.ai.search import SearchPlayer
from bot.coach.reasons import Reason, reason_for
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView

#: Wall-clock limit of one hint's search (its p95 target is 1 s).
HINT_TIME_BUDGET_S = 0.6
#: Samples of a hint's search: enough for most choices, and a cap that makes it reproducible.
HINT_SAMPLES = 96
HINT_SEED = 15
#: A review's time limit, far above what its samples need, so machine load never changes it.
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
    """Whether the view's seat has a decision to be hinted: its bid or card,
    or the cards it passes (the partners choose at once, whoever is waited on)."""
    if view.phase is Phase.PASSING:
        return bool(view.pass_count) and not view.passed
    return view.my_turn and view.phase in (Phase.BIDDING, Phase.PLAYING)


def decision_stamp(game: Game) -> int:
    """What names the decision a Hint button is drawn for: the game's action
    count, or during the Nil pass the count at its start (a partner's
    choice changes nothing of the seat's)."""
    if game.phase is not Phase.PASSING:
        return game.action_count
    return game.action_count - sum(1 for cards in game.exchange.chosen if cards)


def hint_for(view: PlayerView, player: Player | None = None) -> Hint:
    """The hint for the seat of ``view``, on turn; CPU work up to :data:`HINT_TIME_BUDGET_S`."""
    if not can_hint(view):
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    if view.phase is Phase.PASSING:  # as every level passes, whichever partner is waited on
        action = Action(ActionKind.PASS, view.seat, choose_pass(view))
    else:
        action = (player or hint_player()).decide(view)
    return Hint(action, reason_for(view, action))
