"""Discord's cap on edits of old messages, over SimCord, which has none.

Discord refuses edits of a message older than an hour beyond about 3 per 6 s
in a channel, with JSON code 30046, answered as HTTP 429 or as HTTP 400.
:class:`EditCap` models that as a fault-injecting transport: it wraps the
stand-in for discord.py's HTTP client (``FakeHTTPClient.request``), through
which every request of the bot's token goes, and its webhook adapter (an
interaction token's edit of its @original, a table message after a deferred
update), and answers an edit beyond the cap with that refusal. A refused
edit does not count towards the cap.

SimCord's stand-in replaces discord.py's request loop, so the model plays
its part for the 429: within :func:`cogs.outbox.refusing_fast` the 429 is
raised at once (that discord.py with the bot's trace really does so is
tested against an HTTP server in tests/discord/test_fail_fast.py); anywhere
else it is waited out and the same request sent again, up to five tries,
as discord.py does.

:func:`play_hands` plays a table of one person and three computer players
under the cap, noting how long the table message took to show each move.

:func:`posted_earlier` makes what is created meanwhile (table messages, say)
look as old as a game played over days: Discord's ids carry their instant.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord.http import FakeHTTPClient, FakeWebhookAdapter

from bot.game.types import Phase
from bot.tables.model import Table
from cogs import outbox
from cogs.outbox import TooManyRequests
from tests.discord.harness import World, components_of, labels_of

OLD_MESSAGE_CAP = 30046
OLD_AFTER_S = 3600.0
EDIT_PATH = "/channels/{channel_id}/messages/{message_id}"
EDIT_URL = re.compile(r"/channels/(\d+)/messages/(\d+)")
#: An interaction token's edit of its @original (a table message, after a
#: deferred update): capped like the bot's own edit of that message.
ORIGINAL_PATH = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
ORIGINAL_URL = re.compile(r"/webhooks/\d+/([^/]+)/messages/@original")
#: How often discord.py sends a request answered with 429s.
DISCORD_PY_TRIES = 5
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
    waited_out: int = 0  # 429s waited out and sent again (as discord.py would)
    #: Off: every edit goes through (a set-up standing for days before).
    on: bool = True
    _recent: dict[int, deque[float]] = field(default_factory=dict)

    def check(self, route: Any) -> None:
        """Refuse ``route`` (a discord.py Route) if it is an edit beyond the cap."""
        if not self.on or route.method != "PATCH":
            return
        if route.path == EDIT_PATH:
            found = EDIT_URL.search(route.url)
            assert found is not None, route.url
            channel_id, message_id = int(found[1]), int(found[2])
        elif route.path == ORIGINAL_PATH:
            token = ORIGINAL_URL.search(route.url)
            assert token is not None, route.url
            interaction_id = self.env.backend.interaction_tokens.get(token[1])
            record = self.env.backend.interactions.get(interaction_id or 0)
            if record is None or record.message_id is None:
                return  # SimCord answers that itself
            channel_id, message_id = record.channel_id, record.message_id
        else:
            return
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
        # Every request of the bot's token, and of interaction tokens.
        originals: dict[type[Any], Callable[..., Awaitable[Any]]] = {
            FakeHTTPClient: FakeHTTPClient.request,
            FakeWebhookAdapter: FakeWebhookAdapter.request,
        }

        def capped(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            async def request(client: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
                for _try in range(DISCORD_PY_TRIES):
                    try:
                        self.check(route)
                    except TooManyRequests as refusal:
                        # What discord.py's request loop does with a 429.
                        if outbox._refusing_fast.get() or refusal.retry_after is None:
                            raise
                        self.waited_out += 1
                        await asyncio.sleep(refusal.retry_after)
                        continue
                    return await original(client, route, *args, **kwargs)
                raise discord.HTTPException(_Answer(429), {"message": REFUSAL, "code": 30046})

            return request

        for transport, original in originals.items():
            transport.request = capped(original)
        try:
            yield self
        finally:
            for transport, original in originals.items():
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


TWO_HOURS_S = 2 * 3600.0
STEP_S = 0.5
VERSION = re.compile(r"spades:[a-z_]+:(\d+):(\d+)")


def shown_version(world: World, table_id: int) -> int:
    """The table version the newest table message was drawn at (from its buttons)."""
    ids = json.dumps(components_of(world.table_message()))
    return max((int(v) for t, v in VERSION.findall(ids) if int(t) == table_id), default=0)


async def solo_table(world: World) -> Table:
    """alice and three computer players, their table message two hours old."""
    alice = world.user("alice")
    with posted_earlier(world.env, TWO_HOURS_S):
        await world.new_table(alice, target=500)  # no game over within a few hands
    await world.click(alice, "Add computer players")
    await world.env.advance_time(2)
    posted = discord.utils.snowflake_time(world.table_message().id).timestamp()
    assert world.env.now().timestamp() - posted > OLD_AFTER_S
    await world.click(alice, "Start")
    return await world.table()


async def caught_up(world: World, table_id: int, limit_s: float) -> float | None:
    """Move the clock until the table message shows the table's latest
    version: the seconds it took; None if not within ``limit_s``."""
    waited = 0.0
    while (await world.table_any()).version != shown_version(world, table_id):
        if waited >= limit_s:
            return None
        await world.env.advance_time(STEP_S)
        waited += STEP_S
    return waited


@dataclass
class Play:
    #: For every move, how long the table message took to show it (None: not within the limit).
    lags: list[float | None]
    hands_dealt: int
    #: Whether the play stopped at a hand's end Next hand was not shown for.
    stuck: bool
    #: Presses of My hand beyond the first: the person's hand was not kept current.
    extra_hand_presses: int


async def play_hands(world: World, table_id: int, hands: int, limit_s: float) -> Play:
    """Play until ``hands`` hands are over and the next is dealt (or the
    game is over), or Next hand is not on the table message within
    ``limit_s`` of the hand's end."""
    alice = world.user("alice")
    lags = [await caught_up(world, table_id, limit_s)]
    stuck = False
    while True:
        table = await world.table_any()
        game = table.game
        assert game is not None
        dealt = game.hand_number
        over = game.phase is Phase.GAME_OVER
        if over or (len(game.hand_records) >= hands and game.phase is not Phase.HAND_OVER):
            break
        if game.phase is Phase.HAND_OVER:
            if "Next hand" not in labels_of(world.table_message()):
                stuck = True  # the table message never showed the hand's end
                break
            await world.click(alice, "Next hand")
        else:
            await world.act(table)
        lags.append(await caught_up(world, table_id, limit_s))
    return Play(lags, dealt, stuck, max(0, world.hands_opened - 1))
