"""One wording for durations: the turn limit reads the same offered, shown and counted down."""

from __future__ import annotations

import pytest

from bot.game.durations import format_duration

MINUTE, HOUR, DAY = 60, 3600, 86400


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0 seconds"),
        (1, "1 second"),
        (59.9, "59 seconds"),
        (-5, "0 seconds"),  # a limit already passed
        (MINUTE, "1 minute"),
        (5 * MINUTE, "5 minutes"),
        (HOUR - 1, "59 minutes"),
        (HOUR, "1 hour"),
        (HOUR + 30 * MINUTE, "1 hour 30 minutes"),
        (HOUR + MINUTE + 59, "1 hour 1 minute"),
        (12 * HOUR, "12 hours"),
        (24 * HOUR, "24 hours"),
        (48 * HOUR, "48 hours"),
        (72 * HOUR - MINUTE, "71 hours 59 minutes"),
        (72 * HOUR, "3 days"),
        (3 * DAY + 12 * HOUR + 5 * MINUTE, "3 days 12 hours"),
        (4 * DAY + HOUR, "4 days 1 hour"),
        (7 * DAY, "7 days"),
    ],
)
def test_a_duration_in_words(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text
