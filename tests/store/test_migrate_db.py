"""``python -m bot migrate-db``: an SQLite file with finished and unfinished
games of every preset, copied onto PostgreSQL, resumes table for table; a
database that holds rows already is refused untouched."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import PRESET_NAMES
from bot.migrate_db import main, migrate
from bot.stats.service import StatsService
from bot.tables.model import TableStatus
from bot.tables.service import TableService
from db.clock_store import ClockStore, TableClockState
from db.copy import TargetNotEmpty
from db.hand_messages import HandMessageRow, HandMessageStore
from db.stats_store import StatsStore
from db.store import LogEntry, SeatRow, Store
from tests.backends import Server, dump_rows, need_server, set_user_data
from tests.service.driver import HOST, Chooser, FakeClock, seated_table, seed_counter
from tests.stats.games import counted_by


async def _a_played_file(path: Path) -> None:
    """Every preset: one game finished (and counted), one halfway, one lobby."""
    store = await Store.open(path)
    clock = FakeClock()
    service = await TableService.open(store, now=clock, seed_source=seed_counter())
    stats = StatsService(StatsStore(store))
    service.subscribe(counted_by(stats))
    channel = 100
    for n, preset in enumerate(PRESET_NAMES):
        chooser = Chooser(n, revoke_rate=0.02)
        finished = await seated_table(service, channel=channel, preset=preset, target=250)
        finished = await service.start(finished.id, HOST, finished.version)
        while finished.status is TableStatus.PLAYING:
            finished = await chooser.step(service, finished)
        halfway = await seated_table(service, channel=channel + 1, preset=preset, humans=2)
        halfway = await service.start(halfway.id, HOST, halfway.version)
        for _ in range(20 + n):
            halfway = await chooser.step(service, halfway)
        await seated_table(service, channel=channel + 2, preset=preset, humans=3)
        await store.put_deadline(halfway.id, "turn", 1000.0 + n, {"version": halfway.version})
        await ClockStore(store).save(halfway.id, TableClockState(True, frozenset({1}), {2: 5.5}))
        await HandMessageStore(store).save(
            HandMessageRow(halfway.id, HOST, 77, f"token-{n}", 9e9, halfway.version), now=0
        )
        channel += 10
    await store.set_deck(HOST, "four-color", at=3.0)
    await set_user_data(store, HOST, {"compact": True}, at=4.0)
    await store.close()


@pytest.fixture
def server(postgres_server: Server | None) -> Server:
    return need_server(postgres_server)


async def test_every_table_of_every_preset_resumes_from_the_copy(
    tmp_path: Path, server: Server
) -> None:
    path = tmp_path / "spades.db"
    await _a_played_file(path)
    target = await server.create_database()
    done = await migrate(str(path), target)
    assert done.open_tables == 3 * len(PRESET_NAMES) - len(PRESET_NAMES)  # the finished ones
    assert done.copied.rows["actions"] > 50 * len(PRESET_NAMES)
    assert done.copied.rows["stats_games"] == len(PRESET_NAMES)
    original, copy = await Store.open(path), await Store.open(target)
    try:
        # Row for row the same, in every table of the schema.
        assert await dump_rows(copy) == await dump_rows(original)
        # New rows get new ids after the copied ones.
        new_id = await copy.create_table(
            guild_id=1,
            channel_id=999_999,
            host_id=HOST,
            options={},
            seats=(SeatRow(0, HOST), SeatRow(1), SeatRow(2), SeatRow(3)),
            entry=LogEntry("create", HOST, {}, 1.0),
        )
        [(highest,)] = await original.db.fetchall("SELECT max(id) FROM tables")
        assert new_id == highest + 1
    finally:
        await original.close()
        await copy.close()


async def test_a_database_with_rows_is_refused_untouched(tmp_path: Path, server: Server) -> None:
    path = tmp_path / "spades.db"
    await _a_played_file(path)
    target = await server.create_database()
    await migrate(str(path), target)
    copy = await Store.open(target)
    before = await dump_rows(copy)
    await copy.close()
    with pytest.raises(TargetNotEmpty, match="is not empty"):
        await migrate(str(path), target)
    copy = await Store.open(target)
    assert await dump_rows(copy) == before
    await copy.close()


def test_the_command_refuses_a_non_postgresql_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--from", str(tmp_path / "x.db"), "--to", "sqlite:///y.db"]) == 2
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err


async def test_the_command_copies_and_says_what_it_checked(
    tmp_path: Path, server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "small.db"
    store = await Store.open(path)
    service = await TableService.open(store)
    await seated_table(service, channel=5, humans=2)
    await store.close()
    target = await server.create_database()
    # asyncio.run inside: run the command in a thread of its own.
    status = await asyncio.to_thread(main, ["--from", f"sqlite:///{path}", "--to", target])
    assert status == 0
    out = capsys.readouterr().out
    assert "row counts match, 1 open tables resume identically" in out
    assert await asyncio.to_thread(main, ["--from", str(path), "--to", target]) == 1
    assert "is not empty" in capsys.readouterr().err
