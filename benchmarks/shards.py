"""Two processes of disjoint shards over one database against one process:
aggregate committed actions per second.

    python -m benchmarks.shards [--tables 500] [--per-table 40] [--database-url URL] [--quick]

Each process is a real ``python`` process running the application core
(:class:`bot.app.SpadesApp` with its turn clock, so every action also writes
its deadlines) on its shard set, over the store at ``--database-url`` (by
default a fresh SQLite file in the temp folder, WAL mode). It seats four
people at ``--tables`` tables of a server on its shard and deals, says it is
ready, and on the word plays ``--per-table`` random legal actions at every
table at once (one task per table; rematches as games end).

1. One process, shard 0 and 1 of 2, alone: its actions per second.
2. Two processes, shard 0 and shard 1, started together on the same
   database: the actions of both over the time from the first one's start to
   the last one's end.

The issue's target: the second at least 1.5x the first. For PostgreSQL,
measure on a server that keeps fsync on, as a deployment does: a local one
is ``python -m tests.pg start --durable DIR`` (its settings: see
:mod:`tests.pg`).

Wall-clock figures move with whatever else the machine runs; CPU time per
action does much less. So each run also gives the CPU its bot processes
spent per action (``client``) and, for a PostgreSQL server on this machine,
the CPU of all the server's processes over the same time (``server``; None
elsewhere, and for SQLite, whose work is inside the bot's processes). From
the one-process figures, ``cpu_bound_speedup`` is the most that a second
process can add when every core is busy: one process uses at most one core
(c per action), two share the machine's cores with the server (c + s per
action), so two reach at most min(2/c, cores/(c+s)) actions per second
against min(1/c, cores/(c+s)): on 2 cores, 2c/(c+s).

The last line is one JSON object:
``{"backend": ..., "tables_per_process": ..., "one_process_actions_per_s": ...,
"two_processes_actions_per_s": ..., "speedup": ..., "p99_ms_two_processes": ...,
"one_process_client_cpu_ms": ..., "one_process_server_cpu_ms": ...,
"two_processes_client_cpu_ms": ..., "two_processes_server_cpu_ms": ...,
"cpu_bound_speedup": ...}`` (CPU in milliseconds per action).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import SpadesApp, open_store
from bot.config import Settings
from bot.tables.model import Table
from bot.tables.service import TableService
from db.targets import is_postgres

from .quick import parse_args
from .store import PLAYERS, _ms, _play

SHARD_COUNT = 2
#: A server of each shard: ``(guild >> 22) % 2`` is its index.
GUILDS = (10 << 22, 11 << 22)


class _SilentNotifier:
    async def remind(self, table: Table, seats: tuple[int, ...], left_s: float) -> None: ...

    async def claim_open(self, table: Table) -> None: ...

    async def stood_in(self, table: Table, seats: tuple[int, ...]) -> None: ...

    async def lobby_closed(self, table: Table) -> None: ...

    async def archive_thread(self, table: Table, wait: bool) -> bool:
        return True


def _store_location(url: str) -> str:
    return url.removeprefix("sqlite:///")


async def _seated(service: TableService, guild: int, channel: int) -> Table:
    table = await service.create(guild, channel, PLAYERS[0])
    for user in PLAYERS[1:]:
        table = await service.join(table.id, user, table.version)
    return await service.start(table.id, PLAYERS[0], table.version)


async def worker(location: str, shards: str, tables: int, per_table: int) -> None:
    """One process: seat, say ``ready``, wait for a line on stdin, play, and
    print a JSON line of its count, times and latencies."""
    store = await open_store(_store_location(location))
    settings = Settings(discord={"shard_count": SHARD_COUNT, "shard_ids": shards})
    app = await SpadesApp.open(settings, store, now=time.time, notifier=_SilentNotifier())
    await app.start()
    try:
        ids = sorted(settings.discord.shards.ids)
        guilds = [GUILDS[shard] for shard in ids]
        # Channels of their own for each run's processes: the runs may share
        # one database (a PostgreSQL URL), where an open table holds its channel.
        channels = len(ids) * 100_000_000 + (ids[0] + 1) * 1_000_000
        seated = [
            await _seated(app.tables, guilds[n % len(guilds)], channels + n) for n in range(tables)
        ]
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        timings: list[float] = []
        started, cpu_started = time.time(), time.process_time()
        counts = await asyncio.gather(
            *(
                _play(app.tables, t, per_table, random.Random(n), timings)
                for n, t in enumerate(seated)
            )
        )
        ended, cpu = time.time(), time.process_time() - cpu_started
    finally:
        await app.close()
        await store.close()
    report = {"actions": sum(counts), "start": started, "end": ended, "cpu_s": cpu}
    print(json.dumps({**report, "timings": timings}))


def _cpu_s(stat: str) -> tuple[int, float, float]:
    """The parent and the CPU seconds of a ``/proc/<pid>/stat`` line: its own,
    and that of its children that ended."""
    fields = stat.rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    own, ended = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
    return int(fields[1]), own / ticks, ended / ticks


async def _server_cpu_s(location: str) -> float | None:
    """The CPU seconds all processes of the PostgreSQL server at ``location``
    have used so far, if it runs on this machine (else None)."""
    if not is_postgres(location):
        return None
    import asyncpg

    connection = await asyncpg.connect(location)
    try:
        backend = await connection.fetchval("SELECT pg_backend_pid()")
        try:
            server = _cpu_s(Path(f"/proc/{backend}/stat").read_text())[0]
        except OSError:
            return None  # another machine's process
    finally:
        await connection.close()
    _, own, ended = _cpu_s(Path(f"/proc/{server}/stat").read_text())
    total = own + ended
    for entry in Path("/proc").iterdir():
        try:
            parent, child, _ = _cpu_s((entry / "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue  # not a process, or one that just ended
        if parent == server:
            total += child
    return total


@dataclass(frozen=True)
class _Run:
    per_s: float
    p99_ms: float
    client_cpu_ms: float  # CPU per action of the bot processes
    server_cpu_ms: float | None  # of the database server, when known

    def cpu(self) -> str:
        server = "" if self.server_cpu_ms is None else f", server {self.server_cpu_ms:.3f}"
        return f"CPU per action: bot {self.client_cpu_ms:.3f} ms{server}"


async def _reports(
    location: str, processes: list[asyncio.subprocess.Process]
) -> tuple[list[dict[str, Any]], float | None]:
    """Start the workers' play together once all are ready; their reports,
    and the CPU seconds the server spent meanwhile (None: unknown)."""
    for process in processes:
        assert process.stdout is not None
        line = (await process.stdout.readline()).decode().strip()
        if line != "ready":
            raise SystemExit(f"a worker failed to start: {line!r}")
    server_before = await _server_cpu_s(location)
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    reports = []
    for process in processes:
        out, _ = await process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a worker failed with status {process.returncode}")
        reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    server_after = await _server_cpu_s(location)
    if server_before is None or server_after is None:
        return reports, None
    return reports, server_after - server_before


async def _run_together(location: str, shard_sets: list[str], args: argparse.Namespace) -> _Run:
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.shards",
            "--worker",
            location,
            shards,
            str(args.tables),
            str(args.per_table),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for shards in shard_sets
    ]
    try:
        reports, server_cpu = await _reports(location, processes)
    finally:
        for process in processes:  # a failed worker must not leave the other behind
            if process.returncode is None:
                process.kill()
                await process.wait()
    actions = sum(r["actions"] for r in reports)
    elapsed = max(r["end"] for r in reports) - min(r["start"] for r in reports)
    timings = [t for r in reports for t in r["timings"]]
    return _Run(
        per_s=actions / elapsed,
        p99_ms=_ms(timings, 0.99),
        client_cpu_ms=1000 * sum(r["cpu_s"] for r in reports) / actions,
        server_cpu_ms=None if server_cpu is None else 1000 * server_cpu / actions,
    )


def _cpu_bound_speedup(client_ms: float, server_ms: float | None) -> float | None:
    """The most two processes can give over one when the cores are the limit
    (see the module's text)."""
    if server_ms is None:
        return None
    cores = len(os.sched_getaffinity(0))
    return min(2 / client_ms, cores / (client_ms + server_ms)) / min(
        1 / client_ms, cores / (client_ms + server_ms)
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


async def _migrated(location: str) -> None:
    """Create and migrate the database once, before processes share it."""
    store = await open_store(_store_location(location))
    await store.close()


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables per process")
    parser.add_argument("--per-table", type=int, default=40, help="actions per table")
    parser.add_argument(
        "--database-url", default=None, help="the database (default: a new SQLite file)"
    )
    args = parse_args(parser, argv, tables=20, per_table=10)
    with tempfile.TemporaryDirectory() as tmp:
        one_url = args.database_url or str(Path(tmp) / "one.db")
        two_url = args.database_url or str(Path(tmp) / "two.db")
        await _migrated(one_url)
        one = await _run_together(one_url, ["0-1"], args)
        print(f"one process, {args.tables} tables: {one.per_s:.0f} actions/s; {one.cpu()}")
        await _migrated(two_url)
        two = await _run_together(two_url, ["0", "1"], args)
        print(
            f"two processes, {args.tables} tables each: {two.per_s:.0f} actions/s together"
            f" ({two.per_s / one.per_s:.2f}x), p99 {two.p99_ms:.1f} ms; {two.cpu()}"
        )
    backend = "postgresql" if (args.database_url or "").startswith("postgres") else "sqlite"
    print(
        json.dumps(
            {
                "backend": backend,
                "tables_per_process": args.tables,
                "one_process_actions_per_s": round(one.per_s, 1),
                "two_processes_actions_per_s": round(two.per_s, 1),
                "speedup": round(two.per_s / one.per_s, 3),
                "p99_ms_two_processes": round(two.p99_ms, 3),
                "one_process_client_cpu_ms": _rounded(one.client_cpu_ms),
                "one_process_server_cpu_ms": _rounded(one.server_cpu_ms),
                "two_processes_client_cpu_ms": _rounded(two.client_cpu_ms),
                "two_processes_server_cpu_ms": _rounded(two.server_cpu_ms),
                "cpu_bound_speedup": _rounded(
                    _cpu_bound_speedup(one.client_cpu_ms, one.server_cpu_ms)
                ),
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        location, shards, tables, per_table = sys.argv[2:6]
        asyncio.run(worker(location, shards, int(tables), int(per_table)))
    else:
        asyncio.run(main())
