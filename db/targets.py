"""Which database a setting names: a path or ``sqlite:///path``, or ``postgresql://...``."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str | Path) -> Path:
    """The file of an SQLite target (``sqlite:////a/b.db`` is ``/a/b.db``); ValueError otherwise."""
    if isinstance(target, Path):
        return target
    if target.startswith(SQLITE_PREFIX):
        rest = target.removeprefix(SQLITE_PREFIX)
        if not rest:
            raise ValueError(f"{target!r} names no file: write sqlite:///path/to/spades.db")
        return Path(rest)
    if "://" in target:
        raise ValueError(
            f"unknown database URL {target.split('://', 1)[0]}://...: use sqlite:///path"
            " or postgresql://user:password@host:port/database"
        )
    return Path(target)


def check_target(target: str) -> str:
    """``target`` if it names a database this store can open, else ValueError."""
    if not target.strip():
        raise ValueError("names no database: write sqlite:///path/to/spades.db or postgresql://...")
    if not is_postgres(target):
        sqlite_path(target)
        return target
    try:
        urlsplit(target).port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        raise ValueError(
            f"the port in {safe_url(target)} is not a number from 0 to 65535"
        ) from None
    return target


def safe_url(target: str | Path) -> str:
    """``target`` for a message: a URL without its password."""
    text = str(target)
    if not is_postgres(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    # The host and port as written: a URL with a bad port must still make a message.
    where = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{where}"))
