"""The kinds of log rows, which are also the events subscribers receive."""

from __future__ import annotations

from bot.game.types import ENGINE_KINDS, ActionKind

# The store owns the names it writes (it finds a game's actions by its start);
# the engine's actions are logged under their ActionKind values.
from db.log_kinds import (
    CANCEL,
    COMPUTERS,
    CREATE,
    HOUSE,
    JOIN,
    LEAVE,
    PARTNER,
    REMATCH,
    SEAT_ASK,
    SEAT_GIVEN,
    SEAT_REFUSED,
    START,
    UNWATCH,
    WATCH,
)

__all__ = [
    "CANCEL",
    "COMPUTERS",
    "COMPUTER_KINDS",
    "CREATE",
    "ENGINE_KINDS",
    "HOUSE",
    "JOIN",
    "LEAVE",
    "PARTNER",
    "REMATCH",
    "SEAT_ASK",
    "SEAT_GIVEN",
    "SEAT_REFUSED",
    "START",
    "UNSEEN_KINDS",
    "UNWATCH",
    "WATCH",
]

#: Changes no player sees on the table: a spectator coming or going. A click
#: made before one of them is still up to date (see ``checks.check_version``).
UNSEEN_KINDS = frozenset({WATCH, UNWATCH})
#: What computer players may do through ``TableService.computer_act``: they never
#: call a revoke, never resign and answer claims of the rest without making any.
COMPUTER_KINDS = frozenset(
    {
        ActionKind.LOOK,
        ActionKind.BID,
        ActionKind.PLAY,
        ActionKind.PASS,
        ActionKind.NEXT_HAND,
        ActionKind.CLAIM_TIMEOUT,
        ActionKind.ACCEPT_REST,
        ActionKind.REFUSE_REST,
    }
)
