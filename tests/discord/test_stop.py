"""A clean stop: the bot as a process, stopped by SIGTERM (``docker stop``)
or SIGINT (Ctrl+C) in the middle of a game, exits 0 within a few seconds,
with the table message showing the last committed version (with no grace,
the edit waiting for its turn would be lost: shown 6 of 10 stored)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.discord_app import SpadesBot
from bot.runner import serve
from tests.discord.conftest import fast_settings
from tests.discord.harness import World

ROOT = Path(__file__).resolve().parents[2]
#: Docker waits 10 s before it kills; the bot's own grace is 3 s, and the
#: rest is room for a CI machine whose cores are busy with other tests.
STOPPED_WITHIN_S = 8.0
START_TIMEOUT_S = 120
#: From this long after the process starts, SIGTERM is a clean stop (status 0);
#: before, while Python itself starts, dying of the signal is fine.
HANDLED_FROM_S = 0.2


@asynccontextmanager
async def _process(
    module: str, *args: str, cwd: Path, env: dict[str, str]
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m MODULE ARGS``, with its output piped; killed if a test
    ends while it still runs."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _stop(
    process: asyncio.subprocess.Process, number: signal.Signals
) -> tuple[str, str, float]:
    """Send the signal; the rest of the output, and how long the process took to end."""
    process.send_signal(number)
    sent = time.monotonic()
    out, err = await asyncio.wait_for(process.communicate(), STOPPED_WITHIN_S)
    return out.decode(), err.decode(), time.monotonic() - sent


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly_with_its_work_done(
    tmp_path: Path, number: signal.Signals
) -> None:
    database = str(tmp_path / "spades.db")
    async with _process(
        "tests.discord.stopping_bot", database, cwd=ROOT, env=dict(os.environ)
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)
        assert first == b"playing\n", (first, await process.stderr.read())
        await asyncio.sleep(2.0)  # some actions into the game
        out, log, took = await _stop(process, number)
    assert process.returncode == 0, log
    assert took < STOPPED_WITHIN_S
    assert f"{number.name} received: stopping" in log
    assert log.rstrip().endswith("stopped"), log[-2000:]
    words = out.split()
    assert words[0] == "stored" and words[2] == "shown", out
    stored, shown = int(words[1]), int(words[3])
    assert stored >= 5, "the game was under way"
    assert shown == stored, "the table message shows what was committed last"
    assert "Traceback" not in log, log


@pytest.mark.parametrize("interaction", ["button", "command"])
async def test_a_stopping_bot_answers_a_new_interaction_with_try_again(
    world: World, interaction: str
) -> None:
    alice = world.user("alice")
    await world.new_table(alice)
    world.bot.stop()  # the first interaction after it still gets its answer
    if interaction == "button":
        result = await world.click(alice, "Add computer players")
    else:
        result = await alice.slash(world.channel, "spades new")
    assert result.ephemeral and result.response is not None
    assert result.response.content == "The bot is restarting: try again in a moment."
    table = await world.table()
    assert not any(seat.is_computer for seat in table.seats), "the click changed nothing"


async def test_a_stop_while_the_database_opens_ends_the_start_there(tmp_path: Path) -> None:
    database = tmp_path / "spades.db"
    bot = SpadesBot(fast_settings(database))
    bot.stop()  # asked before the database is open: the stop finds nothing to close
    connected = False

    async def connect() -> None:
        nonlocal connected
        connected = True

    await serve(bot, connect)
    assert not connected, "a stopped bot never logs in"
    assert database.exists(), "the database was opened (and migrated)"
    # The last connection to close checkpoints the write-ahead log away.
    assert not database.with_name("spades.db-wal").exists(), "and closed again"


@pytest.mark.parametrize("moment", [0.05, HANDLED_FROM_S, 0.4, "logging in"])
async def test_sigterm_at_any_moment_of_the_start_stops_the_bot_promptly(
    tmp_path: Path, moment: float | str
) -> None:
    """``python -m bot`` (with a Discord that never answers) stopped while it
    imports, opens the database, or waits at its login: it ends within
    seconds, with status 0 once its handler is in place, and says why."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SPADES_")}
    environment |= {"DISCORD_TOKEN": "fake", "SPADES_DATABASE__PATH": str(tmp_path / "spades.db")}
    # No config.toml where it runs.
    async with _process("tests.discord.silent_start", cwd=tmp_path, env=environment) as process:
        started = time.monotonic()
        assert process.stderr is not None
        before = ""
        if isinstance(moment, str):
            while moment not in before:
                line = await asyncio.wait_for(process.stderr.readline(), START_TIMEOUT_S)
                assert line, before
                before += line.decode()
        else:
            await asyncio.sleep(started + moment - time.monotonic())
        _, rest, took = await _stop(process, signal.SIGTERM)
    log = before + rest
    assert took < STOPPED_WITHIN_S
    if isinstance(moment, float) and moment < HANDLED_FROM_S:
        assert process.returncode in (0, -signal.SIGTERM), log
    else:
        assert process.returncode == 0, log
    if process.returncode == 0:
        assert "SIGTERM received" in log, log
    if moment == "logging in":
        assert "SIGTERM received: stopping" in log and log.rstrip().endswith("stopped"), log
    assert "Traceback" not in log, log
    assert "\x1b[" not in log, "plain text where the log is not a terminal"
