"""Exact play of the last tricks of a deal with all hands known.

Alpha-beta over the value of the hand's end (a chance of winning the game,
so sets, bags and Nils all count), with a table of the positions met at the
start of each trick and only one card of each run of touching cards tried.
Fast enough for the last three or four tricks in pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.playout import Position

Valuer = Callable[[Sequence[int]], float]

EXACT = 0
LOWER = 1  # the stored value is a lower bound
UPPER = 2  # the stored value is an upper bound


def distinct_moves(legal: int, live: int) -> list[int]:
    """One card of each group of equivalent cards of ``legal``: cards of a
    suit with no ``live`` card (held by another seat or on the table) between
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
            and previous // 13 == card // 13
            and not live & ((1 << card) - 1) & ~((2 << previous) - 1)
        ):
            previous = card
            continue
        moves.append(card)
        previous = card
    return moves


class Solver:
    """Solves deals for one side (``team``), valuing ends with ``valuer``."""

    def __init__(self, team: int, valuer: Valuer) -> None:
        self.team = team
        self.valuer = valuer
        self.table: dict[tuple[int, ...], tuple[int, float]] = {}
        self.nodes = 0

    def values_of_moves(self, position: Position, moves: Sequence[int]) -> list[float]:
        """The exact value of playing each of ``moves`` now."""
        values = []
        for card in moves:
            child = position.copy()
            child.play(card)
            values.append(self._search(child, 0.0, 1.0))
        return values

    def value(self, position: Position) -> float:
        return self._search(position.copy(), 0.0, 1.0)

    def _search(self, position: Position, alpha: float, beta: float) -> float:
        self.nodes += 1
        if not position.tricks_left:
            return self.valuer(position.tricks_won)
        key: tuple[int, ...] | None = None
        if not position.trick:
            key = (*position.hands, position.leader, *position.tricks_won, position.spades_broken)
            stored = self.table.get(key)
            if stored is not None:
                kind, stored_value = stored
                if kind == EXACT:
                    return stored_value
                if kind == LOWER and stored_value >= beta:
                    return stored_value
                if kind == UPPER and stored_value <= alpha:
                    return stored_value
        seat = position.to_act
        hands = position.hands
        live = 0
        for other in range(4):
            if other != seat:
                live |= hands[other]
        for card in position.trick:
            live |= 1 << card
        moves = distinct_moves(position.legal_mask(), live)
        maximizing = (seat & 1) == self.team
        alpha0, beta0 = alpha, beta
        best = -1.0 if maximizing else 2.0
        for card in reversed(moves):
            child = position.copy()
            child.play(card)
            score = self._search(child, alpha, beta)
            if maximizing:
                if score > best:
                    best = score
                if best > alpha:
                    alpha = best
            else:
                if score < best:
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
