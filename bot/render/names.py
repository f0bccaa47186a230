"""The names of computer players, one per seat.

A table can hold up to three computer players, so each needs a name of its
own. The name comes from the seat alone (each starts with its seat's letter),
so it is the same in every message, menu, summary and picture of the game,
after any restart, and needs nothing stored.
"""

from __future__ import annotations

from bot.i18n import ENGLISH, N_, tr

#: By seat: South, West, North, East.
COMPUTER_NAMES = ("Sol", "Wren", "Nell", "Ezra")
ROBOT = "🤖"
#: The built-in levels in words; a level added later shows its own name.
LEVEL_WORDS = {"random": N_("random"), "heuristic": N_("heuristic"), "search": N_("search")}


def computer_name(seat: int, level: str | None, lang: str = ENGLISH) -> str:
    """The plain name of the computer player in ``seat``: ``Wren (random)``
    (plain text, for pictures and anywhere an emoji may not draw)."""
    name = COMPUTER_NAMES[seat & 3]
    if not level:
        return name
    word = tr(lang, LEVEL_WORDS[level]) if level in LEVEL_WORDS else level
    return f"{name} ({word})"


def computer_label(seat: int, level: str | None, lang: str = ENGLISH) -> str:
    """The name in Discord text: ``🤖 Wren (random)``."""
    return f"{ROBOT} {computer_name(seat, level, lang)}"
