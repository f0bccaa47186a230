"""A turn clock over the real store and table service, on a fake clock."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.clock import ClockSettings, Deadline, Scheduler
from bot.clock.deadlines import KINDS
from bot.clock.turn_clock import TurnClock
from bot.tables.model import Table, TableOptions
from bot.tables.service import TableService
from db.store import Store
from tests.clock.fake_clock import FakeClock

HOST = 1000
GUESTS = (1001, 1002, 1003)
HOUR = 3600.0


def pending_of(scheduler: Scheduler, table_id: int, kinds: Sequence[str] = KINDS) -> list[Deadline]:
    """The table's pending deadlines of those kinds, as the clock asks for them."""
    return [d for kind in kinds if (d := scheduler.pending(table_id, kind)) is not None]


@dataclass
class Note:
    what: str
    table_id: int
    at: float
    seat: int | None = None
    left_s: float | None = None


@dataclass
class RecordingNotifier:
    clock: FakeClock
    notes: list[Note] = field(default_factory=list)
    #: Whether an ended game's post is still to come in its thread.
    end_owed: bool = False

    async def remind(self, table: Table, seats: tuple[int, ...], left_s: float) -> None:
        now = self.clock.now()
        self.notes.extend(Note("remind", table.id, now, seat, left_s) for seat in seats)

    async def claim_open(self, table: Table) -> None:
        self.notes.append(Note("claim_open", table.id, self.clock.now()))

    async def stood_in(self, table: Table, seats: tuple[int, ...]) -> None:
        now = self.clock.now()
        self.notes.extend(Note("stood_in", table.id, now, seat) for seat in seats)

    async def lobby_closed(self, table: Table) -> None:
        self.notes.append(Note("lobby_closed", table.id, self.clock.now()))

    async def archive_thread(self, table: Table, wait: bool) -> bool:
        if wait and self.end_owed:
            return False
        self.notes.append(Note("archive_thread", table.id, self.clock.now()))
        return True

    def of(self, what: str) -> list[Note]:
        return [n for n in self.notes if n.what == what]


class World:
    """Store, service, scheduler and turn clock; :meth:`restart` rebuilds all
    but the database file and the clock, as a process restart would."""

    def __init__(self, path: Path, settings: ClockSettings) -> None:
        self.path = path
        self.settings = settings
        self.clock = FakeClock(settle=self.settle)
        self.notifier = RecordingNotifier(self.clock)
        self.seeds = itertools.count(11)
        self.channels = itertools.count(500)
        self.store: Store | None = None
        self.service: TableService | None = None
        self.turns: TurnClock | None = None
        #: How long a finished table's thread stays open (None: not archived).
        self.archive_after_s: float | None = None

    @property
    def svc(self) -> TableService:
        assert self.service is not None
        return self.service

    @property
    def clk(self) -> TurnClock:
        assert self.turns is not None
        return self.turns

    async def settle(self) -> None:
        turns = self.turns
        if turns is not None and turns.scheduler.running:
            await asyncio.wait_for(turns.scheduler.wait_idle(), timeout=10)

    async def start(self) -> None:
        # Durability across power cuts is not under test here; speed is welcome.
        self.store = await Store.open(self.path, synchronous="OFF")
        self.service = await TableService.open(
            self.store, now=self.clock.now, seed_source=lambda: next(self.seeds)
        )
        scheduler = Scheduler(self.store, self.clock)
        self.turns = TurnClock(
            self.service,
            scheduler,
            self.notifier,
            self.settings,
            archive_after_s=self.archive_after_s,
        )
        await self.turns.start()
        await self.settle()

    async def stop(self) -> None:
        if self.turns is not None:
            await self.turns.stop()
            self.turns = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def restart(self, down_for_s: float = 0.0) -> None:
        await self.stop()
        self.clock.t += down_for_s
        await self.start()

    async def table_of_four(self, **options: object) -> Table:
        table = await self.svc.create(1, next(self.channels), HOST, TableOptions.chosen(**options))
        for guest in GUESTS:
            table = await self.svc.join(table.id, guest, table.version)
        return await self.svc.start(table.id, HOST, table.version)

    async def table_with_computers(self, level: str = "random", **options: object) -> Table:
        table = await self.svc.create(1, next(self.channels), HOST, TableOptions.chosen(**options))
        table = await self.svc.add_computers(table.id, HOST, table.version, level)
        return await self.svc.start(table.id, HOST, table.version)

    async def current(self, table_id: int) -> Table:
        return await self.svc.get(table_id)
