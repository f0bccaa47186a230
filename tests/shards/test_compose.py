"""docker-compose.yml and the Dockerfile as the bot reads them.

No Docker runs here, so these tests read the two files and put the bot's own
command line to them: each bot service's command, started in the environment
the image and the compose file give it, must run on the compose file's
PostgreSQL with its own shards, and its health check must read the heartbeat
file that very process writes. Together the services cover every shard once.
"""

from __future__ import annotations

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
    return {name: s for name, s in services.items() if s.get("command", [])[:3] == PYTHON_M_BOT}


def substitute(value: str) -> str:
    """Compose's ``${NAME:?error}`` and ``${NAME}``, from :data:`DOT_ENV`."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: DOT_ENV[m[1]], value)


def image_environment() -> dict[str, str]:
    """The ``ENV`` of the Dockerfile: every ``NAME=value`` of its ENV lines."""
    text = (ROOT / "Dockerfile").read_text("utf-8").replace("\\\n", " ")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            found.update(re.findall(r"(\w+)=(\S+)", line))
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
        assert service["build"] == "."
        assert service["volumes"][0].endswith(":/data")
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
        settings = run_settings(service["command"][3:])
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
        running: Settings = run_settings(service["command"][3:])
        check = service["healthcheck"]["test"]
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
