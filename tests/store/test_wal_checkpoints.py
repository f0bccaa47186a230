"""SQLite's WAL is checkpointed on a thread of its own, not inside a commit."""

from __future__ import annotations

import asyncio
from pathlib import Path

from db.connection import Connected
from db.sql import ActionRow
from db.store import Store
from db.wal_checkpoints import FALLBACK_PAGES, INTERVAL_S
from tests.backends import open_tables, table_rows

ROUNDS = 30
STATE_BYTES = 4000


def _row(table_id: int, seq: int) -> ActionRow:
    return ActionRow(table_id, seq, "bid", 11, "{}", 2.0, 1, "fmt", b"s" * STATE_BYTES, None)


async def test_commits_are_checkpointed_beside_them(tmp_path: Path) -> None:
    path = tmp_path / "spades.db"
    store = await Store.open(path)
    try:
        assert isinstance(store.db, Connected)
        checkpoints = store.db.checkpoints
        assert checkpoints is not None
        # The commits themselves checkpoint only far past SQLite's default.
        assert await table_rows(store, "PRAGMA wal_autocheckpoint") == [(FALLBACK_PAGES,)]
        tables = await open_tables(store, 20)
        before = checkpoints.checkpoints
        for seq in range(2, ROUNDS + 2):
            await asyncio.gather(*(store.db.commit_action_row(_row(t, seq)) for t in tables))
            await asyncio.sleep(INTERVAL_S)
        assert checkpoints.checkpoints > before
        # Each round wrote 80 kB of states; copied back as they came, the
        # WAL started over again and again instead of growing past 2 MB.
        assert ROUNDS * len(tables) * STATE_BYTES > 2_000_000
        assert path.with_name("spades.db-wal").stat().st_size < 1_000_000
        assert [r[0] for r in await table_rows(store, "SELECT version FROM tables")] == [
            ROUNDS + 1
        ] * 20
    finally:
        await store.close()
    assert not checkpoints._thread.is_alive()


async def test_a_stopped_checkpointer_leaves_the_store_working(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spades.db"
    store = await Store.open(path)
    try:
        assert isinstance(store.db, Connected) and store.db.checkpoints is not None
        store.db.checkpoints.stop()  # as if its thread had ended
        (table_id,) = await open_tables(store, 1)
        await store.db.commit_action_row(_row(table_id, 2))
        assert await table_rows(store, "SELECT version FROM tables") == [(2,)]
    finally:
        await store.close()
