"""Every refusal of the application core: one home for the Discord layer.

A *refusal* is normal use (a click by the wrong person, a stale button, a
forged id, a rule of the table): nothing changes, and the Discord layer
answers it briefly and privately in the person's language and logs it at
DEBUG. An *error* is anything else: unexpected, answered with an apology and
logged with its traceback (:mod:`cogs.errors`). Each refusal carries
``code`` (stable, for tests and wording), an English ``template`` with named
``params`` that the Discord layer translates (:mod:`bot.render.refusal_text`;
a value named ``<x>_s`` is a duration in seconds) and ``message``, the
template filled in.

The engine's refusals (not your turn, must follow suit, ...) are
:class:`~bot.game.refusals.IllegalAction`, the rules' own home; they pass
through the core unchanged and carry the same fields. The tournaments'
refusals are codes of one type, :class:`bot.tournament.events.TournamentRefusal`,
worded by their presenter.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.durations import format_duration
from bot.game.house import HouseRuleError
from bot.game.refusals import IllegalAction as IllegalAction
from bot.i18n import N_
from db.errors import DatabaseAway

# -- the table service ------------------------------------------------------------


class Refusal(Exception):
    """A refused action of the core. Nothing was written."""

    code = "refused"
    default_message = N_("that cannot be done at this table")

    def __init__(self, message: str | None = None, **params: object) -> None:
        self.template = message or self.default_message
        self.params = params
        self.message = self.template.format(**params) if params else self.template
        super().__init__(self.message)


class UnknownTable(Refusal):
    code = "unknown_table"
    default_message = N_("there is no such table")


class NotSeated(Refusal):
    code = "not_seated"
    default_message = N_("you are not seated at this table")


class Spectator(NotSeated):
    """A spectator tried to act. A subclass of :class:`NotSeated`."""

    code = "spectator"
    default_message = N_("you are watching this table")


class HostOnly(Refusal):
    code = "host_only"
    default_message = N_("only the host can do that")


class BadHouseRule(Refusal):
    """A house rule the engine's rule set refuses: its one line, translated."""

    code = "bad_house_rule"
    default_message = N_("that house rule cannot be played here")
    #: The rule set's own line, in English (as ``simulate --house`` prints it).
    line = ""


class WrongPhase(Refusal):
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


class ClosedToWatchers(Refusal):
    """The host opened the table without watchers and its seats are taken."""

    code = "closed_to_watchers"
    default_message = N_("this table is closed to watchers")


class TableFull(Refusal):
    code = "table_full"
    default_message = N_("every seat is already taken")


class NotEnoughPlayers(Refusal):
    code = "not_enough_players"
    default_message = N_("four players must be seated")


class AlreadyJoined(Refusal):
    code = "already_joined"
    default_message = N_("you are already at this table")


class AlreadySeated(AlreadyJoined):
    code = "already_seated"
    default_message = N_("you already have a seat at this table")


class NotBetweenHands(WrongPhase):
    code = "not_between_hands"
    default_message = N_("a seat changes hands only between two hands of a game")


class SeatRequestPending(Refusal):
    code = "seat_request_pending"
    default_message = N_("a request for a seat is already waiting for the host's answer")


class NoSeatRequest(Refusal):
    """The request was answered already, or dropped when the next hand was dealt."""

    code = "no_seat_request"
    default_message = N_("there is no request for a seat to answer any more")


class HostCannotLeave(Refusal):
    code = "host_cannot_leave"
    default_message = N_("the host cannot leave: cancel the table instead")


class BadPartner(Refusal):
    code = "bad_partner"
    default_message = N_("pick one of the three other seated players as your partner")


class NoTeams(Refusal):
    """A partner chosen, or teams swapped, at a solo table (``teams=solo``)."""

    code = "no_teams"
    default_message = N_("everyone plays on their own at this table: there are no partners")


class ChannelBusy(Refusal):
    code = "channel_busy"
    default_message = N_("a table is already open in this channel")


class StaleAction(Refusal):
    code = "stale"
    default_message = N_("this was made on an outdated view of the table")


class NotAComputer(Refusal):
    code = "not_a_computer"
    default_message = N_("that seat is not played by the computer")


