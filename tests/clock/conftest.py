from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.clock import ClockSettings, Deadline, Scheduler
from tests.clock.fake_clock import FakeClock
from tests.clock.memory_store import MemoryDeadlineStore
from tests.clock.world import World


class Recorder:
    """A deadline handler that remembers what fired and when."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.fired: list[tuple[float, Deadline]] = []

    async def __call__(self, deadline: Deadline) -> None:
        self.fired.append((self.clock.now(), deadline))

    def keys(self) -> list[tuple[int, str]]:
        return [d.key for _, d in self.fired]


class Harness:
    """A scheduler on a fake clock over a store that survives restarts."""

    def __init__(self) -> None:
        self.store = MemoryDeadlineStore()
        self.clock = FakeClock(settle=self.settle)
        self.recorder = Recorder(self.clock)
        self.scheduler: Scheduler | None = None
        self.setup: Callable[[Scheduler], None] = lambda s: s.on("ping", self.recorder)

    async def settle(self) -> None:
        if self.scheduler is not None and self.scheduler.running:
            await asyncio.wait_for(self.scheduler.wait_idle(), timeout=5)

    async def start(self) -> Scheduler:
        self.scheduler = Scheduler(self.store, self.clock, retry_after_s=60)
        self.setup(self.scheduler)
        await self.scheduler.start()
        await self.settle()
        return self.scheduler

    async def restart(self) -> Scheduler:
        assert self.scheduler is not None
        await self.scheduler.stop()
        return await self.start()


@pytest.fixture
async def harness() -> AsyncIterator[Harness]:
    h = Harness()
    yield h
    if h.scheduler is not None:
        await h.scheduler.stop()


@pytest.fixture
def clock_settings() -> ClockSettings:
    return ClockSettings(computer_delay_s=2.0)


@pytest.fixture
async def world(tmp_path: Path, clock_settings: ClockSettings) -> AsyncIterator[World]:
    w = World(tmp_path / "spades.db", clock_settings)
    await w.start()
    yield w
    await w.stop()
