"""Application cores of a sharded bot, several over one store, in one test.

Each :class:`Core` is what one process of the bot runs without Discord: its
own store connection and a :class:`~bot.app.SpadesApp` built for a set of
shards. Two shards in all; :data:`GUILDS` holds one server of each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.app import SpadesApp, Store, open_store
from bot.config import Settings
from bot.shards import shard_of
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from tests.service.driver import GUESTS, HOST, Chooser, seed_counter

SHARD_COUNT = 2
#: A server on each shard: ``GUILDS[s]`` is carried by shard ``s``.
GUILDS = (10 << 22, 11 << 22)
assert [shard_of(g, SHARD_COUNT) for g in GUILDS] == [0, 1]


class Now:
    """Epoch seconds that move only when a test says so."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class Note:
    what: str
    table_id: int
    seat: int | None = None


@dataclass
class RecordingNotifier:
    notes: list[Note] = field(default_factory=list)

    async def remind(self, table: Table, seats: tuple[int, ...], left_s: float) -> None:
        self.notes.extend(Note("remind", table.id, seat) for seat in seats)

    async def claim_open(self, table: Table) -> None:
        self.notes.append(Note("claim_open", table.id))

    async def stood_in(self, table: Table, seats: tuple[int, ...]) -> None:
        self.notes.extend(Note("stood_in", table.id, seat) for seat in seats)

    async def lobby_closed(self, table: Table) -> None:
        self.notes.append(Note("lobby_closed", table.id))

    async def archive_thread(self, table: Table, wait: bool) -> bool:
        self.notes.append(Note("archive_thread", table.id))
        return True

    def of(self, what: str) -> list[Note]:
        return [n for n in self.notes if n.what == what]


def shard_settings(shard_ids: str | None, **sections: object) -> Settings:
    """Settings of the process of ``shard_ids`` (None: the unsharded bot)."""
    discord = {"shard_count": SHARD_COUNT, "shard_ids": shard_ids} if shard_ids else {}
    return Settings(discord=discord, **sections)  # type: ignore[arg-type]


@dataclass
class Core:
    app: SpadesApp
    store: Store
    notifier: RecordingNotifier

    @property
    def tables(self) -> TableService:
        return self.app.tables

    async def close(self) -> None:
        await self.app.close()
        await self.store.close()


async def open_core(
    location: str,
    shard_ids: str | None,
    now: Now,
    **sections: object,
) -> Core:
    """A process's core on ``shard_ids`` ("0", "1", "0-1"), started."""
    store = await open_store(location)
    notifier = RecordingNotifier()
    app = await SpadesApp.open(
        shard_settings(shard_ids, **sections),
        store,
        now=now,
        notifier=notifier,
        seed_source=seed_counter(),
    )
    await app.start()
    return Core(app, store, notifier)


async def started_table(
    tables: TableService, guild_id: int, channel_id: int, *, humans: int = 4, target: int = 250
) -> Table:
    """A table of ``humans`` people (computers in the other seats), dealt."""
    table = await tables.create(guild_id, channel_id, HOST, TableOptions(target=target))
    for guest in GUESTS[: humans - 1]:
        table = await tables.join(table.id, guest, table.version)
    if humans < 4:
        table = await tables.add_computers(table.id, HOST, table.version, "random")
    return await tables.start(table.id, HOST, table.version)


async def play_to_end(tables: TableService, table: Table, seed: int) -> Table:
    chooser = Chooser(seed)
    while table.status is TableStatus.PLAYING:
        table = await chooser.step(tables, table)
    return table
