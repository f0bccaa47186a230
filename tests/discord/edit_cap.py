"""Discord's cap on edits of old messages, over SimCord, which has none.

Discord refuses edits of a message older than an hour beyond about 3 per 6 s
in a channel, with JSON code 30046, answered as HTTP 429 or as HTTP 400.
:class:`EditCap` models that as a fault-injecting transport: it wraps the
stand-in for discord.py's HTTP client (``FakeHTTPClient.request``), through
which every request of the bot's token goes, and answers an edit beyond the
cap with that refusal. A refused edit does not count towards the cap.

SimCord's stand-in replaces discord.py's request loop, so the 429 reaches the
bot as discord.py's :class:`~cogs.fail_fast.TooManyRequests` would (raised at
once, not waited out); that discord.py really does so is tested against an
HTTP server in tests/discord/test_fail_fast.py.

:func:`posted_earlier` makes what is created meanwhile (table messages, say)
look as old as a game played over days: Discord's ids carry their instant.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord.http import FakeHTTPClient

from cogs.fail_fast import TooManyRequests

OLD_MESSAGE_CAP = 30046
OLD_AFTER_S = 3600.0
EDIT_PATH = "/channels/{channel_id}/messages/{message_id}"
EDIT_URL = re.compile(r"/channels/(\d+)/messages/(\d+)")
REFUSAL = "Maximum number of edits to messages older than 1 hour reached. Try again later."


@dataclass
class _Answer:
    """Just enough of an aiohttp response for discord.py's exceptions."""

    status: int
    reason: str = "Refused"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class EditCap:
    """``edits`` edits of old messages in any ``window_s`` seconds in one
    channel; beyond that, refused with ``status`` (429 or 400)."""

    env: simcord.Env
    status: int = 429
    edits: int = 3
    window_s: float = 6.0
    #: Edits refused, and edits of old messages let through.
    refused: int = 0
    passed: int = 0
    _recent: dict[int, deque[float]] = field(default_factory=dict)

    def check(self, route: Any) -> None:
        """Refuse ``route`` (a discord.py Route) if it is an edit beyond the cap."""
        if route.method != "PATCH" or route.path != EDIT_PATH:
            return
        found = EDIT_URL.search(route.url)
        assert found is not None, route.url
        channel_id, message_id = int(found[1]), int(found[2])
        now = self.env.now().timestamp()
        posted = discord.utils.snowflake_time(message_id).timestamp()
        if now - posted < OLD_AFTER_S:
            return
        recent = self._recent.setdefault(channel_id, deque())
        while recent and recent[0] <= now - self.window_s:
            recent.popleft()
        if len(recent) >= self.edits:
            self.refused += 1
            retry_after = recent[0] + self.window_s - now
            data = {"message": REFUSAL, "code": OLD_MESSAGE_CAP, "retry_after": retry_after}
            if self.status == 429:
                data["global"] = False
                raise TooManyRequests(_Answer(429), data)  # type: ignore[arg-type]
            raise discord.HTTPException(_Answer(self.status), data)
        recent.append(now)
        self.passed += 1

    @contextmanager
    def applied(self) -> Iterator[EditCap]:
        transport: type[Any] = FakeHTTPClient  # every request of the bot's token
        original: Callable[..., Awaitable[Any]] = transport.request

        async def request(client: FakeHTTPClient, route: Any, *args: Any, **kwargs: Any) -> Any:
            self.check(route)
            return await original(client, route, *args, **kwargs)

        transport.request = request
        try:
            yield self
        finally:
            transport.request = original


@contextmanager
def posted_earlier(env: simcord.Env, seconds: float) -> Iterator[None]:
    """What SimCord creates meanwhile gets an id from ``seconds`` ago."""
    backend = env.backend
    allocate = backend._allocate_at
    shift_ms = int(seconds * 1000)

    def snowflake() -> int:
        now_ms = int(env.now().timestamp() * 1000) - discord.utils.DISCORD_EPOCH
        return allocate(now_ms - shift_ms)

    backend.snowflake = snowflake  # type: ignore[method-assign]
    try:
        yield
    finally:
        del backend.snowflake
