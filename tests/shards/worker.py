"""One process of a sharded bot, without Discord, to kill:
``python -m tests.shards.worker LOCATION SHARD CHANNEL...``.

It runs an application core on shard SHARD (of two) over the store at
LOCATION and plays a game to its end at a table in each CHANNEL of that
shard's server, resuming the table found there or opening one. It writes one
line to stdout per event and flushes it at once:

``resumed <table> <version>``  a table found open at start
``ack <table> <version> <cards in the trick>``  an action the core acknowledged
``done <table> <version>``  the table's game is over
"""

from __future__ import annotations

import asyncio
import sys

from bot.tables.model import Table, TableStatus
from tests.service.driver import Chooser

from .cores import GUILDS, Core, Now, open_core, started_table


def say(*words: object) -> None:
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


async def _play(core: Core, guild: int, channel: int, seed: int) -> None:
    table: Table | None = await core.tables.in_channel(channel)
    if table is None:
        table = await started_table(core.tables, guild, channel)
    else:
        say("resumed", table.id, table.version)
    chooser = Chooser(seed)
    while table.status is TableStatus.PLAYING:
        table = await chooser.step(core.tables, table)
        trick = len(table.game.trick) if table.game is not None else 0
        say("ack", table.id, table.version, trick)
    say("done", table.id, table.version)


async def main(location: str, shard: int, channels: list[int]) -> None:
    core = await open_core(location, str(shard), Now())
    try:
        await asyncio.gather(
            *(_play(core, GUILDS[shard], channel, channel) for channel in channels)
        )
    finally:
        await core.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), [int(c) for c in sys.argv[3:]]))
