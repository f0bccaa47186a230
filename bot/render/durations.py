"""Durations in the reader's language, cut like the engine's English ones
(:mod:`bot.game.durations`): seconds, minutes, hours (and minutes) under 72
hours, then days (and hours), always rounded down."""

from __future__ import annotations

from bot.game.durations import DAY, DAYS_FROM, HOUR, MINUTE
from bot.i18n import ntr, tr


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
