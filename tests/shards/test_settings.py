"""The shard settings and flags: what they mean, and one line for each mistake."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings
from bot.discord_app import ShardedSpadesBot, SpadesBot, bot_class
from bot.shards import ALL_SHARDS, Shards, format_shard_ids, parse_shard_ids, shard_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in [n for n in os.environ if n.startswith("SPADES_")]:
        monkeypatch.delenv(name)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)


def test_a_servers_shard_is_discords_formula() -> None:
    guild = 81384788765712384  # a real-looking snowflake
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 8) == (guild >> 22) % 8
    assert shard_of(None, 8) == 0  # direct messages come on shard 0
    two = Shards(2, frozenset({1}))
    assert two.owns(1 << 22) and not two.owns(2 << 22) and not two.owns(None)
    assert ALL_SHARDS.owns(guild) and ALL_SHARDS.owns(None)
    with pytest.raises(ValueError, match="shard 2 does not exist"):
        Shards(2, frozenset({2}))


def test_shard_lists_read_and_write_alike() -> None:
    assert parse_shard_ids("0-3") == {0, 1, 2, 3}
    assert parse_shard_ids("0, 2,5-6") == {0, 2, 5, 6}
    assert format_shard_ids(frozenset({0, 1, 2, 3, 6, 8, 9})) == "0-3,6,8-9"
    for bad in ("", "a", "3-1", "1-", "-1", "\u0661", "1_0"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)
    # Against the count before the range is built: a typo's billions of shards are never made.
    with pytest.raises(ValueError, match="shard 10000000000 does not exist with shard_count = 8"):
        parse_shard_ids("0-10000000000", 8)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shard_settings_from_the_file_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(write(tmp_path, "[discord]\nshard_count = 8\nshard_ids = [3, 1]\n"))
    assert settings.discord.sharded and settings.discord.shards == Shards(8, frozenset({1, 3}))
    assert settings.heartbeat_path == Path("spades.db.shards-1,3-of-8.heartbeat")
    only_count = load_settings(write(tmp_path, "[discord]\nshard_count = 2\n"))
    assert only_count.discord.shards == Shards(2, frozenset({0, 1}))
    monkeypatch.setenv("SPADES_DISCORD__SHARD_COUNT", "8")
    monkeypatch.setenv("SPADES_DISCORD__SHARD_IDS", "4-7")
    assert load_settings().discord.shards == Shards(8, frozenset(range(4, 8)))


def test_settings_files_without_shards_load_as_before(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "[discord]\nrest_per_s = 10\n"))
    assert not settings.discord.sharded and settings.discord.shards == ALL_SHARDS
    assert settings.heartbeat_path == Path("spades.db.heartbeat")
    assert bot_class(settings) is SpadesBot


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("shard_ids = [0]", "discord: shard_ids needs shard_count"),
        ("shard_count = 2\nshard_ids = [2]", "discord: shard 2 does not exist with shard_count"),
        ("shard_count = 0", "discord.shard_count: Input should be greater than or equal to 1"),
        ("shard_count = 4\nshard_ids = []", "discord.shard_ids: shard_ids lists no shard"),
        ('shard_count = 4\nshard_ids = "two"', "discord.shard_ids: 'two' is not a list of shards"),
        ('shard_count = 8\nshard_ids = "0-10000000000"', "shard 10000000000 does not exist"),
        ('shard_ids = "0-10000000000"', "discord: shard_ids needs shard_count"),
    ],
)
def test_a_bad_shard_setting_is_one_clear_line(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(write(tmp_path, f"[discord]\n{text}\n"))
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_sharded_bot_is_an_auto_sharded_client_of_its_shards() -> None:
    settings = Settings(discord={"shard_count": 8, "shard_ids": "0-3"})
    bot = bot_class(settings)(settings)
    assert isinstance(bot, ShardedSpadesBot)
    assert (bot.shard_count, bot.shard_ids) == (8, [0, 1, 2, 3])


def run_bot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPADES_")}
    env.pop("DISCORD_TOKEN", None)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_shard_flags_reach_the_settings_and_bad_ones_say_why(tmp_path: Path) -> None:
    # health takes the flags the process runs with: it finds that process's heartbeat.
    healthy = run_bot("health", "--shards", "0-3", "--shard-count", "8", cwd=tmp_path)
    assert healthy.returncode == 1
    (tmp_path / "spades.db").touch()
    healthy = run_bot("health", "--shards", "0-3", "--shard-count", "8", cwd=tmp_path)
    assert "spades.db.shards-0-3-of-8.heartbeat" in healthy.stdout
    bad = run_bot("--shards", "9", "--shard-count", "8", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "spades-bot: settings: discord.shard_ids: shard 9 does not exist with shard_count = 8"
        " (shards are numbered 0 to 7)"
    ]
    typo = run_bot("--shards", "0-10000000000", "--shard-count", "8", cwd=tmp_path)
    assert typo.returncode == 2 and "shard 10000000000 does not exist" in typo.stderr
    no_count = run_bot("--shards", "0", cwd=tmp_path)
    assert no_count.returncode == 2
    assert "shard_ids needs shard_count" in no_count.stderr
    assert len(no_count.stderr.strip().splitlines()) == 1
