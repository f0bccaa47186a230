"""docker-compose.yml and the Dockerfile as the bot reads them.

These tests need no Docker (scripts/check-image.sh builds and runs both for
real): they read the two files and put the bot's own command line to them:
each bot service's command, started in the environment the image and the
compose file give it, must run on the compose file's PostgreSQL with its own
shards, and the image's health check must read the heartbeat file that very
process writes. Together the services cover every shard once.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings
from bot.runner import health, run_settings

ROOT = Path(__file__).resolve().parents[2]
PYTHON_M_BOT = ["python", "-m", "bot"]
#: What ``${NAME:?message}`` is given in the test, as a ``.env`` file would.
DOT_ENV = {"DISCORD_TOKEN": "token-from-dot-env", "POSTGRES_PASSWORD": "secret"}


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return loaded


def bot_services() -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = compose()["services"]
    return {name: s for name, s in services.items() if s["image"] == "spades-bot"}


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text("utf-8").replace("\\\n", " ")


def image_command() -> list[str]:
    """The final stage's CMD: what a bot service runs (none sets a command)."""
    found: list[str] = json.loads(re.findall(r"^CMD (.*)$", dockerfile(), re.M)[-1])
    return found


def image_health_check() -> list[str]:
    """The HEALTHCHECK's command."""
    found: list[str] = json.loads(re.findall(r"^HEALTHCHECK .* CMD (.*)$", dockerfile(), re.M)[-1])
    return found


def substitute(value: str) -> str:
    """Compose's ``${NAME:?error}`` and ``${NAME}``, from :data:`DOT_ENV`."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: DOT_ENV[m[1]], value)


def image_environment() -> dict[str, str]:
    """The ``ENV`` of the Dockerfile: every ``NAME=value`` of its ENV lines."""
    stages = dockerfile().split("\nFROM ")
    found: dict[str, str] = {}
    for line in stages[-1].splitlines():  # the image's, not the build stage's
        if line.startswith("ENV "):
            found.update(re.findall(r"(\w+)=(\S+)", line))
    found.pop("PATH")  # where the image's Python lies; not a setting
    return found


@pytest.fixture
def container(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The process environment of a bot container, its /data volume moved
    into a temporary folder; the folder stands for /data."""
    for name in [n for n in os.environ if n.startswith("SPADES_") or n == "DISCORD_TOKEN"]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # the image's /app holds no config.toml
    return tmp_path


def enter(monkeypatch: pytest.MonkeyPatch, service: dict[str, Any], data: Path) -> None:
    environment = {**image_environment(), **service["environment"]}
    for name, value in environment.items():
        monkeypatch.setenv(name, substitute(str(value)).replace("/data/", f"{data}/"))


def test_compose_runs_postgres_and_two_bots_on_disjoint_shards() -> None:
    services = compose()["services"]
    assert services["postgres"]["image"].startswith("postgres:15")
    bots = bot_services()
    assert sorted(bots) == ["bot-0", "bot-1"]
    for service in bots.values():
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "command" not in service and "healthcheck" not in service, "the image's"
        assert service["volumes"][0].endswith(":/data")
    # One image: bot-0 builds it, bot-1 runs it once bot-0 (and so the image) exists.
    assert [name for name, s in bots.items() if "build" in s] == ["bot-0"]
    assert bots["bot-0"]["build"] == "."
    assert bots["bot-1"]["pull_policy"] == "never"
    assert bots["bot-1"]["depends_on"]["bot-0"]["condition"] == "service_started"
    volumes = [service["volumes"][0] for service in bots.values()]
    assert len(set(volumes)) == len(volumes), "each process keeps its heartbeat apart"


def test_each_bot_runs_on_the_compose_postgres_with_its_own_shards(
    monkeypatch: pytest.MonkeyPatch, container: Path
) -> None:
    postgres = compose()["services"]["postgres"]["environment"]
    covered: list[int] = []
    counts = set()
    for service in bot_services().values():
        enter(monkeypatch, service, container)
        assert image_command()[:3] == PYTHON_M_BOT
        settings = run_settings(image_command()[3:])
        url = urlsplit(settings.database.url or "")
        assert url.scheme == "postgresql"
        assert (url.hostname, url.port) == ("postgres", 5432)
        assert url.username == postgres["POSTGRES_USER"]
        assert url.password == DOT_ENV["POSTGRES_PASSWORD"]
        assert url.path == f"/{postgres['POSTGRES_DB']}"
        assert settings.database.sqlite_file is None
        assert settings.token() == DOT_ENV["DISCORD_TOKEN"]
        shards = settings.discord.shards
        covered += sorted(shards.ids)
        counts.add(shards.count)
    assert len(counts) == 1, "every process is given the same shard count"
    assert sorted(covered) == list(range(counts.pop())), "every shard exactly once"


