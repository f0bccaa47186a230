"""Why the game refuses an action: each check raises, or builds, the
refusal (:mod:`bot.game.refusals`) that says so in a short sentence.

The game (:mod:`bot.game.state`) runs these before it changes anything, and
its hot paths only call them once their inline checks have failed: these
functions read the game's public fields and never change them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, Protocol

from bot.game import refusals
from bot.game.cards import (
    CARD_COUNT,
    CLUBS,
    DECK_MASKS,
    SUIT_MASKS,
    TRUMP,
    card_name,
    lowest_card,
    suit_of,
)
from bot.game.durations import format_duration
from bot.game.refusals import N_
from bot.game.rules import Bidding, FirstLead, RevokeRule, RuleSet
from bot.game.scoring import BLIND_NIL, bid_text
from bot.game.sides import side_of, solo
from bot.game.trick import Trick
from bot.game.types import Phase


class Game(Protocol):
    """What the checks read of a game (the game module implements it; naming
    it here keeps this module below the game)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int: ...
    @property
    def looked(self) -> Sequence[bool]: ...
    @property
    def trick(self) -> Sequence[int]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def waiting_since(self) -> float: ...
    def waited_on(self) -> int | None: ...
    def blind_nil_open(self, seat: int) -> bool: ...
    def legal_bids(self, seat: int) -> list[int]: ...


def check_seat(seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < 4:
        raise refusals.NotSeated(N_("you are not seated at this table"))


def check_not_over(game: Game) -> None:
    if game.phase is Phase.GAME_OVER:
        raise refusals.GameIsOver(N_("the game is over"))


def check_bid(game: Game, seat: int, bid: object) -> NoReturn:
    """Raise the reason a bid that is not one of the seat's legal bids is refused."""
    check_seat(seat)
    if game.phase is not Phase.BIDDING:
        check_not_over(game)
        raise refusals.WrongPhase(N_("bidding is over for this hand"))
    if seat != game.to_act:
        raise refusals.NotYourTurn(
            N_("it is not your turn to bid: seat {seat} bids next"), seat=game.to_act
        )
    if bid == BLIND_NIL and type(bid) is int and not game.blind_nil_open(seat):
        raise _blind_nil_refusal(game, seat)
    rules = game.rules
    if rules.bidding is Bidding.OPEN and not rules.min_team_bid and rules.nil_value is not None:
        raise refusals.BidOutOfRange(N_("bid from 1 to 13 tricks, or Nil"))
    offered = ", ".join(bid_text(b) for b in game.legal_bids(seat))
    raise refusals.BidOutOfRange(
        N_("the rules of this table leave you these bids: {bids}"), bids=offered
    )


def _blind_nil_refusal(game: Game, seat: int) -> refusals.BlindNilNotAllowed:
    if not game.rules.blind_nil:
        return refusals.BlindNilNotAllowed(N_("Blind Nil is not played at this table"))
    if game.looked[seat]:
        return refusals.BlindNilNotAllowed(
            N_("Blind Nil must be bid before you look at your cards")
        )
    if solo(game.rules):
        trailing = N_(
            "Blind Nil is allowed only when you trail the leader by {points} points or more"
        )
    else:
        trailing = N_("Blind Nil is allowed only when your team trails by {points} points or more")
    return refusals.BlindNilNotAllowed(trailing, points=game.rules.blind_nil_min_deficit)


def play_refusal(game: Game, seat: int, card: int) -> refusals.IllegalAction:
    """Why ``seat`` may not play ``card`` now (a card it does not hold, or not its turn)."""
    if game.phase is not Phase.PLAYING:
        check_seat(seat)
        check_not_over(game)
        if game.phase is Phase.BIDDING:
            return refusals.WrongPhase(N_("bidding is not over yet"))
        if game.phase is Phase.PASSING:
            return refusals.WrongPhase(N_("play starts once the cards are passed"))
        return refusals.WrongPhase(N_("this hand is over"))
    if game.waited_on() != game.to_act:  # a claim of the rest waits for answers
        check_seat(seat)
        return refusals.RestClaimRefused(N_("play waits for the answers to the claim"))
    if seat != game.to_act:
        check_seat(seat)
        return refusals.NotYourTurn(
            N_("it is not your turn: seat {seat} plays next"), seat=game.to_act
        )
    if (
        not isinstance(card, int)
        or not 0 <= card < CARD_COUNT
        or not DECK_MASKS[game.rules.deck.value] >> card & 1
    ):
        return refusals.MalformedAction(N_("{card} is not a card"), card=repr(card))
    return refusals.CardNotInHand(N_("you do not hold the {card}"), card=card_name(card))


def lead_refusal(game: Game, hand: int, card: int) -> refusals.IllegalAction:
    """Why a held card may not lead the trick: the first-lead rule or unbroken spades."""
    first_lead = game.rules.first_lead
    if not game.tricks and first_lead is FirstLead.LOWEST_CLUB:
        clubs = hand & SUIT_MASKS[CLUBS]
        if clubs:
            lowest = card_name(lowest_card(clubs))
            return refusals.FirstLeadRule(
                N_("the first trick opens with your lowest club {card}"), card=lowest
            )
    if suit_of(card) == TRUMP and not game.tricks and first_lead is FirstLead.NO_SPADE:
        return refusals.FirstLeadRule(N_("the first trick may not open with a spade"))
    return refusals.SpadesNotBroken(N_("spades are not broken: lead another suit"))


def check_challenge(game: Game, seat: int, accused: int) -> None:
    check_seat(seat)
    check_not_over(game)
    if game.rules.revokes is RevokeRule.BLOCKED:
        raise refusals.ChallengeRefused(N_("revokes are blocked at this table: nobody can revoke"))
    if not 0 <= accused < 4:
        raise refusals.ChallengeRefused(N_("you can only challenge a player at this table"))
    if side_of(game.rules, accused) == side_of(game.rules, seat):
        if solo(game.rules):  # (the seat accused itself)
            raise refusals.ChallengeRefused(N_("you can only challenge an opponent"))
        raise refusals.ChallengeRefused(N_("you can only challenge an opponent, not your partner"))
    if game.phase is Phase.BIDDING or not (game.tricks or game.trick):
        raise refusals.ChallengeRefused(
            N_(
                "no card has been played in this hand yet; a revoke can only be "
                "called until the next hand starts"
            )
        )


def check_timeout_claim(game: Game, seat: int, at: float) -> int:
    """The seat whose time ran out, when ``seat`` may claim the win at ``at``."""
    check_seat(seat)
    check_not_over(game)
    waiting = game.waited_on()
    if waiting is None:
        raise refusals.ClaimRefused(N_("the table is not waiting on anyone to bid or play"))
    if side_of(game.rules, seat) == side_of(game.rules, waiting):
        if solo(game.rules):  # (the seat is the one waited on)
            raise refusals.ClaimRefused(N_("only another player can claim the win"))
        raise refusals.ClaimRefused(N_("only the other team can claim the win"))
    waited = at - game.waiting_since
    if waited <= game.rules.turn_limit_s:
        left_s = game.rules.turn_limit_s - waited
        raise refusals.ClaimRefused(
            N_("the turn limit has not passed yet: {left} to go"),
            left=format_duration(left_s),
            left_s=left_s,
        )
    return waiting
