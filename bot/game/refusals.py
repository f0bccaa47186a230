"""Why the game refuses an action: each check raises, or builds, the
:class:`~bot.game.errors.IllegalAction` that says so in a short sentence.

The game (:mod:`bot.game.state`) runs these before it changes anything, and
its hot paths only call them once their inline checks have failed: these
functions read the game's public fields and never change them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.game import errors
from bot.game.cards import SPADES, SUIT_MASKS, card_name, lowest_card
from bot.game.durations import format_duration
from bot.game.rules import FirstLead, RevokeRule, RuleSet
from bot.game.scoring import BLIND_NIL
from bot.game.types import Phase, Trick, team_of


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


def check_seat(seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < 4:
        raise errors.NotSeated("you are not seated at this table")


def check_not_over(game: Game) -> None:
    if game.phase is Phase.GAME_OVER:
        raise errors.GameIsOver("the game is over")


def check_bid(game: Game, seat: int, bid: object) -> None:
    """Raise the reason a bid is refused; return if it is a valid Blind Nil."""
    check_seat(seat)
    if game.phase is not Phase.BIDDING:
        check_not_over(game)
        raise errors.WrongPhase("bidding is over for this hand")
    if seat != game.to_act:
        raise errors.NotYourTurn(f"it is not your turn to bid: seat {game.to_act} bids next")
    if bid == BLIND_NIL and type(bid) is int:
        if not game.blind_nil_open(seat):
            raise errors.BlindNilNotAllowed(_blind_nil_refusal(game, seat))
        return
    raise errors.BidOutOfRange("bid from 1 to 13 tricks, or Nil")


def _blind_nil_refusal(game: Game, seat: int) -> str:
    if not game.rules.blind_nil:
        return "Blind Nil is not played at this table"
    if game.looked[seat]:
        return "Blind Nil must be bid before you look at your cards"
    return (
        f"Blind Nil is allowed only when your team trails by "
        f"{game.rules.blind_nil_min_deficit} points or more"
    )


def play_refusal(game: Game, seat: int, card: int) -> errors.IllegalAction:
    """Why ``seat`` may not play ``card`` now (a card it does not hold, or not its turn)."""
    if game.phase is not Phase.PLAYING:
        check_seat(seat)
        check_not_over(game)
        return errors.WrongPhase(
            "bidding is not over yet" if game.phase is Phase.BIDDING else "this hand is over"
        )
    if seat != game.to_act:
        check_seat(seat)
        return errors.NotYourTurn(f"it is not your turn: seat {game.to_act} plays next")
    if not isinstance(card, int) or not 0 <= card < 52:
        return errors.MalformedAction(f"{card!r} is not a card")
    return errors.CardNotInHand(f"you do not hold the {card_name(card)}")


def lead_refusal(game: Game, hand: int, card: int) -> errors.IllegalAction:
    """Why a held card may not lead the trick: the first-lead rule or unbroken spades."""
    first_lead = game.rules.first_lead
    if not game.tricks and first_lead is FirstLead.LOWEST_CLUB:
        clubs = hand & SUIT_MASKS[0]
        if clubs:
            lowest = card_name(lowest_card(clubs))
            return errors.FirstLeadRule(f"the first trick opens with your lowest club {lowest}")
    if card // 13 == SPADES and not game.tricks and first_lead is FirstLead.NO_SPADE:
        return errors.FirstLeadRule("the first trick may not open with a spade")
    return errors.SpadesNotBroken("spades are not broken: lead another suit")


def check_challenge(game: Game, seat: int, accused: int) -> None:
    check_seat(seat)
    check_not_over(game)
    if game.rules.revokes is RevokeRule.BLOCKED:
        raise errors.ChallengeRefused("revokes are blocked at this table: nobody can revoke")
    if not 0 <= accused < 4:
        raise errors.ChallengeRefused("you can only challenge a player at this table")
    if team_of(accused) == team_of(seat):
        raise errors.ChallengeRefused("you can only challenge an opponent, not your partner")
    if game.phase is Phase.BIDDING or not (game.tricks or game.trick):
        raise errors.ChallengeRefused(
            "no card has been played in this hand yet; a revoke can only be "
            "called until the next hand starts"
        )


def check_timeout_claim(game: Game, seat: int, at: float) -> int:
    """The seat whose time ran out, when ``seat`` may claim the win at ``at``."""
    check_seat(seat)
    check_not_over(game)
    waiting = game.waited_on()
    if waiting is None:
        raise errors.ClaimRefused("the table is not waiting on anyone to bid or play")
    if team_of(seat) == team_of(waiting):
        raise errors.ClaimRefused("only the other team can claim the win")
    waited = at - game.waiting_since
    if waited <= game.rules.turn_limit_s:
        left = format_duration(game.rules.turn_limit_s - waited)
        raise errors.ClaimRefused(f"the turn limit has not passed yet: {left} to go")
    return waiting
