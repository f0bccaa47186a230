"""The custom_id of every button and menu: ``spades:<action>:<table>:<version>[:<arg>]``.

The id carries everything a click needs, so a button works on any message,
after any restart, without server-side view state. ``version`` is the table
state the message was drawn from: the service refuses an action made against
an older state, so an outdated message can never act on a newer one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

PREFIX = "spades"
_SHAPE = re.compile(
    r"(?P<action>[a-z_]+):(?P<table>\d{1,18}):(?P<version>\d{1,18})(?::(?P<arg>[A-Za-z0-9_-]{1,20}))?"
)


class Act(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    PARTNER = "partner"  # host's partner menu; the value is the partner's seat (1-3)
    # The host fills the empty seats with computer players ("bots": the word
    # of the buttons already posted, which must keep working).
    COMPUTERS = "bots"
    START = "start"
    HAND = "hand"  # "My hand": a fresh private hand
    LOOK = "look"  # show my cards (Blind Nil tables)
    BID = "bid"  # arg: the bid, -1 Blind Nil, 0 Nil
    PLAY = "play"  # arg: the card, like QH
    NEXT_HAND = "next"
    REMATCH = "rematch"  # arg: same | swap
    RESIGN = "resign"  # the confirmation button of /spades resign
    CLAIM = "claim"  # claim the game once the turn limit has passed
    HINT = "hint"  # the coach's advice (hints tables); arg: the game's action count
    HOUSE = "house"  # the host's house rules menus (lobby); arg: the page, 0 when absent
    HOUSE_RULE = "house_rule"  # one house rule's menu; arg: its key, the value chosen
    CLAIM_REST = "rest"  # claim the rest of the hand's tricks (not CLAIM, the clock's win)
    ANSWER_REST = "rest_answer"  # an opponent's answer to it; arg: accept | refuse
    SEAT_ASK = "seat_ask"  # between hands, ask for a computer's seat; the value is the seat
    SEAT_ANSWER = "seat_answer"  # the host's answer to it; arg: accept | decline


@dataclass(frozen=True, slots=True)
class ComponentId:
    action: Act
    table: int
    version: int
    arg: str | None = None

    def __str__(self) -> str:
        text = f"{PREFIX}:{self.action.value}:{self.table}:{self.version}"
        return text if self.arg is None else f"{text}:{self.arg}"


class BadComponentId(ValueError):
    """A custom_id the bot never sends: forged or from an older bot."""


def parse(rest: str) -> ComponentId:
    """Parse what follows ``spades:``. Raises BadComponentId."""
    match = _SHAPE.fullmatch(rest)
    if match is None:
        raise BadComponentId(rest)
    try:
        action = Act(match["action"])
    except ValueError:
        raise BadComponentId(rest) from None
    return ComponentId(action, int(match["table"]), int(match["version"]), match["arg"])
