"""A writer killed with SIGKILL at random moments, many times, loses no
acknowledged action and leaves nothing half-written."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.tables.model import TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.backends import Backend, table_rows

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 25


async def test_sigkill_loses_no_acknowledged_action(backend: Backend) -> None:
    path = backend.target
    # A writer reaches the server through a new pool each round: slower to
    # start than opening a file, so more rounds to commit as plenty.
    rounds = ROUNDS if backend.name == "sqlite" else 2 * ROUNDS
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    run = subprocess.run(
        [sys.executable, "-m", "tests.store.crash_writer", path, str(rounds), "3"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(run.stdout.strip().splitlines()[-1])
    acked = {int(k): v for k, v in report["acked"].items()}
    assert report["kills"] == rounds
    assert sum(acked.values()) > 200, "the writers should have committed plenty"

    if backend.name == "sqlite":
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    store = await backend.open()
    try:
        tables = dict(await table_rows(store, "SELECT id, version FROM tables"))
        for table_id, version in acked.items():
            assert tables[table_id] >= version, f"table {table_id} lost acknowledged actions"
        for table_id, version in tables.items():
            rows = await table_rows(
                store, "SELECT seq FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            )
            seqs = [seq for (seq,) in rows]
            # One log row per version, no gap, nothing beyond the version.
            assert seqs == list(range(1, version + 1))
            seats = await table_rows(
                store, "SELECT count(*) FROM seats WHERE table_id = ?", (table_id,)
            )
            assert seats == [(4,)]
        # Every ended game has all four seat outcomes; every other has none.
        for game_id, ended in await table_rows(store, "SELECT id, ended_at FROM games"):
            rows = await table_rows(
                store, "SELECT outcome FROM game_seats WHERE game_id = ?", (game_id,)
            )
            outcomes = [outcome for (outcome,) in rows]
            assert len(outcomes) == 4
            assert all(o is not None for o in outcomes) == (ended is not None)
            assert all(o is None for o in outcomes) == (ended is None)
        # A finished table's current game has ended, a playing table's has not.
        for status, ended in await table_rows(
            store,
            "SELECT t.status, g.ended_at FROM tables t"
            " JOIN games g ON g.table_id = t.id AND g.game_no = t.game_no",
        ):
            assert (status == "finished") == (ended is not None)
    finally:
        await store.close()

    resumed = await _games(path)
    for table_id, (version, status, _) in resumed.items():
        assert version == tables[table_id]
        if status is TableStatus.PLAYING:
            assert resumed[table_id][2] is not None
    # The stored engine states are the games the logs replay to.
    store = await backend.open()
    await store.db.execute("UPDATE table_states SET format = 'ignored'")
    await store.close()
    assert await _games(path) == resumed


async def _games(path: str) -> dict[int, tuple[int, TableStatus, object]]:
    store = await Store.open(path)
    try:
        service = await TableService.open(store)
        result: dict[int, tuple[int, TableStatus, object]] = {}
        for table in await service.unfinished():
            game = table.game.observable() if table.game is not None else None
            result[table.id] = (table.version, table.status, game)
        return result
    finally:
        await store.close()
