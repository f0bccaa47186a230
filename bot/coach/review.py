"""The review of a finished hand for one seat: its bid against its tricks, its costliest
card, and under a Nil pass the cards it passed (:mod:`bot.coach.pass_review`).

With every card known, each alternative card is played out (the last tricks exactly by
:class:`bot.ai.solver.Solver`, earlier ones by rollouts); the card whose best alternative
gains the seat's side the most is named, with what that would have changed. A side is a
team, or under ``teams=solo`` the player alone: a solo review weighs the player's own
points only, with no partner to help and the three others playing against it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.ai.plan import HandPlan, plan_of
from bot.ai.policy import roll_out
from bot.ai.solver import Solver, moves_at
from bot.coach.pass_review import PassReview, review_pass
from bot.game.playout import Position
from bot.game.record import HandRecord
from bot.game.rules import RuleSet
from bot.game.scoring import score_hand
from bot.game.sides import opponents, partner_of, side_of, sides, solo

#: Tricks (the one in progress included) from which the rest is solved exactly.
EXACT_TRICKS = 5
#: A card costing fewer points is not worth a line (a bag costs about 9).
MIN_COST = 8
#: Values handed to the solver lie in [0, 1]: points are scaled by this span.
POINT_SPAN = 4000.0


class Effect(StrEnum):
    KEEP_PARTNER_NIL = "keep_partner_nil"
    KEEP_OWN_NIL = "keep_own_nil"
    MAKE_CONTRACT = "make_contract"
    BREAK_THEIR_NIL = "break_their_nil"
    SET_THEM = "set_them"
    FEWER_BAGS = "fewer_bags"
    MORE_POINTS = "more_points"


@dataclass(frozen=True, slots=True)
class Mistake:
    trick: int  # 1 to 13
    played: int
    better: int
    effect: Effect
    number: int  # bags saved for FEWER_BAGS, points for MORE_POINTS
    points: int  # what the better card gains the team, in points of the hand


@dataclass(frozen=True, slots=True)
class Review:
    hand: int
    seat: int
    bid: int
    taken: int
    team_bid: int  # the numeric bids of the seat's side (its own alone in solo)
    team_taken: int
    mistake: Mistake | None
    #: The seat's part in a Nil pass, when it passed cards this hand.
    exchange: PassReview | None = None
    solo: bool = False  # each player on its own: there is no team to speak of


def bids_of(record: HandRecord) -> list[int]:
    bids = [0, 0, 0, 0]
    for seat, bid in record.bids:
        bids[seat] = bid
    return bids


def review_hand(rules: RuleSet, record: HandRecord, seat: int) -> Review:
    """The review of ``seat``'s part in the finished hand ``record``; CPU work."""
    bids = bids_of(record)
    team = side_of(rules, seat)
    judge = _Judge(rules, record, team, bids)
    worst: Mistake | None = None
    for trick, position, card in _decisions(rules, record, seat):
        mistake = judge.mistake(trick, position, card, seat)
        if mistake is not None and (worst is None or mistake.points > worst.points):
            worst = mistake
    won = record.tricks_won
    seats = sides(rules)[team]
    return Review(
        hand=record.hand,
        seat=seat,
        bid=bids[seat],
        taken=won[seat],
        team_bid=sum(bids[s] for s in seats if bids[s] > 0),
        team_taken=sum(won[s] for s in seats),
        mistake=worst,
        exchange=review_pass(rules, record, seat),
        solo=solo(rules),
    )


def _decisions(rules: RuleSet, record: HandRecord, seat: int) -> list[tuple[int, Position, int]]:
    """(trick number, position before the card, the card) for each card of ``seat``."""
    if not record.tricks:
        return []
    position = Position.opening(rules, record.held, record.tricks[0].leader)
    found = []
    for number, trick in enumerate(record.tricks, start=1):
        position.leader = trick.leader
        for index, card in enumerate(trick.cards):
            if (trick.leader + index) & 3 == seat:
                found.append((number, position.copy(), card))
            position.play(card)
    return found


