"""Refused actions. Each message is written for the player who tried it.

A message is an English template with named placeholders (``template``) and
their values (``params``), so that the Discord layer can say it in the
player's language (see :mod:`bot.i18n`); ``message`` is it filled in. A
value named ``<x>_card`` is a card and ``<x>_s`` a duration in seconds: the
template's ``{x}`` shows it in the reader's language.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark ``message`` for the message catalog (the engine may import
    nothing outside ``bot.game``; :func:`bot.i18n.N_` is the same)."""
    return message


class IllegalAction(Exception):
    """An action the rules refuse. The game state is left untouched."""

    code = "illegal"

    def __init__(self, message: str, **params: object) -> None:
        text = message.format(**params) if params else message
        super().__init__(text)
        self.template = message
        self.params = params
        self.message = text


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


class RestClaimRefused(IllegalAction):
    """A claim of the rest of the tricks, or an answer to one, out of place."""

    code = "rest_claim_refused"


class NotYourPass(IllegalAction):
    """A Nil pass by a seat that is in no exchange this hand."""

    code = "not_your_pass"


class AlreadyPassed(IllegalAction):
    code = "already_passed"


class WrongPassCount(IllegalAction):
    code = "wrong_pass_count"


class MalformedAction(IllegalAction):
    code = "malformed"
