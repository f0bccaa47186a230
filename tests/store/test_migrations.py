"""Schema migrations: from an empty file, from every older version, gaps in
the numbering, all-or-nothing application, and refusal of a newer database."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from db.schema import DIALECTS
from db.store import (
    MIGRATIONS_DIR,
    SchemaTooNew,
    Store,
    StoreError,
    find_migrations,
    split_statements,
)
from tests.backends import Backend

MIGRATIONS = find_migrations()
LATEST = MIGRATIONS[-1].number
OWN_TABLES = {
    "tables",
    "seats",
    "spectators",
    "actions",
    "games",
    "game_seats",
    "user_prefs",
    "deadlines",
    "server_settings",
}


def schema(path: Path) -> tuple[int, set[str]]:
    with sqlite3.connect(path) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return version, names


async def test_an_empty_file_gets_the_whole_schema(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "folder" / "bot.db"
    store = await Store.open(path)
    try:
        assert await store.schema_version() == LATEST
        db = store.connection
        async with db.execute("PRAGMA journal_mode") as cursor:
            assert await cursor.fetchone() == ("wal",)
        async with db.execute("PRAGMA foreign_keys") as cursor:
            assert await cursor.fetchone() == (1,)
        async with db.execute("PRAGMA busy_timeout") as cursor:
            row = await cursor.fetchone()
            assert row is not None and row[0] >= 1000
    finally:
        await store.close()
    version, names = schema(path)
    assert version == LATEST
    assert names >= OWN_TABLES


@pytest.mark.parametrize("start", [m.number for m in MIGRATIONS[:-1]])
async def test_every_older_version_upgrades_and_keeps_its_rows(tmp_path: Path, start: int) -> None:
    path = tmp_path / "old.db"
    old = await Store.open(path, upto=start)
    assert await old.schema_version() == start
    async with old.transaction() as db:
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, options, status, version,"
            " created_at, updated_at) VALUES (1, 2, 3, '{}', 'lobby', 1, 0, 0)"
        )
        await db.execute(
            "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
            " VALUES (1, 1, 'create', 3, '{}', 0)"
        )
    await old.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == LATEST
        log = await store.action_log(1)
        assert [(e.seq, e.kind, e.actor) for e in log] == [(1, "create", 3)]
        # The servers' settings (029) are there, and empty.
        assert await store.server_settings(1) == {}
        await store.set_server_settings(1, {"host_role": 7}, 2.0)
        await store.set_server_settings(1, {"host_role": 8}, 3.0)
        assert await store.server_settings(1) == {"host_role": 8}
    finally:
        await store.close()
    assert schema(path)[1] >= OWN_TABLES


async def test_reopening_a_current_database_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        before = list(db.iterdump())
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        assert list(db.iterdump()) == before


async def test_a_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LATEST + 1}")
        before = list(db.iterdump())
    with pytest.raises(SchemaTooNew, match="newer than this bot knows"):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (LATEST + 1,)
        assert list(db.iterdump()) == before


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir(exist_ok=True)
    for name, sql in files.items():
        (folder / name).write_text(sql)
    return folder


async def test_numbers_may_have_gaps_and_later_files_apply_later(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        {"001_a.sql": "CREATE TABLE a (x);", "003_b.sql": "CREATE TABLE b (x);"},
    )
    path = tmp_path / "gaps.db"
    await (await Store.open(path, migrations=folder)).close()
    assert schema(path) == (3, {"a", "b"})
    # Another engineer adds 007 later: only it runs at the next start.
    _folder(tmp_path, {"007_c.sql": "CREATE TABLE c (x); INSERT INTO a VALUES (1);"})
    await (await Store.open(path, migrations=folder)).close()
    assert schema(path) == (7, {"a", "b", "c"})
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM a").fetchone() == (1,)


async def test_a_failing_migration_applies_nothing(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        {
            "001_a.sql": "CREATE TABLE a (x);",
            "002_b.sql": "CREATE TABLE b (x);\nINSERT INTO missing VALUES (1);",
        },
    )
    path = tmp_path / "broken.db"
    with pytest.raises(StoreError, match=r"002_b\.sql"):
        await Store.open(path, migrations=folder)
    assert schema(path) == (0, set())


def test_duplicate_and_badly_named_migrations_are_errors(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"001_a.sql": "", "001_b.sql": ""})
    with pytest.raises(StoreError, match="share number 1"):
        find_migrations(folder)
    shutil.rmtree(folder)
    folder = _folder(tmp_path, {"first.sql": ""})
    with pytest.raises(StoreError, match=r"NNN_name\.sql"):
        find_migrations(folder)


def test_statements_split_with_trigger_bodies_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT ';');
    CREATE TRIGGER t_no_delete BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].rstrip().endswith("END;")
    with pytest.raises(StoreError, match="incomplete"):
        split_statements("CREATE TABLE t (x")


def test_the_shipped_migrations_are_named_and_numbered() -> None:
    numbers = [m.number for m in MIGRATIONS]
    assert numbers[:4] == [1, 2, 3, 4]
    assert all(m.path.parent == MIGRATIONS_DIR for m in MIGRATIONS)


# -- both databases ----------------------------------------------------------------


def test_one_history_for_both_databases() -> None:
    """Every step exists for every database: the same numbers in both."""
    numbers = {d: [m.number for m in find_migrations(dialect=d)] for d in DIALECTS}
    assert numbers["sqlite"] == numbers["postgresql"]
    assert numbers["sqlite"][-1] == LATEST


def test_a_step_written_for_one_database_only_is_an_error(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"001_a.sql": "", "002_b.sqlite.sql": ""})
    with pytest.raises(StoreError, match="migration 2 has a sqlite file and no postgresql one"):
        find_migrations(folder)
    folder = _folder(tmp_path, {"002_b.postgresql.sql": "", "002_c.sql": ""})
    with pytest.raises(StoreError, match="share number 2"):
        find_migrations(folder, "postgresql")


async def _set_version(store: Store, version: int) -> None:
    if store.backend == "sqlite":
        await store.db.execute(f"PRAGMA user_version = {version:d}")
    else:
        await store.db.execute("UPDATE schema_version SET version = ?", (version,))


async def test_a_fresh_database_gets_the_whole_schema(backend: Backend) -> None:
    store = await backend.open()
    try:
        assert await store.schema_version() == LATEST
        assert {t.name for t in await store.db.tables()} >= OWN_TABLES
    finally:
        await store.close()


@pytest.mark.parametrize("start", [m.number for m in MIGRATIONS[:-1]])
async def test_every_older_version_upgrades_on_both(backend: Backend, start: int) -> None:
    old = await backend.open(upto=start)
    assert await old.schema_version() == start
    async with old.transaction() as db:
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, options, status, version,"
            " created_at, updated_at) VALUES (1, 2, 3, '{}', 'lobby', 1, 0, 0)"
        )
        await db.execute(
            "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
            " VALUES (1, 1, 'create', 3, '{}', 0)"
        )
    await old.close()
    store = await backend.open()
    try:
        assert await store.schema_version() == LATEST
        log = await store.action_log(1)
        assert [(e.seq, e.kind, e.actor) for e in log] == [(1, "create", 3)]
        # The servers' settings (029) are there, and empty.
        assert await store.server_settings(1) == {}
        await store.set_server_settings(1, {"host_role": 7}, 2.0)
        await store.set_server_settings(1, {"host_role": 8}, 3.0)
        assert await store.server_settings(1) == {"host_role": 8}
    finally:
        await store.close()


async def test_a_newer_database_is_refused_in_one_line(backend: Backend) -> None:
    store = await backend.open()
    await _set_version(store, LATEST + 1)
    await store.close()
    with pytest.raises(SchemaTooNew, match="newer than this bot knows") as refused:
        await backend.open()
    assert "\n" not in str(refused.value)
    assert await _raw_version(backend) == LATEST + 1  # untouched


async def _raw_version(backend: Backend) -> int:
    """The schema version as the database holds it, read without the store."""
    if backend.name == "sqlite":
        with sqlite3.connect(backend.target) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
        return int(version)
    import asyncpg

    connection = await asyncpg.connect(backend.target)
    try:
        return int(await connection.fetchval("SELECT version FROM schema_version"))
    finally:
        await connection.close()


async def test_games_a_moderator_ended_before_031_keep_the_reason(backend: Backend) -> None:
    old = await backend.open(upto=30)
    async with old.transaction() as db:
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, host_id, options, status, version,"
            " created_at, updated_at) VALUES (1, 2, 3, '{}', 'finished', 9, 0, 7)"
        )
        for game_no, reason, ended in ((1, "target", 4.0), (2, "moderator", 7.0)):
            await db.execute(
                "INSERT INTO games (table_id, game_no, guild_id, channel_id, preset, options,"
                " seed, started_at, ended_at, reason) VALUES (1, ?, 1, 2, 'standard', '{}', 5,"
                " 0, ?, ?)",
                (game_no, ended, reason),
            )
        logged = [
            (1, "create", "{}", 0.0),
            (2, "moderator_end", '{"moderator": 8, "note": "not this one"}', 6.0),
            (3, "moderator_end", '{"moderator": 8, "note": "stuck for a week"}', 7.0),
        ]
        for seq, kind, payload, at in logged:
            await db.execute(
                "INSERT INTO actions (table_id, seq, kind, actor, payload, at)"
                " VALUES (1, ?, ?, 3, ?, ?)",
                (seq, kind, payload, at),
            )
    await old.close()
    store = await backend.open()
    try:
        rows = await store.db.fetchall("SELECT game_no, end_note FROM games ORDER BY game_no")
        assert [tuple(r) for r in rows] == [(1, None), (2, "stuck for a week")]
    finally:
        await store.close()
