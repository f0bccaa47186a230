"""The stakes of a hand once the bids are in: contracts, Nils, sets and bags.

A :class:`HandPlan` is built once per decision (or once per simulated hand)
and read by the card-play policy in its hot loop, so it holds plain tuples.
Its stakes are per side (:mod:`bot.game.sides`): the two teams, or under
``teams=solo`` the four players, each with no partner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.rules import RuleSet, SetPenalty
from bot.game.scoring import TEN_FOR_200_CONTRACT
from bot.game.sides import opponents, partner_of, side_of, sides

GAME_AT_STAKE = 10_000  # the set swing of a side whose contract wins the game
# How likely a side holding every trick so far with its contract made is
# reckoned to take the rest (for a Boston at a table that pays one).
BOSTON_CHANCE = 0.5


@dataclass(frozen=True, slots=True)
class HandPlan:
    nil: tuple[bool, bool, bool, bool]  # per seat: bid Nil or Blind Nil
    contract: tuple[int, ...]  # per side: sum of its numeric bids
    nil_tricks_count: bool  # a failed Nil's tricks count toward the partner's bid
    set_swing: tuple[int, ...]  # per side: points that side loses by being set by one trick
    bags_before: tuple[int, ...]
    bag_limit: int
    bag_penalty: tuple[int, ...]  # per side: what reaching the bag limit costs it
    boston: int = 0  # the bonus of a side taking all 13 tricks (0: off)
    #: Per side, its seats; per seat, its side, its partner (-1: none) and
    #: the seats against it.
    seats: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    side: tuple[int, ...] = (0, 1, 0, 1)
    partner: tuple[int, ...] = (2, 3, 0, 1)
    rivals: tuple[tuple[int, ...], ...] = ((1, 3), (0, 2), (1, 3), (0, 2))

    def counted(self, team: int, won: Sequence[int]) -> int:
        """Tricks of side ``team`` that count toward its contract."""
        total = 0
        for seat in self.seats[team]:
            if self.nil_tricks_count or not self.nil[seat]:
                total += won[seat]
        return total

    def need(self, team: int, won: Sequence[int]) -> int:
        """Tricks ``team`` still needs to make its contract (0 when made)."""
        short = self.contract[team] - self.counted(team, won)
        return short if short > 0 else 0

    def bags_so_far(self, team: int, won: Sequence[int]) -> int:
        """Bags ``team`` has taken this hand so far."""
        over = self.counted(team, won) - self.contract[team]
        bags = over if over > 0 else 0
        if not self.nil_tricks_count:
            for seat in self.seats[team]:
                if self.nil[seat]:
                    bags += won[seat]
        return bags

    def bag_cost(self, team: int, won: Sequence[int], extra: int) -> int:
        """Points ``team`` loses by taking ``extra`` more tricks it does not
        need: the bag penalty if they reach the limit, less a point each."""
        bags = self.bags_before[team] + self.bags_so_far(team, won)
        crossings = (bags + extra) // self.bag_limit - bags // self.bag_limit
        return crossings * self.bag_penalty[team] - extra


def plan_of(
    rules: RuleSet,
    bids: Sequence[int | None],
    bags: Sequence[int],
    scores: Sequence[int] | None = None,
) -> HandPlan:
    """The plan of a hand; seats that have not bid yet count as bidding 0 tricks
    (not Nil). With the ``scores``, the stakes follow the game: a side whose
    contract would take it to the target wins the game by making it, so the
    other side must set it at any cost, and a side about to win ignores bags."""
    nil = tuple(b is not None and b <= 0 for b in bids)
    seats = sides(rules)
    side = tuple(side_of(rules, seat) for seat in range(4))
    contract = [0] * len(seats)
    for seat, bid in enumerate(bids):
        if bid is not None and bid > 0:
            contract[side[seat]] += bid
    swing = []
    penalty = [rules.bag_penalty] * len(seats)
    for team in range(len(seats)):
        c = contract[team]
        if rules.ten_for_200 and c >= TEN_FOR_200_CONTRACT:
            swing.append(40 * c)  # 20 a trick bid when made, minus 20 when set
        elif rules.set_penalty is SetPenalty.PER_TRICK_BID:
            swing.append(20 * c)
        else:
            swing.append(10 * c + 10)
        if scores is not None and c:
            made = scores[team] + 10 * c
            if made >= rules.target and all(
                made > scores[other] + 10 * contract[other]
                for other in range(len(seats))
                if other != team
            ):
                swing[team] = GAME_AT_STAKE
                penalty[team] = 0
    return HandPlan(
        nil=(nil[0], nil[1], nil[2], nil[3]),
        contract=tuple(contract),
        nil_tricks_count=rules.failed_nil_tricks_count_for_partner,
        set_swing=tuple(swing),
        bags_before=tuple(bags),
        bag_limit=rules.bag_limit,
        bag_penalty=tuple(penalty),
        boston=rules.boston or 0,
        seats=seats,
        side=side,
        partner=tuple(-1 if (p := partner_of(rules, seat)) is None else p for seat in range(4)),
        rivals=tuple(opponents(rules, seat) for seat in range(4)),
    )


# -- what a side plays for (read by bot.ai.policy) ------------------------------------


def can_chase_nil(need: int, tricks_left: int) -> bool:
    """Whether a side can spend tricks on breaking an opponent's Nil: not
    while its own contract needs more than two thirds of one trick more than
    are left (a contract of 10 needs nearly every trick its side can take,
    one of 9 can spare a few)."""
    return 3 * need <= 2 * (tricks_left + 1) and need < tricks_left


def worth_setting(plan: HandPlan, team: int, won: Sequence[int], tricks_left: int) -> bool:
    """With its contract made, whether ``team`` should keep taking tricks to
    set another side: the set, weighed by a rough chance of getting it
    (the fewer of the tricks left it takes, the likelier), must be worth more
    than the bags it costs, counted at their share of the bag penalty."""
    for other in range(len(plan.contract)):
        if other != team and _worth_setting_side(plan, team, other, won, tricks_left):
            return True
    return False


def _worth_setting_side(
    plan: HandPlan, team: int, other: int, won: Sequence[int], tricks_left: int
) -> bool:
    if plan.contract[other] == 0:
        return False
    other_need = plan.need(other, won)
    if other_need == 0:
        return False
    tricks_to_set = tricks_left - other_need + 1
    if tricks_to_set <= 0:  # already set: more tricks are only bags
        return False
    swing = plan.set_swing[other]
    if swing >= GAME_AT_STAKE:  # their contract wins them the game
        return True
    chance = 1.0 - tricks_to_set / (tricks_left + 1)
    per_bag = plan.bag_penalty[team] / plan.bag_limit - 1
    cost = max(plan.bag_cost(team, won, tricks_to_set), per_bag * tricks_to_set)
    return chance * swing > cost


def worth_boston(plan: HandPlan, seat: int, won: Sequence[int], tricks_left: int) -> bool:
    """With its contract made and every trick so far, whether the side of
    ``seat`` keeps taking tricks for the Boston bonus: worth it while even a
    rough even chance of the bonus outweighs the bags the rest of the tricks
    cost."""
    if not plan.boston or any(won[rival] for rival in plan.rivals[seat]):
        return False
    team = plan.side[seat]
    if any(plan.nil[mine] for mine in plan.seats[team]):
        return False  # a side with a Nil cannot take every trick
    per_bag = plan.bag_penalty[team] / plan.bag_limit - 1
    return BOSTON_CHANCE * plan.boston > max(
        plan.bag_cost(team, won, tricks_left), per_bag * tricks_left
    )
