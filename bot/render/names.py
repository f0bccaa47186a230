"""The names of computer players, one per seat.

A table can hold up to three computer players, so each needs a name of its
own. The name comes from the seat alone (each starts with its seat's letter),
so it is the same in every message, menu, summary and picture of the game,
after any restart, and needs nothing stored.
"""

from __future__ import annotations

#: By seat: South, West, North, East.
COMPUTER_NAMES = ("Sol", "Wren", "Nell", "Ezra")
ROBOT = "🤖"


def computer_name(seat: int, level: str | None) -> str:
    """The plain name of the computer player in ``seat``: ``Wren (random)``
    (plain text, for pictures and anywhere an emoji may not draw)."""
    name = COMPUTER_NAMES[seat & 3]
    return f"{name} ({level})" if level else name


def computer_label(seat: int, level: str | None) -> str:
    """The name in Discord text: ``🤖 Wren (random)``."""
    return f"{ROBOT} {computer_name(seat, level)}"
