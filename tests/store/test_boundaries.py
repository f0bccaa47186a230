"""db stands at the bottom: it imports nothing of the bot, and the log kinds
it reads are the ones the bot writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.game.types import ActionKind
from bot.tables import kinds
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


def test_the_store_and_the_engine_name_no_kind_alike() -> None:
    # A game's actions are told apart from the table's by kind alone.
    table_kinds = {v for k, v in vars(log_kinds).items() if k.isupper() and isinstance(v, str)}
    assert {"create", "bots", "seat_refused"} <= table_kinds
    assert not table_kinds & {kind.value for kind in ActionKind}
    assert {kinds.START, kinds.REMATCH} == log_kinds.GAME_STARTS
