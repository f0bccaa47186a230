"""Real processes: two of disjoint shards play over one store; one is killed
with SIGKILL in the middle of a trick and its shard started in a new process.
Its tables resume there at (or one past) the last acknowledged version and
play to the end: no acknowledged action lost, none applied twice."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections import defaultdict
from pathlib import Path

from bot.game.state import Game
from bot.game.types import Action
from bot.tables.kinds import ENGINE_KINDS
from bot.tables.model import TableOptions, TableStatus
from db.store import Store

from .cores import Now, open_core

ROOT = Path(__file__).resolve().parents[2]
#: The killed process has acknowledged at least this many actions (of its two
#: tables together) before the kill, which lands within a few more: fewer
#: than the shortest game takes (one hand: 4 bids and 52 cards), so neither
#: table can have finished, however unevenly the two progressed.
ACTIONS_BEFORE_KILL = 48
TIMEOUT_S = 240


class Worker:
    """``python -m tests.shards.worker`` and what it said, line by line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[list[str]] = []
        self.acked: dict[int, int] = {}
        self.resumed: dict[int, int] = {}
        self.done: dict[int, int] = {}

    @classmethod
    async def start(cls, location: str, shard: int, *channels: int) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.shards.worker",
            location,
            str(shard),
            *map(str, channels),
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def next_line(self) -> list[str] | None:
        assert self.process.stdout is not None
        raw = await self.process.stdout.readline()
        if not raw:
            return None
        words = raw.decode().split()
        self.lines.append(words)
        kind, table, version = words[0], int(words[1]), int(words[2])
        {"ack": self.acked, "resumed": self.resumed, "done": self.done}[kind][table] = version
        return words

    async def kill_mid_trick(self, after_actions: int) -> None:
        """SIGKILL right after an acknowledgement with cards on the table."""
        while (words := await self.next_line()) is not None:
            mid_trick = words[0] == "ack" and words[3] in ("1", "2", "3")
            if mid_trick and sum(w[0] == "ack" for w in self.lines) >= after_actions:
                self.process.send_signal(signal.SIGKILL)
                break
        # What it acknowledged before the signal landed is still in the pipe.
        while await self.next_line() is not None:
            pass
        await self.process.wait()
        assert self.process.returncode == -signal.SIGKILL, "it finished before the kill"

    async def finish(self) -> None:
        while await self.next_line() is not None:
            pass
        assert await self.process.wait() == 0


async def _assert_played_once_each(store: Store, table_id: int) -> None:
    """One log row per version, and the game replays from its log to its end
    (an action applied twice, a card played twice, would not replay)."""
    record = await store.load_table(table_id)
    assert record is not None and record.game is not None
    assert record.status == TableStatus.FINISHED
    log = await store.action_log(table_id)
    assert [e.seq for e in log] == list(range(1, record.version + 1))
    rules = TableOptions.model_validate_json(record.options_json).rules()
    actions = [
        Action.from_logged(e.kind, e.payload, e.at)
        for e in record.game_log
        if e.kind in ENGINE_KINDS
    ]
    game = Game.replay(rules, record.game.seed, actions, record.game.started_at)
    assert game.over


async def test_a_killed_process_s_shard_resumes_in_another_losing_nothing(
    store_location: str,
) -> None:
    # The store exists (migrated) before two processes start on it.
    await (await open_core(store_location, None, Now())).close()
    workers = [
        killed := await Worker.start(store_location, 0, 100, 101),
        survivor := await Worker.start(store_location, 1, 200, 201),
    ]
    try:
        surviving = asyncio.create_task(survivor.finish())
        await asyncio.wait_for(killed.kill_mid_trick(ACTIONS_BEFORE_KILL), TIMEOUT_S)
        assert len(killed.acked) == 2 and not killed.done

        workers.append(successor := await Worker.start(store_location, 0, 100, 101))
        await asyncio.wait_for(successor.finish(), TIMEOUT_S)
        await asyncio.wait_for(surviving, TIMEOUT_S)
    finally:
        for worker in workers:  # none outlives a failed test
            if worker.process.returncode is None:
                worker.process.kill()
                await worker.process.wait()

    # Each table of the killed process resumed at its last acknowledged
    # version, or one past it (a commit whose acknowledgement the kill cut off).
    assert successor.resumed.keys() == killed.acked.keys()
    for table_id, acked in killed.acked.items():
        assert acked <= successor.resumed[table_id] <= acked + 1
    assert successor.done.keys() == killed.acked.keys()
    assert len(survivor.done) == 2 and not survivor.resumed
    versions: dict[int, list[int]] = defaultdict(list)
    for words in successor.lines + survivor.lines:
        if words[0] == "ack":
            versions[int(words[1])].append(int(words[2]))
    for acked_versions in versions.values():
        assert acked_versions == sorted(set(acked_versions)), "a version acknowledged twice"

    core = await open_core(store_location, None, Now())
    try:
        for table_id in [*killed.acked, *survivor.done]:
            await _assert_played_once_each(core.store, table_id)
    finally:
        await core.close()
