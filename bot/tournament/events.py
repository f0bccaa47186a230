"""The steps of a tournament, one event each, and their stored form.

An event records a decision already taken; :func:`bot.tournament.state.apply` refuses it
when it does not fit. ``manages_server``: a member other than the organizer may act."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class TournamentRefusal(Exception):
    """An event refused; ``code`` is stable (the Discord layer words it), ``params`` name what."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Register:
    """``user`` registers, with ``partner`` (who then confirms) or alone."""

    user: int
    partner: int | None = None


@dataclass(frozen=True, slots=True)
class ConfirmPartner:
    """``user`` accepts the partner request naming them."""

    user: int


@dataclass(frozen=True, slots=True)
class DeclinePartner:
    """``user`` refuses the partner request naming them."""

    user: int


@dataclass(frozen=True, slots=True)
class Withdraw:
    """``user`` leaves before the start, with their team or request."""

    user: int


@dataclass(frozen=True, slots=True)
class Start:
    """Registration closes and the bracket is drawn, repeatably from ``seed``, by ``ratings``."""

    by: int
    seed: int
    ratings: Mapping[int, float] = field(default_factory=dict)
    manages_server: bool = False


@dataclass(frozen=True, slots=True)
class ReadyPress:
    """``user`` presses Ready for their team in ``match``."""

    match: int
    user: int


@dataclass(frozen=True, slots=True)
class ReadyExpired:
    """The ready check of ``match`` ran out (its deadline ``at``)."""

    match: int
    at: float


@dataclass(frozen=True, slots=True)
class TableOpened:
    """The table of ``match`` is open: the match is being played."""

    match: int
    table_id: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The game of ``match`` at ``table_id`` ended; ``scores`` in slot order (a, b)."""

    match: int
    table_id: int
    winner_team: int
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Decide:
    """The organizer settles a stuck ``match``."""

    match: int
    winner_team: int
    by: int
    reason: str = ""
    manages_server: bool = False


@dataclass(frozen=True, slots=True)
class Cancel:
    by: int
    manages_server: bool = False
    #: Why, for the players of the tables it ends.
    reason: str = ""


Event = (
    Register
    | ConfirmPartner
    | DeclinePartner
    | Withdraw
    | Start
    | ReadyPress
    | ReadyExpired
    | TableOpened
    | MatchEnded
    | Decide
    | Cancel
)

#: The stored name of each event kind (stored: never rename one).
KINDS: dict[str, type[Event]] = {
    "register": Register,
    "confirm_partner": ConfirmPartner,
    "decline_partner": DeclinePartner,
    "withdraw": Withdraw,
    "start": Start,
    "ready_press": ReadyPress,
    "ready_expired": ReadyExpired,
    "table_opened": TableOpened,
    "match_ended": MatchEnded,
    "decide": Decide,
    "cancel": Cancel,
}
_KIND_OF = {cls: kind for kind, cls in KINDS.items()}


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data, with its ``kind``."""
    data = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    if isinstance(event, Start):
        data["ratings"] = {str(user): r for user, r in event.ratings.items()}
    if isinstance(event, MatchEnded):
        data["scores"] = list(event.scores)
    return {"kind": _KIND_OF[type(event)], **data}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event :func:`event_to_json` wrote."""
    fields = dict(data)
    cls = KINDS[fields.pop("kind")]
    if cls is Start:
        fields["ratings"] = {int(user): float(r) for user, r in fields["ratings"].items()}
    if cls is MatchEnded:
        fields["scores"] = tuple(fields["scores"])
    return cls(**fields)
