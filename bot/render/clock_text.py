"""What the turn clock says, as pure functions: durations in the reader's
language, and the messages in a table's channel.

Durations are cut like the engine's English ones (:mod:`bot.game.durations`):
seconds, minutes, hours (and minutes) under 72 hours, then days (and hours),
always rounded down. Each message returns the text and the users it may ping;
the Discord layer sends it with exactly those mentions allowed. Everything is
in the table's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.game import sides
from bot.game.durations import DAY, DAYS_FROM, HOUR, MINUTE
from bot.game.sides import solo
from bot.game.types import Phase
from bot.i18n import N_, ntr, tr
from bot.tables.model import Table


def _seconds(lang: str, n: int) -> str:
    return ntr(lang, "{n} second", "{n} seconds", n)


def _minutes(lang: str, n: int) -> str:
    return ntr(lang, "{n} minute", "{n} minutes", n)


def _hours(lang: str, n: int) -> str:
    return ntr(lang, "{n} hour", "{n} hours", n)


def _days(lang: str, n: int) -> str:
    return ntr(lang, "{n} day", "{n} days", n)


def duration_text(lang: str, seconds: float) -> str:
    """``seconds`` in words: "5 minutes", "1 hour 30 minutes", "48 hours", "3 days"."""
    whole = max(0, int(seconds))
    if whole < MINUTE:
        return _seconds(lang, whole)
    if whole < HOUR:
        return _minutes(lang, whole // MINUTE)
    if whole < DAYS_FROM:
        big, small = _hours(lang, whole // HOUR), whole % HOUR // MINUTE
        if not small:
            return big
        # Translators: a duration of hours and minutes, like "1 hour 30 minutes".
        return tr(lang, "{hours} {minutes}", hours=big, minutes=_minutes(lang, small))
    big, small = _days(lang, whole // DAY), whole % DAY // HOUR
    if not small:
        return big
    # Translators: a duration of days and hours, like "3 days 4 hours".
    return tr(lang, "{days} {hours}", days=big, hours=_hours(lang, small))


@dataclass(frozen=True, slots=True)
class ClockMessage:
    text: str
    ping: tuple[int, ...] = ()


#: By (a computer stands in, phase): what the late player is told.
_REMINDERS = {
    (True, Phase.PASSING): N_(
        "<@{user}>, table {table} is waiting for you to choose the cards you pass: "
        "{left} left before a computer chooses them for you."
    ),
    (False, Phase.PASSING): N_(
        "<@{user}>, table {table} is waiting for you to choose the cards you pass: "
        "{left} left before the other team can claim the win."
    ),
    (True, Phase.BIDDING): N_(
        "<@{user}>, table {table} is waiting for you to bid: "
        "{left} left before a computer plays for you."
    ),
    (True, Phase.PLAYING): N_(
        "<@{user}>, table {table} is waiting for you to play: "
        "{left} left before a computer plays for you."
    ),
    (False, Phase.BIDDING): N_(
        "<@{user}>, table {table} is waiting for you to bid: "
        "{left} left before the other team can claim the win."
    ),
    (False, Phase.PLAYING): N_(
        "<@{user}>, table {table} is waiting for you to play: "
        "{left} left before the other team can claim the win."
    ),
}
#: The same in solo, by phase, where any other player may claim.
_SOLO_REMINDERS = {
    Phase.BIDDING: N_(
        "<@{user}>, table {table} is waiting for you to bid: "
        "{left} left before another player can claim the win."
    ),
    Phase.PLAYING: N_(
        "<@{user}>, table {table} is waiting for you to play: "
        "{left} left before another player can claim the win."
    ),
}


#: An opponent who owes an answer to a claim of the rest: a computer
#: answers for them, or the claim's side may claim the win.
_CLAIM_ANSWER_REMINDERS = {
    "stand_in": N_(
        "<@{user}>, table {table} is waiting for your answer to a claim of the rest: "
        "{left} left before a computer answers for you."
    ),
    "team": N_(
        "<@{user}>, table {table} is waiting for your answer to a claim of the rest: "
        "{left} left before the other team can claim the win."
    ),
    "solo": N_(
        "<@{user}>, table {table} is waiting for your answer to a claim of the rest: "
        "{left} left before another player can claim the win."
    ),
}


def reminder(table: Table, seat: int, left_s: float, *, stand_in: bool) -> ClockMessage | None:
    user = table.seats[seat].user_id
    game = table.game
    if user is None or game is None:
        return None
    lang = table.language
    if game.rest.waiting:  # the seat owes an answer, not a card
        key = "stand_in" if stand_in else "solo" if solo(game.rules) else "team"
        template = _CLAIM_ANSWER_REMINDERS[key]
    elif solo(game.rules) and not stand_in:  # solo has no Nil pass
        template = _SOLO_REMINDERS.get(game.phase) or _SOLO_REMINDERS[Phase.PLAYING]
    else:
        template = _REMINDERS.get((stand_in, game.phase)) or _REMINDERS[(stand_in, Phase.PLAYING)]
    text = tr(lang, template, user=user, table=table.id, left=duration_text(lang, left_s))
    return ClockMessage(text, (user,))


def together(messages: Sequence[ClockMessage | None]) -> ClockMessage | None:
    """Messages for several seats at one moment (the Nil pass's partners), as
    one: a line each, pinging each of them."""
    kept = [m for m in messages if m is not None]
    if not kept:
        return None
    pings = tuple(dict.fromkeys(user for m in kept for user in m.ping))
    return ClockMessage("\n".join(m.text for m in kept), pings)


def claim_opened(table: Table) -> ClockMessage | None:
    game = table.game
    seat = game.waited_on() if game is not None else None
    if seat is None:
        return None
    lang = table.language
    late = table.seats[seat].user_id
    opponents = tuple(
        user for n in sides.opponents(table.rules, seat) if (user := table.seats[n].user_id)
    )
    limit = duration_text(lang, table.rules.turn_limit_s)
    if late is not None:
        text = tr(
            lang,
            "<@{user}> has kept table {table} waiting longer than the turn limit ({limit}).",
            user=late,
            table=table.id,
            limit=limit,
        )
    else:
        text = tr(
            lang,
            "The computer player has kept table {table} waiting longer than the turn limit "
            "({limit}).",
            table=table.id,
            limit=limit,
        )
    if opponents:
        claim = tr(
            lang,
            "{players}: you can claim the win with **Claim the win** on the table message "
            "or `/spades claim`.",
            players=" ".join(f"<@{u}>" for u in opponents),
        )
        text = f"{text} {claim}"
    return ClockMessage(text, opponents)


def stood_in(table: Table, seat: int) -> ClockMessage:
    user = table.seats[seat].user_id
    text = tr(
        table.language,
        "<@{user}> is past the turn limit at table {table}: a computer plays for them "
        "until they press **My hand**.",
        user=user,
        table=table.id,
    )
    return ClockMessage(text, (user,) if user is not None else ())


def lobby_closed(table: Table, idle_s: float | None) -> ClockMessage:
    lang = table.language
    if idle_s is None:
        return ClockMessage(tr(lang, "Table {table} is closed: nobody started it.", table=table.id))
    idle = duration_text(lang, idle_s)
    text = tr(
        lang, "Table {table} is closed: nobody started it in {idle}.", table=table.id, idle=idle
    )
    return ClockMessage(text)


#: The public line after a successful claim, by (solo, the late player known):
#: in solo the late player alone loses.
_CLAIMED = {
    (False, False): N_(
        "<@{claimer}> claimed the win at table {table}: the late player kept the "
        "table waiting past the turn limit, so their team loses."
    ),
    (False, True): N_(
        "<@{claimer}> claimed the win at table {table}: <@{late}> kept the "
        "table waiting past the turn limit, so their team loses."
    ),
    (True, False): N_(
        "<@{claimer}> claimed the win at table {table}: the late player kept the "
        "table waiting past the turn limit, so they lose."
    ),
    (True, True): N_(
        "<@{claimer}> claimed the win at table {table}: <@{late}> kept the "
        "table waiting past the turn limit, so they lose."
    ),
}


def claimed(table: Table, claimer_id: int) -> str:
    """The public line after a successful claim."""
    result = table.result
    late = table.seats[result.seat].user_id if result and result.seat is not None else None
    template = _CLAIMED[(table.solo, late is not None)]
    return tr(table.language, template, claimer=claimer_id, table=table.id, late=late)
