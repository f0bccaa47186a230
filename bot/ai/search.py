"""The search computer player: sampled deals, rollouts and an exact endgame.

For a card play it deals the unseen cards to the other seats many times over
(:mod:`bot.ai.sampling`: consistent with the voids shown, weighted by the
bids and by what the others' choices of card suggest), plays every distinct
legal card in each deal and the rest of the hand out with the heuristic
policy (:func:`bot.ai.policy.roll_out`) or, for the last few tricks, exactly
(:mod:`bot.ai.solver`), and keeps the card with the best average value of
the hand's end in the game (:mod:`bot.ai.utility`: the chance of winning
after the hand, so sets, bags, the target and the losing score all count).

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
from bot.ai.bidding import (
    choose_bid,
    kept_for_nil,
    nil_danger,
    numeric_bid,
    partner_bid_of,
    team_room,
)
from bot.ai.heuristic import play_card, require_turn
from bot.ai.knowledge import Knowledge, knowledge_of
from bot.ai.passing import choose_pass, exchanged
from bot.ai.plan import plan_of
from bot.ai.policy import roll_out
from bot.ai.sampling import DealSampler, play_clues
from bot.ai.solver import Solver, distinct_moves
from bot.ai.utility import HandValuer
from bot.game.bidding import legal_bids
from bot.game.cards import mask_of, suit_of
from bot.game.playout import Position
from bot.game.rules import Bidding
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView

DEFAULT_TIME_BUDGET = 0.12  # seconds per decision
# The expert level: for tables where people wait out the computer's delay
# anyway, five times the thinking, the choice settled later, and the last
# five tricks solved exactly (about 12 ms a deal in the median, where three
# take 0.4 ms: affordable only with the larger budget).
EXPERT_TIME_BUDGET = 0.6
EXPERT_STABLE_AFTER = 48
EXPERT_EXACT_TRICKS = 5
# No decision takes more than this share of the table's turn limit.
TURN_LIMIT_SHARE = 0.01
EXACT_TRICKS = 3  # solve exactly once this many tricks (or fewer) are left
MIN_SAMPLES = 1
# Fewer samples than this are too few to overrule the heuristic's choice (a
# machine so loaded that the budget allows no more falls back on it).
MIN_TRUSTED = 4
# Every few samples from a first batch on, options far behind the best stop
# being sampled, and sampling stops once the choice is settled.
PRUNE_AFTER = 8
PRUNE_EVERY = 4
PRUNE = 3.0
STABLE_AFTER = 16
SETTLED = 4.0
# How clearly (in standard errors of the paired difference over the samples)
# an option must beat the heuristic's choice to replace it, and by at least
# how much (in chance of winning the game).
EVIDENCE = 1.0
MIN_GAIN = 0.0005
NIL_DANGER_LIMIT = 3.0  # hands more dangerous than this do not consider Nil
AFTER_LOOK_BIDS = (NIL, *range(1, 14))


class SearchPlayer:
    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = DEFAULT_TIME_BUDGET,
        max_samples: int | None = None,
        exact_tricks: int = EXACT_TRICKS,
        stable_after: int = STABLE_AFTER,
        read_plays: bool = True,
    ) -> None:
        self.seed = seed or 0
        self.time_budget = time_budget
        self.max_samples = max_samples
        self.exact_tricks = exact_tricks
        self.stable_after = stable_after  # samples before an early stop
        self.read_plays = read_plays  # sample with the clues of the cards chosen

    # -- the decision loop ------------------------------------------------------

    def decide(self, view: PlayerView) -> Action:
        require_turn(view)
        deadline = time.perf_counter() + self.budget_for(view)
        rng = random.Random(self._seed_for(view))
        if view.phase is Phase.BIDDING:
            if not view.hand:
                return self._before_looking(view, rng, deadline)
            return Action(ActionKind.BID, view.seat, self._bid(view, rng, deadline))
        if view.phase is Phase.PASSING:
            return Action(ActionKind.PASS, view.seat, choose_pass(view))
        return Action(ActionKind.PLAY, view.seat, self._card(view, rng, deadline))

    def budget_for(self, view: PlayerView) -> float:
        """Seconds this decision may take: the player's budget, within the
        share of the turn limit the table's host chose."""
        return min(self.time_budget, TURN_LIMIT_SHARE * view.rules.turn_limit_s)

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

    def _more(self, tally: Tally, deadline: float) -> bool:
        """Whether to draw another sample: until the deadline or the sample
        limit, unless the samples so far already settle the choice."""
        samples = len(tally.samples)
        if samples < MIN_SAMPLES:
            return True
        if self.max_samples is not None and samples >= self.max_samples:
            return False
        if tally.pruning and samples >= PRUNE_AFTER and samples % PRUNE_EVERY == 0:
            tally.prune()
            if samples >= self.stable_after and tally.stable():
                return False
        return time.perf_counter() < deadline

    # -- card play --------------------------------------------------------------

    def _card(self, view: PlayerView, rng: random.Random, deadline: float) -> int:
        legal = view.legal_cards
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        knowledge = knowledge_of(view)
        in_play = knowledge.unseen | mask_of(view.trick)
        moves = distinct_moves(legal, in_play)
        heuristic = play_card(view)
        if len(moves) == 1:
            return heuristic
        preferred = _representative(heuristic, moves, in_play)
        bids = [b if b is not None else 0 for b in view.bids]
        plan = plan_of(view.rules, view.bids, view.bags, view.scores)
        valuer = HandValuer(view.rules, view.team, view.scores, view.bags)

        def value_of(won: Sequence[int]) -> float:
            return valuer.value(bids, won)

        sampler = self.sampler_for(view, knowledge)
        exact = 13 - len(view.tricks) <= self.exact_tricks
        ours = plan.seats[view.team]
        tally = Tally(len(moves), moves.index(preferred))
        while self._more(tally, deadline):
            position = Position.from_view(view, sampler.sample(rng))
            active = [moves[i] for i in tally.active]
            if exact:
                values = Solver(ours, value_of).values_of_moves(position, active)
            else:
                values = []
                for card in active:
                    child = position.copy()
                    child.play(card)
                    values.append(value_of(roll_out(child, plan)))
            tally.add(values)
        return moves[tally.choice()]

    def sampler_for(self, view: PlayerView, knowledge: Knowledge) -> DealSampler:
        """The deals this player imagines behind ``view`` while playing."""
        clues = play_clues(view, knowledge.unseen) if self.read_plays else []
        return DealSampler(knowledge, view.bids, clues, view.dealer)

    # -- bidding ----------------------------------------------------------------

    def _bid(self, view: PlayerView, rng: random.Random, deadline: float) -> int:
        legal = [b for b in view.legal_bids if b != BLIND_NIL]
        heuristic = choose_bid(view.hand, view.rules, view.seat, view.bids, legal)
        guess = numeric_bid(view.hand, view.bids, view.seat, view.rules)
        room = team_room(view.rules, view.bids, view.seat)  # above it the side is set for sure
        options = [b for b in range(max(1, guess - 1), min(room, guess + 1) + 1) if b in legal]
        partner_bid = partner_bid_of(view.rules, view.bids, view.seat)
        partner_nil = partner_bid is not None and partner_bid <= 0
        nil_open = NIL in legal and not partner_nil
        # Under Suicide a side's Nil is certain, the first partner only
        # chooses who takes it: always a question worth sampling.
        suicide = view.rules.bidding is Bidding.SUICIDE
        if nil_open and (
            suicide
            or nil_danger(kept_for_nil(view.hand, view.rules), view.rules.deck) <= NIL_DANGER_LIMIT
        ):
            options.append(NIL)
        if heuristic not in options:
            options.append(heuristic)
        if len(options) == 1:
            return options[0]
        preferred = options.index(heuristic)
        tally = self._bid_tally(view, rng, deadline, lambda hands: options, preferred)
        return options[tally.choice()]

    def study_bids(self, view: PlayerView, bids: Sequence[int] | None = None) -> Tally:
        """Every bid of ``bids`` (by default each legal bid after looking)
        valued over the same sampled deals, none pruned, until the budget or
        the sample limit: what :meth:`decide` weighs, laid out to be read
        (:mod:`bot.ai.bid_study`). The tally's options are in the order of
        ``bids``; the first is its preferred one."""
        require_turn(view)
        if view.phase is not Phase.BIDDING or not view.hand:
            raise ValueError("bids are studied for a seat that has looked at its cards")
        options = list(bids) if bids is not None else [b for b in view.legal_bids if b >= 0]
        rng = random.Random(self._seed_for(view))
        deadline = time.perf_counter() + self.budget_for(view)
        return self._bid_tally(view, rng, deadline, lambda hands: options, 0, pruning=False)

    def _before_looking(self, view: PlayerView, rng: random.Random, deadline: float) -> Action:
        """At a Blind Nil table, before seeing the cards: Blind Nil or look."""
        partner_bid = partner_bid_of(view.rules, view.bids, view.seat)
        if BLIND_NIL not in view.legal_bids or (partner_bid is not None and partner_bid <= 0):
            return Action(ActionKind.LOOK, view.seat)
        rules = view.rules
        seat = view.seat

        def options_for(hands: list[int]) -> list[int]:
            looked_bid = choose_bid(hands[seat], rules, seat, view.bids, AFTER_LOOK_BIDS)
            return [BLIND_NIL, looked_bid]

        # Looking (option 1) is the default: Blind Nil must prove itself.
        tally = self._bid_tally(view, rng, deadline, options_for, 1)
        if tally.choice() == 0:
            return Action(ActionKind.BID, seat, BLIND_NIL)
        return Action(ActionKind.LOOK, seat)

    def _bid_tally(
        self,
        view: PlayerView,
        rng: random.Random,
        deadline: float,
        options_for: Callable[[list[int]], list[int]],
        preferred: int,
        pruning: bool = True,
    ) -> Tally:
        """The values of the bid options (``options_for`` a sampled deal; the
        option at ``preferred`` is the default) over sampled deals, each played
        out after completing the later seats' bids."""
        rules = view.rules
        seat = view.seat
        knowledge = knowledge_of(view)
        sampler = DealSampler(knowledge, view.bids, dealer=view.dealer)
        valuer = HandValuer(rules, view.team, view.scores, view.bags)
        later = [(seat + i) & 3 for i in (1, 2, 3) if view.bids[(seat + i) & 3] is None]
        leader = (view.dealer + 1) & 3
        passes = rules.nil_pass or rules.blind_nil_pass  # the deal is played after them
        tally = Tally(len(options_for([0, 0, 0, 0])), preferred, pruning)
        while self._more(tally, deadline):
            hands = sampler.sample(rng)
            options = options_for(hands)
            values = []
            for i in tally.active:
                bid = options[i]
                bids = list(view.bids)
                bids[seat] = bid
                for other in later:
                    open_bids = legal_bids(
                        rules, hands[other], partner_bid_of(rules, bids, other), False
                    )
                    bids[other] = choose_bid(hands[other], rules, other, bids, open_bids)
                plan = plan_of(rules, bids, view.bags, view.scores)
                dealt = exchanged(rules, bids, hands) if passes else hands
                start = Position.opening(rules, dealt, leader)
                won = roll_out(start, plan)
                values.append(valuer.value([b if b is not None else 0 for b in bids], won))
            tally.add(values)
        return tally


