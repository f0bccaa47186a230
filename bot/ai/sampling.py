"""Dealing the unseen cards to the other seats, consistently with the view.

A sampled deal gives every other seat as many cards as it still holds, never
a card it is known not to hold (:class:`~bot.ai.knowledge.Knowledge`), and
is weighted by the bids: a seat that bid 5 more likely holds a hand worth
about 5 tricks, a Nil bidder a hand of low cards (a bid the format forced,
such as Suicide's Nil behind a partner's number, says nothing of the hand,
and its least number bid says only that the hand is worth no more); and by
the clues of the cards chosen. The weighting is done by rejection: a deal is
kept with a probability that falls as its hands stray from their bids.

The clues (:func:`play_clues`) are soft where the knowledge keeps to
certainties: a seat that needed tricks and was last to play on an
opponent's winning card would have taken the trick if it could. So:

* a **duck**: it followed under the opponent's card, so it most likely held
  no higher card of the suit;
* a **discard**: out of the suit, it threw a side card rather than trump, so
  it most likely held no spade that wins (it is short of trumps).

Each clue names the cards whose holding makes the choice unlikely; a deal
that gives the seat any of them is weighed down by :attr:`Clue.weight`.
Seats playing for a Nil, or whose side has made its contract, duck on
purpose and give no clue.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.bidding import SUICIDE_NIL_SCORE, estimate_tricks, nil_danger, suicide_nil_score
from bot.ai.knowledge import Knowledge
from bot.ai.plan import plan_of
from bot.game.bidding import SUICIDE_MIN_BID, spade_count
from bot.game.cards import ABOVE, SPADE_MASK, TRUMP, cards_of, suit_of
from bot.game.rules import PRESETS, Bidding, RuleSet
from bot.game.scoring import BLIND_NIL
from bot.game.trick import BEATERS, winning
from bot.game.view import PlayerView

BID_SPREAD = 1.6  # how far (in tricks) a hand's worth may stray from its bid
NIL_STRICTNESS = 1.2
#: The formats where a number bid is the bidder's count of spades.
COUNTED_FORMATS = (Bidding.MIRROR, Bidding.WHIZ)
#: The weight of a deal that gives a seat other than the spades its bid
#: counted (kept above 0: the best of the attempts is taken when none fits).
MISCOUNT_WEIGHT = 1e-6
ATTEMPTS_PER_SAMPLE = 12
DUCK_WEIGHT = 0.15  # how likely a trick-hungry seat is to duck with a winner
DISCARD_WEIGHT = 0.15  # ... or to discard rather than trump with a winning spade


def deal_unseen(
    rng: random.Random,
    unseen: int,
    seats: Sequence[int],
    counts: Sequence[int],
    allowed: Sequence[int],
    tries: int = 20,
) -> list[int] | None:
    """Deal the cards of ``unseen`` to ``seats`` (``counts[s]`` cards each,
    only cards in ``allowed[s]``); None when no deal was found."""
    cards = cards_of(unseen)
    for _ in range(tries):
        rng.shuffle(cards)
        # The most constrained cards first, so a seat's few possible cards go
        # to it before other cards fill it up.
        order = sorted(cards, key=lambda c: sum(1 for s in seats if allowed[s] >> c & 1))
        room = {s: counts[s] for s in seats}
        hands = [0, 0, 0, 0]
        for card in order:
            options = [s for s in seats if room[s] and allowed[s] >> card & 1]
            if not options:
                break
            total = sum(room[s] for s in options)
            pick = rng.random() * total
            for seat in options:
                pick -= room[seat]
                if pick < 0:
                    break
            hands[seat] |= 1 << card
            room[seat] -= 1
        else:
            return hands
    return None


def bid_likelihood(
    hand: int, bid: int | None, rules: RuleSet = PRESETS["standard"], first: bool = True
) -> float:
    """How well a whole hand of 13 cards fits the bid made with it [0-1]:
    under Mirror and Whiz a number is the hand's spades (a Mirror Nil: none).
    Under Suicide ``first`` tells whether the seat bid before its partner:
    the second partner's Nil behind a number was its only bid."""
    if bid is None or bid == BLIND_NIL:
        return 1.0
    if rules.bidding in COUNTED_FORMATS and (bid > 0 or rules.bidding is Bidding.MIRROR):
        return 1.0 if spade_count(hand) == max(bid, 0) else MISCOUNT_WEIGHT
    suicide = rules.bidding is Bidding.SUICIDE
    if bid <= 0:
        if not suicide:
            return math.exp(-NIL_STRICTNESS * nil_danger(hand, rules.deck))
        if not first:
            return 1.0
        # The first partner took the Nil: its hand scores below the threshold.
        over = suicide_nil_score(hand, rules.deck) - SUICIDE_NIL_SCORE
        return math.exp(-NIL_STRICTNESS * over) if over > 0 else 1.0
    gap = estimate_tricks(hand, rules.deck) - bid
    if suicide and bid <= max(SUICIDE_MIN_BID, rules.min_team_bid):
        gap = max(gap, 0.0)  # a weaker hand bids the format's least number too
    return math.exp(-gap * gap / (2 * BID_SPREAD * BID_SPREAD))


def first_of_team(dealer: int, seat: int) -> bool:
    """Whether ``seat`` bids before its partner in a hand ``dealer`` deals."""
    return (seat - dealer - 1) & 3 < 2


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


class DealSampler:
    """Samples the other seats' hands for one decision."""

    def __init__(
        self,
        knowledge: Knowledge,
        bids: Sequence[int | None],
        clues: Sequence[Clue] = (),
        dealer: int | None = None,
    ) -> None:
        self.knowledge = knowledge
        self.bids = list(bids)
        self.clues = list(clues)  # the other seats' choices of card (play_clues)
        seat = knowledge.seat
        # When the seat's own cards are withheld (Blind Nil), they are dealt too.
        hidden_own = not knowledge.hand
        self.seats = [s for s in range(4) if s != seat or hidden_own]
        self.allowed = [knowledge.unseen & ~knowledge.forbidden[s] for s in range(4)]
        self.relaxed = [knowledge.unseen] * 4
        self.weighted = [s for s in self.seats if bids[s] is not None]
        # Without the dealer every bid is read as the seat's own choice.
        self.first = [dealer is None or first_of_team(dealer, s) for s in range(4)]

    def sample(self, rng: random.Random) -> list[int]:
        """Four hands: the seat's own and a dealing of the rest."""
        k = self.knowledge
        best: list[int] | None = None
        best_weight = -1.0
        for _ in range(ATTEMPTS_PER_SAMPLE):
            hands = deal_unseen(rng, k.unseen, self.seats, k.counts, self.allowed)
            if hands is None:
                # The inferred voids cannot all hold (a revoke at a table that
                # allows them): forget them.
                self.allowed = self.relaxed
                hands = deal_unseen(rng, k.unseen, self.seats, k.counts, self.allowed)
                if hands is None:  # pragma: no cover - the counts always fit
                    raise RuntimeError("no deal fits the unseen cards")
            if k.hand:
                hands[k.seat] = k.hand
            weight = 1.0
            for s in self.weighted:
                weight *= bid_likelihood(
                    hands[s] | k.played_by[s], self.bids[s], k.rules, self.first[s]
                )
            for clue in self.clues:
                if hands[clue.seat] & clue.cards:
                    weight *= clue.weight
            if rng.random() < weight:
                return hands
            if weight > best_weight:
                best, best_weight = hands, weight
        assert best is not None
        return best
