"""What the turn clock says in a table's channel, as pure functions.

Each returns the text and the users it may ping; the Discord layer sends it
with exactly those mentions allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.durations import format_duration
from bot.game.types import Phase
from bot.tables.model import Table

__all__ = [
    "ClockMessage",
    "claim_opened",
    "claimed",
    "format_duration",
    "lobby_closed",
    "reminder",
    "stood_in",
]


@dataclass(frozen=True, slots=True)
class ClockMessage:
    text: str
    ping: tuple[int, ...] = ()


def _verb(table: Table) -> str:
    game = table.game
    return "bid" if game is not None and game.phase is Phase.BIDDING else "play"


def reminder(table: Table, seat: int, left_s: float, *, stand_in: bool) -> ClockMessage | None:
    user = table.seats[seat].user_id
    if user is None or table.game is None:
        return None
    then = "a computer plays for you" if stand_in else "the other team can claim the win"
    return ClockMessage(
        f"<@{user}>, table {table.id} is waiting for you to {_verb(table)}: "
        f"{format_duration(left_s)} left before {then}.",
        (user,),
    )


def claim_opened(table: Table) -> ClockMessage | None:
    game = table.game
    seat = game.waited_on() if game is not None else None
    if seat is None:
        return None
    late = table.seats[seat].user_id
    opponents = tuple(
        user for n in ((seat + 1) & 3, (seat + 3) & 3) if (user := table.seats[n].user_id)
    )
    limit = format_duration(table.rules.turn_limit_s)
    who = f"<@{late}>" if late is not None else "The computer player"
    text = f"{who} has kept table {table.id} waiting longer than the turn limit ({limit})."
    if opponents:
        text += (
            f" {' '.join(f'<@{u}>' for u in opponents)}: you can claim the win with "
            "**Claim the win** on the table message or `/spades claim`."
        )
    return ClockMessage(text, opponents)


def stood_in(table: Table, seat: int) -> ClockMessage:
    user = table.seats[seat].user_id
    return ClockMessage(
        f"<@{user}> is past the turn limit at table {table.id}: a computer plays for them "
        "until they press **My hand**.",
        (user,) if user is not None else (),
    )


def lobby_closed(table: Table, idle_s: float | None) -> ClockMessage:
    since = f" in {format_duration(idle_s)}" if idle_s is not None else ""
    return ClockMessage(f"Table {table.id} is closed: nobody started it{since}.")


def claimed(table: Table, claimer_id: int) -> str:
    """The public line after a successful claim."""
    result = table.result
    late = table.seats[result.seat].user_id if result and result.seat is not None else None
    who = f"<@{late}>" if late is not None else "the late player"
    return (
        f"<@{claimer_id}> claimed the win at table {table.id}: {who} kept the "
        "table waiting past the turn limit, so their team loses."
    )
