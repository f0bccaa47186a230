"""From a click to its answer: the real bot under SimCord, four people playing.

    python -m benchmarks.click [--tables 4] [--target 500] [--hands 0] [--files] [--quick]

The whole bot (every feature, the default table settings) runs in SimCord's
simulated Discord over a SQLite file in a temporary folder. For each of
``--tables`` tables in turn, four people open a table, take their seats, and
play one game to ``--target`` (or its first ``--hands`` hands) by clicking: the bids and cards on
their live hand messages, Next hand on the table message, exactly as the
SimCord tests play (``tests.discord.harness.World``).

For every click, on the wall clock:

* answer: from sending the interaction to the bot's initial response to it
  (a deferral or a message: what Discord wants within three seconds);
* result: from sending it until everything it causes is done (the table
  message and every hand edited, the store written).

For every accepted card play, the store's write transactions are counted
from the statements the SQLite connection runs (``BEGIN`` ... ``COMMIT``,
plus any write outside a transaction), and so are its reads (``SELECT``
statements), those of users' preferences (language, deck) apart.

With ``--files``, the first accepted card play runs under a profile hook
(``sys.setprofile``) that notes every project source file under ``bot/``,
``cogs/`` and ``db/`` whose Python code runs until the click's work is done;
they are listed, and counted in the JSON line as ``click_files`` (modules of
the compiled engine run no Python code and are not seen: see ``engine_build``),
and the calls of ``TableService.get`` in it are counted (``click_table_reads``).

The last line is one JSON object:
``{"clicks": ..., "answer_p50_ms": ..., "answer_p99_ms": ..., "result_p50_ms": ...,
"result_p99_ms": ..., "writes_per_card_play": ..., "engine_build": ...,
"reads_per_card_play": ..., "prefs_reads_per_card_play": ...}``,
plus ``"click_files": ..., "click_table_reads": ...`` with ``--files``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, cast

import simcord
from simcord import MemberActor

from bot.config import DatabaseSettings, DiscordSettings, Settings
from bot.discord_app import SpadesBot
from bot.game.native import engine_build
from bot.tables.model import Table
from db.store import Store
from tests.discord.harness import Message, World, finished

from .quick import parse_args

PEOPLE = ("alice", "bob", "carol", "dave")
PLAY_BUTTON = "spades:play:"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
PREFS_TABLE = "FROM user_prefs"
ROOT = Path(__file__).resolve().parent.parent
PROJECT = tuple(f"{ROOT / part}/" for part in ("bot", "cogs", "db"))
SERVICE = str(ROOT / "bot" / "tables" / "service.py")


def bench_settings(db: Path) -> Settings:
    """The default settings of a real bot, its database at ``db``, without the
    edit budgets: they space edits out on SimCord's clock, which stands still
    between clicks, so they would add real waiting to the bot's own work."""
    unpaced = DiscordSettings(table_edits_per_channel_s=0, rest_per_s=0)
    return Settings(discord=unpaced, database=DatabaseSettings(path=db))


class WriteCounter:
    """Counts the write transactions a store's connection runs, from its
    statements: each ``BEGIN`` is one, and so is a write run outside any (a
    statement is a transaction of its own). Its reads are counted too:
    ``SELECT`` statements, and those of the users' preferences."""

    def __init__(self) -> None:
        self.transactions = 0
        self.reads = 0
        self.prefs_reads = 0
        self._open = False
        self._last = ""

    async def attach(self, store: Store) -> None:
        await store.connection.set_trace_callback(self._statement)

    def _statement(self, sql: str) -> None:
        # Runs on the connection's own thread; the click that caused it has
        # not returned before the statement ran.
        if sql == self._last:
            # A trigger's body starting: SQLite reports it again with the
            # text of the statement that fired it.
            return
        self._last = sql
        word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if word == "BEGIN":
            self.transactions += 1
            self._open = True
        elif word in ("COMMIT", "END", "ROLLBACK"):
            self._open = False
        elif word in WRITES and not self._open:
            self.transactions += 1
        elif word == "SELECT":
            self.reads += 1
            self.prefs_reads += PREFS_TABLE in sql


