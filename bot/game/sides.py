"""Who plays with whom: the sides of a game under its ``teams`` rule.

A side is what scores: a partnership (seats 0 and 2 against 1 and 3), or
under ``teams=solo`` one player. Scores, bags and a hand's results are per
side, in side order; a game's winner is a side (a team, or a seat in solo).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.game.rules import RuleSet, Teams

PARTNER_SIDES: Final = ((0, 2), (1, 3))
SOLO_SIDES: Final = ((0,), (1,), (2,), (3,))


def solo(rules: RuleSet) -> bool:
    return rules.teams is Teams.SOLO


def sides(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """The seats of each side, in side order."""
    return SOLO_SIDES if rules.teams is Teams.SOLO else PARTNER_SIDES


def side_of(rules: RuleSet, seat: int) -> int:
    return seat if rules.teams is Teams.SOLO else seat & 1


def partner_of(rules: RuleSet, seat: int) -> int | None:
    """The seat's partner; None in solo."""
    return None if rules.teams is Teams.SOLO else (seat + 2) & 3


def opponents(rules: RuleSet, seat: int) -> tuple[int, ...]:
    """The seats on other sides, clockwise from the seat's left."""
    if rules.teams is Teams.SOLO:
        return (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
    return (seat + 1) & 3, (seat + 3) & 3


def deficit(scores: Sequence[int], side: int) -> int:
    """How far ``side`` trails the best of the other sides (negative: it leads)."""
    return max(s for other, s in enumerate(scores) if other != side) - scores[side]


def winner_without(rules: RuleSet, scores: Sequence[int], seat: int) -> int:
    """The side that wins when ``seat`` loses the game outright (a revoke,
    a false revoke claim, resignation, running out of time): the other
    team; in solo the best-placed other player (on equal scores the first
    to the seat's left)."""
    if rules.teams is not Teams.SOLO:
        return 1 - (seat & 1)
    return max(opponents(rules, seat), key=lambda other: scores[other])


def places(scores: Sequence[int], winner: int | None, last: int | None = None) -> tuple[int, ...]:
    """Each side's place, 1 the first: ``winner`` first, ``last`` (who lost
    the game outright: a revoke, resignation, ...) last, the others by
    score; equal scores share a place (1, 2, 2, 4). Without a winner (a
    game a moderator ended) all by score."""

    def rank(side: int) -> tuple[int, int]:
        group = 0 if side == winner else 2 if side == last else 1
        return group, -scores[side]

    keys = [rank(side) for side in range(len(scores))]
    return tuple(1 + sum(other < key for other in keys) for key in keys)
