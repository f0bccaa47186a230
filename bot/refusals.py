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
from typing import cast

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


def refusal(name: str, code: str, message: str, base: type[Refusal] = Refusal) -> type[Refusal]:
    """A refusal of its own kind: its ``code`` and the English ``message`` it says by default."""
    attributes = {"code": code, "default_message": message, "__module__": __name__}
    return cast("type[Refusal]", type(name, (base,), attributes))


UnknownTable = refusal("UnknownTable", "unknown_table", N_("there is no such table"))
NotSeated = refusal("NotSeated", "not_seated", N_("you are not seated at this table"))
#: A spectator tried to act: a kind of :data:`NotSeated`.
Spectator = refusal("Spectator", "spectator", N_("you are watching this table"), NotSeated)
HostOnly = refusal("HostOnly", "host_only", N_("only the host can do that"))


class BadHouseRule(Refusal):
    """A house rule the engine's rule set refuses: its one line, translated."""

    code = "bad_house_rule"
    default_message = N_("that house rule cannot be played here")
    #: The rule set's own line, in English (as ``simulate --house`` prints it).
    line = ""


WrongPhase = refusal(
    "WrongPhase", "wrong_phase", N_("that cannot be done at this point of the game")
)
NotStarted = refusal("NotStarted", "not_started", N_("the game has not started yet"), WrongPhase)
AlreadyStarted = refusal(
    "AlreadyStarted", "already_started", N_("the game has already started"), WrongPhase
)
TableClosed = refusal("TableClosed", "table_closed", N_("this table is closed"), WrongPhase)
NotOver = refusal("NotOver", "not_over", N_("the game is not over yet"), WrongPhase)
#: The host opened the table without watchers and its seats are taken.
ClosedToWatchers = refusal(
    "ClosedToWatchers", "closed_to_watchers", N_("this table is closed to watchers")
)
TableFull = refusal("TableFull", "table_full", N_("every seat is already taken"))
NotEnoughPlayers = refusal(
    "NotEnoughPlayers", "not_enough_players", N_("four players must be seated")
)
AlreadyJoined = refusal("AlreadyJoined", "already_joined", N_("you are already at this table"))
AlreadySeated = refusal(
    "AlreadySeated",
    "already_seated",
    N_("you already have a seat at this table"),
    AlreadyJoined,
)
NotBetweenHands = refusal(
    "NotBetweenHands",
    "not_between_hands",
    N_("a seat changes hands only between two hands of a game"),
    WrongPhase,
)
SeatRequestPending = refusal(
    "SeatRequestPending",
    "seat_request_pending",
    N_("a request for a seat is already waiting for the host's answer"),
)
#: The request was answered already, or dropped when the next hand was dealt.
NoSeatRequest = refusal(
    "NoSeatRequest", "no_seat_request", N_("there is no request for a seat to answer any more")
)
HostCannotLeave = refusal(
    "HostCannotLeave", "host_cannot_leave", N_("the host cannot leave: cancel the table instead")
)
BadPartner = refusal(
    "BadPartner", "bad_partner", N_("pick one of the three other seated players as your partner")
)
#: A partner chosen, or teams swapped, at a solo table (``teams=solo``).
NoTeams = refusal(
    "NoTeams",
    "no_teams",
    N_("everyone plays on their own at this table: there are no partners"),
)
ChannelBusy = refusal("ChannelBusy", "channel_busy", N_("a table is already open in this channel"))
StaleAction = refusal("StaleAction", "stale", N_("this was made on an outdated view of the table"))
NotAComputer = refusal(
    "NotAComputer", "not_a_computer", N_("that seat is not played by the computer")
)
Malformed = refusal("Malformed", "malformed", N_("that request is malformed"))
#: A rematch click lost the race: the next game began since it was drawn.
RematchStarted = refusal(
    "RematchStarted", "rematch_started", N_("the rematch has already started"), AlreadyStarted
)
#: The table's options allow no next game (a tournament's match).
NoRematch = refusal(
    "NoRematch", "no_rematch", N_("a tournament match has no rematch: the bracket goes on")
)
#: The caller said a computer takes late players' turns at this table.
NoClaimAtStandIn = refusal(
    "NoClaimAtStandIn",
    "no_claim_at_stand_in",
    N_("at this table a computer plays for late players: there is no win to claim"),
)
#: The table's server is served by another process of the bot (another
#: shard). Discord should never send it here; if it does, nothing is done.
OtherShard = refusal(
    "OtherShard",
    "other_shard",
    N_("this table is run by another instance of the bot: try again in a moment"),
)


