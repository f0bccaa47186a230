"""Loading tables while another process writes: every record read is whole
(the loads' several queries see one snapshot of the database)."""

from __future__ import annotations

import asyncio

from bot.app import open_store
from bot.tables.service import TableService
from tests.service.driver import GUESTS, HOST

from .cores import GUILDS

CREATED = 150


async def test_tables_created_elsewhere_during_a_load_are_read_whole_or_not_at_all(
    store_location: str,
) -> None:
    writer_store, reader_store = await open_store(store_location), await open_store(store_location)
    try:
        writer = await TableService.open(writer_store)
        done = asyncio.Event()

        async def create() -> None:
            for channel in range(CREATED):
                table = await writer.create(GUILDS[1], 1000 + channel, HOST)
                await writer.join(table.id, GUESTS[0], table.version)
            done.set()

        async def load() -> int:
            loads = 0
            while not done.is_set() or loads == 0:
                for record in await reader_store.load_open_tables():
                    assert len(record.seats) == 4
                    assert record.version >= 1
                loads += 1
            return loads

        _, loads = await asyncio.gather(create(), load())
        assert loads > 1
        assert len(await reader_store.load_open_tables()) == CREATED
    finally:
        await writer_store.close()
        await reader_store.close()
