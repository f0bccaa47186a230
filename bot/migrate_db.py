"""``python -m bot migrate-db --to postgresql://...``: copy the SQLite file and check it."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.config import ConfigError, load_settings
from bot.tables.model import Table
from bot.tables.service import TableService
from db.copy import Copied, copy_database
from db.store import Store, StoreError
from db.targets import is_postgres, safe_url, sqlite_path

EXIT_FAILED = 1
EXIT_BAD_SETUP = 2


@dataclass(frozen=True, slots=True)
class Migrated:
    copied: Copied
    open_tables: int  # open tables that resumed identically from the copy


class CopyDiffers(StoreError):
    """An open table resumes differently from the copy; the message names it."""


async def migrate(source: str, target: str) -> Migrated:
    """Copy ``source`` into the empty ``target`` and verify the copy."""
    from_store = await Store.open(source)
    try:
        to_store = await Store.open(target)
        try:
            copied = await copy_database(from_store.db, to_store.db)
            resumed = await _compare_resumed(from_store, to_store)
        finally:
            await to_store.close()
    finally:
        await from_store.close()
    return Migrated(copied, resumed)


async def _compare_resumed(original: Store, copy: Store) -> int:
    before = await _open_tables(original)
    after = await _open_tables(copy)
    if before.keys() != after.keys():
        missing = sorted(before.keys() ^ after.keys())
        raise CopyDiffers(f"the copy's open tables differ: {missing[:10]}")
    for table_id, state in before.items():
        if after[table_id] != state:
            raise CopyDiffers(f"table {table_id} resumes differently from the copy")
    return len(before)


async def _open_tables(store: Store) -> dict[int, tuple[Any, ...]]:
    service = await TableService.open(store)
    return {table.id: _state(table) for table in await service.unfinished()}


def _state(table: Table) -> tuple[Any, ...]:
    game = table.game.observable() if table.game is not None else None
    return (replace(table, game=None), game)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy the SQLite database onto an empty PostgreSQL database and verify it.",
    )
    parser.add_argument("--to", required=True, metavar="URL", help="postgresql://user:pass@host/db")
    parser.add_argument(
        "--from",
        dest="source",
        metavar="URL",
        help="the SQLite database (default: the one the settings name)",
    )
    parser.add_argument("--config", type=Path, default=None, metavar="PATH")
    args = parser.parse_args(argv)
    try:
        source = args.source or load_settings(args.config).database.target
    except ConfigError as exc:
        return _say(str(exc), EXIT_BAD_SETUP)
    if is_postgres(source):
        return _say(f"the source {safe_url(source)} is not an SQLite file", EXIT_BAD_SETUP)
    if not is_postgres(args.to):
        return _say("--to must be a postgresql:// URL", EXIT_BAD_SETUP)
    if not sqlite_path(source).exists():
        return _say(f"no SQLite database at {source}", EXIT_BAD_SETUP)
    try:
        done = asyncio.run(migrate(source, args.to))
    except StoreError as exc:
        return _say(f"migration failed: {exc}", EXIT_FAILED)
    rows = sum(done.copied.rows.values())
    print(
        f"copied {rows} rows of {len(done.copied.rows)} tables to {safe_url(args.to)};"
        f" row counts match, {done.open_tables} open tables resume identically"
    )
    return 0


def _say(message: str, status: int) -> int:
    print(f"spades-bot migrate-db: {message}", file=sys.stderr)
    return status
