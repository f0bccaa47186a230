"""The store's tests on both databases: the ``backend`` fixture.

A test asking for ``backend`` runs twice, on a fresh SQLite file and on a
fresh PostgreSQL database. The server is the one ``SPADES_TEST_POSTGRES_URL``
names (``.ci/run`` starts one), else a throwaway one this session starts
(:mod:`tests.pg`). Without any server the PostgreSQL runs are skipped, unless
``SPADES_REQUIRE_POSTGRES=1`` (CI), which makes that a failure.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from db.store import LogEntry, SeatRow, Store
from tests import pg

URL_VARIABLE = "SPADES_TEST_POSTGRES_URL"
#: The folder of that server when :mod:`tests.pg` started it (it can be restarted).
DIR_VARIABLE = "SPADES_TEST_POSTGRES_DIR"
REQUIRE_VARIABLE = "SPADES_REQUIRE_POSTGRES"
BACKENDS = ("sqlite", "postgresql")
_numbers = itertools.count(1)


@dataclass
class Server:
    """A PostgreSQL server the tests may create databases on."""

    url: str
    folder: Path | None = None  # set when this session started it (it can restart it)

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    async def create_database(self) -> str:
        import asyncpg

        name = f"spades_test_{os.getpid()}_{next(_numbers)}"
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()
        return self.database_url(name)

    def stop(self) -> None:
        """Stop the server at once: its clients are cut off mid-statement."""
        pg.stop(self._folder(), "immediate")

    def start(self) -> None:
        pg.start(self._folder())

    def _folder(self) -> Path:
        if self.folder is None:
            pytest.fail(f"the PostgreSQL server cannot be restarted: set {DIR_VARIABLE}")
        return self.folder


@dataclass
class Backend:
    """One fresh database of one kind; ``target`` is what ``Store.open`` takes."""

    name: str
    target: str
    server: Server | None = None

    async def open(self, **options: Any) -> Store:
        return await Store.open(self.target, **options)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server | None]:
    given = os.environ.get(URL_VARIABLE)
    if given:
        given_folder = os.environ.get(DIR_VARIABLE)
        yield Server(given, Path(given_folder) if given_folder else None)
        return
    # Not under pytest's own temporary folder: that one is private to this
    # user, and the server runs as another.
    folder = Path(tempfile.mkdtemp(prefix="spades-pg-"))
    try:
        url = pg.start(folder)
    except pg.NoServer as exc:
        _unavailable(str(exc))
        yield None
        return
    try:
        yield Server(url, folder)
    finally:
        pg.stop(folder)
        shutil.rmtree(folder, ignore_errors=True)


_why_not: list[str] = []


def _unavailable(reason: str) -> None:
    _why_not.append(reason)


def need_server(server: Server | None) -> Server:
    """The server, or skip (fail in CI) when there is none."""
    if server is not None:
        return server
    reason = f"no PostgreSQL server: {_why_not[-1] if _why_not else 'unknown'}"
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{reason} ({REQUIRE_VARIABLE}=1)")
    pytest.skip(reason)


@pytest.fixture(params=BACKENDS)
async def backend(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: Server | None
) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "data" / "spades.db"))
    server = need_server(postgres_server)
    return Backend("postgresql", await server.create_database(), server)


async def table_rows(store: Store, sql: str, args: Any = ()) -> list[tuple[Any, ...]]:
    """Rows through the store's own database, whichever it is."""
    return [tuple(row) for row in await store.db.fetchall(sql, args)]


async def dump_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the schema, in a stable order."""
    found = {}
    for table in await store.db.tables():
        rows = await table_rows(store, f"SELECT * FROM {table.name}")
        found[table.name] = sorted(rows, key=repr)
    return found


#: Four people seated, user ids 10 to 13.
FOUR_SEATED = (SeatRow(0, 10), SeatRow(1, 11), SeatRow(2, 12), SeatRow(3, 13))


async def open_tables(store: Store, count: int) -> list[int]:
    """``count`` new tables of one server, in channels 100, 101, ..., four seated."""
    return [
        await store.create_table(
            guild_id=5,
            channel_id=100 + n,
            host_id=10,
            options={},
            seats=FOUR_SEATED,
            entry=LogEntry("create", 10, {}, 1.0),
        )
        for n in range(count)
    ]


#: The columns of a game's seats, as :func:`game_results` names them.
_SEAT_KEYS = ("seat", "user_id", "bot_level", "team", "outcome", "points", "opponent_points")


async def game_results(store: Store, table_id: int) -> list[dict[str, Any]]:
    """The finished games of a table with their seats, oldest first."""
    games = await store.db.fetchall(
        "SELECT id, game_no, preset, seed, started_at, ended_at, winner, reason,"
        " reason_seat, score0, score1, hands_played, hands, winner_seat, seat_scores FROM games"
        " WHERE table_id = ? AND ended_at IS NOT NULL ORDER BY game_no",
        (table_id,),
    )
    results: list[dict[str, Any]] = []
    for g in games:
        seats = await store.db.fetchall(
            f"SELECT {', '.join(_SEAT_KEYS)} FROM game_seats WHERE game_id = ? ORDER BY seat",
            (g[0],),
        )
        results.append(
            {
                "game_id": g[0],
                "game_no": g[1],
                "preset": g[2],
                "seed": g[3],
                "started_at": g[4],
                "ended_at": g[5],
                # A solo game's result is in columns of its own (migration 040).
                "winner": g[6] if g[14] is None else g[13],
                "reason": g[7],
                "reason_seat": g[8],
                "scores": [g[9], g[10]] if g[14] is None else json.loads(g[14]),
                "hands_played": g[11],
                "hands": json.loads(g[12]) if g[12] else [],
                "seats": [dict(zip(_SEAT_KEYS, s, strict=True)) for s in seats],
            }
        )
    return results


async def set_user_data(store: Store, user_id: int, data: dict[str, Any], at: float) -> None:
    """The user's further preferences (a JSON object), a column the bot only reads."""
    await store.db.execute(
        "INSERT INTO user_prefs (user_id, data, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
        " DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
        (user_id, json.dumps(data), at),
    )
