"""Tournaments are partnership play for good: a bracket pairs teams of two,
so house rules playing solo are refused when a tournament opens (tables
refuse them too, for now; this refusal stays when tables offer solo)."""

from __future__ import annotations

import pytest

from bot.render.tournament_text import REFUSALS
from bot.tournament.events import TournamentRefusal
from bot.tournament.model import Settings
from bot.tournament.service import check_partnership


def test_a_tournament_refuses_solo_house_rules() -> None:
    check_partnership(Settings("Cup", house="deck=jokers"))
    check_partnership(Settings("Cup", house="teams=partners"))
    with pytest.raises(TournamentRefusal) as refused:
        check_partnership(Settings("Cup", house="deck=jokers,teams=solo"))
    assert refused.value.code == "partners_only"
    assert "partners_only" in REFUSALS
