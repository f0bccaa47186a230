"""Reading the other seats' choices of card: soft clues for the deal sampler.

:mod:`bot.ai.knowledge` keeps to certainties (a seat that did not follow is
out of the suit). A choice of card says more, though not for sure: a seat
that needed tricks and was last to play on an opponent's winning card would
have taken the trick if it could. So:

* a **duck**: it followed under the opponent's card, so it most likely held
  no higher card of the suit;
* a **discard**: out of the suit, it threw a side card rather than trump, so
  it most likely held no spade that wins (it is short of trumps).

Each clue names the cards whose holding makes the choice unlikely; the
sampler weighs a deal down by :attr:`Clue.weight` when it gives the seat any
of them. Seats playing for a Nil, or whose side has made its contract, duck
on purpose and give no clue.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.plan import plan_of
from bot.game.cards import ABOVE, SPADE_MASK, TRUMP, suit_of
from bot.game.trick import BEATERS, winning
from bot.game.view import PlayerView

DUCK_WEIGHT = 0.15  # how likely a trick-hungry seat is to duck with a winner
DISCARD_WEIGHT = 0.15  # ... or to discard rather than trump with a winning spade


@dataclass(frozen=True, slots=True)
class Clue:
    seat: int
    cards: int  # unseen cards the seat would have won the trick with
    weight: float  # the deal's weight when the seat holds any of them


def play_clues(view: PlayerView, unseen: int) -> list[Clue]:
    """The clues of this hand's finished tricks, about cards still ``unseen``."""
    plan = plan_of(view.rules, view.bids, view.bags, view.scores)
    won = [0, 0, 0, 0]
    found: list[tuple[int, int, int, float]] = []  # trick index, seat, cards, weight
    for index, trick in enumerate(view.tricks):
        cards = trick.cards
        seat = (trick.leader + 3) & 3  # the last to play
        best, best_seat = winning(cards[:3], trick.leader)
        last = cards[3]
        hungry = not (plan.nil[seat] and won[seat] == 0) and plan.need(plan.side[seat], won) > 0
        if hungry and best_seat in plan.rivals[seat] and not BEATERS[best] >> last & 1:
            led = suit_of(cards[0])
            if suit_of(last) == led and suit_of(best) == led:
                found.append((index, seat, ABOVE[best], DUCK_WEIGHT))
            elif suit_of(last) != led and suit_of(last) != TRUMP:
                found.append((index, seat, BEATERS[best] & SPADE_MASK, DISCARD_WEIGHT))
        won[trick.winner] += 1
    clues = []
    for index, seat, cards_mask, weight in found:
        # A winning card the seat played later shows it held one anyway: the
        # choice was made with it, so it tells nothing about the rest.
        later = 0
        for trick in view.tricks[index + 1 :]:
            later |= 1 << trick.cards[(seat - trick.leader) & 3]
        if view.trick and (seat - view.leader) & 3 < len(view.trick):
            later |= 1 << view.trick[(seat - view.leader) & 3]
        if not later & cards_mask and cards_mask & unseen:
            clues.append(Clue(seat, cards_mask & unseen, weight))
    return clues
