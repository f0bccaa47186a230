"""The tournament's words: every refusal of the core worded in every
language, the buttons of each phase, and ids that survive a round trip."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES
from bot.render.tournament_text import (
    REFUSALS,
    TourneyId,
    parse_id,
    refusal,
    tournament_message,
)
from bot.tournament.events import Register, Start
from bot.tournament.model import Settings, Tournament
from bot.tournament.state import apply

ROOT = Path(__file__).resolve().parents[2]
#: Where a TournamentRefusal is raised: the core, its service and the desk.
RAISERS = ("bot/tournament/state.py", "bot/tournament/service.py", "cogs/tournament_desk.py")


def raised_codes() -> set[str]:
    """Every code a ``TournamentRefusal(...)`` is raised with, read from the sources."""
    codes = set()
    for path in RAISERS:
        for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "TournamentRefusal"
            ):
                code = node.args[0]
                assert isinstance(code, ast.Constant) and isinstance(code.value, str), path
                codes.add(code.value)
    return codes


def test_every_refusal_raised_has_its_words() -> None:
    codes = raised_codes()
    assert len(codes) > 20  # the sources were read
    assert set(REFUSALS) >= codes, codes - set(REFUSALS)


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_refusal_is_translated(lang: str) -> None:
    for code in REFUSALS:
        assert refusal(code, lang) != refusal(code, "en"), (lang, code)


def test_ids_survive_a_round_trip_and_forged_ones_are_refused() -> None:
    for made in (TourneyId("ready", 12, 3), TourneyId("register", 7)):
        assert parse_id(str(made).split(":", 1)[1]) == made
    assert parse_id("explode:1") is None
    assert parse_id("ready:x") is None


def test_the_buttons_follow_the_phase() -> None:
    t = Tournament(1, 2, 3, 4, Settings(name="Cup"))
    labels = [b.label for b in tournament_message(t, "en").buttons]
    assert labels == [
        "Register",
        "Register alone",
        "Confirm partner",
        "Decline partner",
        "Withdraw",
        "Start",
    ]
    drawn = Tournament(1, 2, 3, 4, Settings(name="Cup", teams="draw"))
    assert "Register" not in [b.label for b in tournament_message(drawn, "en").buttons]
    for user in range(10, 14):
        t = apply(t, Register(user), 1.0)
    t = apply(t, Start(4, seed=1), 2.0)
    assert [b.label for b in tournament_message(t, "en").buttons] == ["Ready"]


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "House rules: Deck: jokers · Bags: never cost points"),
        ("de", "Hausregeln: Kartenspiel: Joker · Überstiche: kosten nie Punkte"),
    ],
)
def test_the_house_rules_are_said_in_words(lang: str, line: str) -> None:
    def description(house: str) -> str:
        t = Tournament(1, 2, 3, 4, Settings(name="Cup", house=house))
        embed = tournament_message(t, lang).embed
        assert embed is not None
        return embed.description

    assert description("bags=off,deck=jokers").endswith("\n" + line)
    # Text a later version wrote, which this one cannot read, is quoted.
    assert description("deck=jokers,trumps=hearts").endswith(": deck=jokers,trumps=hearts")
