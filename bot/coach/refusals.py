"""The coach's refusals: short answers, nothing changes.

Like every refusal they carry an English template with named values, said
in the asker's language where they are answered
(:mod:`bot.render.refusal_text`).
"""

from __future__ import annotations

from bot.game.durations import format_duration
from bot.i18n import N_
from bot.tables.errors import TableError


class HintsOff(TableError):
    code = "hints_off"
    default_message = N_(
        "Hints are off at this table: the host chooses them when opening it with /spades new."
    )


class NoHintNow(TableError):
    """Not the asker's turn, or nothing to decide (between hands, game over)."""

    code = "no_hint_now"
    default_message = N_(
        "There is nothing to hint now: a hint is for your own bid or card on your turn."
    )


class CoachBusy(TableError):
    """The person asked again within the cooldown."""

    code = "coach_cooldown"
    default_message = N_("The coach needs a moment between answers: ask again in {wait}.")

    def __init__(self, seconds: int) -> None:
        # ``wait_s``: the answer says the wait in the reader's words.
        super().__init__(wait=format_duration(seconds), wait_s=seconds)
        self.seconds = seconds
