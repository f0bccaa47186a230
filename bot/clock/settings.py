"""The ``[clock]`` settings: turn notices, the computer players' pace, idle lobbies."""

from __future__ import annotations

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator


def _named(name: str, earlier: str) -> AliasChoices:
    """A key read under its name, or under the name earlier versions gave it."""
    return AliasChoices(name, earlier)


class ClockSettings(BaseModel):
    """The ``[clock]`` settings section.

    A turn notice tells the person a table waits on that it is their turn.
    The first comes ``first_notice_s`` into the turn (``[tables] turn_ping``
    and ``turn_ping_delay_s`` in earlier versions); the later ones, which
    say how long is left, at the ``notice_*`` points (``remind_*`` and
    ``min_reminder_gap_s`` in earlier versions). Both older spellings still
    load, and mean the same."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Pause before a computer player acts, so people can follow the game.
    computer_delay_s: float = Field(2.0, ge=0, le=600)
    #: Whether the first notice is sent, and how long into the turn (a
    #: player who acts sooner is not pinged).
    first_notice: bool = True
    first_notice_s: float = Field(10.0, ge=0, le=3600)
    #: The later notices, as seconds after the turn began, fractions of the
    #: turn limit, and seconds before it.
    notice_after_s: tuple[float, ...] = Field(
        (), validation_alias=_named("notice_after_s", "remind_after_s")
    )
    notice_at_fractions: tuple[float, ...] = Field(
        (0.5,), validation_alias=_named("notice_at_fractions", "remind_at_fractions")
    )
    notice_before_s: tuple[float, ...] = Field(
        (3600.0,), validation_alias=_named("notice_before_s", "remind_before_s")
    )
    #: Later notices closer than this to each other or to the limit are dropped.
    min_notice_gap_s: float = Field(
        60.0, ge=0, validation_alias=_named("min_notice_gap_s", "min_reminder_gap_s")
    )
    #: A lobby untouched this long is closed; None keeps lobbies open.
    lobby_idle_s: float | None = Field(24 * 3600.0, gt=0)
    #: Whether new tables have a computer take late players' turns.
    stand_in_default: bool = False
    #: The level of the computer player standing in for a late person.
    stand_in_level: str = "heuristic"
    #: Seconds the ``expert`` computer level thinks per decision (it never
    #: takes more than 1% of the table's turn limit).
    expert_time_budget_s: float = Field(0.6, gt=0, le=10)

    @field_validator("stand_in_level")
    @classmethod
    def _known_level(cls, level: str) -> str:
        # Refused at start-up, not when a late player's turn first needs a stand-in.
        from bot.ai.base import known_level

        return known_level(level)

    @field_validator("notice_at_fractions")
    @classmethod
    def _fractions(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0 < v < 1 for v in values):
            raise ValueError("notice fractions lie strictly between 0 and 1")
        return values

    @field_validator("notice_after_s", "notice_before_s")
    @classmethod
    def _positive(cls, values: tuple[float, ...]) -> tuple[float, ...]:
        if any(v <= 0 for v in values):
            raise ValueError("notice times are positive numbers of seconds")
        return values