class AnswerClock(list[simcord.HttpLogEntry]):
    """SimCord's log of the bot's HTTP requests, noting when the bot last
    answered an interaction (its callback: a deferral or a message)."""

    answered_at: float | None = None

    def append(self, entry: simcord.HttpLogEntry) -> None:
        if entry.method == "POST" and entry.path.endswith("/callback"):
            self.answered_at = time.perf_counter()
        super().append(entry)


@dataclass
class Clicks:
    """What every click took; a card play's write transactions too."""

    answers: list[float] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    card_writes: list[int] = field(default_factory=list)
    card_reads: list[int] = field(default_factory=list)
    card_prefs_reads: list[int] = field(default_factory=list)
    #: The project files one accepted card play ran (``--files``), else None.
    card_files: set[str] | None = None
    card_table_reads = 0  # TableService.get calls in that card play


class FileTrace:
    """The project source files whose Python code runs while it is on."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.table_reads = 0  # calls of TableService.get

    def __enter__(self) -> FileTrace:
        sys.setprofile(self._event)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)

    def _event(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(PROJECT):
                self.files.add(name)
                if name == SERVICE and frame.f_code.co_name == "get":
                    self.table_reads += 1


@dataclass
class Stopwatch:
    """Where a click's figures come from, and where they go."""

    clock: AnswerClock
    writes: WriteCounter
    log: Clicks
    trace_files: bool = False

    @classmethod
    async def on(cls, env: simcord.Env, store: Store, *, trace_files: bool = False) -> Stopwatch:
        clock = AnswerClock(env.backend.http_requests)
        env.backend.http_requests = clock
        writes = WriteCounter()
        await writes.attach(store)
        return cls(clock, writes, Clicks(), trace_files)


class TimedPerson:
    """A SimCord member whose clicks are timed; everything else is theirs."""

    def __init__(self, actor: MemberActor, world: World, watch: Stopwatch) -> None:
        self.actor = actor
        self.world = world
        self.watch = watch

    def __getattr__(self, name: str) -> Any:
        return getattr(self.actor, name)

    async def click(
        self, message: Message, *, label: str | None = None, custom_id: str | None = None
    ) -> simcord.InteractionResult:
        card = custom_id is not None and custom_id.startswith(PLAY_BUTTON)
        played = await self._actions() if card else 0
        watch = self.watch
        writes, reads, prefs_reads = (
            watch.writes.transactions,
            watch.writes.reads,
            watch.writes.prefs_reads,
        )
        watch.clock.answered_at = None
        trace = FileTrace()
        tracing = card and watch.trace_files and watch.log.card_files is None
        started = time.perf_counter()
        if tracing:
            with trace:
                result = await self.actor.click(message, label=label, custom_id=custom_id)
        else:
            result = await self.actor.click(message, label=label, custom_id=custom_id)
        done = time.perf_counter()
        answered = watch.clock.answered_at
        assert answered is not None, f"the bot did not answer the click on {label or custom_id}"
        watch.log.answers.append(answered - started)
        watch.log.results.append(done - started)
        if card and await self._actions() > played:
            watch.log.card_writes.append(watch.writes.transactions - writes)
            watch.log.card_reads.append(watch.writes.reads - reads)
            watch.log.card_prefs_reads.append(watch.writes.prefs_reads - prefs_reads)
            if tracing:
                watch.log.card_files = trace.files
                watch.log.card_table_reads = trace.table_reads
        return result

    async def _actions(self) -> int:
        game = (await self.world.table_any()).game
        return 0 if game is None else len(game.actions)