def team_points(
    rules: RuleSet, bids: Sequence[int], won: Sequence[int], bags_before: Sequence[int], team: int
) -> int:
    """``team``'s points less the other team's, each bag charged its share of the bag
    penalty; in solo the player's own points alone (``team`` its seat)."""
    results = score_hand(rules, list(bids), list(won), list(bags_before))
    per_bag = rules.bag_penalty / rules.bag_limit
    worth = [r.points - r.bag_penalty - round(r.new_bags * per_bag) for r in results]
    if solo(rules):
        return worth[team]
    return worth[team] - worth[1 - team]


class _Judge:
    """Values positions of one hand for one team, in points of the hand."""

    def __init__(self, rules: RuleSet, record: HandRecord, team: int, bids: list[int]) -> None:
        self.rules = rules
        self.team = team
        self.bids = bids
        self.bags_before = list(record.bags_before)
        self.plan: HandPlan = plan_of(rules, bids, record.bags_before, record.score_before)
        self._points: dict[tuple[int, ...], int] = {}
        self.solver = Solver(self.plan.seats[team], self._scaled)

    def points(self, won: Sequence[int]) -> int:
        key = tuple(won)
        cached = self._points.get(key)
        if cached is None:
            cached = self._points[key] = team_points(
                self.rules, self.bids, won, self.bags_before, self.team
            )
        return cached

    def _scaled(self, won: Sequence[int]) -> float:
        return (self.points(won) + POINT_SPAN / 2) / POINT_SPAN

    def outcome(self, position: Position) -> list[int]:
        """The tricks per seat when ``position`` is played out (exactly near the end)."""
        if position.tricks_left > EXACT_TRICKS:
            return roll_out(position, self.plan)
        return self._principal_line(position.copy())

    def _principal_line(self, position: Position) -> list[int]:
        """Both sides at their best from ``position`` to the end: the tricks taken."""
        while position.tricks_left:
            mover = position.to_act
            moves = moves_at(position)
            values = self.solver.values_of_moves(position, moves)
            pick = max if self.plan.side[mover] == self.team else min
            position.play(moves[values.index(pick(values))])
        return position.tricks_won

    def mistake(self, trick: int, position: Position, card: int, seat: int) -> Mistake | None:
        legal = position.legal_mask()
        if not legal >> card & 1 or not legal & (legal - 1):
            return None  # a revoke (the table's business), or no choice at all
        results = {move: self._after(position, move) for move in moves_at(position)}
        if card not in results:
            results[card] = self._after(position, card)
        played_points = self.points(results[card])
        better = max(results, key=lambda move: (self.points(results[move]), -move))
        gain = self.points(results[better]) - played_points
        if gain < MIN_COST:
            return None
        effect, number = self._effect(results[card], results[better], seat, gain)
        return Mistake(trick, card, better, effect, number, gain)

    def _after(self, position: Position, card: int) -> list[int]:
        child = position.copy()
        child.play(card)
        return self.outcome(child)

    def _effect(
        self, played: Sequence[int], better: Sequence[int], seat: int, gain: int
    ) -> tuple[Effect, int]:
        team, bids = self.team, self.bids
        partner = partner_of(self.rules, seat)
        if partner is not None and bids[partner] <= 0 and played[partner] and not better[partner]:
            return Effect.KEEP_PARTNER_NIL, 0
        if bids[seat] <= 0 and played[seat] and not better[seat]:
            return Effect.KEEP_OWN_NIL, 0
        contract = self.plan.contract[team]
        counted = self.plan.counted
        if contract and counted(team, played) < contract <= counted(team, better):
            return Effect.MAKE_CONTRACT, 0
        if partner is not None:  # in solo only the player's own points count
            for opponent in opponents(self.rules, seat):
                if bids[opponent] <= 0 and not played[opponent] and better[opponent]:
                    return Effect.BREAK_THEIR_NIL, 0
            other = 1 - team
            theirs = self.plan.contract[other]
            if theirs and counted(other, played) >= theirs > counted(other, better):
                return Effect.SET_THEM, 0
        saved = self._bags(played) - self._bags(better)
        if saved > 0:
            return Effect.FEWER_BAGS, saved
        return Effect.MORE_POINTS, gain

    def _bags(self, won: Sequence[int]) -> int:
        return score_hand(self.rules, self.bids, list(won), self.bags_before)[self.team].new_bags
