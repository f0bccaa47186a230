"""Exact play of the last tricks of a deal with all hands known.

Alpha-beta over the value of the hand's end (a chance of winning the game,
so sets, bags and Nils all count), with a table of the positions met at the
start of each trick and only one card of each run of touching cards tried.
It works in place on the hands and the trick, undoing each card after trying
it: fast enough for the last three tricks in pure Python.

Positions are taken after the hand's first card, so the first-lead rules of
the table never apply here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.cards import is_trump, mask_of, suit_of
from bot.game.playout import Position
from bot.game.trick import legal_mask, winning

Valuer = Callable[[Sequence[int]], float]

EXACT = 0
LOWER = 1  # the stored value is a lower bound
UPPER = 2  # the stored value is an upper bound


def distinct_moves(legal: int, in_play: int) -> list[int]:
    """One card of each group of equivalent cards of ``legal``: cards of a
    suit with no ``in_play`` card (held by another seat or on the table) between
    them win and lose exactly the same tricks."""
    moves: list[int] = []
    previous = -2
    mask = legal
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        if (
            previous >= 0
            and suit_of(previous) == suit_of(card)
            and not in_play & ((1 << card) - 1) & ~((2 << previous) - 1)
        ):
            previous = card
            continue
        moves.append(card)
        previous = card
    return moves


def others_held(hands: Sequence[int], seat: int) -> int:
    """The cards the other seats hold (the hands never share a card)."""
    return (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]


def moves_at(position: Position) -> list[int]:
    """:func:`distinct_moves` of the seat to act, every hand known."""
    in_play = others_held(position.hands, position.to_act) | mask_of(position.trick)
    return distinct_moves(position.legal_mask(), in_play)


class Solver:
    """Solves deals for one side (its seats ``ours``; every other seat plays
    against it), valuing ends with ``valuer``."""

    def __init__(self, ours: Sequence[int], valuer: Valuer) -> None:
        self.ours = tuple(seat in ours for seat in range(4))
        self.valuer = valuer
        self.table: dict[tuple[int, ...], tuple[int, float]] = {}
        self.nodes = 0

    def values_of_moves(self, position: Position, moves: Sequence[int]) -> list[float]:
        """The exact value of playing each of ``moves`` now."""
        values = []
        for card in moves:
            child = position.copy()
            child.play(card)
            values.append(self.value(child))
        return values

    def value(self, position: Position) -> float:
        return self._search(
            list(position.hands),
            list(position.trick),
            position.leader,
            list(position.tricks_won),
            position.spades_broken,
            0.0,
            1.0,
        )

    def _search(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        won: list[int],
        broken: bool,
        alpha: float,
        beta: float,
    ) -> float:
        self.nodes += 1
        played = len(trick)
        key: tuple[int, ...] | None = None
        if not played:
            if not hands[leader]:
                return self.valuer(won)
            key = (*hands, leader, *won, broken)
            stored = self.table.get(key)
            if stored is not None:
                kind, stored_value = stored
                if (
                    kind == EXACT
                    or (kind == LOWER and stored_value >= beta)
                    or (kind == UPPER and stored_value <= alpha)
                ):
                    return stored_value
        seat = (leader + played) & 3
        hand = hands[seat]
        legal = legal_mask(hand, trick, broken, False)
        in_play = others_held(hands, seat)
        for card in trick:
            in_play |= 1 << card
        maximizing = self.ours[seat]
        alpha0, beta0 = alpha, beta
        best = -1.0 if maximizing else 2.0
        moves = distinct_moves(legal, in_play)
        for card in reversed(moves):
            bit = 1 << card
            hands[seat] = hand ^ bit
            trick.append(card)
            if played == 3:
                top, winner = winning(trick, leader)
                won[winner] += 1
                # A trump that wins breaks spades (the solver does not tell
                # the tables where only an off-suit spade does).
                score = self._search(hands, [], winner, won, broken or is_trump(top), alpha, beta)
                won[winner] -= 1
            else:
                score = self._search(hands, trick, leader, won, broken, alpha, beta)
            trick.pop()
            hands[seat] = hand
            if maximizing:
                if score > best:
                    best = score
                    if best > alpha:
                        alpha = best
            elif score < best:
                best = score
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if key is not None:
            if best <= alpha0:
                self.table[key] = (UPPER, best)
            elif best >= beta0:
                self.table[key] = (LOWER, best)
            else:
                self.table[key] = (EXACT, best)
        return best
