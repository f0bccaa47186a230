"""Refused actions. Each message is written for the player who tried it."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. The game state is left untouched."""

    code = "illegal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongPhase(IllegalAction):
    code = "wrong_phase"


class GameIsOver(IllegalAction):
    code = "game_over"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class NotSeated(IllegalAction):
    code = "not_seated"


class CardNotInHand(IllegalAction):
    code = "card_not_in_hand"


class MustFollowSuit(IllegalAction):
    code = "must_follow_suit"


class SpadesNotBroken(IllegalAction):
    code = "spades_not_broken"


class FirstLeadRule(IllegalAction):
    code = "first_lead"


class BidOutOfRange(IllegalAction):
    code = "bid_out_of_range"


class BlindNilNotAllowed(IllegalAction):
    code = "blind_nil_not_allowed"


class AlreadyLooked(IllegalAction):
    code = "already_looked"


class ChallengeRefused(IllegalAction):
    code = "challenge_refused"


class ClaimRefused(IllegalAction):
    code = "claim_refused"


class MalformedAction(IllegalAction):
    code = "malformed"
