"""Tables come into memory on first touch: a reopened service knows every
open table from its rows, finds them by channel, thread and player, and
reads a table's log and replays its game only when it is asked for."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService
from db.store import Store, TableRecord
from tests.backends import Backend
from tests.service.driver import GUESTS, HOST, Chooser, FakeClock, seated_table, seed_counter

THREAD = 9001


class CountingStore:
    """Counts the tables ``store`` reads back one at a time."""

    def __init__(self, store: Store) -> None:
        self.read: list[int] = []
        self._load_table = store.load_table
        store.load_table = self._counted  # type: ignore[method-assign]

    async def _counted(self, table_id: int) -> TableRecord | None:
        self.read.append(table_id)
        return await self._load_table(table_id)


@pytest.fixture
async def tables(backend: Backend, clock: FakeClock) -> AsyncIterator[dict[str, Table]]:
    """A lobby, a game in progress (talking in a thread) and a finished game,
    written by one service whose store is then closed."""
    store = await backend.open()
    try:
        service = await TableService.open(store, now=clock, seed_source=seed_counter())
        lobby = await service.create(1, 700, GUESTS[2])
        playing = await seated_table(service, channel=701)
        playing = await service.start(playing.id, HOST, playing.version)
        chooser = Chooser(3)
        for _ in range(9):  # the bids and into the first trick
            playing = await chooser.step(service, playing)
        playing = await service.set_thread(playing.id, THREAD)
        finished = await seated_table(service, channel=702, target=250)
        finished = await service.start(finished.id, HOST, finished.version)
        finished = await service.resign(finished.id, HOST, finished.version)
        assert finished.status is TableStatus.FINISHED
        yield {"lobby": lobby, "playing": playing, "finished": finished}
    finally:
        await store.close()


@pytest.fixture
async def reopened(backend: Backend) -> AsyncIterator[tuple[Store, CountingStore]]:
    store = await backend.open()
    try:
        yield store, CountingStore(store)
    finally:
        await store.close()


def _seen(table: Table) -> dict[str, Any]:
    return {
        "version": table.version,
        "seats": table.seats,
        "thread": table.thread_id,
        "game": table.game.observable() if table.game is not None else None,
    }


async def test_opening_reads_no_table_and_counts_the_open_ones(
    tables: dict[str, Table], reopened: tuple[Store, CountingStore]
) -> None:
    store, counting = reopened
    service = await TableService.open(store)
    assert sorted(t.id for t in service.open_tables()) == sorted(
        [tables["lobby"].id, tables["playing"].id]
    )
    assert len(service.open_tables()) == 2
    assert counting.read == []


async def test_a_table_is_replayed_when_first_asked_for_and_kept(
    tables: dict[str, Table], reopened: tuple[Store, CountingStore]
) -> None:
    store, counting = reopened
    service = await TableService.open(store)
    playing = tables["playing"]
    found = await service.in_channel(701)
    assert found is not None and _seen(found) == _seen(playing)
    assert counting.read == [playing.id]
    assert await service.get(playing.id) is found  # in memory now: not read again
    assert counting.read == [playing.id]
    # A finished table is no open one, but it comes back when asked for by id.
    finished = await service.get(tables["finished"].id)
    assert _seen(finished) == _seen(tables["finished"])
    assert counting.read == [playing.id, finished.id]


async def test_tables_are_found_by_thread_and_by_player_without_the_others(
    tables: dict[str, Table], reopened: tuple[Store, CountingStore]
) -> None:
    store, counting = reopened
    service = await TableService.open(store)
    in_thread = await service.in_channel(THREAD)
    assert in_thread is not None and in_thread.id == tables["playing"].id
    assert counting.read == [tables["playing"].id]
    mine = await service.tables_of_user(GUESTS[2])
    assert sorted(t.id for t in mine) == sorted([tables["lobby"].id, tables["playing"].id])
    assert sorted(counting.read) == sorted([tables["playing"].id, tables["lobby"].id])
    assert await service.in_channel(702) is None  # the finished table's channel is free
    assert await service.tables_of_user(123456) == []
    assert len(counting.read) == 2


async def test_a_table_created_after_the_start_is_open_with_the_rest(
    tables: dict[str, Table], reopened: tuple[Store, CountingStore]
) -> None:
    store, counting = reopened
    service = await TableService.open(store)
    created = await service.create(1, 703, HOST)
    assert len(service.open_tables()) == 3
    assert (await service.in_channel(703)) == created
    playing = await service.get(tables["playing"].id)
    chooser = Chooser(5)
    moved = await chooser.step(service, playing)
    assert moved.version == playing.version + 1
    assert counting.read == [playing.id]


async def test_a_game_a_moderator_ended_keeps_their_reason_when_read_back(
    backend: Backend, clock: FakeClock
) -> None:
    store = await backend.open()
    try:
        service = await TableService.open(store, now=clock, seed_source=seed_counter())
        table = await seated_table(service, channel=710)
        table = await service.start(table.id, HOST, table.version)
        ended = await service.end_by_moderator(table.id, 77, "abandoned")
        assert ended.result is not None and ended.result.note == "abandoned"
    finally:
        await store.close()
    store = await backend.open()
    try:
        again = await TableService(store).get(ended.id)
        assert again.result == ended.result
        assert _seen(again) == _seen(ended)
    finally:
        await store.close()


async def test_which_tables_a_shard_serves_is_told_without_reading_them(
    tables: dict[str, Table], backend: Backend, clock: FakeClock
) -> None:
    store = await backend.open()
    try:
        elsewhere = await TableService.open(store, now=clock)
        other = await elsewhere.create(2, 720, HOST)  # a table of server 2
        counting = CountingStore(store)
        service = await TableService.open(store, owns=lambda guild_id: guild_id == 1)
        assert await service.serves(tables["playing"].id)
        assert await service.serves(tables["finished"].id)
        assert not await service.serves(other.id)
        assert await service.serves(987654)  # no such table: nothing to serve
        assert counting.read == []
    finally:
        await store.close()


async def test_tables_brought_in_at_once_are_as_they_were(
    tables: dict[str, Table], reopened: tuple[Store, CountingStore]
) -> None:
    store, counting = reopened
    service = await TableService.open(store)
    ids = [t.id for t in tables.values()]
    await service.bring_in([*ids, 987654])  # a table that does not exist is left out
    assert counting.read == []  # read together, not one at a time
    for name, table in tables.items():
        again = await service.get(table.id)
        assert _seen(again) == _seen(table), name
    assert counting.read == []
