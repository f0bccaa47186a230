"""Playing the rest of a hand out fast, with every hand known.

A rollout plays a sampled deal to its last trick with the heuristic card
policy, each seat seeing the real hands of the deal. It only needs the
masks, the trick in progress and the tricks taken, so it copies nothing but
a few lists and runs a few hundred hands a second in pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.plan import HandPlan
from bot.ai.policy import choose_card
from bot.game.cards import NON_SPADE_MASK, SUIT_MASKS

CLUB_MASK = SUIT_MASKS[0]


@dataclass(slots=True)
class Deal:
    """The state of a hand in play, with all four hands known."""

    hands: list[int]
    trick: list[int]
    leader: int
    won: list[int]
    broken: bool  # spades broken
    done: int  # tricks finished
    lowest_club_first: bool  # the first lead must be the lowest club

    def copy(self) -> Deal:
        return Deal(
            list(self.hands),
            list(self.trick),
            self.leader,
            list(self.won),
            self.broken,
            self.done,
            self.lowest_club_first,
        )

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) & 3

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            return follow or hand
        if self.done == 0 and self.lowest_club_first and hand & CLUB_MASK:
            clubs = hand & CLUB_MASK
            return clubs & -clubs
        if self.broken:
            return hand
        return hand & NON_SPADE_MASK or hand

    def play(self, card: int) -> None:
        trick = self.trick
        seat = (self.leader + len(trick)) & 3
        self.hands[seat] &= ~(1 << card)
        trick.append(card)
        if card >= 39:
            self.broken = True
        if len(trick) == 4:
            winner = _winner_of(trick, self.leader)
            self.won[winner] += 1
            self.leader = winner
            self.trick = []
            self.done += 1


def _winner_of(trick: Sequence[int], leader: int) -> int:
    best = trick[0]
    at = 0
    for i in (1, 2, 3):
        card = trick[i]
        if card // 13 == best // 13:
            if card > best:
                best, at = card, i
        elif card >= 39:
            best, at = card, i
    return (leader + at) & 3


def play_out(deal: Deal, plan: HandPlan) -> list[int]:
    """Play ``deal`` (modified in place) to the end of the hand with the
    heuristic policy; returns the tricks each seat took."""
    hands = deal.hands
    won = deal.won
    while deal.done < 13:
        trick = deal.trick
        leader = deal.leader
        seat = (leader + len(trick)) & 3
        card = choose_card(plan, seat, deal.legal(seat), trick, leader, hands, won, 13 - deal.done)
        deal.play(card)
    return won
