"""The heuristic computer player: text 002's sensible game, and a bit more.

It bids from its own cards (:mod:`bot.ai.bidding`), plays by the rules of
:mod:`bot.ai.policy` with what its view lets it infer about the other hands
(:mod:`bot.ai.knowledge`), and decides in well under a millisecond.
Deterministic: the same view always gives the same action.

The same player with frozen earlier rules (``benchmarks/baseline``) is the
opponent the AI benchmark measures progress against.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai import bidding, policy
from bot.ai.base import register_level
from bot.ai.knowledge import knowledge_of
from bot.ai.passing import choose_pass
from bot.ai.plan import HandPlan, plan_of
from bot.game.rules import RuleSet
from bot.game.scoring import BLIND_NIL
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView

BidRule = Callable[[int, RuleSet, int, Sequence[int | None], Sequence[int]], int]
BlindNilRule = Callable[[RuleSet, int, Sequence[int], Sequence[int | None]], bool]
CardRule = Callable[
    [HandPlan, int, int, Sequence[int], int, Sequence[int], Sequence[int], int], int
]


class HeuristicPlayer:
    def __init__(
        self,
        seed: int | None = None,
        choose_bid: BidRule = bidding.choose_bid,
        blind_nil_wanted: BlindNilRule = bidding.blind_nil_wanted,
        choose_card: CardRule = policy.choose_card,
    ) -> None:
        self.seed = seed  # unused: the heuristic player has no randomness
        self.choose_bid = choose_bid
        self.blind_nil_wanted = blind_nil_wanted
        self.choose_card = choose_card

    def decide(self, view: PlayerView) -> Action:
        require_turn(view)
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.PASSING:
            return Action(ActionKind.PASS, view.seat, choose_pass(view))
        return Action(ActionKind.PLAY, view.seat, play_card(view, self.choose_card))

    def _bid(self, view: PlayerView) -> Action:
        if not view.hand:
            # A Blind Nil table withholds the cards until the seat looks.
            if BLIND_NIL in view.legal_bids and self.blind_nil_wanted(
                view.rules, view.seat, view.scores, view.bids
            ):
                return Action(ActionKind.BID, view.seat, BLIND_NIL)
            return Action(ActionKind.LOOK, view.seat)
        legal = [b for b in view.legal_bids if b != BLIND_NIL]
        return Action(
            ActionKind.BID,
            view.seat,
            self.choose_bid(view.hand, view.rules, view.seat, view.bids, legal),
        )


def require_turn(view: PlayerView) -> None:
    """Computer players are asked only for the seat being waited on."""
    if not view.my_turn:
        raise ValueError(f"seat {view.seat} is not the one to act: nothing to decide")


def play_card(view: PlayerView, choose_card: CardRule = policy.choose_card) -> int:
    """The heuristic card for the seat of ``view`` (its turn to play)."""
    knowledge = knowledge_of(view)
    plan = plan_of(view.rules, view.bids, view.bags, view.scores)
    return choose_card(
        plan,
        view.seat,
        view.legal_cards,
        view.trick,
        view.leader,
        knowledge.possible(),
        view.tricks_won,
        13 - len(view.tricks),
    )


register_level("heuristic", HeuristicPlayer)
