"""Table service and store speed: committed actions per second, latency of one
action, and the time to resume 10,000 unfinished tables.

    python -m benchmarks.store [--actions 3000] [--tables 100] [--resume 10000]
                               [--first-touch 500] [--touches 200] [--quick]
                               [--database-url sqlite:///... | postgresql://...]

Every figure goes through :class:`bot.tables.service.TableService` over a
fresh database: by default an SQLite file (WAL, ``synchronous=NORMAL``) on
the default temp folder; with ``--database-url postgresql://...``, a fresh
schema per part on that PostgreSQL database (dropped afterwards).

1. One table: four people play complete games (then rematches) with random
   legal bids and cards; each action is timed from the call to the return of
   the service method: validation, the engine, the commit. The decision of
   the move is outside the timing, and takes the legal moves straight from
   the engine: with many tables on one event loop, the players' own work
   would add to every other table's wait. ``p50_ms`` and ``p99_ms`` are
   from here.
2. ``--tables`` tables at once: one task per table doing the same, all in
   flight together over the one store; actions per second over the whole run.
   Each action's latency includes its wait for the shared store: on SQLite
   one connection writes one action's transaction at a time, on PostgreSQL
   a pool of connections writes several side by side.
3. Resume: ``--resume`` unfinished tables are stored, then a new service is
   opened over the file and timed until ``TableService.open`` returns, ready:
   it knows every open table (found by channel, thread or player); each game
   is replayed from its log when its table is first touched (part 4). The tables are copies of
   templates played through the service with the heuristic computer players
   and stopped at a uniformly random action of a complete game, so the
   stored logs are as long as real half-played games (a fifth of them are
   lobbies, which real servers also have).
4. First touch: a table whose game has ``--first-touch`` actions (heuristic
   players, one long game) is stored; then ``--touches`` times a new service
   (nothing resumed) is asked for it, each timed until the table is back in
   memory: read from the store and its game rebuilt. The heap is frozen
   before, as the bot freezes its own once started (``bot.app``).

The last line is one JSON object:
``{"actions_per_s_one_table": ..., "actions_per_s_100_tables": ..., "p50_ms": ...,
"p99_ms": ..., "resume_10000_s": ..., "tables_p50_ms": ..., "tables_p99_ms": ...,
"backend": "sqlite" | "postgresql", "tables": ..., "first_touch_actions": ...,
"first_touch_p50_ms": ..., "first_touch_p99_ms": ...}`` (``p50_ms``/``p99_ms`` of the
one table, ``tables_*`` of the ``tables`` played at once, ``--tables``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.ai.base import make_player
from bot.game.playout import random_card
from bot.game.rules import PRESETS
from bot.game.state import Game
from bot.game.types import Action, Phase
from bot.game.view import view_of
from bot.heap import freeze_start_up_heap
from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from db.store import Store
from db.targets import is_postgres, sqlite_path

from .quick import parse_args

PLAYERS = (1000, 1001, 1002, 1003)


async def _seated(service: TableService, channel: int, preset: str = "standard") -> Table:
    table = await service.create(1, channel, PLAYERS[0], TableOptions(preset=preset))
    for user in PLAYERS[1:]:
        table = await service.join(table.id, user, table.version)
    return await service.start(table.id, PLAYERS[0], table.version)


async def _play(
    service: TableService, table: Table, actions: int, rng: random.Random, timings: list[float]
) -> int:
    """Play ``actions`` random legal actions (rematching as games end)."""
    done = 0
    clock = time.perf_counter
    while done < actions:
        if table.status is TableStatus.FINISHED:
            started = clock()
            table = await service.rematch(table.id, PLAYERS[0], table.version)
        else:
            game = table.game
            assert game is not None
            seat = game.waited_on()
            if seat is None:
                started = clock()
                table = await service.next_hand(table.id, PLAYERS[0], table.version)
            else:
                # The moves come straight from the engine, not a player's view:
                # with every table in one loop, the players' own work would add
                # to every other table's wait.
                user = PLAYERS[seat]
                if game.phase is Phase.BIDDING:
                    bid = rng.choice([b for b in game.legal_bids(seat) if b >= 0])
                    started = clock()
                    table = await service.bid(table.id, user, bid, table.version)
                else:
                    card = random_card(game.legal_play_mask(seat), rng)
                    started = clock()
                    table = await service.play(table.id, user, card, table.version)
        timings.append(clock() - started)
        done += 1
    return done


class Databases:
    """A fresh database per part of the benchmark: an SQLite file in a folder,
    or a schema of its own on one PostgreSQL database."""

    def __init__(self, folder: Path, url: str | None) -> None:
        self.folder = folder
        self.url = url if url is not None and is_postgres(url) else None
        if url is not None and self.url is None:
            self.folder = sqlite_path(url).parent
        self.backend = "postgresql" if self.url else "sqlite"

    @asynccontextmanager
    async def fresh(self, name: str) -> AsyncIterator[str]:
        if self.url is None:
            path = self.folder / f"bench_{name}.db"
            for old in self.folder.glob(f"bench_{name}.db*"):
                old.unlink()
            yield str(path)
            return
        import asyncpg

        schema = f"bench_{name}"
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.execute(f"CREATE SCHEMA {schema}")
            parts = urlsplit(self.url)
            query = "&".join(filter(None, [parts.query, f"search_path={schema}"]))
            yield urlunsplit(parts._replace(query=query))
        finally:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.close()


async def one_table(target: str, actions: int) -> tuple[float, list[float]]:
    store = await Store.open(target)
    try:
        service = await TableService.open(store)
        table = await _seated(service, 1)
        timings: list[float] = []
        started = time.perf_counter()
        await _play(service, table, actions, random.Random(1), timings)
        elapsed = time.perf_counter() - started
    finally:
        await store.close()
    return actions / elapsed, timings


async def many_tables(target: str, tables: int, actions: int) -> tuple[float, list[float]]:
    store = await Store.open(target)
    try:
        service = await TableService.open(store)
        seated = [await _seated(service, 100 + n) for n in range(tables)]
        timings: list[float] = []
        started = time.perf_counter()
        counts = await asyncio.gather(
            *(_play(service, t, actions, random.Random(n), timings) for n, t in enumerate(seated))
        )
        elapsed = time.perf_counter() - started
    finally:
        await store.close()
    return sum(counts) / elapsed, timings


# -- resume ------------------------------------------------------------------------


def _heuristic_game(preset: str, seed: int) -> list[Action]:
    """The actions of one complete game between heuristic players."""
    game = Game.new(PRESETS[preset], seed)
    players = [make_player("heuristic", seed * 4 + s) for s in range(4)]
    while not game.over:
        seat = game.waited_on()
        if seat is None:
            game.next_hand(0)
        else:
            game.apply(players[seat].decide(view_of(game, seat)))
    return game.actions


async def _template(service: TableService, channel: int, rng: random.Random) -> None:
    """A table stopped at a random point: a lobby, or a game part-way through."""
    if rng.random() < 0.2:
        table = await service.create(1, channel, PLAYERS[0])
        for user in PLAYERS[1 : rng.randrange(1, 4)]:
            table = await service.join(table.id, user, table.version)
        return
    preset = rng.choice(["standard", "standard", "low-club", "cardgames", "blind-nil"])
    table = await _seated(service, channel, preset)
    assert table.game is not None
    # The service deals from its own seed: replay the engine game under it.
    planned = _heuristic_game(preset, table.game.seed)
    await _take(service, table, planned[: rng.randrange(len(planned))])


async def _take(service: TableService, table: Table, actions: list[Action]) -> Table:
    """``actions`` taken at ``table`` through the service, by their seats' people."""
    for action in actions:
        user, version = PLAYERS[action.seat], table.version
        kind = action.kind.value
        if kind == "bid":
            table = await service.bid(table.id, user, action.value, version)
        elif kind == "play":
            table = await service.play(table.id, user, action.value, version)
        elif kind == "look":
            table = await service.look(table.id, user, version)
        elif kind == "next_hand":
            table = await service.next_hand(table.id, user, version)
    return table


