"""Fast play-outs of the rest of a hand on bitmasks, for computer players' rollouts.

A :class:`Position` is the card play of one hand at some moment: each seat's
unplayed cards, the trick in progress, its leader, whether spades are broken
and the tricks taken so far. :func:`play_out` plays it to the end of the hand,
each card chosen by a :data:`CardPolicy` or uniformly at random among the legal
cards, and returns the tricks taken per seat. Play-outs never revoke: a seat
holding the suit led follows it, as the computer players do.

The rules of play are the engine's (:mod:`bot.game.trick`), and a random
play-out draws its cards exactly as :func:`random_card` does, so with the
same ``rng`` it plays the same cards as a game driven card by card through
the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from bot.game.cards import CARD_COUNT, HAND_SIZE, cards_tuple, suit_of
from bot.game.rules import FirstLead, RuleSet, SpadesBreak, SpadesLead
from bot.game.trick import (
    TAKES_FROM,
    breaks_spades,
    follow_cards,
    lead_mask,
    legal_mask,
    winning_index,
)

if TYPE_CHECKING:
    from bot.game.state import Game
    from bot.game.view import PlayerView

# The three seats after each leader, in play order.
_FOLLOWERS: Final = tuple(((lead + 1) & 3, (lead + 2) & 3, (lead + 3) & 3) for lead in range(4))


@dataclass(slots=True)
class Position:
    """The card play of one hand at one moment (bidding is over)."""

    hands: list[int]  # each seat's unplayed cards (masks)
    trick: list[int] = field(default_factory=list)  # in play order from ``leader``
    leader: int = 0
    spades_broken: bool = False
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: The table's rule for the hand's first lead; it matters only while no
    #: card of the hand has been played.
    first_lead: FirstLead = FirstLead.ANY_BUT_UNBROKEN_SPADE
    #: The table's rule for what breaks spades.
    spades_break: SpadesBreak = SpadesBreak.ANY_SPADE

    @classmethod
    def opening(cls, rules: RuleSet, hands: Sequence[int], leader: int) -> Position:
        """A hand's play before its first card, ``hands`` as play begins."""
        # Spades are broken from the start where they may be led at any time.
        broken = rules.spades_lead is SpadesLead.ANY
        return cls(
            list(hands), [], leader, broken, [0, 0, 0, 0], rules.first_lead, rules.spades_break
        )

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of a game in its play phase (every seat's real cards)."""
        return cls(
            list(game.hands),
            list(game.trick),
            game.leader,
            game.spades_broken,
            list(game.tricks_won),
            game.rules.first_lead,
            game.rules.spades_break,
        )

    @classmethod
    def from_view(cls, view: PlayerView, hands: Sequence[int]) -> Position:
        """The position a seat sees, completed with ``hands`` (per seat; for
        instance the seat's own hand and a guess at the others')."""
        return cls(
            list(hands),
            list(view.trick),
            view.leader,
            view.spades_broken,
            list(view.tricks_won),
            view.rules.first_lead,
            view.rules.spades_break,
        )

    def copy(self) -> Position:
        return Position(
            list(self.hands),
            list(self.trick),
            self.leader,
            self.spades_broken,
            list(self.tricks_won),
            self.first_lead,
            self.spades_break,
        )

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        return HAND_SIZE - sum(self.tricks_won)

    @property
    def first_card(self) -> bool:
        """Whether no card of the hand has been played yet."""
        return not self.trick and not any(self.tricks_won)

    def legal_mask(self) -> int:
        """The cards the seat to act may play (never a revoke)."""
        hand = self.hands[(self.leader + len(self.trick)) & 3]
        lowest_club = self.first_lead is FirstLead.LOWEST_CLUB and self.first_card
        return legal_mask(hand, self.trick, self.spades_broken, lowest_club)

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act. The caller chose it from :meth:`legal_mask`."""
        seat = (self.leader + len(self.trick)) & 3
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if not self.spades_broken:
            self.spades_broken = breaks_spades(card, suit_of(trick[0]), self.spades_break)
        if len(trick) < 4:
            return
        winner = (self.leader + winning_index(trick)) & 3
        self.tricks_won[winner] += 1
        self.leader = winner
        self.trick = []


def random_card(mask: int, rng: random.Random) -> int:
    """A uniformly random card of a non-empty mask (the random computer player's pick)."""
    cards = cards_tuple(mask)
    if not cards:
        raise ValueError("empty mask")
    return cards[int(rng.random() * len(cards))]


#: Chooses the card for ``seat`` from ``legal`` (a non-empty mask) in ``position``.
CardPolicy = Callable[[Position, int, int], int]


def play_out(
    position: Position,
    policy: CardPolicy | None = None,
    rng: random.Random | None = None,
) -> list[int]:
    """Play ``position`` to the end of the hand and return the tricks taken per
    seat (the tricks already won included). ``position`` is left unchanged.

    With a ``policy``, it chooses every card (a card outside the legal mask
    raises ``ValueError``); without one, each card is drawn uniformly from the
    legal cards with ``rng`` (a fresh unseeded generator if none is given).
    """
    if policy is None:
        return random_play_out(
            position.hands,
            position.trick,
            position.leader,
            position.spades_broken,
            position.tricks_won,
            rng or random.Random(),
            position.first_lead,
            position.spades_break,
        )
    work = position.copy()
    while work.tricks_left:
        seat = work.to_act
        legal = work.legal_mask()
        card = policy(work, seat, legal)
        if not 0 <= card < CARD_COUNT or not legal >> card & 1:
            raise ValueError(f"the policy chose card {card}, which seat {seat} may not play")
        work.play(card)
    return work.tricks_won


def random_play_out(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    spades_broken: bool,
    tricks_won: Sequence[int],
    rng: random.Random,
    first_lead: FirstLead = FirstLead.ANY_BUT_UNBROKEN_SPADE,
    spades_break: SpadesBreak = SpadesBreak.ANY_SPADE,
) -> list[int]:
    """:func:`play_out` with random cards, on plain values: the fastest form.

    ``hands`` are the unplayed cards per seat, ``trick`` the cards of the trick
    in progress in play order from ``leader``. Returns the tricks taken per seat.
    """
    rnd = rng.random
    h = list(hands)
    won = list(tricks_won)
    broken = spades_broken
    if trick or (first_lead is FirstLead.LOWEST_CLUB and not any(won)):
        # Finish the trick in progress (or play a first trick that opens with
        # the lowest club) one card at a time; whole tricks follow below.
        work = Position(h, list(trick), leader, broken, won, first_lead, spades_break)
        while True:
            cards = cards_tuple(work.legal_mask())
            work.play(cards[int(rnd() * len(cards))])
            if not work.trick:
                break
        leader, broken = work.leader, work.spades_broken
    takes_from = TAKES_FROM
    followers = _FOLLOWERS
    for _ in range(h[leader].bit_count()):
        # Whole tricks, on plain values: the rules of Position.legal_mask and
        # Position.play, without a trick list.
        hand = h[leader]
        cards = cards_tuple(lead_mask(hand, broken, False))
        best = cards[int(rnd() * len(cards))]
        h[leader] = hand ^ (1 << best)
        led = suit_of(best)
        winner = leader
        takes = takes_from[best]
        for seat in followers[leader]:
            hand = h[seat]
            cards = follow_cards(hand, led)
            card = cards[int(rnd() * len(cards))]
            if takes[card]:
                best, winner, takes = card, seat, takes_from[card]
            h[seat] = hand ^ (1 << card)
        # The winning card is a trump exactly when one was played.
        if not broken:
            broken = breaks_spades(best, led, spades_break)
        won[winner] += 1
        leader = winner
    return won
