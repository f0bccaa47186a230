"""The engine benchmark's closing line is a contract other tools read."""

from __future__ import annotations

import json

import pytest

from benchmarks import engine
from bot.game.native import engine_build


def test_the_last_line_is_the_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert engine.main(["--seconds", "0.05", "--repeats", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert list(figures)[:4] == [
        "hands_per_s",
        "playouts_per_s",
        "openspiel_hands_per_s",
        "openspiel_playouts_per_s",
    ]
    assert figures["hands_per_s"] > 0 and figures["playouts_per_s"] > 0
    # OpenSpiel is optional: both of its figures are there, or both are null.
    spiel = figures["openspiel_hands_per_s"], figures["openspiel_playouts_per_s"]
    assert all(v is None for v in spiel) or all(v > 0 for v in spiel)
    assert figures["engine_build"] == engine_build()