# The rows a table's first touch reads, and the columns that number a table, a
# game or a channel (the copies shift them; every other column is copied as
# it is, whatever columns later migrations add).
COPIED = ("tables", "seats", "actions", "games", "game_seats")
SHIFTED = {"table_id", "game_id", "channel_id"}
SHIFTED_IDS = {"tables", "games"}  # their own ``id`` is a table's or a game's


def _copy_select(db: sqlite3.Connection, name: str) -> str:
    """``INSERT INTO name SELECT ...`` with its columns read from the schema."""
    columns = [row[1] for row in db.execute(f"PRAGMA table_info({name})")]
    shifted = SHIFTED | ({"id"} if name in SHIFTED_IDS else set())
    values = [f"{c} + k * :s" if c in shifted else c for c in columns]
    return f"INSERT INTO {name} ({', '.join(columns)}) SELECT {', '.join(values)} FROM {name}, n"


def _copy_tables(path: Path, copies: int, stride: int) -> None:
    """Clone every stored table ``copies`` times, ids and channels shifted by
    multiples of ``stride``, rows identical otherwise."""
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TEMP TABLE n AS WITH RECURSIVE c(k) AS"
            " (SELECT 1 UNION ALL SELECT k + 1 FROM c WHERE k < ?) SELECT k FROM c",
            (copies,),
        )
        for name in COPIED:
            db.execute(_copy_select(db, name), {"s": stride})


