"""Plain descriptions of messages and their buttons, free of discord.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.render.decks import Style

MAX_ROWS = 5
MAX_PER_ROW = 5


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: Style = Style.GREY
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class SelectOption:
    value: str
    label: str
    #: Shown as chosen when the menu is drawn (the value in play).
    default: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[SelectOption, ...]


Row = tuple[ButtonSpec, ...] | SelectSpec


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class EmbedSpec:
    title: str
    description: str = ""
    fields: tuple[Field, ...] = ()
    footer: str = ""
    colour: int = 0x2B2D31


@dataclass(frozen=True, slots=True)
class MessageSpec:
    content: str = ""
    embed: EmbedSpec | None = None
    rows: tuple[Row, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if len(self.rows) > MAX_ROWS:
            raise ValueError(f"{len(self.rows)} rows of components; Discord allows {MAX_ROWS}")
        for row in self.rows:
            if isinstance(row, tuple) and not 0 < len(row) <= MAX_PER_ROW:
                raise ValueError(f"a row of {len(row)} buttons; Discord allows 1 to {MAX_PER_ROW}")

    @property
    def buttons(self) -> list[ButtonSpec]:
        return [b for row in self.rows if isinstance(row, tuple) for b in row]


def chunk(buttons: list[ButtonSpec], size: int = MAX_PER_ROW) -> list[tuple[ButtonSpec, ...]]:
    return [tuple(buttons[i : i + size]) for i in range(0, len(buttons), size)]
