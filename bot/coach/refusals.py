"""The coach's refusals: short answers, nothing changes."""

from __future__ import annotations

from bot.render.coach_text import cooldown_text, hints_off_text, no_hint_now_text
from bot.tables.errors import TableError


class HintsOff(TableError):
    code = "hints_off"

    def __init__(self) -> None:
        super().__init__(hints_off_text())


class NoHintNow(TableError):
    """Not the asker's turn, or nothing to decide (between hands, game over)."""

    code = "no_hint_now"

    def __init__(self) -> None:
        super().__init__(no_hint_now_text())


class CoachBusy(TableError):
    """The person asked again within the cooldown."""

    code = "coach_cooldown"

    def __init__(self, seconds: int) -> None:
        super().__init__(cooldown_text(seconds))
        self.seconds = seconds
