"""Requests that give up at Discord's 429 instead of waiting it out.

discord.py would resend a stale table message and count each 429 against the invalid
requests limit; within :func:`refusing_fast` an aiohttp trace raises :class:`TooManyRequests`
at once. The same trace hears of global 429s and tells ``on_global`` how long to pause."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
        self.retry_after = _seconds(data.get("retry_after"))


@contextmanager
def refusing_fast() -> Iterator[None]:
    """Requests made inside (by this task) raise at a 429 rather than wait."""
    token = _refusing_fast.set(True)
    try:
        yield
    finally:
        _refusing_fast.reset(token)


#: Told the seconds the token is paused for, at a global 429.
OnGlobal = Callable[[float], None]


def install(trace: aiohttp.TraceConfig, on_global: OnGlobal | None = None) -> None:
    """Make ``trace`` raise for :func:`refusing_fast` and report global 429s to ``on_global``."""

    async def answered(
        _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        response = params.response
        if response.status != 429:
            return
        try:
            data = await response.json(content_type=None)
        except (aiohttp.ClientError, ValueError):
            return  # not Discord's answer (a proxy's page): discord.py raises for it itself
        if not isinstance(data, dict):
            return
        headers = response.headers
        if on_global is not None and (
            data.get("global") is True or headers.get("X-RateLimit-Global", "").lower() == "true"
        ):
            seconds = _seconds(data.get("retry_after")) or _seconds(headers.get("Retry-After"))
            on_global(seconds if seconds is not None else 1.0)
        if _refusing_fast.get():
            raise TooManyRequests(response, data)

    trace.on_request_end.append(answered)


def _seconds(value: Any) -> float | None:
    """A retry-after figure (a number, or a header's text), None if there is none."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None
