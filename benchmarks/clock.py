"""Turn clock speed: loading 10,000 pending deadlines at start, and how late
deadlines fire on the real clock.

    python -m benchmarks.clock [--tables 10000] [--spread 2.0] [--db PATH]

1. Load: 10,000 tables each with a pending deadline are stored; the time is
   that of ``Scheduler.start()`` (reading every row and building the heap).
2. Firing: the same 10,000 deadlines, due over ``--spread`` seconds from now,
   fire on the wall clock; the delay is the handler's start minus the due time.

The last line is one JSON object:
``{"load_10000_s": ..., "fire_delay_p50_ms": ..., "fire_delay_p99_ms": ...}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bot.scheduler import Deadline, DeadlineStore, MemoryDeadlineStore, Scheduler, SystemClock

KIND = "turn"


async def open_store(path: Path | None) -> tuple[DeadlineStore, str]:
    """The bot's SQLite store if it is there, else the in-memory one."""
    try:
        from db.store import Store
    except ImportError:
        return MemoryDeadlineStore(), "memory"
    if path is None:
        path = Path(tempfile.mkdtemp(prefix="clock-bench-")) / "bench.db"
    store = await Store.open(path)
    return store, f"sqlite {path}"


async def seed(store: DeadlineStore, tables: int, first_due: float, spread: float) -> None:
    for table in range(tables):
        due = first_due + spread * table / tables
        await store.put_deadline(table, KIND, due, {"version": 1, "seat": table & 3})


async def measure_load(store: DeadlineStore, tables: int) -> float:
    await seed(store, tables, time.time() + 3600, 600)
    scheduler = Scheduler(store)
    scheduler.on(KIND, _ignore)
    started = time.perf_counter()
    await scheduler.start()
    elapsed = time.perf_counter() - started
    assert len(scheduler) == tables, f"loaded {len(scheduler)} of {tables} deadlines"
    await scheduler.stop()
    return elapsed


async def measure_firing(store: DeadlineStore, tables: int, spread: float) -> list[float]:
    delays: list[float] = []
    done = asyncio.Event()

    async def record(deadline: Deadline) -> None:
        delays.append(time.time() - deadline.due_at)
        if len(delays) == tables:
            done.set()

    scheduler = Scheduler(store, SystemClock())
    scheduler.on(KIND, record)
    await scheduler.start()
    # Arm through the scheduler, as the turn clock does, starting a little
    # ahead so arming does not eat into the first due times.
    first_due = time.time() + 0.5 + tables * 0.0002
    for table in range(tables):
        due = first_due + spread * table / tables
        await scheduler.arm(Deadline(table, KIND, due, {"version": 2, "seat": table & 3}))
    await asyncio.wait_for(done.wait(), timeout=60 + spread)
    await scheduler.stop()
    return delays


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--spread", type=float, default=2.0, help="seconds the deadlines span")
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args(argv)

    store, where = await open_store(args.db)
    print(f"store: {where}")
    load_s = await measure_load(store, args.tables)
    print(f"start-up load of {args.tables} pending deadlines: {load_s:.3f} s")
    for table in range(args.tables):
        await store.delete_deadline(table, KIND)
    delays_ms = sorted(d * 1000 for d in await measure_firing(store, args.tables, args.spread))
    p50 = statistics.median(delays_ms)
    p99 = delays_ms[min(len(delays_ms) - 1, int(len(delays_ms) * 0.99))]
    print(
        f"firing delay over {len(delays_ms)} deadlines in {args.spread:g} s: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {delays_ms[-1]:.2f} ms"
    )
    close = getattr(store, "close", None)
    if close is not None:
        await close()
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
