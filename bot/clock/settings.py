"""The ``[clock]`` settings: reminders, the computer players' pace, idle lobbies."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


class ClockSettings(BaseModel):
    """The ``[clock]`` settings section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Pause before a computer player acts, so people can follow the game.
    computer_delay_s: float = Field(2.0, ge=0, le=600)
    #: Reminders to the waited-on player, as seconds after the turn began
    #: (a turn mention), fractions of the turn limit, and seconds before it.
    remind_after_s: tuple[float, ...] = ()
    remind_at_fractions: tuple[float, ...] = (0.5,)
    remind_before_s: tuple[float, ...] = (3600.0,)
    #: Reminders closer than this to each other or to the limit are dropped.
    min_reminder_gap_s: float = Field(60.0, ge=0)
    #: A lobby untouched this long is closed; None keeps lobbies open.
    lobby_idle_s: float | None = Field(24 * 3600.0, gt=0)
    #: Whether new tables have a computer take late players' turns.
    stand_in_default: bool = False
    #: The level of the computer player standing in for a late person.
    stand_in_level: str = "heuristic"
    #: Seconds the ``expert`` computer level thinks per decision (it never
    #: takes more than 1% of the table's turn limit).
    expert_time_budget_s: float = Field(0.6, gt=0, le=10)

    @field_validator("remind_at_fractions")
    @classmethod
    def _fractions(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0 < v < 1 for v in values):
            raise ValueError("reminder fractions lie strictly between 0 and 1")
        return values

    @field_validator("remind_after_s", "remind_before_s")
    @classmethod
    def _positive(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(v <= 0 for v in values):
            raise ValueError("reminder times are positive numbers of seconds")
        return values

    def reminder_offsets(self, limit_s: float) -> list[float]:
        """When reminders fall, in seconds after the turn began, soonest first."""
        points = {
            *self.remind_after_s,
            *(f * limit_s for f in self.remind_at_fractions),
            *(limit_s - b for b in self.remind_before_s),
        }
        kept: list[float] = []
        gap = self.min_reminder_gap_s
        for point in sorted(p for p in points if 0 < p < limit_s):
            if limit_s - point >= gap and (not kept or point - kept[-1] >= gap):
                kept.append(point)
        return kept
