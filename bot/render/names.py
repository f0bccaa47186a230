"""How seats, teams and players are named in what people read.

A seat is named by its compass point, a team by its two; in public text a
seat's occupant is a mention, or the seat's computer player. A table can hold
up to three computer players, so each needs a name of its own. The name comes
from the seat alone (each starts with its seat's letter), so it is the same in
every message, menu, summary and picture of the game, after any restart, and
needs nothing stored.
"""

from __future__ import annotations

from bot.game.rules import RuleSet
from bot.game.sides import solo
from bot.i18n import ENGLISH, N_, tr
from bot.tables.model import Table

#: By seat: South, West, North, East.
SEAT_NAMES = (N_("South"), N_("West"), N_("North"), N_("East"))
TEAM_NAMES = (N_("South & North"), N_("West & East"))
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


def seat_name(seat: int, lang: str = ENGLISH) -> str:
    """``South``, ``West``, ``North``, ``East`` in ``lang``."""
    return tr(lang, SEAT_NAMES[seat])


def seat_names(lang: str = ENGLISH) -> list[str]:
    return [seat_name(seat, lang) for seat in range(4)]


def team_name(team: int, lang: str = ENGLISH) -> str:
    """``South & North`` (team 0) or ``West & East`` (team 1) in ``lang``."""
    return tr(lang, TEAM_NAMES[team])


def side_name(rules: RuleSet, side: int, lang: str = ENGLISH) -> str:
    """A side by its seats: a team's two compass points, or in solo the
    player's one (bot.game.sides)."""
    return seat_name(side, lang) if solo(rules) else team_name(side, lang)


def seat_label(table: Table, seat: int, lang: str = ENGLISH) -> str:
    """How the seat is named in public text: ``<@id>`` or the seat's computer
    player, like ``🤖 Wren (random)``."""
    occupant = table.seats[seat]
    if occupant.user_id is not None:
        return f"<@{occupant.user_id}>"
    if occupant.computer_level is not None:
        return computer_label(seat, occupant.computer_level, lang)
    return tr(lang, "(empty)")


def seat_labels(table: Table, lang: str = ENGLISH) -> list[str]:
    return [seat_label(table, s, lang) for s in range(4)]
