"""Settings: the file, the environment, and one clear line for every mistake."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.clock.deadlines import notice_offsets
from bot.config import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    for name in [n for n in __import__("os").environ if n.startswith("SPADES_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no stray config.toml


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_config_is_complete_and_matches_the_defaults() -> None:
    example = load_settings(ROOT / "config.example.toml")
    defaults = load_settings()
    assert example.model_dump() == defaults.model_dump()
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    for section, model in defaults:
        assert f"[{section}]" in text
        for key in type(model).model_fields:
            assert f"{key} =" in text, f"{section}.{key} is not documented"


def test_file_values_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, '[tables]\ncomputer_delay_s = 0.5\n[database]\npath = "x/s.db"\n')
    settings = load_settings(path)
    assert settings.tables.computer_delay_s == 0.5
    assert settings.database.path == Path("x/s.db")
    assert settings.heartbeat_path == Path("x/s.db.heartbeat")


def test_token_comes_from_the_environment_before_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, '[discord]\ntoken = "from-file"\n')
    assert load_settings(path).token() == "from-file"
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert load_settings(path).token() == "from-env"


def test_prefixed_environment_variables_override_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, '[database]\npath = "file.db"\n')
    monkeypatch.setenv("SPADES_DATABASE__PATH", "/data/spades.db")
    assert load_settings(path).database.path == Path("/data/spades.db")


# The turn notices as earlier versions set them: the first one in [tables]
# (a "turn mention"), the later ones in [clock] (reminders).
EARLIER_NOTICES = """
[tables]
turn_ping = false
turn_ping_delay_s = 45.0
[clock]
remind_after_s = [300.0]
remind_at_fractions = [0.25, 0.75]
remind_before_s = [1800.0]
min_reminder_gap_s = 30.0
"""
NOTICES = """
[clock]
first_notice = false
first_notice_s = 45.0
notice_after_s = [300.0]
notice_at_fractions = [0.25, 0.75]
notice_before_s = [1800.0]
min_notice_gap_s = 30.0
"""


def test_a_config_file_of_earlier_versions_sets_the_same_turn_notices(tmp_path: Path) -> None:
    earlier = load_settings(write(tmp_path, EARLIER_NOTICES)).clock
    assert earlier == load_settings(write(tmp_path, NOTICES)).clock
    assert earlier != load_settings().clock  # the file did change something
    assert (earlier.first_notice, earlier.first_notice_s) == (False, 45.0)
    assert notice_offsets(earlier, 4 * 3600) == [300.0, 3600.0, 3 * 3600.0, 3.5 * 3600]


def test_clock_keys_win_over_the_earlier_tables_keys(tmp_path: Path) -> None:
    both = "[tables]\nturn_ping_delay_s = 5.0\n[clock]\nfirst_notice_s = 20.0\n"
    assert load_settings(write(tmp_path, both)).clock.first_notice_s == 20.0


def test_earlier_turn_notice_names_come_from_the_environment_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPADES_TABLES__TURN_PING_DELAY_S", "7")
    monkeypatch.setenv("SPADES_CLOCK__REMIND_BEFORE_S", "[120.0]")
    clock = load_settings().clock
    assert clock.first_notice_s == 7.0 and clock.notice_before_s == (120.0,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[tables]\ncomputer_delay_s = -1\n", "tables.computer_delay_s: Input should be greater"),
        ("[tables]\ncomputer_delay = 1\n", "unknown setting tables.computer_delay"),
        ("[tabels]\n", "unknown setting tabels"),
        ("[tables\n", "is not valid TOML"),
        ('[tables]\ncomputer_level = "genius"\n', "unknown computer level 'genius'"),
        ('[logging]\nlevel = "LOUD"\n', "logging.level: Input should be"),
        ('[clock]\nstand_in_level = "heurstic"\n', "unknown computer level 'heurstic'"),
        ('[database]\nurl = "postgresql://u:secret@db:port/s"\n', "port in postgresql://u:***@db"),
        ('[database]\nurl = ""\n', "database.url: names no database"),
    ],
)
def test_bad_settings_are_one_clear_line(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(write(tmp_path, text))
    message = str(caught.value)
    assert expected in message and "\n" not in message


@pytest.mark.parametrize(
    ("variable", "value", "problems"),
    [
        # [tables] keys the clock also reads: each one bad value, reported once.
        ("SPADES_TABLES__COMPUTER_DELAY_S", "-1", "tables.computer_delay_s: "),
        ("SPADES_TABLES__TURN_PING", "maybe", "tables.turn_ping: "),
        ("SPADES_TABLES__TURN_PING_DELAY_S", "-5", "tables.turn_ping_delay_s: "),
        ("SPADES_CLOCK__COMPUTER_DELAY_S", "-1", "clock.computer_delay_s: "),
    ],
)
def test_one_bad_value_is_one_problem(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, problems: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert problems in message, message
    assert "more problem" not in message, message


def test_a_file_not_saved_as_utf8_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "bot.toml"
    path.write_bytes(b"[tables]\ncomputer_level = '\xe9lite'\n")  # Latin-1, as old editors save
    with pytest.raises(ConfigError, match=r"bot\.toml is not valid TOML: it is not saved as UTF-8"):
        load_settings(path)


@pytest.mark.parametrize(
    ("variable", "value"),
    [("SPADES_CLOCK__NOTICE_AT_FRACTIONS", "0.5,0.75"), ("SPADES_DISCORD", "shard_count=2")],
)
def test_an_environment_list_that_is_not_json_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError, match="is written in JSON") as caught:
        load_settings()
    assert "\n" not in str(caught.value)


def test_a_retired_stand_in_level_still_loads(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, '[clock]\nstand_in_level = "heuristic-v1"\n'))
    assert settings.clock.stand_in_level == "heuristic"


def test_two_bad_values_are_two_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPADES_TABLES__COMPUTER_DELAY_S", "-1")
    monkeypatch.setenv("SPADES_LOGGING__LEVEL", "LOUD")
    with pytest.raises(ConfigError, match=r"\(and 1 more problem\)$"):
        load_settings()


def test_missing_token_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings(write(tmp_path, "")).token()


def test_run_without_token_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN" in err and "Traceback" not in err


def test_sync_with_a_bad_setting_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "[tables]\nturn_ping = 3\n")
    with pytest.raises(SystemExit) as caught:
        main(["sync", "--config", str(path), "--guild", "12"])
    assert caught.value.code == 2
    assert "tables.turn_ping" in capsys.readouterr().err


def test_missing_explicit_config_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--config", "nowhere.toml"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.strip() == "spades-bot: config file nowhere.toml not found"


def test_bad_argument_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["sync", "--guild", "abc"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_health_reports_a_missing_and_a_fresh_heartbeat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, f'[database]\npath = "{tmp_path / "s.db"}"\n')
    assert main(["health", "--config", str(path)]) == 1
    (tmp_path / "s.db").write_bytes(b"")
    assert main(["health", "--config", str(path)]) == 1
    (tmp_path / "s.db.heartbeat").write_text("1")
    assert main(["health", "--config", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("healthy")


@pytest.mark.parametrize("shards", ["", "[discord]\nshard_count = 2\nshard_ids = [1]\n"])
def test_an_unusable_database_stops_the_bot_before_it_connects(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    shards: str,
) -> None:
    # A sharded client too: it stops with the one line, not a failure to close
    # the gateway it never opened.
    (tmp_path / "file").write_text("not a folder")
    path = write(tmp_path, f'{shards}[database]\npath = "{tmp_path / "file" / "spades.db"}"\n')
    monkeypatch.setenv("DISCORD_TOKEN", "never-used")
    with pytest.raises(SystemExit) as caught:
        main(["--config", str(path)])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("spades-bot: cannot open the database") and err.count("\n") == 1


async def test_publishing_builds_every_command_without_the_real_database(tmp_path: Path) -> None:
    from bot.config import DatabaseSettings, Settings
    from bot.discord_app import SpadesBot

    settings = Settings(database=DatabaseSettings(path=tmp_path / "never.db"))
    async with SpadesBot(settings, commands_only=True) as bot:
        await bot.setup_hook()
        names = {c.qualified_name for c in bot.tree.walk_commands()}
        await bot.close()
    assert {"spades new", "spades hand", "spades deck", "revoke", "spades claim"} <= names
    assert {"spades leaderboard"} <= names
    assert not (tmp_path / "never.db").exists()


@pytest.mark.parametrize(
    ("file", "environment"),
    [
        (b"[tables]\ncomputer_delay_s = 'soon'\n", {}),
        (b"[tables]\ncomputer_level = '\xe9lite'\n", {}),
        (b"", {"SPADES_DATABASE__URL": "postgresql://u:p@db:port/spades"}),
        (b"", {"SPADES_CLOCK__NOTICE_AT_FRACTIONS": "0.5,0.75"}),
    ],
    ids=["bad value", "not UTF-8", "bad port", "not JSON"],
)
def test_the_real_command_never_prints_a_traceback(
    tmp_path: Path, file: bytes, environment: dict[str, str]
) -> None:
    bad = tmp_path / "bot.toml"
    bad.write_bytes(file)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "x", **environment},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("spades-bot: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    for name in ("sync", "health", "simulate"):
        line = next(line for line in out.splitlines() if line.strip().startswith(name + " "))
        assert len(line.split()) > 2, line  # the name and one line saying what it does


def test_database_url_names_sqlite_or_postgresql(tmp_path: Path) -> None:
    # A file written before the URL existed: its path is still the database.
    old = load_settings(write(tmp_path, '[database]\npath = "old/s.db"\n'))
    assert old.database.target == "old/s.db"
    sqlite = load_settings(write(tmp_path, '[database]\nurl = "sqlite:///data/s.db"\n'))
    assert sqlite.database.sqlite_file == Path("data/s.db")
    assert sqlite.heartbeat_path == Path("data/s.db.heartbeat")
    url = "postgresql://spades:secret@db:5432/spades"
    pg = load_settings(write(tmp_path, f'[database]\nurl = "{url}"\n'))
    assert pg.database.target == url and pg.database.sqlite_file is None
    assert pg.heartbeat_path == Path("spades.db.heartbeat")


def test_an_unknown_database_url_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"database\.url: unknown database URL mysql://") as e:
        load_settings(write(tmp_path, '[database]\nurl = "mysql://x@y/z"\n'))
    assert "\n" not in str(e.value)