class Malformed(Refusal):
    code = "malformed"
    default_message = N_("that request is malformed")


class RematchStarted(AlreadyStarted):
    """A rematch click lost the race: the next game began since it was drawn."""

    code = "rematch_started"
    default_message = N_("the rematch has already started")


class NoRematch(Refusal):
    """The table's options allow no next game (a tournament's match)."""

    code = "no_rematch"
    default_message = N_("a tournament match has no rematch: the bracket goes on")


class NoClaimAtStandIn(Refusal):
    """The caller said a computer takes late players' turns at this table."""

    code = "no_claim_at_stand_in"
    default_message = N_(
        "at this table a computer plays for late players: there is no win to claim"
    )


class OtherShard(Refusal):
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


# -- the coach ----------------------------------------------------------------------


class HintsOff(Refusal):
    code = "hints_off"
    default_message = N_(
        "Hints are off at this table: the host chooses them when opening it with /spades new."
    )


class NoHintNow(Refusal):
    """Not the asker's turn, or nothing to decide (between hands, game over)."""

    code = "no_hint_now"
    default_message = N_(
        "There is nothing to hint now: a hint is for your own bid or card on your turn."
    )


class CoachBusy(Refusal):
    """The person asked again within the cooldown."""

    code = "coach_cooldown"
    default_message = N_("The coach needs a moment between answers: ask again in {wait}.")

    def __init__(self, seconds: int) -> None:
        # ``wait_s``: the answer says the wait in the reader's words.
        super().__init__(wait=format_duration(seconds), wait_s=seconds)
        self.seconds = seconds


# -- seasons and replays ------------------------------------------------------------


class SeasonNameEmpty(Refusal):
    code = "season_name_empty"
    default_message = N_("give the new season a name")


class SeasonNameTooLong(Refusal):
    code = "season_name_long"
    default_message = N_("a season's name has at most {limit} characters")


class SeasonNameTaken(Refusal):
    code = "season_name_taken"
    default_message = N_("this server already had a season called {name}")


class UnknownSeason(Refusal):
    code = "unknown_season"
    default_message = N_("this server has no season called {name}")


class NoFinishedGame(Refusal):
    code = "no_finished_game"
    default_message = N_("There is no finished game {game} on this server.")


class GameNotOver(Refusal):
    code = "game_not_over"
    default_message = N_("Game {game} is still being played: its replay opens once it is over.")


class ShareRefused(Refusal):
    code = "replay_share_refused"
    default_message = N_("Only the players of game {game} may share its replay on this server.")


# -- the core above the services --------------------------------------------------


class InvalidButton(Refusal):
    """A component the bot never sent: forged, mistyped or from another bot."""

    code = "malformed"
    default_message = N_("that button is not valid")


class NoTableHere(Refusal):
    code = "no_table_here"
    default_message = N_("there is no open table in this channel: start one with /spades new")


class NotPlaying(Refusal):
    code = "not_playing"
    default_message = N_("you are not playing at any table")


class SeveralTables(Refusal):
    """The user plays at several tables and asked from a channel with none of them."""

    code = "several_tables"
    default_message = N_("you play at several tables: use the command in the table's channel")

    def __init__(self, channel_ids: Sequence[int]) -> None:
        super().__init__()
        self.channel_ids = tuple(channel_ids)


class ServerNotKnown(Refusal):
    """The bot has just started and the server's channels and roles, which
    the answer depends on, have not reached it yet: nothing was done."""

    code = "server_not_known"
    default_message = N_("the bot is restarting: try again in a moment")


class TryAgainSoon(Refusal):
    """The database is away for a moment (a restart, a network cut) and the
    store is reconnecting: nothing was done, the same click later will work."""

    code = "try_again"
    default_message = N_("the bot cannot reach its database right now: try again in a moment")


class Stopping(Refusal):
    """The bot is stopping (to restart, usually): it takes no new interaction,
    so that what is under way can finish before it goes."""

    code = "stopping"
    default_message = N_("the bot is restarting: try again in a moment")


def as_refusal(error: BaseException) -> BaseException:
    """``error`` as the Discord layer answers it: the database being away is
    a refusal like any other (the store reconnects by itself)."""
    return TryAgainSoon() if isinstance(error, DatabaseAway) else error
