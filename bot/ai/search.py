"""The search computer player: sampled deals, rollouts and an exact endgame.

For a card play it deals the unseen cards to the other seats many times over
(:mod:`bot.ai.sampling`: consistent with the voids shown and weighted by the
bids), plays every distinct legal card in each deal and the rest of the hand
out with the heuristic policy (:mod:`bot.ai.rollout`) or, for the last few
tricks, exactly (:mod:`bot.ai.solver`), and keeps the card with the best
average value of the hand's end in the game (:mod:`bot.ai.utility`: the
chance of winning after the hand, so sets, bags, the target and the losing
score all count).

For a bid it does the same with the candidate bids (a few numbers around
its trick count, Nil, and Blind Nil before looking when the table allows it),
completing the later seats' bids with the heuristic bidder.

Every decision stops at its time budget (wall clock) and is reproducible:
its random numbers are seeded from the player's seed and the view, so with a
sample limit instead of a deadline the same view always gives the same action.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from bot.ai.base import register_level
from bot.ai.bidding import choose_bid, nil_danger, numeric_bid
from bot.ai.heuristic import play_card
from bot.ai.knowledge import knowledge_of
from bot.ai.plan import plan_of
from bot.ai.rollout import roll_out
from bot.ai.sampling import DealSampler
from bot.ai.solver import Solver, distinct_moves
from bot.ai.utility import HandValuer
from bot.game.cards import mask_of
from bot.game.playout import Position
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Action, ActionKind, Phase
from bot.game.view import PlayerView

DEFAULT_TIME_BUDGET = 0.12  # seconds per decision
EXACT_TRICKS = 3  # solve exactly once this many tricks (or fewer) are left
MIN_SAMPLES = 1
# Fewer samples than this are too few to overrule the heuristic's choice (a
# machine so loaded that the budget allows no more falls back on it).
MIN_TRUSTED = 4
# Stop sampling early once the choice is settled: checked every few samples
# from a first batch on.
SETTLE_AFTER = 16
SETTLE_EVERY = 4
SETTLED = 4.0
# How clearly (in standard errors of the paired difference over the samples)
# an option must beat the heuristic's choice to replace it, and by at least
# how much (in chance of winning the game).
EVIDENCE = 1.0
MIN_GAIN = 0.0005
NIL_DANGER_LIMIT = 3.0  # hands more dangerous than this do not consider Nil
AFTER_LOOK_BIDS = (NIL, *range(1, 14))
LOOKING = 100  # stands for "look at the cards, then bid" among Blind Nil options


class SearchPlayer:
    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = DEFAULT_TIME_BUDGET,
        max_samples: int | None = None,
        exact_tricks: int = EXACT_TRICKS,
    ) -> None:
        self.seed = seed or 0
        self.time_budget = time_budget
        self.max_samples = max_samples
        self.exact_tricks = exact_tricks
        self.last_values: list[list[float]] = []  # the samples of the last decision

    # -- the decision loop ------------------------------------------------------

    def decide(self, view: PlayerView) -> Action:
        deadline = time.perf_counter() + self.time_budget
        rng = random.Random(self._seed_for(view))
        if view.phase is Phase.BIDDING:
            if not view.hand:
                return self._before_looking(view, rng, deadline)
            return Action(ActionKind.BID, view.seat, self._bid(view, rng, deadline))
        return Action(ActionKind.PLAY, view.seat, self._card(view, rng, deadline))

    def _seed_for(self, view: PlayerView) -> int:
        # Only ints go into the hash: their hashes are the same in every process.
        public = (
            self.seed,
            view.seat,
            view.hand_number,
            view.hand,
            view.scores,
            tuple(-9 if b is None else b for b in view.bids),
            view.trick,
            tuple(t.cards for t in view.tricks),
        )
        return hash(public) & 0xFFFFFFFFFFFF

    def _more(self, values: Sequence[Sequence[float]], deadline: float) -> bool:
        """Whether to draw another sample: until the deadline or the sample
        limit, unless the samples so far already settle the choice."""
        samples = len(values)
        if samples < MIN_SAMPLES:
            return True
        if self.max_samples is not None and samples >= self.max_samples:
            return False
        if samples >= SETTLE_AFTER and samples % SETTLE_EVERY == 0 and _settled(values):
            return False
        return time.perf_counter() < deadline

    @staticmethod
    def _best(options: Sequence[int], values: Sequence[Sequence[float]], preferred: int) -> int:
        """The option with the best mean value over the samples (``values[k][i]``
        is option ``i`` in sample ``k``). The preferred (heuristic) option is
        kept unless the best one beats it clearly: by more than
        :data:`EVIDENCE` standard errors of their paired difference, so that
        sampling noise alone never moves the choice."""
        n = len(values)
        totals = [sum(sample[i] for sample in values) for i in range(len(options))]
        best = max(range(len(options)), key=lambda i: totals[i])
        if preferred not in options:
            return options[best]
        if n < MIN_TRUSTED:
            return preferred
        p = options.index(preferred)
        if best == p:
            return preferred
        diffs = [sample[best] - sample[p] for sample in values]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > EVIDENCE * math.sqrt(var / n) + MIN_GAIN:
            return options[best]
        return preferred

    # -- card play --------------------------------------------------------------

    def _card(self, view: PlayerView, rng: random.Random, deadline: float) -> int:
        legal = view.legal_cards
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        knowledge = knowledge_of(view)
        live = knowledge.unseen | mask_of(view.trick)
        moves = distinct_moves(legal, live)
        heuristic = play_card(view)
        if len(moves) == 1:
            return heuristic
        preferred = _representative(heuristic, moves, live)
        bids = [b if b is not None else 0 for b in view.bids]
        plan = plan_of(view.rules, view.bids, view.bags, view.scores)
        valuer = HandValuer(view.rules, view.team, view.scores, view.bags)

        def value_of(won: Sequence[int]) -> float:
            return valuer.value(bids, won)

        sampler = DealSampler(knowledge, view.bids)
        exact = 13 - len(view.tricks) <= self.exact_tricks
        per_sample: list[list[float]] = []
        while self._more(per_sample, deadline):
            position = Position.from_view(view, sampler.sample(rng))
            if exact:
                values = Solver(view.team, value_of).values_of_moves(position, moves)
            else:
                values = []
                for card in moves:
                    child = position.copy()
                    child.play(card)
                    values.append(value_of(roll_out(child, plan)))
            per_sample.append(values)
        self.last_values = per_sample
        return self._best(moves, per_sample, preferred)

    # -- bidding ----------------------------------------------------------------

    def _bid(self, view: PlayerView, rng: random.Random, deadline: float) -> int:
        legal = [b for b in view.legal_bids if b != BLIND_NIL]
        heuristic = choose_bid(view.hand, view.rules, view.seat, view.bids, legal)
        guess = numeric_bid(view.hand, view.bids, view.seat)
        options = [b for b in range(max(1, guess - 1), guess + 2) if b in legal]
        partner_bid = view.bids[view.partner]
        partner_nil = partner_bid is not None and partner_bid <= 0
        if NIL in legal and not partner_nil and nil_danger(view.hand) <= NIL_DANGER_LIMIT:
            options.append(NIL)
        if heuristic not in options:
            options.append(heuristic)
        if len(options) == 1:
            return options[0]
        values = self._bid_values(view, rng, deadline, lambda hands: options)
        return self._best(options, values, heuristic)

    def _before_looking(self, view: PlayerView, rng: random.Random, deadline: float) -> Action:
        """At a Blind Nil table, before seeing the cards: Blind Nil or look."""
        partner_bid = view.bids[view.partner]
        if BLIND_NIL not in view.legal_bids or (partner_bid is not None and partner_bid <= 0):
            return Action(ActionKind.LOOK, view.seat)
        rules = view.rules
        seat = view.seat

        def options_for(hands: list[int]) -> list[int]:
            looked_bid = choose_bid(hands[seat], rules, seat, view.bids, AFTER_LOOK_BIDS)
            return [BLIND_NIL, looked_bid]

        # Looking is the default: Blind Nil must prove itself.
        values = self._bid_values(view, rng, deadline, options_for)
        if self._best([BLIND_NIL, LOOKING], values, LOOKING) == BLIND_NIL:
            return Action(ActionKind.BID, seat, BLIND_NIL)
        return Action(ActionKind.LOOK, seat)

    def _bid_values(
        self,
        view: PlayerView,
        rng: random.Random,
        deadline: float,
        options_for: Callable[[list[int]], list[int]],
    ) -> list[list[float]]:
        """Per sampled deal, the value of each option (by its position in the
        option list), played out after completing the bids."""
        rules = view.rules
        seat = view.seat
        knowledge = knowledge_of(view)
        sampler = DealSampler(knowledge, view.bids)
        valuer = HandValuer(rules, view.team, view.scores, view.bags)
        later = [(seat + i) & 3 for i in (1, 2, 3) if view.bids[(seat + i) & 3] is None]
        leader = (view.dealer + 1) & 3
        per_sample: list[list[float]] = []
        while self._more(per_sample, deadline):
            hands = sampler.sample(rng)
            values = []
            for bid in options_for(hands):
                bids = list(view.bids)
                bids[seat] = bid
                for other in later:
                    bids[other] = choose_bid(hands[other], rules, other, bids, AFTER_LOOK_BIDS)
                plan = plan_of(rules, bids, view.bags, view.scores)
                start = Position(list(hands), [], leader, False, [0, 0, 0, 0], rules.first_lead)
                won = roll_out(start, plan)
                values.append(valuer.value([b if b is not None else 0 for b in bids], won))
            per_sample.append(values)
        self.last_values = per_sample
        return per_sample


def _settled(values: Sequence[Sequence[float]]) -> bool:
    """Whether the best option so far beats every other by a wide margin
    (:data:`SETTLED` standard errors) or ties it in every sample."""
    n = len(values)
    options = len(values[0])
    totals = [sum(sample[i] for sample in values) for i in range(options)]
    best = max(range(options), key=lambda i: totals[i])
    for other in range(options):
        if other == best:
            continue
        diffs = [sample[best] - sample[other] for sample in values]
        if not any(diffs):
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= SETTLED * math.sqrt(var / n):
            return False
    return True


def _representative(card: int, moves: Sequence[int], live: int) -> int:
    """The move standing for ``card`` among the distinct moves."""
    if card in moves:
        return card
    for move in sorted(moves, reverse=True):
        if move < card and move // 13 == card // 13:
            if not live & ((1 << card) - 1) & ~((2 << move) - 1):
                return move
            break
    return moves[0]


register_level("search", SearchPlayer)
