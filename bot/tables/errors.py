"""Refused table actions. Each message is a short answer for the person who
clicked; ``code`` is a stable name for the Discord layer and for tests.

Rules refusals (not your turn, must follow suit, ...) are the engine's
:class:`bot.game.errors.IllegalAction` and pass through the service unchanged;
they carry ``.message`` and ``.code`` the same way, and like them a
``template`` with named ``params`` that the Discord layer translates (see
:mod:`bot.game.errors`).
"""

from __future__ import annotations

from bot.game.house import HouseRuleError
from bot.i18n import N_


class TableError(Exception):
    """A refused table action. Nothing was written."""

    code = "table_error"
    default_message = N_("that cannot be done at this table")

    def __init__(self, message: str | None = None, **params: object) -> None:
        self.template = message or self.default_message
        self.params = params
        self.message = self.template.format(**params) if params else self.template
        super().__init__(self.message)


class UnknownTable(TableError):
    code = "unknown_table"
    default_message = N_("there is no such table")


class NotSeated(TableError):
    code = "not_seated"
    default_message = N_("you are not seated at this table")


class Spectator(NotSeated):
    """A spectator tried to act. A subclass of :class:`NotSeated`."""

    code = "spectator"
    default_message = N_("you are watching this table")


class HostOnly(TableError):
    code = "host_only"
    default_message = N_("only the host can do that")


class BadHouseRule(TableError):
    """A house rule the engine's rule set refuses: its one line, translated."""

    code = "bad_house_rule"
    default_message = N_("that house rule cannot be played here")
    #: The rule set's own line, in English (as ``simulate --house`` prints it).
    line = ""


class WrongPhase(TableError):
    code = "wrong_phase"
    default_message = N_("that cannot be done at this point of the game")


class NotStarted(WrongPhase):
    code = "not_started"
    default_message = N_("the game has not started yet")


class AlreadyStarted(WrongPhase):
    code = "already_started"
    default_message = N_("the game has already started")


class TableClosed(WrongPhase):
    code = "table_closed"
    default_message = N_("this table is closed")


class NotOver(WrongPhase):
    code = "not_over"
    default_message = N_("the game is not over yet")


class ClosedToWatchers(TableError):
    """The host opened the table without watchers and its seats are taken."""

    code = "closed_to_watchers"
    default_message = N_("this table is closed to watchers")


class TableFull(TableError):
    code = "table_full"
    default_message = N_("every seat is already taken")


class NotEnoughPlayers(TableError):
    code = "not_enough_players"
    default_message = N_("four players must be seated")


class AlreadyJoined(TableError):
    code = "already_joined"
    default_message = N_("you are already at this table")


class AlreadySeated(AlreadyJoined):
    code = "already_seated"
    default_message = N_("you already have a seat at this table")


class NotBetweenHands(WrongPhase):
    code = "not_between_hands"
    default_message = N_("a seat changes hands only between two hands of a game")


class SeatRequestPending(TableError):
    code = "seat_request_pending"
    default_message = N_("a request for a seat is already waiting for the host's answer")


class NoSeatRequest(TableError):
    """The request was answered already, or dropped when the next hand was dealt."""

    code = "no_seat_request"
    default_message = N_("there is no request for a seat to answer any more")


class HostCannotLeave(TableError):
    code = "host_cannot_leave"
    default_message = N_("the host cannot leave: cancel the table instead")


class BadPartner(TableError):
    code = "bad_partner"
    default_message = N_("pick one of the three other seated players as your partner")


class ChannelBusy(TableError):
    code = "channel_busy"
    default_message = N_("a table is already open in this channel")


class StaleAction(TableError):
    code = "stale"
    default_message = N_("this was made on an outdated view of the table")


class NotAComputer(TableError):
    code = "not_a_computer"
    default_message = N_("that seat is not played by the computer")


class Malformed(TableError):
    code = "malformed"
    default_message = N_("that request is malformed")


class RematchStarted(AlreadyStarted):
    """A rematch click lost the race: the next game began since it was drawn."""

    code = "rematch_started"
    default_message = N_("the rematch has already started")


class NoRematch(TableError):
    """The table's options allow no next game (a tournament's match)."""

    code = "no_rematch"
    default_message = N_("a tournament match has no rematch: the bracket goes on")


class NoClaimAtStandIn(TableError):
    """The caller said a computer takes late players' turns at this table."""

    code = "no_claim_at_stand_in"
    default_message = N_(
        "at this table a computer plays for late players: there is no win to claim"
    )


class OtherShard(TableError):
    """The table's server is served by another process of the bot (another
    shard). Discord should never send it here; if it does, nothing is done."""

    code = "other_shard"
    default_message = N_("this table is run by another instance of the bot: try again in a moment")


def house_refusal(error: HouseRuleError) -> BadHouseRule:
    """The refusal of a house rule's one line: a conflict in its own words,
    which the catalogs translate; any other line quoted as it is."""
    if error.params:
        refusal = BadHouseRule(error.template, **error.params)
    else:
        refusal = BadHouseRule(N_("that house rule cannot be played: {line}"), line=str(error))
    refusal.line = str(error)
    return refusal
