"""The benchmarks' SimCord tests run the bot with the settings the click
benchmark uses: a real bot's defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.click import bench_settings
from bot.config import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return bench_settings(tmp_path / "spades.db")
