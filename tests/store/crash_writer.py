"""A writer to kill: ``python -m tests.store.crash_writer DB ROUNDS SEED``.

It forks ROUNDS writers, one after another. Each opens the store, resumes
the table service and plays games at three tables through it (lobby, start,
bids, cards, rematches), writing ``"<table id> <version>\\n"`` to a pipe
after every action the service acknowledged. The supervisor kills each writer
with SIGKILL at a random moment (sometimes before it has even opened the
store), and finally prints one JSON line: the highest acknowledged version of
every table and the number of kills.

The modules are imported once here and shared by the forked writers, so a
round costs milliseconds instead of an interpreter start.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import select
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from db.store import Store
from db.targets import is_postgres
from tests.service.driver import GUESTS, HOST, Chooser

CHANNELS = (900, 901, 902)


async def _play(service: TableService, channel: int, fd: int, seed: int) -> None:
    chooser = Chooser(seed, revoke_rate=0.05, challenge_rate=0.002)
    table: Table | None = await service.in_channel(channel)
    if table is None:
        table = await service.create(1, channel, HOST, TableOptions(target=250))
        os.write(fd, f"{table.id} {table.version}\n".encode())
    while True:
        if table.status is TableStatus.LOBBY:
            if table.seated_count < 2:
                table = await service.join(table.id, GUESTS[0], table.version)
            elif table.seated_count < 4:
                table = await service.add_computers(table.id, HOST, table.version, "random")
            else:
                table = await service.start(table.id, HOST, table.version)
        elif table.status is TableStatus.PLAYING:
            table = await chooser.step(service, table)
        else:
            swap = chooser.rng.random() < 0.5
            table = await service.rematch(table.id, HOST, table.version, swap_teams=swap)
        os.write(fd, f"{table.id} {table.version}\n".encode())


async def _write(path: str, fd: int, seed: int) -> None:
    store = await Store.open(path)
    service = await TableService.open(store)
    await asyncio.gather(*(_play(service, c, fd, seed + c) for c in CHANNELS))


#: A writer: (database, pipe, seed); it writes a line after each commit.
Writer = Callable[[str, int, int], Coroutine[Any, Any, None]]


def _writer(write: Writer, path: str, fd: int, seed: int) -> None:
    try:
        asyncio.run(write(path, fd, seed))
    finally:
        os._exit(1)


def supervise(path: str, rounds: int, seed: int) -> dict[str, object]:
    acked: dict[int, int] = {}
    lines, kills = kill_rounds(_write, path, rounds, seed)
    for line in lines:
        table_id, version = map(int, line.split())
        acked[table_id] = max(acked.get(table_id, 0), version)
    return {"acked": acked, "kills": kills}


def kill_rounds(write: Writer, path: str, rounds: int, seed: int) -> tuple[list[str], int]:
    """Fork ``rounds`` writers one after another, each killed with SIGKILL
    at a random moment; the lines they wrote (each after a commit) and the
    number of kills."""
    if is_postgres(path):
        # The store imports its PostgreSQL driver when first asked for it:
        # here, once, rather than in every forked writer.
        import db.postgres  # noqa: F401
    rng = random.Random(seed)
    lines: list[str] = []
    kills = 0
    for round_no in range(rounds):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writer
            os.close(read_fd)
            _writer(write, path, write_fd, seed * 1000 + round_no)
        os.close(write_fd)
        deadline = time.monotonic() + rng.uniform(0.0, 0.4)
        chunks: list[bytes] = []
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([read_fd], [], [], left)
            if ready:
                data = os.read(read_fd, 65536)
                if not data:
                    break
                chunks.append(data)
        os.kill(pid, signal.SIGKILL)
        kills += 1
        # Lines already in the pipe were written after a commit returned.
        while data := os.read(read_fd, 65536):
            chunks.append(data)
        os.close(read_fd)
        os.waitpid(pid, 0)
        lines += b"".join(chunks).decode().splitlines()
    return lines, kills


if __name__ == "__main__":
    db, rounds, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(supervise(db, rounds, seed)))
