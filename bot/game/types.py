"""The engine's vocabulary: phases, actions, results and teams.

Plain values shared by the game (:mod:`bot.game.state`), its records and the
code outside the engine that stores, shows or replays actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, NamedTuple

from bot.game import refusals


class Phase(StrEnum):
    BIDDING = "bidding"
    #: Nil bidders and their partners choose the cards they pass (bot.game.passing).
    PASSING = "passing"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


class ActionKind(StrEnum):
    LOOK = "look"
    BID = "bid"
    PLAY = "play"
    CHALLENGE = "challenge"
    NEXT_HAND = "next_hand"
    RESIGN = "resign"
    CLAIM_TIMEOUT = "claim_timeout"
    MODERATOR_END = "moderator_end"  # a moderator of the server ended the game
    # Claiming the rest of the hand's tricks (not the timeout claim above):
    # the claim, then each opponent's answer.
    CLAIM_REST = "claim_rest"
    ACCEPT_REST = "accept_rest"
    REFUSE_REST = "refuse_rest"
    #: A seat's cards for a Nil pass; ``value`` is their mask (bot.game.passing).
    PASS = "pass"


#: The log kinds under which the engine's actions are stored (their ActionKind values).
ENGINE_KINDS: Final = frozenset(kind.value for kind in ActionKind)


class EndReason(StrEnum):
    TARGET = "target"
    LOSING_SCORE = "losing_score"
    REVOKE = "revoke"  # a proven revoke challenge
    FALSE_CLAIM = "false_claim"  # an unproven revoke challenge
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    MODERATOR = "moderator"  # ended by a moderator of the server: nobody won


class Action(NamedTuple):
    """One accepted move. ``value`` is the bid, the card, the accused seat or
    the mask of the cards passed.

    A named tuple rather than a dataclass: the engine records one per card
    played, and a tuple is several times cheaper to build.
    """

    kind: ActionKind
    seat: int
    value: int = 0
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, "value": self.value, "at": self.at}

    @classmethod
    def from_json(cls, data: object) -> Action:
        if not isinstance(data, dict):
            raise refusals.MalformedAction(f"that action is malformed: {data!r} is not an object")
        try:
            kind = ActionKind(data["kind"])
            seat = int(data["seat"])
            value = int(data.get("value", 0))
            at = float(data.get("at", 0.0))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise refusals.MalformedAction(f"that action is malformed: {exc}") from None
        return cls(kind, seat, value, at)

    @classmethod
    def from_logged(cls, kind: str, payload: Mapping[str, Any], at: float) -> Action:
        """The action of a stored log row: its kind (one of :data:`ENGINE_KINDS`),
        its payload (``seat`` and, for bids, cards and challenges, ``value``)
        and its time."""
        return cls(ActionKind(kind), int(payload["seat"]), int(payload.get("value", 0)), at)


#: An action as the game logs it: (kind, seat, value, at), the fields of
#: :class:`Action` as a plain tuple, the cheapest record to append per card.
LogEntry = tuple[ActionKind, int, int, float]


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int | None  # team 0 or 1; None for a draw
    reason: EndReason
    seat: int | None = None  # who resigned, revoked, claimed falsely or ran out of time
    note: str | None = None  # the moderator's reason (EndReason.MODERATOR)

    def to_json(self) -> dict[str, Any]:
        data = {"winner": self.winner, "reason": self.reason.value, "seat": self.seat}
        if self.note is not None:
            data["note"] = self.note
        return data


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat & 1
