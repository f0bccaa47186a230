"""Durations in words, one wording for every place a player reads one.

Under a minute in seconds, under an hour in minutes, under 72 hours in hours
(and minutes), from 72 hours on in days (and hours): a turn limit reads the
same when it is offered, shown on a table and counted down ("48 hours", never
"2 days"). Always rounded down: a countdown never shows more time than is left.
"""

from __future__ import annotations

from typing import Final

MINUTE: Final = 60
HOUR: Final = 60 * MINUTE
DAY: Final = 24 * HOUR
#: From this long on a duration is told in days.
DAYS_FROM: Final = 72 * HOUR


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}" if number == 1 else f"{number} {unit}s"


def _pair(big: int, big_unit: str, small: int, small_unit: str) -> str:
    text = _count(big, big_unit)
    return f"{text} {_count(small, small_unit)}" if small else text


def format_duration(seconds: float) -> str:
    """``seconds`` in words, such as "5 minutes", "1 hour 30 minutes", "48 hours", "3 days"."""
    whole = max(0, int(seconds))
    if whole < MINUTE:
        return _count(whole, "second")
    if whole < HOUR:
        return _count(whole // MINUTE, "minute")
    if whole < DAYS_FROM:
        return _pair(whole // HOUR, "hour", whole % HOUR // MINUTE, "minute")
    return _pair(whole // DAY, "day", whole % DAY // HOUR, "hour")
