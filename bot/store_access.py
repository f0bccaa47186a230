"""Opening the database the application runs on, with one clear line when it
cannot be opened or written (a bad path, a newer schema, a server away)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.store import Store, StoreError
from db.targets import safe_url


class StoreUnavailable(Exception):
    """The database cannot be opened or written; the message says why (one line)."""


async def open_store(path: str | Path) -> Store:
    """Open (creating or migrating) the database the application runs on."""
    try:
        return await Store.open(path)
    except (OSError, sqlite3.Error, StoreError) as exc:
        raise StoreUnavailable(f"cannot open the database {safe_url(path)}: {exc}") from None