class Tally:
    """The values of a decision's options over the samples drawn so far.

    Options clearly worse than the best (:data:`PRUNE` standard errors of
    the paired difference) stop being evaluated, so the samples go to the
    close contenders; the preferred option (the heuristic's) is kept unless
    the best beats it by :data:`EVIDENCE` standard errors, so that sampling
    noise alone never moves the choice.
    """

    def __init__(self, options: int, preferred: int, pruning: bool = True) -> None:
        self.options = options
        self.preferred = preferred
        self.pruning = pruning  # without it every option sees every sample
        self.active = list(range(options))
        self.samples: list[list[float]] = []  # per sample, the value of each option

    def add(self, active_values: Sequence[float]) -> None:
        """Record one sample: the values of the active options, in order."""
        row = [math.nan] * self.options
        for i, value in zip(self.active, active_values, strict=True):
            row[i] = value
        self.samples.append(row)

    def mean(self, option: int) -> float:
        return sum(row[option] for row in self.samples) / len(self.samples)

    def best(self) -> int:
        return max(self.active, key=self.mean)

    def advantage(self, better: int, worse: int) -> tuple[float, float]:
        """Mean and standard error of ``better``'s value minus ``worse``'s."""
        diffs = [row[better] - row[worse] for row in self.samples]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
        return mean, math.sqrt(var / n)

    def prune(self) -> None:
        best = self.best()
        for option in list(self.active):
            if option in (best, self.preferred):
                continue
            mean, error = self.advantage(best, option)
            if mean > PRUNE * error or error == 0.0:
                self.active.remove(option)  # clearly worse, or never different

    def stable(self) -> bool:
        best = self.best()
        for option in self.active:
            if option == best:
                continue
            mean, error = self.advantage(best, option)
            if error > 0.0 and mean <= SETTLED * error:
                return False
        return True

    def choice(self) -> int:
        """The chosen option: the best, unless it does not clearly beat the
        preferred one."""
        if len(self.samples) < MIN_TRUSTED:
            return self.preferred
        best = self.best()
        if best == self.preferred or self.preferred not in self.active:
            return best
        mean, error = self.advantage(best, self.preferred)
        return best if mean > EVIDENCE * error + MIN_GAIN else self.preferred


def _representative(card: int, moves: Sequence[int], in_play: int) -> int:
    """The move standing for ``card`` among the distinct moves."""
    if card in moves:
        return card
    for move in sorted(moves, reverse=True):
        if move < card and suit_of(move) == suit_of(card):
            if not in_play & ((1 << card) - 1) & ~((2 << move) - 1):
                return move
            break
    return moves[0]


def expert_player(seed: int | None = None, time_budget: float = EXPERT_TIME_BUDGET) -> SearchPlayer:
    """The level above ``search``: the same player, thinking longer and
    solving more of the hand's end exactly."""
    return SearchPlayer(
        seed,
        time_budget=time_budget,
        stable_after=EXPERT_STABLE_AFTER,
        exact_tricks=EXPERT_EXACT_TRICKS,
    )


register_level("search", SearchPlayer)
register_level("expert", expert_player, expert_player)
