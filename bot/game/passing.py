"""The Nil pass (house rules ``nil_pass`` and ``blind_nil_pass``).

After the bidding, a seat that bid Nil and its partner each choose the
table's number of cards from their own hand (``nil_pass`` for a Nil,
``blind_nil_pass`` for a Blind Nil), at the same time and face down. The
cards change hands once both partners have chosen; play starts once every
exchange of the hand is made. A side whose partners both bid Nil (of either
kind) exchanges nothing.

A choice is one action, :data:`ActionKind.PASS`, whose value is the mask of
the cards; the exchange is one immutable value of the game, ``Game.exchange``,
replaced by each choice (:func:`apply`). While seats choose, the game waits
on the first of them (``to_act``), so a driver that asks the seat to act
asks each in turn; the wait (``waiting_since``) is the whole pass's, from
the last bid until the last choice. What one seat chose is in nobody's view
but its own until the exchange is made, and then in its partner's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

from bot.game import checks, refusals
from bot.game.refusals import N_
from bot.game.rules import RuleSet
from bot.game.scoring import BLIND_NIL
from bot.game.types import ActionKind, LogEntry, Phase

Seats = tuple[int, int, int, int]
#: One exchange made: the seat, the seat it gave its cards to, their mask.
Given = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Exchange:
    """The passes of one hand."""

    #: Per seat, how many cards it passes (0: it is in no exchange).
    counts: Seats = (0, 0, 0, 0)
    #: Per seat, the cards it chose (0: not chosen yet).
    chosen: Seats = (0, 0, 0, 0)
    #: The cards that changed hands, in the order given.
    given: tuple[Given, ...] = ()

    def choosing(self) -> tuple[int, ...]:
        """The seats still to choose (public: never which cards)."""
        return tuple(s for s in range(4) if self.counts[s] and not self.chosen[s])

    def gave(self, seat: int) -> int:
        """The cards ``seat`` passed to its partner (0: none yet)."""
        return next((cards for giver, _, cards in self.given if giver == seat), 0)

    def received(self, seat: int) -> int:
        """The cards ``seat`` received from its partner (0: none yet)."""
        return next((cards for _, to, cards in self.given if to == seat), 0)


NO_EXCHANGE: Final = Exchange()


def counts_for(rules: RuleSet, bids: list[int | None]) -> Seats:
    """Per seat, the cards it passes after the bids ``bids``: a side with
    exactly one Nil passes the rule's number of that kind of Nil each way."""
    counts = [0, 0, 0, 0]
    for seat in range(4):
        partner = seat ^ 2
        bid, partner_bid = bids[seat], bids[partner]
        if bid is None or partner_bid is None or bid > 0 or partner_bid <= 0:
            continue
        size = rules.blind_nil_pass if bid == BLIND_NIL else rules.nil_pass
        if size:
            counts[seat] = counts[partner] = size
    return counts[0], counts[1], counts[2], counts[3]


class Game(Protocol):
    """What a pass reads and changes of a game (the game module implements
    it; naming it here keeps this module below the game)."""

    rules: RuleSet
    phase: Phase
    hands: list[int]
    bids: list[int | None]
    exchange: Exchange
    to_act: int
    waiting_since: float
    _log: list[LogEntry]

    def _start_play(self) -> None: ...


def begin(game: Game) -> bool:
    """After the last bid: the hand's exchanges begin (the phase is then
    PASSING and True is returned), or there are none."""
    counts = counts_for(game.rules, game.bids)
    if not any(counts):
        return False
    game.exchange = Exchange(counts)
    game.phase = Phase.PASSING
    game.to_act = game.exchange.choosing()[0]
    return True


def apply(game: Game, seat: int, cards: object, at: float = 0.0) -> None:
    """``seat`` passes ``cards`` (a mask), checked first like every action
    of the game (nothing changes when refused)."""
    mask = check_pass(game, seat, cards)
    exchange = game.exchange
    chosen = list(exchange.chosen)
    chosen[seat] = mask
    given = exchange.given
    partner = seat ^ 2
    if chosen[partner]:  # both have chosen: the cards change hands
        hands = game.hands
        theirs = chosen[partner]
        hands[seat] = hands[seat] ^ mask | theirs
        hands[partner] = hands[partner] ^ theirs | mask
        first, second = sorted((seat, partner))
        given += ((first, second, chosen[first]), (second, first, chosen[second]))
    game.exchange = Exchange(exchange.counts, (chosen[0], chosen[1], chosen[2], chosen[3]), given)
    game._log.append((ActionKind.PASS, seat, mask, at))
    choosing = game.exchange.choosing()
    if choosing:
        # Everyone chooses at once, within one limit counted from the start
        # of the pass: a partner's choice restarts nobody's wait.
        game.to_act = choosing[0]
    else:
        game.waiting_since = at
        game._start_play()


def check_pass(game: Game, seat: int, cards: object) -> int:
    """The mask of the cards ``seat`` may pass, or the refusal that says why not."""
    checks.check_seat(seat)
    if game.phase is Phase.GAME_OVER:
        raise refusals.GameIsOver(N_("the game is over"))
    if game.phase is not Phase.PASSING:
        raise refusals.WrongPhase(N_("no cards are passed now"))
    exchange = game.exchange
    count = exchange.counts[seat]
    if not count:
        raise refusals.NotYourPass(N_("you pass no cards in this hand"))
    if exchange.chosen[seat]:
        raise refusals.AlreadyPassed(N_("you have already passed your cards"))
    if type(cards) is not int or cards <= 0:
        raise refusals.WrongPassCount(N_("pass exactly {n} cards"), n=count)
    if cards & ~game.hands[seat]:
        raise refusals.CardNotInHand(N_("you can only pass cards from your hand"))
    if cards.bit_count() != count:
        raise refusals.WrongPassCount(N_("pass exactly {n} cards"), n=count)
    return cards
