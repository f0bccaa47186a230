"""The kinds of log rows, which are also the events subscribers receive."""

from __future__ import annotations

from bot.game.types import ENGINE_KINDS, ActionKind

__all__ = ["ENGINE_KINDS"]  # the engine's actions are logged under their ActionKind values

CREATE = "create"
JOIN = "join"  # took a free seat
WATCH = "watch"  # joined as a spectator
LEAVE = "leave"  # left a seat before the start
UNWATCH = "unwatch"  # a spectator left
PARTNER = "partner"
BOTS = "bots"
START = "start"
REMATCH = "rematch"
CANCEL = "cancel"
#: Changes no player sees on the table: a spectator coming or going. A click
#: made before one of them is still up to date (see ``checks.check_version``).
UNSEEN_KINDS = frozenset({WATCH, UNWATCH})
#: What computer players may do through ``TableService.bot_act``: they never
#: call a revoke and never resign.
BOT_KINDS = frozenset(
    {
        ActionKind.LOOK,
        ActionKind.BID,
        ActionKind.PLAY,
        ActionKind.NEXT_HAND,
        ActionKind.CLAIM_TIMEOUT,
    }
)
