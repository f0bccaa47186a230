"""Requests that give up at Discord's 429 instead of waiting it out.

discord.py waits out a 429 and sends the same request again, holding the
route's bucket meanwhile. For a table message that is wrong twice over:
what it sends again is the state of some seconds ago, and every 429 counts
against the bot's invalid requests (10,000 in 10 minutes from one address,
then an hour's block). Within :func:`refusing_fast`, a 429 answer raises
:class:`TooManyRequests` at once, from an aiohttp trace on discord.py's
session (which sees every answer before discord.py does); every other
request keeps discord.py's own handling. The caller tries again later, with
the state current then.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import aiohttp
import discord

_refusing_fast: ContextVar[bool] = ContextVar("refusing_fast", default=False)


class TooManyRequests(discord.HTTPException):
    """A 429 answered to a request made within :func:`refusing_fast`."""

    def __init__(self, response: aiohttp.ClientResponse, data: dict[str, Any]) -> None:
        super().__init__(response, data)
        retry_after = data.get("retry_after")
        self.retry_after = float(retry_after) if isinstance(retry_after, int | float) else None


@contextmanager
def refusing_fast() -> Iterator[None]:
    """Requests made inside (by this task) raise at a 429 rather than wait."""
    token = _refusing_fast.set(True)
    try:
        yield
    finally:
        _refusing_fast.reset(token)


def install(trace: aiohttp.TraceConfig) -> None:
    """Have ``trace`` (discord.py's ``http_trace``) raise for :func:`refusing_fast`."""
    trace.on_request_end.append(_refuse)


async def _refuse(
    _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestEndParams
) -> None:
    response = params.response
    if response.status != 429 or not _refusing_fast.get():
        return
    try:
        data = await response.json(content_type=None)
    except (aiohttp.ClientError, ValueError):
        return  # not Discord's answer (a proxy's page): discord.py raises for it itself
    if isinstance(data, dict):
        raise TooManyRequests(response, data)