def timed_world(env: simcord.Env, make_bot: Callable[[], SpadesBot], watch: Stopwatch) -> World:
    """A server of four people whose clicks ``watch`` times."""
    world = World(env, make_bot)
    for name in PEOPLE:
        person = TimedPerson(world.user(name), world, watch)
        # World only reads ids and calls SimCord operations on its people.
        world.users[name] = cast(MemberActor, person)
    return world


async def play_game(world: World, target: int, hands: int) -> None:
    """One game to ``target``, or until ``hands`` hands are over (0: no limit)."""

    def done(table: Table) -> bool:
        played = 0 if table.game is None else len(table.game.hand_records)
        return finished(table) or 0 < hands <= played

    alice, bob, carol, dave = (world.users[name] for name in PEOPLE)
    await world.seat_four(alice, bob, carol, dave, target=target)
    await world.click(alice, "Start")
    await world.play_until(done)


async def run(
    folder: Path, tables: int, target: int, hands: int, *, trace_files: bool = False
) -> Clicks:
    seeds = itertools.count(1)
    bot = SpadesBot(bench_settings(folder / "spades.db"), seed_source=lambda: next(seeds))
    try:
        async with simcord.run(bot) as env:
            await bot.sync_commands()
            watch = await Stopwatch.on(env, bot.app.store, trace_files=trace_files)
            for _table in range(tables):
                # A server per table: each has its own channel and people.
                await play_game(timed_world(env, lambda: bot, watch), target, hands)
    finally:
        await bot.store.close()
    return watch.log


def _ms(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1] * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.click", description=__doc__)
    parser.add_argument("--tables", type=int, default=4, help="tables, one game each")
    parser.add_argument("--target", type=int, default=500, help="points that win a game")
    parser.add_argument("--hands", type=int, default=0, help="stop a game after these (0: never)")
    parser.add_argument(
        "--files", action="store_true", help="list the project files one card play runs"
    )
    args = parse_args(parser, argv, tables=1, target=250, hands=3)
    if args.tables < 1 or args.hands < 0:
        parser.error("--tables must be at least 1 and --hands not negative")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        log = asyncio.run(
            run(Path(tmp), args.tables, args.target, args.hands, trace_files=args.files)
        )
        wall = time.perf_counter() - started
    writes = Counter(log.card_writes)
    print(f"{len(log.results)} clicks at {args.tables} table(s) in {wall:.1f} s")
    for name, values in (("answer", log.answers), ("result", log.results)):
        print(
            f"{name}: p50 {_ms(values, 0.5):.2f} ms, p99 {_ms(values, 0.99):.2f} ms,"
            f" max {max(values) * 1000:.2f} ms"
        )
    spread = ", ".join(f"{n} write(s): {k} plays" for n, k in sorted(writes.items()))
    print(f"write transactions per accepted card play ({len(log.card_writes)}): {spread}")
    figures: dict[str, object] = {}
    if log.card_files is not None:
        names = sorted(str(Path(f).relative_to(ROOT)) for f in log.card_files)
        print(f"project files one card play runs ({len(names)}): {' '.join(names)}")
        print(f"TableService.get calls in that card play: {log.card_table_reads}")
        figures["click_files"] = len(names)
        figures["click_table_reads"] = log.card_table_reads
    print(
        f"reads per accepted card play: {statistics.fmean(log.card_reads):.2f},"
        f" of preferences: {statistics.fmean(log.card_prefs_reads):.2f}"
    )
    print(
        json.dumps(
            {
                "clicks": len(log.results),
                "answer_p50_ms": round(_ms(log.answers, 0.5), 3),
                "answer_p99_ms": round(_ms(log.answers, 0.99), 3),
                "result_p50_ms": round(_ms(log.results, 0.5), 3),
                "result_p99_ms": round(_ms(log.results, 0.99), 3),
                "writes_per_card_play": round(statistics.fmean(log.card_writes), 3),
                "engine_build": engine_build(),
                "reads_per_card_play": round(statistics.fmean(log.card_reads), 3),
                "prefs_reads_per_card_play": round(statistics.fmean(log.card_prefs_reads), 3),
                **figures,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
