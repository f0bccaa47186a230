"""SimCord harness: the real bot, a simulated Discord, and helpers to play.

Every test gets a fresh database in ``tmp_path``; ``restart`` builds a new
bot on the same database and settings, the way a real restart would.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import DatabaseSettings, Settings, TableSettings
from cogs.notices import TableTokens
from tests.discord.harness import UNPACED


def fast_settings(db: Path, **tables: object) -> Settings:
    """Computer players, first turn notices and table edits without delay,
    so games run at once. ``tables`` may use the earlier names of the first
    notice's settings (turn_ping, turn_ping_delay_s), which still work."""
    table_settings = {"computer_delay_s": 0.0, "turn_ping_delay_s": 0.0, **tables}
    return Settings(
        discord=UNPACED,
        database=DatabaseSettings(path=db),
        tables=TableSettings.model_validate(table_settings),
    )


def seeds(start: int = 1) -> Callable[[], int]:
    counter = itertools.count(start)
    return lambda: next(counter)


@pytest.fixture
def table_settings() -> dict[str, object]:
    """Override in a test module to change the [tables] settings."""
    return {}


@pytest.fixture
def settings(tmp_path: Path, table_settings: dict[str, object]) -> Settings:
    return fast_settings(tmp_path / "spades.db", **table_settings)


@pytest.fixture
def no_fresh_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """No press leaves a token: every request rides the bot's own budget, as
    when no press on a table message is under 14 minutes old (for tests of
    how the bot's route handles Discord's refusals)."""
    monkeypatch.setattr(TableTokens, "offer", lambda *_args: None)
