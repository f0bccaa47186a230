"""db stands at the bottom: it imports nothing of the bot, and the log kinds
it reads are the ones the bot writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.game.state import ActionKind
from bot.tables import service
from db import log_kinds

REPO = Path(__file__).resolve().parents[2]


def test_db_imports_nothing_from_the_bot() -> None:
    modules = sorted(f"db.{p.stem}" for p in (REPO / "db").glob("*.py") if p.stem != "__init__")
    assert "db.store" in modules and "db.stats_store" in modules
    check = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('bot', 'cogs')))\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", check], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert (child.stdout, child.stderr) == ("[]\n", "")


def test_the_engine_kinds_are_the_engines_actions() -> None:
    assert {kind.value for kind in ActionKind} == log_kinds.ENGINE_KINDS


def test_the_log_kinds_are_the_table_services() -> None:
    assert log_kinds.ALL_KINDS == service.EVENTS
    assert {service.START, service.REMATCH} == log_kinds.GAME_STARTS
    assert not log_kinds.TABLE_KINDS & log_kinds.ENGINE_KINDS
