"""One process of a sharded bot sending as fast as its outbox lets it:
``python -m tests.shards.budget_worker LOCATION BASE NAME ITEMS PER_S``.

It opens the store at LOCATION and, with an outbox sharing the token's budget
(PER_S requests a second) through it, posts ITEMS messages with discord.py's
HTTP client to the Discord at BASE (an ``/api/v10`` URL), each saying
``NAME number``. Discord's global 429s reach the outbox through the bot's
trace (:mod:`cogs.outbox`). It writes ``ready`` once the store is open
and ``done`` once every message went out.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Coroutine
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from cogs.outbox import POST, Budget, Outbox, install_fail_fast
from cogs.shared_budget import SharedBudget
from db.store import Store

CHANNEL_ID = 10


def say(*words: object) -> None:
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


async def main(location: str, base: str, name: str, items: int, per_s: float) -> None:
    store = await Store.open(location)
    tasks: set[asyncio.Task[Any]] = set()

    def spawn(coroutine: Coroutine[Any, Any, None], task_name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coroutine, name=task_name)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    shared = SharedBudget.of(store)
    outbox = Outbox(time.time, Budget(per_s=per_s, per_channel_s=0), spawn=spawn, shared=shared)
    trace = aiohttp.TraceConfig()
    install_fail_fast(trace, outbox.pause)
    Route.BASE = base
    http = HTTPClient(asyncio.get_running_loop(), http_trace=trace)
    await http.static_login("token")
    sent = 0

    def post(number: int) -> Any:
        async def send() -> str:
            nonlocal sent
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
            await http.request(route, json={"content": f"{name} {number}"})
            sent += 1
            return POST

        return send

    say("ready")
    for number in range(items):
        outbox.put(("post", number), post(number))
    while sent < items:
        await asyncio.sleep(0.05)
    say("done", sent)
    await http.close()
    await store.close()


if __name__ == "__main__":
    location, base, name, items, per_s = sys.argv[1:6]
    asyncio.run(main(location, base, name, int(items), float(per_s)))
