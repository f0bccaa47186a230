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
from pathlib import Path

import pytest

from tests.discord.harness import World

ROOT = Path(__file__).resolve().parents[2]
#: Docker waits 10 s before it kills; the bot's own grace is 3 s.
STOPPED_WITHIN_S = 5.0
START_TIMEOUT_S = 120


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly_with_its_work_done(
    tmp_path: Path, number: signal.Signals
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.discord.stopping_bot",
        str(tmp_path / "spades.db"),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        first = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT_S)
        assert first == b"playing\n", (first, await process.stderr.read())
        await asyncio.sleep(2.0)  # some actions into the game
        process.send_signal(number)
        sent = time.monotonic()
        out, err = await asyncio.wait_for(process.communicate(), STOPPED_WITHIN_S)
        took = time.monotonic() - sent
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    log = err.decode()
    assert process.returncode == 0, log
    assert took < STOPPED_WITHIN_S
    assert f"{number.name} received: stopping" in log
    assert log.rstrip().endswith("stopped"), log[-2000:]
    words = out.decode().split()
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