def test_each_health_check_reads_the_heartbeat_its_own_process_writes(
    monkeypatch: pytest.MonkeyPatch, container: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    heartbeats: list[Path] = []
    for service in bot_services().values():
        enter(monkeypatch, service, container)
        running: Settings = run_settings(image_command()[3:])
        check = ["CMD", *image_health_check()]
        assert check[:4] == ["CMD", *PYTHON_M_BOT] and check[4] == "health"
        assert health(check[5:]) == 1, "no heartbeat yet: unhealthy"
        assert "no heartbeat file" in capsys.readouterr().out
        beat = running.heartbeat_path
        assert beat.parent == container, "the heartbeat lies on the process's /data volume"
        beat.touch()
        assert health(check[5:]) == 0
        assert capsys.readouterr().out.startswith("healthy")
        heartbeats.append(beat)
        beat.unlink()
    assert len(set(heartbeats)) == len(heartbeats)


def test_the_health_check_of_a_container_run_with_shard_flags_reads_its_heartbeat(
    monkeypatch: pytest.MonkeyPatch, container: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``docker run IMAGE python -m bot --shards 1 --shard-count 2``: the
    image's health check, given no flags, finds that process's heartbeat."""
    for name, value in image_environment().items():
        monkeypatch.setenv(name, value.replace("/data/", f"{container}/"))
    (container / "spades.db").touch()
    running = run_settings(["--shards", "1", "--shard-count", "2"])
    check = image_health_check()
    assert check[:4] == [*PYTHON_M_BOT, "health"]
    assert health(check[4:]) == 1
    running.heartbeat_path.touch()
    assert health(check[4:]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("healthy")
    os.utime(running.heartbeat_path, (0, 0))  # a process long gone
    assert health(check[4:]) == 1


def test_postgres_counts_as_healthy_once_it_takes_connections_over_tcp() -> None:
    """While the official image initialises a new database its server listens
    on the local socket only; the bots connect over TCP."""
    check = compose()["services"]["postgres"]["healthcheck"]["test"]
    assert check[:2] == ["CMD", "pg_isready"]
    assert check[check.index("--host") + 1] == "127.0.0.1"


def test_the_build_context_leaves_out_secrets_caches_and_what_the_image_does_not_run() -> None:
    ignored = set((ROOT / ".dockerignore").read_text("utf-8").split())
    for pattern in [".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"]:
        assert pattern in ignored
    for pattern in ["*.egg-info", "docs", ".ci", "tests", "benchmarks"]:
        assert pattern in ignored
    # Secrets, settings and databases at any depth, not only at the top
    # (scripts/check-image.sh builds a context of them and lists what went in).
    for pattern in [".env", ".env.*", "config.toml", "*.db", "*.db-*", "*.heartbeat"]:
        assert f"**/{pattern}" in ignored


def test_the_image_installs_pinned_dependencies_before_the_sources_and_a_compiled_engine() -> None:
    text = dockerfile()
    build, image = text.split("\nFROM ")[-2:]
    pinned = build.index("--requirement constraints/runtime.txt")
    assert build.index("--requirement constraints/build.txt") < pinned
    assert pinned < build.index("COPY bot/game "), "a source edit keeps the dependency layer"
    assert build.index("build_ext --inplace") < build.index("COPY bot ./bot"), (
        "an edit outside the engine keeps the compiled engine"
    )
    assert "--no-build-isolation" in build, "built with the pinned tools"
    assert "assert build == 'compiled'" in build, "no image with the slow engine"
    for lock in ("runtime", "build"):
        lines = (ROOT / "constraints" / f"{lock}.txt").read_text("utf-8").splitlines()
        pins = [line for line in lines if line and not line.startswith("#")]
        assert pins and all(re.fullmatch(r"[\w.-]+==[\w.+-]+", pin) for pin in pins), lock
    # The image itself: no compiler, no sources, only the installed bot.
    assert "COPY --from=build /venv /venv" in image
    assert "COPY bot" not in image and "gcc" not in image
    assert "USER spades" in image