async def _copy_tables_on(store: Store, target: str, copies: int, stride: int) -> None:
    """:func:`_copy_tables` on PostgreSQL, columns from the schema. One long
    statement per table: on a connection of its own, without the store's
    statement timeout."""
    import asyncpg

    shapes = {t.name: t for t in await store.db.tables()}
    connection = await asyncpg.connect(target)
    try:
        async with connection.transaction():
            for name in COPIED:
                columns = shapes[name].columns
                shifted = SHIFTED | ({"id"} if name in SHIFTED_IDS else set())
                values = [f"{c} + n.k * $1" if c in shifted else c for c in columns]
                await connection.execute(
                    f"INSERT INTO {name} ({', '.join(columns)}) SELECT {', '.join(values)}"
                    f" FROM {name}, generate_series(1, $2::int) AS n (k)",
                    stride,
                    copies,
                )
    finally:
        await connection.close()
    await store.db.after_copy(list(shapes.values()))


async def resume(target: str, count: int, templates: int) -> tuple[float, int, int]:
    store = await Store.open(target)
    try:
        service = await TableService.open(store)
        rng = random.Random(5)
        for n in range(templates):
            await _template(service, n + 1, rng)
        if store.backend == "postgresql":
            await _copy_tables_on(store, target, count // templates - 1, stride=templates)
    finally:
        await store.close()
    if not is_postgres(target):
        _copy_tables(Path(target), count // templates - 1, stride=templates)
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        service = await TableService.open(store)
        elapsed = time.perf_counter() - started
        tables = service.open_tables()
        stored = templates * (count // templates)
        assert len(tables) == stored, f"resumed {len(tables)} of {stored} unfinished tables"
        # Every table is a copy of a template: touch the templates only.
        first = sorted(t.id for t in tables)[:templates]
        originals = [await service.get(table_id) for table_id in first]
        per_copy = sum(len(t.game.actions) for t in originals if t.game is not None)
        actions = per_copy * (count // templates)
    finally:
        await store.close()
    return elapsed, len(tables), actions


async def first_touch(target: str, actions: int, touches: int) -> list[float]:
    """The times to bring back a table whose game has ``actions`` actions."""
    seed, planned = next(
        (s, game) for s in range(1, 10_000) if len(game := _heuristic_game("standard", s)) > actions
    )
    store = await Store.open(target)
    try:
        service = await TableService.open(store, seed_source=lambda: seed)
        table = await _take(service, await _seated(service, 1), planned[:actions])
        table_id = table.id
    finally:
        await store.close()
    store = await Store.open(target)
    freeze_start_up_heap()  # as the bot does once it has started
    timings: list[float] = []
    try:
        for _ in range(touches):
            fresh = TableService(store)  # nothing in memory
            started = time.perf_counter()
            touched = await fresh.get(table_id)
            timings.append(time.perf_counter() - started)
            assert touched.game is not None and len(touched.game.actions) == actions
    finally:
        await store.close()
    return timings


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=3000, help="actions on the single table")
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--per-table", type=int, default=60, help="actions per concurrent table")
    parser.add_argument("--resume", type=int, default=10000, help="unfinished tables to resume")
    parser.add_argument("--templates", type=int, default=50, help="distinct stored tables")
    parser.add_argument(
        "--first-touch", type=int, default=500, help="actions of the game brought back"
    )
    parser.add_argument("--touches", type=int, default=200, help="times it is brought back")
    parser.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="postgresql://... (a schema per part), or sqlite:///folder/x.db (files in that"
        " folder); default: SQLite files in a temporary folder",
    )
    args = parse_args(
        parser, argv, actions=200, tables=5, per_table=20, resume=200, templates=10, touches=20
    )
    with tempfile.TemporaryDirectory() as tmp:
        databases = Databases(Path(tmp), args.database_url)
        print(f"backend: {databases.backend}")
        async with databases.fresh("one") as target:
            one_rate, timings = await one_table(target, args.actions)
        print(
            f"one table: {args.actions} actions, {one_rate:.0f} actions/s;"
            f" latency p50 {_ms(timings, 0.5):.2f} ms, p99 {_ms(timings, 0.99):.2f} ms,"
            f" max {max(timings) * 1000:.2f} ms"
        )
        async with databases.fresh("many") as target:
            many_rate, many_timings = await many_tables(target, args.tables, args.per_table)
        print(
            f"{args.tables} tables at once: {many_rate:.0f} actions/s;"
            f" latency p50 {_ms(many_timings, 0.5):.2f} ms, p99 {_ms(many_timings, 0.99):.2f} ms"
            " (waiting for the shared store included)"
        )
        async with databases.fresh("resume") as target:
            resume_s, resumed, replayed = await resume(target, args.resume, args.templates)
        print(
            f"resume: {resumed} unfinished tables ({replayed} game actions in their current"
            f" games, {replayed / max(1, resumed):.0f} per table) in {resume_s:.2f} s"
        )
        async with databases.fresh("touch") as target:
            touch_timings = await first_touch(target, args.first_touch, args.touches)
        print(
            f"first touch: a table of {args.first_touch} game actions back in memory,"
            f" p50 {_ms(touch_timings, 0.5):.2f} ms, p99 {_ms(touch_timings, 0.99):.2f} ms"
        )
    print(
        json.dumps(
            {
                "actions_per_s_one_table": round(one_rate, 1),
                "actions_per_s_100_tables": round(many_rate, 1),
                "p50_ms": round(_ms(timings, 0.5), 3),
                "p99_ms": round(_ms(timings, 0.99), 3),
                "resume_10000_s": round(resume_s, 3),
                "tables_p50_ms": round(_ms(many_timings, 0.5), 3),
                "tables_p99_ms": round(_ms(many_timings, 0.99), 3),
                "backend": databases.backend,
                "tables": args.tables,
                "first_touch_actions": args.first_touch,
                "first_touch_p50_ms": round(_ms(touch_timings, 0.5), 3),
                "first_touch_p99_ms": round(_ms(touch_timings, 0.99), 3),
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
