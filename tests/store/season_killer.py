"""Seasons closed by a process to kill: ``python -m tests.store.season_killer DB ROUNDS SEED``.

Each writer (forked by :func:`tests.store.crash_writer.kill_rounds`, killed
with SIGKILL at a random moment) starts seasons on one server, one after
another, and writes each new season's name to the pipe once its closing
step has committed. The last line printed is one JSON object: the names
acknowledged and the number of kills.
"""

from __future__ import annotations

import json
import os
import sys

from db.seasons import SeasonStore
from db.store import Store
from tests.store.crash_writer import kill_rounds

GUILD = 77


async def _close_seasons(path: str, fd: int, seed: int) -> None:
    store = await Store.open(path)
    seasons = SeasonStore(store)
    for number in range(10_000):
        name = f"S{seed}-{number}"
        await seasons.start_season(GUILD, name, name.casefold(), float(number))
        os.write(fd, f"{name}\n".encode())


if __name__ == "__main__":
    db, rounds, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    names, kills = kill_rounds(_close_seasons, db, rounds, seed)
    print(json.dumps({"acked": names, "kills": kills}))
