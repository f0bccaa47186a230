"""Scoring of one hand, a pure function of the rules, bids and tricks taken,
and whether the score ends the game.

Bids are per seat: 1-13, :data:`NIL` or :data:`BLIND_NIL`. A hand is scored
per side (:mod:`bot.game.sides`): team 0 is seats 0 and 2, team 1 seats 1 and
3; under ``teams=solo`` each seat is a side of its own, scored by the same
rules for one player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from bot.game.cards import HAND_SIZE
from bot.game.rules import RuleSet, SetPenalty, Teams, TieRule
from bot.game.types import EndReason, GameResult

NIL: Final = 0
BLIND_NIL: Final = -1
#: The smallest team contract that 10-for-200 scores double.
TEN_FOR_200_CONTRACT: Final = 10


def bid_text(bid: int) -> str:
    if bid == NIL:
        return "nil"
    if bid == BLIND_NIL:
        return "blind_nil"
    return str(bid)


class TeamHandResult(NamedTuple):
    """One side's result of one hand (a named tuple: built per side and hand, cheaply)."""

    contract: int
    tricks: int  # tricks counted against the contract
    made: bool
    #: bid points or set penalty, plus overtrick and failed-Nil bag points,
    #: plus the Boston bonus where the rules pay one
    contract_points: int
    nil_points: int
    new_bags: int  # bags this hand, before the bag penalty
    bag_penalty: int  # points lost to the bag limit this hand (0 or negative)
    points: int  # everything together: the hand's score for the team
    bags_after: int
    nils_made: int
    nils_failed: int
    boston: bool  # the side took all 13 tricks


def score_team(
    rules: RuleSet,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    bags_before: int,
) -> TeamHandResult:
    """Score one side from its seats' bids and tricks (two seats, or one in solo)."""
    contract = 0
    counted = 0
    nil_tricks = 0
    nil_points = 0
    nils_made = nils_failed = 0
    for seat in range(len(bids)):  # (indexed: the engine's compiled loop)
        bid, took = bids[seat], tricks[seat]
        if bid > 0:
            contract += bid
            counted += took
            continue
        # (Without Nil, Mirror's zero bid scores no bonus either way.)
        value = rules.blind_nil_value if bid == BLIND_NIL else rules.nil_value or 0
        if took == 0:
            nil_points += value
            nils_made += 1
        else:
            nil_points -= value
            nils_failed += 1
        if rules.failed_nil_tricks_count_for_partner:
            counted += took
        else:
            nil_tricks += took
    # 10-for-200: a contract of 10 or more is worth 20 a trick bid, made or set.
    big = rules.ten_for_200 and contract >= TEN_FOR_200_CONTRACT
    if counted >= contract:
        over = counted - contract
        contract_points = (20 if big else 10) * contract + over
        made = True
    else:
        over = 0
        if big:
            contract_points = -20 * contract
        elif rules.set_penalty is SetPenalty.PER_TRICK_BID:
            contract_points = -10 * contract
        else:
            contract_points = -10 * (contract - counted)
        made = False
    # A failed Nil's tricks that do not help the contract are bags: a point
    # each, like any trick over the contract.
    new_bags = over + nil_tricks
    contract_points += nil_tricks
    bags = bags_before + new_bags
    bag_penalty = 0
    if bags >= rules.bag_limit and rules.bag_penalty:  # (a penalty of 0: bags cost nothing)
        cycles = bags // rules.bag_limit
        bags -= cycles * rules.bag_limit
        bag_penalty = -cycles * rules.bag_penalty
    boston = sum(tricks) == HAND_SIZE
    if boston and rules.boston is not None:
        contract_points += rules.boston
    return TeamHandResult(
        contract,
        counted,
        made,
        contract_points,
        nil_points,
        new_bags,
        bag_penalty,
        contract_points + nil_points + bag_penalty,
        bags,
        nils_made,
        nils_failed,
        boston,
    )


def score_hand(
    rules: RuleSet,
    bids: list[int],
    tricks_won: list[int],
    bags_before: Sequence[int],
) -> tuple[TeamHandResult, ...]:
    """Score every side of a finished hand (bids and tricks per seat, bags
    per side): both teams, or in solo the four players."""
    if rules.teams is Teams.SOLO:
        return tuple(
            score_team(rules, (bids[s],), (tricks_won[s],), bags_before[s]) for s in range(4)
        )
    return (
        score_team(rules, (bids[0], bids[2]), (tricks_won[0], tricks_won[2]), bags_before[0]),
        score_team(rules, (bids[1], bids[3]), (tricks_won[1], tricks_won[3]), bags_before[1]),
    )


def game_result(rules: RuleSet, scores: Sequence[int]) -> GameResult | None:
    """How the score ends the game after a hand, or None when it goes on: a
    side reached the target or fell to the losing score, and the best side
    wins. Sides level at the top are a draw or another hand, as the rules
    say; in solo always another hand."""
    best = max(scores)
    reached = best >= rules.target
    fell = rules.losing_score is not None and min(scores) <= rules.losing_score
    if not (reached or fell):
        return None
    reason = EndReason.TARGET if reached else EndReason.LOSING_SCORE
    leaders = [side for side, score in enumerate(scores) if score == best]
    if len(leaders) == 1:
        return GameResult(leaders[0], reason)
    if rules.tie is TieRule.DRAW and rules.teams is not Teams.SOLO:
        return GameResult(None, reason)
    return None  # level at the top: another hand