#: The template of a house rule's line that is not a conflict: quoted as it is.
QUOTED_HOUSE_RULE = N_("that house rule cannot be played: {line}")


def house_refusal(error: HouseRuleError) -> BadHouseRule:
    """The refusal of a house rule's one line: a conflict in its own words,
    which the catalogs translate; any other line quoted as it is."""
    if error.params:
        answer = BadHouseRule(error.template, **error.params)
    else:
        answer = BadHouseRule(QUOTED_HOUSE_RULE, line=str(error))
    answer.line = str(error)
    return answer


# -- the coach ----------------------------------------------------------------------

HintsOff = refusal(
    "HintsOff",
    "hints_off",
    N_("Hints are off at this table: the host chooses them when opening it with /spades new."),
)
#: Not the asker's turn, or nothing to decide (between hands, game over).
NoHintNow = refusal(
    "NoHintNow",
    "no_hint_now",
    N_("There is nothing to hint now: a hint is for your own bid or card on your turn."),
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

SeasonNameEmpty = refusal("SeasonNameEmpty", "season_name_empty", N_("give the new season a name"))
SeasonNameTooLong = refusal(
    "SeasonNameTooLong", "season_name_long", N_("a season's name has at most {limit} characters")
)
SeasonNameTaken = refusal(
    "SeasonNameTaken", "season_name_taken", N_("this server already had a season called {name}")
)
UnknownSeason = refusal(
    "UnknownSeason", "unknown_season", N_("this server has no season called {name}")
)
NoFinishedGame = refusal(
    "NoFinishedGame", "no_finished_game", N_("There is no finished game {game} on this server.")
)
GameNotOver = refusal(
    "GameNotOver",
    "game_not_over",
    N_("Game {game} is still being played: its replay opens once it is over."),
)
ShareRefused = refusal(
    "ShareRefused",
    "replay_share_refused",
    N_("Only the players of game {game} may share its replay on this server."),
)

# -- the core above the services --------------------------------------------------

#: A component the bot never sent: forged, mistyped or from another bot.
InvalidButton = refusal("InvalidButton", "malformed", N_("that button is not valid"))
NoTableHere = refusal(
    "NoTableHere",
    "no_table_here",
    N_("there is no open table in this channel: start one with /spades new"),
)
NotPlaying = refusal("NotPlaying", "not_playing", N_("you are not playing at any table"))


class SeveralTables(Refusal):
    """The user plays at several tables and asked from a channel with none of them."""

    code = "several_tables"
    default_message = N_("you play at several tables: use the command in the table's channel")

    def __init__(self, channel_ids: Sequence[int]) -> None:
        super().__init__()
        self.channel_ids = tuple(channel_ids)


#: The bot has just started and the server's channels and roles, which
#: the answer depends on, have not reached it yet: nothing was done.
ServerNotKnown = refusal(
    "ServerNotKnown", "server_not_known", N_("the bot is restarting: try again in a moment")
)
#: The database is away for a moment (a restart, a network cut) and the
#: store is reconnecting: nothing was done, the same click later will work.
TryAgainSoon = refusal(
    "TryAgainSoon",
    "try_again",
    N_("the bot cannot reach its database right now: try again in a moment"),
)
#: The bot is stopping (to restart, usually): it takes no new interaction,
#: so that what is under way can finish before it goes.
Stopping = refusal("Stopping", "stopping", N_("the bot is restarting: try again in a moment"))


def as_refusal(error: BaseException) -> BaseException:
    """``error`` as the Discord layer answers it: the database being away is
    a refusal like any other (the store reconnects by itself)."""
    return TryAgainSoon() if isinstance(error, DatabaseAway) else error
