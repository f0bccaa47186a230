"""The outbox: everything the bot sends to channels, within one REST budget, and what
its requests do at Discord's 429 (the end of this module).

An *item* is a key naming what it brings up to date (a table's message, its turn
notice, a game's end-of-game post) and a ``send`` that makes one request towards it,
reading what is current when its turn comes. A key has at most one item waiting and
one request in flight: a newer item replaces the waiting one, so the changes that come
meanwhile go out as one request and the latest state wins. An item that needs a second
request (a message gone that must be posted again, an old notice deleted before the
new one is posted) puts itself again from its ``send``.

Two lanes share the budget:

* table messages, spaced per channel (``table_edits_per_channel_s``), each competing
  from the instant its channel is free; edits of messages older than an hour, which
  Discord caps per channel (code 30046), go at most ``old_message_edits`` in any
  ``old_message_edits_window_s`` in one channel;
* the line: turn notices, the clock's messages, end-of-game posts (a new kind of key
  joins it). One line item is in flight at a time, and only the first in line (by due
  instant, then arrival) competes, from the instant the one before it was done. So a
  burst of notices never books the budget ahead: a table message, which people are
  looking at, waits behind one of them at most, and the line still gets the turns the
  table messages leave.

A third lane is off the budget: requests through an interaction token (a table message
edited, a turn notice posted or deleted, see cogs/notices.py), which Discord does
not count against the bot's global limit; they are spaced only per token
(``per_token_s``) and, for a table message, per channel as above.

At the budget's next turn, of the items that may go then, the one waiting the longest
goes (a table message waits from its first change not shown yet); all requests are at
least ``1 / rest_per_s`` apart. In a process of a sharded bot the budget is the token's,
shared with the other processes (:mod:`cogs.shared_budget`): a request also waits for a
slot this process leased, and Discord's global 429 (``pause``) pauses every process.
One task at a time sends: it naps until the next instant something may go, starts that
item's request in a task of its own, and hands over to a successor. Time is the
application's clock; naps are ``sleep`` (``asyncio.sleep``, or a wait the benchmarks'
simulated Discord knows to be on its own clock), and an instant napped until counts as
come while the clock stands still.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.config import DiscordSettings
from cogs.shared_budget import SharedBudget

log = logging.getLogger(__name__)

#: What an item brings up to date: a kind ("table", "notice", "clock",
#: "post", "results": a game in the server's results channel, "notify": a
#: new table's mention of the server's role) and the id of its table or game;
#: a kind about a part of something has both ids (("ready", tournament,
#: match), ("season", server, season number)).
Key = tuple[str, int] | tuple[str, int, int]
#: Discord's route of the request a ``send`` made ("PATCH /channels/..."),
#: or None if nothing was left to send.
Route = str | None
Send = Callable[[], Awaitable[Route]]
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
#: Runs a coroutine as a task of its own: the application's ``spawn``, which
#: keeps the task, logs its failure and cancels it when the application closes.
Spawn = Callable[[Coroutine[Any, Any, None], str], asyncio.Task[Any]]

#: Discord's window for old messages' edits is not exact (nor is a clock):
#: the next such edit waits this much longer than the window says.
OLD_EDIT_MARGIN_S = 0.05

#: Seconds between two requests through one interaction token: Discord
#: allows about 5 in 2 s per token (a margin over 0.4).
PER_TOKEN_S = 0.45

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


@dataclass(frozen=True, slots=True)
class Budget:
    """Requests a second for everything together, seconds between two table
    messages in one channel, edits of old messages allowed in any window of
    ``old_window_s`` in one channel, and seconds between two requests through
    one interaction token; 0 turns each off."""

    per_s: float
    per_channel_s: float
    old_edits: int = 0
    old_window_s: float = 0.0
    per_token_s: float = 0.0

    @classmethod
    def of(cls, settings: DiscordSettings) -> Budget:
        # Unpaced (a rest_per_s of 0): no spacing per token either.
        per_token_s = PER_TOKEN_S if settings.rest_per_s > 0 else 0.0
        return cls(
            settings.rest_per_s,
            settings.table_edits_per_channel_s,
            settings.old_message_edits,
            settings.old_message_edits_window_s,
            per_token_s,
        )

    @property
    def gap_s(self) -> float:
        return 1.0 / self.per_s if self.per_s > 0 else 0.0

    @property
    def slot_gap_s(self) -> float:
        """The gap between two slots of a budget shared by processes
        (:mod:`cogs.shared_budget`): one slot a second fewer than ``per_s``,
        for the slot used late, within its gap."""
        return 1.0 / max(self.per_s - 1, self.per_s / 2) if self.per_s > 0 else 0.0


@dataclass(slots=True)
class _Item:
    send: Send
    due: float
    place: int  # the order of arrival, which settles equal due instants
    channel_id: int | None  # a table message's channel; None: the line
    old: bool = False  # an edit of a message Discord caps (older than an hour)
    token: int | None = None  # the interaction token it goes through; None: the budget

    @property
    def in_line(self) -> bool:
        return self.channel_id is None and self.token is None


class Outbox:
    def __init__(
        self, now: Clock, budget: Budget, *, spawn: Spawn, shared: SharedBudget | None = None
    ) -> None:
        self._now = now
        #: The budget in force; replacing it applies from the next request.
        self.budget = budget
        #: The token's budget shared with the bot's other processes, if any.
        self.shared = shared
        self._paused_until = float("-inf")  # a global 429's pause
        #: How the sending task naps (see the module's docstring).
        self.sleep: Sleep = asyncio.sleep
        self._spawn = spawn
        self._waiting: dict[Key, _Item] = {}
        self._places = itertools.count()
        self._in_flight: dict[Key, asyncio.Task[Any]] = {}
        self._line_in_flight = False
        self._line_free_at = float("-inf")  # when the line's last request was done
        self._channel_free_at: dict[int, float] = {}  # channel -> its next table message
        self._token_free_at: dict[int, float] = {}  # token -> its next request
        self._old_edits: dict[int, deque[float]] = {}  # channel -> its last old edits' instants
        self._last_sent = float("-inf")
        # When the last nap ended: (the clock then, the instant napped until).
        self._nap_ended = (float("-inf"), float("-inf"))
        self._sender: asyncio.Task[Any] | None = None
        self._napping_until: float | None = None  # while the sender naps
        #: Requests made, by Discord route (for a metrics endpoint to read).
        self.requests: Counter[str] = Counter()

    def __len__(self) -> int:
        """Items waiting (not those in flight): the queue's length."""
        return len(self._waiting)

    def __contains__(self, key: Key) -> bool:
        """Whether ``key`` has an item waiting."""
        return key in self._waiting

    def put(
        self,
        key: Key,
        send: Send,
        *,
        due: float | None = None,
        channel_id: int | None = None,
        old: bool = False,
        token: int | None = None,
    ) -> None:
        """Have ``send`` go at ``due`` (or as soon as may be), in place of the
        key's waiting item. Without ``due`` a replacement keeps the waiting
        one's place (it is a newer version of the same thing); with one it
        is a new appointment, placed by that instant. ``channel_id`` puts it
        among the table messages, spaced in that channel (``old``: an edit
        Discord caps, paced besides); ``token`` (an interaction's id) has it
        go through that interaction's token, off the budget, spaced per
        token; with neither the item waits in the line."""
        waiting = self._waiting.get(key)
        if waiting is not None and due is None:
            waiting.send, waiting.channel_id, waiting.old = send, channel_id, old
            waiting.token = token
        else:
            at = self._now() if due is None else due
            waiting = _Item(send, at, next(self._places), channel_id, old, token)
            self._waiting[key] = waiting
        if self._napping_until is None or self._may_go_at(waiting) < self._napping_until:
            self._wake()

    def withdraw(self, key: Key) -> None:
        """Forget the key's waiting item, if any (not one in flight)."""
        self._waiting.pop(key, None)

    async def wait_sent(self, key: Key) -> None:
        """Wait until ``key`` has nothing waiting or in flight."""
        while key in self._waiting or key in self._in_flight:
            task = self._in_flight.get(key) or self._sender
            if task is None or task.done():
                task = next(iter(self._in_flight.values()), None)  # what holds it up
            if task is None:
                return  # cannot happen: something waiting always has a way out
            await asyncio.wait({task})

    def pause(self, retry_after_s: float) -> None:
        """Discord answered a global 429: nothing goes for ``retry_after_s``,
        from this process or (sharing the budget) any other."""
        until = self._now() + retry_after_s
        if until <= self._paused_until:
            return
        self._paused_until = until
        if self.shared is not None:
            self._spawn(self.shared.pause(until, self.budget.slot_gap_s), "outbox-pause")

    # -- sending --------------------------------------------------------------------

    def _wake(self) -> None:
        """Make sure a sender looks at the items again now."""
        sender = self._sender
        if sender is not None and not sender.done():
            if self._napping_until is None:
                return  # it is choosing right now, and sees every item
            sender.cancel()  # it naps until a later instant than may be needed now
        self._napping_until = None
        self._sender = self._spawn(self._send_next(), "outbox")

    def _may_go_at(self, item: _Item) -> float:
        """The earliest instant ``item`` may go, by the budget, its channel's
        spacing and (for the line) the line's last request."""
        if item.token is not None:
            return self._token_may_go_at(item)
        after = self._line_free_at if item.channel_id is None else self._channel_free(item)
        return max(item.due, after, self._last_sent + self.budget.gap_s, self._paused_until)

    def _token_may_go_at(self, item: _Item) -> float:
        """When an item through a token may go: its token's spacing and, for a
        table message, its channel's; never the budget's."""
        assert item.token is not None
        at = max(item.due, self._token_free_at.get(item.token, item.due))
        return at if item.channel_id is None else max(at, self._channel_free(item))

    def _channel_free(self, item: _Item) -> float:
        """When a table message's channel is free for ``item``: its spacing,
        and for an old message's edit the cap's window too."""
        assert item.channel_id is not None
        free = self._channel_free_at.get(item.channel_id, item.due)
        recent = self._old_edits.get(item.channel_id)
        if item.old and recent is not None and len(recent) >= self.budget.old_edits > 0:
            # The window's oldest edit must have left it.
            window_ends = recent[-self.budget.old_edits] + self.budget.old_window_s
            free = max(free, window_ends + OLD_EDIT_MARGIN_S)
        return free

    def _next(self, now: float, turn: float) -> tuple[float, Key] | None:
        """The item to send next and the instant it may go. An item through a
        token that may go ``now``, the one waiting the longest; else of the
        items that may go by ``turn`` (the budget's next instant), the one
        waiting the longest; if there is none, the one that may go first. An
        item through a token that may go before that instant goes first: the
        budget's spacing and pauses are not its own."""
        ready: tuple[float, int, int, Key] | None = None  # (waiting since, lane, place, key)
        later: tuple[float, int, int, Key] | None = None  # (may go at, lane, place, key)
        off_budget: tuple[float, int, Key] | None = None  # (waiting since, place, key)
        token_next: tuple[float, int, Key] | None = None  # (may go at, place, key)
        head: _Item | None = None
        head_key: Key | None = None
        for key, item in self._waiting.items():
            if key in self._in_flight:
                continue
            if item.token is not None:
                may_go_at = self._token_may_go_at(item)
                if may_go_at <= now:
                    if off_budget is None or (item.due, item.place) < off_budget[:2]:
                        off_budget = (item.due, item.place, key)
                elif token_next is None or (may_go_at, item.place) < token_next[:2]:
                    token_next = (may_go_at, item.place, key)
                continue
            if item.channel_id is None:
                if head is None or (item.due, item.place) < (head.due, head.place):
                    head, head_key = item, key
                continue
            may_go_at = max(item.due, self._channel_free(item))
            if may_go_at <= turn:
                if ready is None or (item.due, 0, item.place) < ready[:3]:
                    ready = (item.due, 0, item.place, key)
            elif later is None or (may_go_at, 0, item.place) < later[:3]:
                later = (may_go_at, 0, item.place, key)
        if head is not None and head_key is not None and not self._line_in_flight:
            # The line's first item waits from when the one before it was
            # done: a table message waits behind one line request at most.
            since = max(head.due, self._line_free_at)
            if since <= turn:
                if ready is None or (since, 1, head.place) < ready[:3]:
                    ready = (since, 1, head.place, head_key)
            elif later is None or (since, 1, head.place) < later[:3]:
                later = (since, 1, head.place, head_key)
        if off_budget is not None:
            return now, off_budget[2]
        found = (turn, ready[3]) if ready is not None else None
        if found is None and later is not None:
            found = (later[0], later[3])
        if token_next is not None and (found is None or token_next[0] < found[0]):
            found = (token_next[0], token_next[2])
        return found

    def _time(self) -> float:
        """The clock; or, while it has stood still since the last nap ended,
        the instant napped until: a simulated clock may stand still while
        the event loop's runs. Used to decide what may go, never recorded."""
        clock = self._now()
        seen, slept_to = self._nap_ended
        return slept_to if clock == seen and slept_to > clock else clock

    async def _send_next(self) -> None:
        while True:
            now = self._time()
            turn = max(now, self._last_sent + self.budget.gap_s, self._paused_until)
            found = self._next(now, turn)
            if found is None:
                return
            at, key = found
            on_budget = self._waiting[key].token is None
            if at <= now and on_budget and self.shared is not None and self.budget.per_s > 0:
                # Ready: its instant is also this process's next slot (an
                # item through a token needs none: it is off the budget).
                slot = self.shared.held(now, self.budget.slot_gap_s)
                if slot is None:
                    wanted = sum(
                        1 for i in self._waiting.values() if i.due <= now and i.token is None
                    )
                    await self.shared.lease(self._time, self.budget.slot_gap_s, wanted)
                    continue  # the clock moved on meanwhile
                at = slot
            if at > now:
                self._napping_until = at
                await self.sleep(at - now)
                self._napping_until = None
                self._nap_ended = (self._now(), at)
                continue  # whatever may go first now, replacements included
            self._dispatch(key)
            # A successor sends the next one: whoever waits for this key's
            # turn ((``wait_sent``)) waits for this task only.
            self._sender = None
            if self._waiting:
                self._wake()
            return

    def _dispatch(self, key: Key) -> None:
        item = self._waiting.pop(key)
        # The clock's instant, not the one napped until: what is recorded
        # for the next requests must not run ahead of the clock.
        now = self._now()
        if item.token is None:
            self._last_sent = now
            if self.shared is not None:
                self.shared.take()
        elif self.budget.per_token_s > 0:
            self._token_free_at[item.token] = now + self.budget.per_token_s
        if item.in_line:
            self._line_in_flight = True
        elif item.channel_id is not None:
            if self.budget.per_channel_s > 0:
                self._channel_free_at[item.channel_id] = now + self.budget.per_channel_s
            if item.old and self.budget.old_edits > 0:
                recent = self._old_edits.setdefault(item.channel_id, deque())
                recent.append(now)
                while len(recent) > self.budget.old_edits:
                    recent.popleft()
        name = "-".join(map(str, ("outbox", *key)))
        self._in_flight[key] = self._spawn(self._fly(key, item), name)

    async def _fly(self, key: Key, item: _Item) -> None:
        try:
            route = await item.send()
            if route is not None:
                self.requests[route] += 1
        except Exception:
            # One item's failure (a database error, say) must not hold up
            # everything else in the outbox.
            log.exception("outbox: sending %r failed", key)
        finally:
            del self._in_flight[key]
            if item.in_line:
                self._line_in_flight = False
                self._line_free_at = self._now()
            if len(self._channel_free_at) > 1024:
                now = self._now()
                self._channel_free_at = {c: t for c, t in self._channel_free_at.items() if t > now}
            if len(self._token_free_at) > 1024:
                now = self._now()
                self._token_free_at = {k: t for k, t in self._token_free_at.items() if t > now}
            if len(self._old_edits) > 1024:
                since = self._now() - self.budget.old_window_s
                self._old_edits = {c: d for c, d in self._old_edits.items() if d[-1] > since}
            if self._waiting:
                self._wake()


# -- requests that give up at Discord's 429 instead of waiting it out ----------
# discord.py would resend a stale table message and count each 429 against the invalid
# requests limit; within :func:`refusing_fast` an aiohttp trace raises :class:`TooManyRequests`
# at once. The same trace hears of global 429s and tells ``on_global`` how long to pause.

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


def install_fail_fast(trace: aiohttp.TraceConfig, on_global: OnGlobal | None = None) -> None:
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
