"""Every refusal the application core raises, in one place for the Discord layer.

A refusal is normal use (a click by the wrong person, a stale button, a
forged id): the Discord layer answers it briefly and privately and logs it at
DEBUG. Each carries ``code`` (stable, for tests and wording) and ``message``
(a short answer). The table service's :class:`TableError` and the engine's
:class:`IllegalAction` are refusals too; they are named here so that the
Discord layer depends on the core only.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.errors import IllegalAction
from bot.i18n import N_
from bot.tables.errors import StaleAction, TableError, UnknownTable
from db.errors import DatabaseAway

__all__ = [
    "IllegalAction",
    "InvalidButton",
    "NoTableHere",
    "NotPlaying",
    "Refusal",
    "ServerNotKnown",
    "SeveralTables",
    "StaleAction",
    "Stopping",
    "TableError",
    "TryAgainSoon",
    "UnknownTable",
    "as_refusal",
    "is_refusal",
]


class Refusal(TableError):
    """A refusal decided by the core above the table service."""

    code = "refused"


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


def is_refusal(error: BaseException) -> bool:
    return isinstance(as_refusal(error), TableError | IllegalAction)
