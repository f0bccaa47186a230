"""The picture of a tournament's bracket, drawn with Pillow."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.tournament.model import Tournament


@dataclass(frozen=True, slots=True)
class BracketLabels:
    """The words of the picture, in the reader's language (the caller
    translates them; the defaults are the English source)."""

    winners: str = "Winners' bracket"
    losers: str = "Losers' bracket"
    final: str = "Grand final"
    second_final: str = "Second final"
    playing: str = "playing"
    ready_check: str = "ready check"
    no_show: str = "no show"
    decided: str = "decided"
    champion: str = "Champion"


def bracket_png(
    t: Tournament, names: Mapping[int, str], labels: BracketLabels = BracketLabels()
) -> bytes:
    """The bracket of ``t`` as PNG bytes: every match with its number, its
    teams (``names``: team id -> display name), scores, who advanced and
    the matches in progress; the winners' bracket, the losers' bracket and
    the grand final."""
    raise NotImplementedError("drawn in the next commit")
