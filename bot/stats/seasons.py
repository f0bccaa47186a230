"""Seasons of a server's leaderboard: valid names, and which season a ``season:`` option names."""

from __future__ import annotations

from collections.abc import Sequence

from bot.refusals import SeasonNameEmpty, SeasonNameTooLong, UnknownSeason
from db.stats_records import SeasonRow

#: The longest season name: it stands in leaderboard titles and menus.
NAME_LENGTH = 40
#: The ``season:`` value of the all-time leaderboard.
ALL_TIME = 0

Season = SeasonRow


def season_name(text: str) -> tuple[str, str]:
    """A typed season name tidied, and its key (case and spacing aside); refused if bad."""
    name = " ".join(text.split())
    if not name:
        raise SeasonNameEmpty()
    if len(name) > NAME_LENGTH:
        raise SeasonNameTooLong(limit=NAME_LENGTH)
    return name, name.casefold()


def named(seasons: Sequence[Season], text: str) -> int:
    """The number of the season ``text`` names, by number or name; or :data:`ALL_TIME`."""
    wanted = " ".join(text.split())
    if wanted.isdigit() and (
        int(wanted) == ALL_TIME or any(s.number == int(wanted) for s in seasons)
    ):
        return int(wanted)
    key = wanted.casefold()
    for season in seasons:
        if season.name is not None and season.name.casefold() == key:
            return season.number
    raise UnknownSeason(name=wanted[:NAME_LENGTH] or "-")
