"""Turn clock speed: loading 10,000 pending deadlines at start, and how late
deadlines fire on the real clock.

    python -m benchmarks.clock [--tables 10000] [--lead 0.5] [--db PATH] [--quick]

Both phases use the bot's SQLite store (a fresh file unless ``--db``), with
one lobby table row per deadline (deadlines belong to tables).

1. Load: every table has a pending deadline; the time is that of
   ``Scheduler.start()``: reading every row and building the heap.
2. Firing: with the scheduler running, each table's deadline is armed due
   ``--lead`` seconds (plus up to 0.2 s) after it is armed, so arming writes
   and firing (with its row deletion) overlap as they do in a busy bot. The
   delay is the handler's start minus the due time, on the wall clock.

The last line is one JSON object:
``{"load_10000_s": ..., "fire_delay_p50_ms": ..., "fire_delay_p99_ms": ...}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.clock import Deadline, Scheduler, SystemClock
from db.store import LogEntry, SeatRow, Store

from .quick import parse_args

KIND = "turn"


async def create_tables(store: Store, count: int) -> list[int]:
    ids = []
    for n in range(count):
        ids.append(
            await store.create_table(
                guild_id=1,
                channel_id=10_000 + n,
                host_id=1,
                options={},
                seats=[SeatRow(0, 1), SeatRow(1), SeatRow(2), SeatRow(3)],
                entry=LogEntry("create", 1, {}, time.time()),
            )
        )
    return ids


async def measure_load(store: Store, tables: list[int]) -> float:
    later = time.time() + 3600
    for n, table in enumerate(tables):
        await store.put_deadline(table, KIND, later + n, {"version": 1, "seat": n & 3})
    scheduler = Scheduler(store)
    scheduler.on(KIND, _ignore)
    started = time.perf_counter()
    await scheduler.start()
    elapsed = time.perf_counter() - started
    assert len(scheduler) == len(tables), f"loaded {len(scheduler)} of {len(tables)} deadlines"
    await scheduler.stop()
    for table in tables:
        await store.delete_deadline(table, KIND)
    return elapsed


async def measure_firing(store: Store, tables: list[int], lead: float) -> list[float]:
    delays: list[float] = []
    done = asyncio.Event()

    async def record(deadline: Deadline) -> None:
        delays.append(time.time() - deadline.due_at)
        if len(delays) == len(tables):
            done.set()

    scheduler = Scheduler(store, SystemClock())
    scheduler.on(KIND, record)
    await scheduler.start()
    rng = random.Random(1)
    for n, table in enumerate(tables):
        due = time.time() + lead + rng.uniform(0, 0.2)
        await scheduler.arm(Deadline(table, KIND, due, {"version": 2, "seat": n & 3}))
    await asyncio.wait_for(done.wait(), timeout=120)
    await scheduler.stop()
    remaining = await store.load_deadlines()
    assert not remaining, f"{len(remaining)} fired deadlines were left in the store"
    return delays


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--lead", type=float, default=0.5, help="seconds from arming to due")
    parser.add_argument("--db", type=Path, default=None)
    args = parse_args(parser, argv, tables=200, lead=0.1)

    path = args.db or Path(tempfile.mkdtemp(prefix="clock-bench-")) / "bench.db"
    store = await Store.open(path)
    print(f"store: {path}")
    try:
        tables = await create_tables(store, args.tables)
        load_s = await measure_load(store, tables)
        print(f"start-up load of {len(tables)} pending deadlines: {load_s:.3f} s")
        delays_ms = sorted(d * 1000 for d in await measure_firing(store, tables, args.lead))
    finally:
        await store.close()
    p50 = statistics.median(delays_ms)
    p99 = delays_ms[min(len(delays_ms) - 1, int(len(delays_ms) * 0.99))]
    print(
        f"firing delay over {len(delays_ms)} deadlines: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {delays_ms[-1]:.2f} ms"
    )
    print(
        json.dumps(
            {
                "load_10000_s": round(load_s, 4),
                "fire_delay_p50_ms": round(p50, 3),
                "fire_delay_p99_ms": round(p99, 3),
            }
        )
    )


async def _ignore(deadline: Deadline) -> None:
    return None


if __name__ == "__main__":
    asyncio.run(main())
