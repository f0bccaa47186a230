"""discord.py's own HTTP client against a small HTTP server standing in for
Discord, with the bot's trace: a 429 to a request made within
``refusing_fast`` is raised at once (sent once, not waited out), while
every other request keeps discord.py's handling (waited out and sent again).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import HTTPClient, Route

from cogs.outbox import TooManyRequests, install_fail_fast, refusing_fast

EDIT = "/channels/{channel_id}/messages/{message_id}"
#: The refusal's wait, longer than the test would ever take without it.
RETRY_AFTER_S = 5.0
CAP = {
    "message": "Maximum number of edits to messages older than 1 hour reached. Try again later.",
    "code": 30046,
    "retry_after": RETRY_AFTER_S,
    "global": False,
}


def answer(
    data: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON as Discord sends it (discord.py reads JSON only under this exact type)."""
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers=headers, content_type="application/json")


@dataclass
class FakeDiscord:
    """Answers every message edit with the cap's 429 ``refusals`` times, then 200."""

    refusals: int = 1
    retry_after_s: float = RETRY_AFTER_S
    edits: list[str] = field(default_factory=list)
    global_limit: bool = False  # the refusals are the token's global 429
    pauses: list[float] = field(default_factory=list)  # what the trace heard of

    async def me(self, _request: web.Request) -> web.Response:
        return answer({"id": "1", "username": "bot", "discriminator": "0"})

    async def edit(self, request: web.Request) -> web.Response:
        self.edits.append(request.match_info["message"])
        if len(self.edits) <= self.refusals:
            # Discord's 429s come through its proxy (discord.py checks for Via).
            headers = {"Via": "1.1 google", "Retry-After": str(self.retry_after_s)}
            body = {**CAP, "retry_after": self.retry_after_s}
            if self.global_limit:
                body = {"message": "You are being rate limited.", "global": True}
                body["retry_after"] = self.retry_after_s
                headers["X-RateLimit-Global"] = "true"
            return answer(body, status=429, headers=headers)
        return answer({"id": request.match_info["message"]})


def edit(http: HTTPClient, channel_id: int, message_id: int, content: str) -> Any:
    """A message edit, through discord.py's request loop."""
    route = Route("PATCH", EDIT, channel_id=channel_id, message_id=message_id)
    return http.request(route, json={"content": content})


@pytest.fixture
async def discord_at(
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[FakeDiscord, HTTPClient]]:
    fake = FakeDiscord()
    app = web.Application()
    app.router.add_get("/api/v10/users/@me", fake.me)
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", fake.edit)
    server = TestServer(app)
    await server.start_server()
    monkeypatch.setattr(Route, "BASE", str(server.make_url("/api/v10")))
    trace = aiohttp.TraceConfig()
    install_fail_fast(trace, fake.pauses.append)
    http = HTTPClient(asyncio.get_running_loop(), http_trace=trace)
    await http.static_login("token")
    try:
        yield fake, http
    finally:
        await http.close()
        await server.close()


async def test_a_429_within_refusing_fast_is_raised_at_once(
    discord_at: tuple[FakeDiscord, HTTPClient],
) -> None:
    fake, http = discord_at
    started = time.monotonic()
    with refusing_fast(), pytest.raises(TooManyRequests) as refused:
        await edit(http, 10, 20, "the latest state")
    assert time.monotonic() - started < RETRY_AFTER_S / 2  # not waited out
    assert fake.edits == ["20"]  # sent once, not again
    assert refused.value.status == 429
    assert refused.value.code == 30046
    assert refused.value.retry_after == RETRY_AFTER_S


async def test_a_429_elsewhere_is_still_waited_out_by_discord_py(
    discord_at: tuple[FakeDiscord, HTTPClient],
) -> None:
    fake, http = discord_at
    fake.retry_after_s = 0.2
    answer = await edit(http, 10, 21, "an ordinary edit")
    assert answer == {"id": "21"}
    assert fake.edits == ["21", "21"]  # refused, waited out, sent again


async def test_only_the_request_within_refusing_fast_gives_up(
    discord_at: tuple[FakeDiscord, HTTPClient],
) -> None:
    fake, http = discord_at
    fake.refusals, fake.retry_after_s = 2, 0.2
    ordinary = asyncio.create_task(edit(http, 11, 24, "an ordinary edit"))

    async def refused_at_once() -> None:
        with refusing_fast():
            await edit(http, 10, 23, "the latest state")

    with pytest.raises(TooManyRequests):
        await refused_at_once()
    assert await ordinary == {"id": "24"}
    assert sorted(fake.edits) == ["23", "24", "24"]


async def test_a_global_429_pauses_the_outbox_and_a_route_s_does_not(
    discord_at: tuple[FakeDiscord, HTTPClient],
) -> None:
    fake, http = discord_at
    fake.retry_after_s = 0.2
    await edit(http, 10, 25, "refused by the route's limit, then sent")
    assert fake.pauses == []
    fake.refusals, fake.global_limit = 3, True  # the third edit (the first two: above)
    assert await edit(http, 10, 26, "refused by the token's limit, then sent") == {"id": "26"}
    assert fake.pauses == [0.2]  # the seconds the token is paused for
