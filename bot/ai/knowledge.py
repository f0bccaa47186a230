"""What one seat can infer about the other hands from its view alone.

Everything here is derived from a :class:`~bot.game.view.PlayerView`: the
seat's own cards and the public record of the hand. The inferences are the
ones a careful player makes:

* a seat that did not follow the suit led is out of that suit;
* a seat that led a spade before spades were broken held nothing but spades;
* under the lowest-club first lead, the club led was the leader's lowest, and
  a non-club lead means the leader had no clubs;
* the cards the seat passed its partner in a Nil pass are the partner's.

A human at a table that allows revokes can break the first rule; code that
samples deals from these constraints must cope with them being impossible.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.cards import (
    CLUBS,
    DECK_MASKS,
    HAND_SIZE,
    NON_SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    is_trump,
    suit_of,
)
from bot.game.rules import PRESETS, FirstLead, RuleSet, SpadesLead
from bot.game.view import PlayerView


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    hand: int  # the seat's own unplayed cards
    unseen: int  # cards held by the other seats, as far as this seat can tell
    forbidden: tuple[int, int, int, int]  # per seat: cards it is known not to hold
    counts: tuple[int, int, int, int]  # per seat: cards still in hand
    played_by: tuple[int, int, int, int]  # per seat: cards played this hand
    #: The table's rules: its deck and bidding format tell what the bids say.
    rules: RuleSet = PRESETS["standard"]

    def possible(self) -> tuple[int, int, int, int]:
        """Per seat, the cards it may hold: its own hand for this seat."""
        return tuple(  # type: ignore[return-value]
            self.hand if s == self.seat else self.unseen & ~self.forbidden[s] for s in range(4)
        )


def knowledge_of(view: PlayerView) -> Knowledge:
    forbidden = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    # Where spades may be led at any time, a spade lead says nothing of the
    # leader's other suits.
    broken = view.rules.spades_lead is SpadesLead.ANY
    lowest_club_rule = view.rules.first_lead is FirstLead.LOWEST_CLUB
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for index, (leader, cards) in enumerate(tricks):
        lead = cards[0]
        led = suit_of(lead)
        if led == SPADES and not broken:
            forbidden[leader] |= NON_SPADE_MASK
        if index == 0 and lowest_club_rule:
            if led == CLUBS:
                forbidden[leader] |= SUIT_MASKS[CLUBS] & ((1 << lead) - 1)
            else:
                forbidden[leader] |= SUIT_MASKS[CLUBS]
        for position, card in enumerate(cards):
            seat = (leader + position) & 3
            played_by[seat] |= 1 << card
            if suit_of(card) != led:
                forbidden[seat] |= SUIT_MASKS[led]
            if is_trump(card):
                broken = True
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    hand = view.hand
    # Cards the seat has not seen; when its hand is withheld (before looking
    # at a Blind Nil table) its own cards are unseen too.
    deck = DECK_MASKS[view.rules.deck]
    unseen = deck & ~played & ~hand
    counts = tuple(HAND_SIZE - played_by[s].bit_count() for s in range(4))
    forbidden[view.seat] = deck & ~hand if hand else 0
    # The cards the seat gave in a Nil pass are its partner's until played.
    if view.received:
        kept = view.passed & unseen
        forbidden[view.seat ^ 1] |= kept
        forbidden[view.seat ^ 3] |= kept
    return Knowledge(
        seat=view.seat,
        hand=hand,
        unseen=unseen,
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        counts=(counts[0], counts[1], counts[2], counts[3]),
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        rules=view.rules,
    )
