"""The whole bot under load: many live tables, some in play, inside Discord's limits.

    python -m benchmarks.bot [--tables 1000] [--active 100] [--seconds 120]
        [--old-messages [--cap-status 429|400]] [--processes N] [--quick]

The real bot (every feature, default settings) runs in SimCord's simulated
Discord over a SQLite file in a temporary folder. ``--tables`` tables are
live, each in a channel of its own; all but ``--active`` of them wait on a
player who is away (opened, filled and started through the table service,
which is what their clicks would have done). At the active ones people play
by clicking their hands, each after a random think time of 2 to 10 seconds
of SimCord's fake clock (``env.advance_time`` compresses it; the turn
clock's later turn notices and the computer players' moves come due as it moves);
every fourth active table is one person with three computer players. After
``--seconds`` of fake time the bot is restarted over the same database.

Measured from the end of the set-up to the end of the run:

* response: from sending an interaction to the bot's initial response to it
  (wall clock);
* shown: from an accepted action's commit to the request that edits (or
  posts) its table message carrying that version, read from the message's
  title ("Spades · table N") and its buttons' ids. On the wall clock when
  both happen in one step of the driver, else on the fake clock (the bot
  waited on purpose);
* REST requests by route (method and path template) per accepted action,
  counted at discord.py's HTTP layer: SimCord logs requests but neither their
  route templates nor their answers;
* requests split by route kind: the global budget's (every request of the
  bot's token) and interaction routes' (interaction callbacks and everything
  through an interaction token: follow-ups, edits of @original, among them
  table messages after a deferred press, which Discord keeps outside the
  global limit); the peak of each in any 1 s window of the fake clock, and
  the global budget's requests per second per active table over the play.
  SimCord has no rate limits, so Discord's are modelled here (counted, not
  refused), besides any real 429 or other 4xx answer: a global request
  beyond 50 in the last fake second is a 429; a request through an
  interaction token beyond 5 in its last 2 fake seconds is a 429 of that
  token; one through a token 15 fake minutes old or older is a 401;
* invalid requests: every 401, 403 and 429 answer the bot receives (the
  modelled global limit's included), per 10 minutes of the fake clock from
  the end of the set-up: Discord blocks an address after 10,000;
* CPU (``time.process_time``) per accepted action during the play, the
  resident memory at the end and per live table, and the time the restarted
  bot's ``setup_hook`` takes to resume every table.

With ``--old-messages`` every table message is posted two hours before the
play (its id says so), and Discord's cap on edits of messages older than an
hour is modelled (tests/discord/edit_cap.py: 3 edits per 6 s per channel,
answered with a 429 and code 30046, or a 400 with ``--cap-status 400``).

With ``--processes N`` the table messages, notices and posts go out through
N outboxes sharing the token's budget through the store, each what one
process of a sharded bot runs (benchmarks/processes.py says why they live in
one simulated bot); ``peak_rest_per_s`` is then theirs together, against
``budget_per_s`` (``[discord] rest_per_s``).

The last line is one JSON object: ``{"tables", "active", "actions",
"response_p50_ms", "response_p99_ms", "shown_p99_ms", "rest_per_action",
"peak_rest_per_s", "rate_limited", "invalid_requests", "cpu_ms_per_action",
"rss_mb", "resume_s", "invalid_per_10min", "processes", "budget_per_s",
"global_per_s_peak", "interaction_per_s_peak", "global_per_active_table_s",
"table_edits_via_tokens"}`` (the last: the share of table-message edits made
through interaction tokens).
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import itertools
import json
import random
import re
import resource
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.http import FakeHTTPClient, FakeWebhookAdapter

from bot.app import REDRAW, Snapshot
from bot.config import DatabaseSettings, Settings
from bot.discord_app import SpadesBot
from bot.game.types import Phase
from bot.tables.model import Table, TableStatus
from cogs.outbox import Budget
from tests.discord.edit_cap import TWO_HOURS_S, EditCap, posted_earlier
from tests.discord.harness import TABLE_TITLE, World, labels_of

from .click import PEOPLE, Stopwatch, _ms, timed_world
from .processes import outboxes_per_process
from .quick import parse_args

#: Discord's global limit on a bot's token-authenticated requests, per second.
GLOBAL_LIMIT = 50
#: An interaction token's own limit (one report: 5 requests in 2 s), and its life.
PER_TOKEN, PER_TOKEN_WINDOW_S = 5, 2.0
TOKEN_LIFE_S = 15 * 60.0
#: The token in an interaction route's URL (a callback's or a webhook's).
INTERACTION_TOKEN = re.compile(r"/(?:interactions/\d+|webhooks/\d+)/([^/?]+)")
ORIGINAL_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
THINK_S = (2.0, 10.0)
#: Every this many active tables, one is a person with three computer players.
SOLO_EVERY = 4
TITLE = re.compile(re.escape(TABLE_TITLE) + r" (\d+)")
#: Outside ``advance_time`` SimCord runs a bot's plain sleeps longer than
#: its settle timeout on the fake clock only (shorter ones it waits out): the
#: first turn notice's delay (10 s) must be longer than the timeout during play.
SETTLE_S = 1.9
#: The timeout while opening every table (that takes longer than SETTLE_S)
#: and while the fake clock moves on: every timer is on the fake clock then,
#: and all that comes due on the way (the computer players' moves at a
#: hundred tables, say) must be done within it.
SETTLE_SETUP_S = 300.0
#: The timeout while restarting (every table is drawn again then): below
#: the first turn notice's delay, which would be waited out on the wall clock.
SETTLE_RESTART_S = 5.0
COMPONENT = re.compile(r"spades:[a-z_]+:(\d+):(\d+)")
#: Fake seconds before a person looks again at a message that did not show
#: the button they wanted to press yet.
LOOK_AGAIN_S = 0.5


@dataclass
class FakeClockNaps:
    """The turn clock's time and its waits until the next deadline."""

    now: Callable[[], float]
    sleep: Callable[[float], Coroutine[Any, Any, None]]


class WakeUps:
    """Waits on SimCord's clock that share one timer.

    SimCord's settle looks at every pending timer for every task that waits,
    and a restart has every table's message wait for its turn of the REST
    budget: with a timer each, a settle at a thousand tables would take a
    million looks, once for every turn. Here each waits for a future, and one
    task sleeps until the earliest instant and wakes whoever is due."""

    def __init__(self, env: simcord.Env, now: Callable[[], float]) -> None:
        self.env = env
        self.now = now
        self._due: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._waker: asyncio.Task[None] | None = None
        self._waking_at = 0.0

    async def after(self, delay: float) -> None:
        """Wait ``delay`` seconds of SimCord's clock (in a declared wait)."""
        at = self.now() + delay
        due: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._due, (at, next(self._order), due))
        waker = self._waker
        if waker is None or waker.done() or at < self._waking_at:
            if waker is not None:
                waker.cancel()  # it sleeps for a later instant
            # Started by the waiting task, so SimCord tracks it as the bot's.
            self._waker = asyncio.create_task(self._wake(), name="rest-budget-wake-ups")
        await due

    async def _wake(self) -> None:
        while self._due:
            self._waking_at = self._due[0][0]
            delay = self._waking_at - self.now()
            if delay > 0:
                await self.env.external_wait(asyncio.sleep(delay), reason="REST budget")
            now = self.now()
            while self._due and self._due[0][0] <= now:
                _at, _order, due = heapq.heappop(self._due)
                if not due.done():  # not cancelled meanwhile
                    due.set_result(None)


class TimedBot(SpadesBot):
    """The real bot, noting how long its start-up (resuming every table) took.

    Its waits on purpose (the REST budget's turns, the turn clock's naps
    until the next deadline) are on SimCord's clock alone: declared waits,
    which ``env.advance_time`` ends at their own fake instants and a settle
    does not wait out on the wall clock (as it would a plain sleep due
    before the settle's deadline, the fake clock then following the wall)."""

    resumed_in: float | None = None
    env: simcord.Env | None = None
    processes = 1  # outboxes sharing the token's budget (--processes)
    #: Waits on purpose that were not the bot's own work (see
    #: :meth:`wait_on_fake_clock`): there should be none.
    unowned_waits = 0

    async def setup_hook(self) -> None:
        started = time.perf_counter()
        with outboxes_per_process(self, self.processes):
            await super().setup_hook()
        self.resumed_in = time.perf_counter() - started
        if self.env is not None:
            self.wait_on_fake_clock(self.env)

    def wait_on_fake_clock(self, env: simcord.Env) -> None:
        def declared(
            reason: str, until: Callable[[float], Coroutine[Any, Any, None]]
        ) -> Callable[[float], Coroutine[Any, Any, None]]:
            async def wait(delay: float) -> None:
                try:
                    await env.external_wait(until(max(0.0, delay)), reason=reason)
                except simcord.SetupError:
                    # Not bot-owned work (the driver's own wait for a
                    # message, say): a plain sleep, on the wall clock while
                    # the fake one stands still or leaps, so a request's
                    # instant says nothing of the budget.
                    self.unowned_waits += 1
                    await asyncio.sleep(delay)

            return wait

        turns = WakeUps(env, self.app.now)
        self.outbox.sleep = declared("REST budget", turns.after)
        if self.app.clock is not None:
            scheduler = self.app.clock.scheduler
            naps = declared("turn clock", asyncio.sleep)
            scheduler.clock = FakeClockNaps(scheduler.clock.now, naps)


@dataclass
class Request:
    route: str
    token: bool
    fake: float
    status: int | None = None


@dataclass
class Traffic:
    """Every REST request and every accepted action from the end of the set-up."""

    fake_now: Callable[[], float]
    recording: bool = False
    requests: list[Request] = field(default_factory=list)
    actions: int = 0
    shown: list[float] = field(default_factory=list)
    modelled_429: int = 0
    token_429: int = 0  # beyond an interaction token's own limit
    expired_401: int = 0  # through a token 15 minutes old or older
    table_edits: Counter[bool] = field(default_factory=Counter)  # through a token?
    stalls: int = 0  # turns whose work outlasted SimCord's settle timeout
    _window: deque[float] = field(default_factory=deque)
    _token_born: dict[str, float] = field(default_factory=dict)  # token -> first request
    _token_window: dict[str, deque[float]] = field(default_factory=dict)
    # table id -> version -> (wall, fake) instant of its commit, until shown
    _unshown: dict[int, dict[int, tuple[float, float]]] = field(default_factory=dict)
    _latest: dict[int, int] = field(default_factory=dict)

    def committed(self, snapshot: Snapshot, event: str) -> None:
        table = snapshot.table
        self._latest[table.id] = max(self._latest.get(table.id, 0), table.version)
        if not self.recording or event == REDRAW:
            return
        self.actions += 1
        instant = (time.perf_counter(), self.fake_now())
        self._unshown.setdefault(table.id, {})[table.version] = instant

    def sent(self, route: str, token: bool, payload: Any, url: str = "") -> Request:
        request = Request(route, token, self.fake_now())
        interaction_token = None if token else INTERACTION_TOKEN.search(url)
        if interaction_token is not None:
            # A token's life starts at its callback, the first request it makes.
            self._token_born.setdefault(interaction_token[1], request.fake)
        if not self.recording:
            return request
        self.requests.append(request)
        if token:
            window = self._window
            while window and window[0] <= request.fake - 1.0:
                window.popleft()
            if len(window) >= GLOBAL_LIMIT:
                self.modelled_429 += 1
            window.append(request.fake)
        elif interaction_token is not None:
            self._through_token(interaction_token[1], request.fake)
        channel_post = route.endswith("/channels/{channel_id}/messages")
        channel_edit = route.endswith("/channels/{channel_id}/messages/{message_id}")
        via_token = route == ORIGINAL_EDIT
        if channel_post or channel_edit or via_token:
            shown = self._table_message(payload, request.fake)
            if shown and (via_token or route.startswith("PATCH")):
                self.table_edits[via_token] += 1
        return request

    def _through_token(self, token: str, fake: float) -> None:
        """Discord's limits on one interaction token: its life, its own bucket."""
        if fake - self._token_born[token] >= TOKEN_LIFE_S:
            self.expired_401 += 1
        window = self._token_window.setdefault(token, deque())
        while window and window[0] <= fake - PER_TOKEN_WINDOW_S:
            window.popleft()
        if len(window) >= PER_TOKEN:
            self.token_429 += 1
        window.append(fake)
        if len(self._token_window) > 4096:
            self._token_window = {t: w for t, w in self._token_window.items() if w[-1] > fake - 2}

    def _table_message(self, payload: Any, fake: float) -> bool:
        """Note the versions a table message's payload shows; whether it is one."""
        if not isinstance(payload, dict):
            return False
        titles = [str(e.get("title") or "") for e in payload.get("embeds") or []]
        found = next((m for m in map(TITLE.match, titles) if m), None)
        if found is None:
            return False
        table_id = int(found[1])
        versions = [
            int(v)
            for t, v in COMPONENT.findall(json.dumps(payload.get("components")))
            if int(t) == table_id
        ]
        version = max(versions, default=self._latest.get(table_id, 0))
        waiting = self._unshown.get(table_id, {})
        wall = time.perf_counter()
        for committed in [v for v in waiting if v <= version]:
            at_wall, at_fake = waiting.pop(committed)
            self.shown.append(fake - at_fake if fake > at_fake else wall - at_wall)
        return True


def _payload(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    for key in ("json", "payload"):
        if kwargs.get(key) is not None:
            return kwargs[key]
    form = kwargs.get("form") or kwargs.get("multipart")
    for part in form or ():
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


@contextmanager
def counted(traffic: Traffic) -> Iterator[None]:
    """Count every request at discord.py's HTTP layer: SimCord's stand-ins
    for discord.py's HTTP client (the bot's token) and its webhook adapter
    (interaction callbacks and interaction-token webhooks)."""
    originals: dict[type[Any], Callable[..., Awaitable[Any]]] = {
        FakeHTTPClient: FakeHTTPClient.request,
        FakeWebhookAdapter: FakeWebhookAdapter.request,
    }

    def wrap(kind: type[Any], through_token: bool) -> None:
        original = originals[kind]

        async def request(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            token = through_token and "token" not in route.path
            entry = traffic.sent(
                f"{route.method} {route.path}", token, _payload(args, kwargs), route.url
            )
            try:
                return await original(self, route, *args, **kwargs)
            except discord.HTTPException as exc:
                entry.status = exc.status
                raise

        kind.request = request

    wrap(FakeHTTPClient, True)
    wrap(FakeWebhookAdapter, False)
    try:
        yield
    finally:
        for kind, original in originals.items():
            kind.request = original


@contextmanager
def patient(env: simcord.Env, timeout: float) -> Iterator[None]:
    """SimCord waits up to ``timeout`` for the bot's work to settle."""
    env.settle_timeout = timeout
    try:
        yield
    finally:
        env.settle_timeout = SETTLE_S


def rss_mb() -> float:
    """The resident memory now (the peak where /proc is missing)."""
    try:
        status = Path("/proc/self/status").read_text()
        return int(status.split("VmRSS:")[1].split()[0]) / 1024
    except (OSError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_per_second(instants: list[float]) -> int:
    """The most instants in any window of one second."""
    ordered = sorted(instants)
    peak, first = 0, 0
    for last, instant in enumerate(ordered):
        while ordered[first] <= instant - 1.0:
            first += 1
        peak = max(peak, last - first + 1)
    return peak


async def open_table(world: World, *, solo: bool) -> Table:
    """A started table in the world's channel, through the table service;
    ``solo``: its first person and three computer players."""
    app = world.bot.app
    people = [world.users[name].id for name in (PEOPLE[:1] if solo else PEOPLE)]
    table = await app.tables.create(world.guild.id, world.channel.id, people[0])
    for person in people[1:]:
        table = await app.tables.join(table.id, person, table.version)
    if solo:
        table = await app.add_computers(table, people[0], table.version)
    table = await app.tables.start(table.id, people[0], table.version)
    await world.bot.presenter.wait_shown(table.id)  # its message is posted
    return table


async def take_turn(world: World, think: random.Random) -> float | None:
    """The person the table waits on acts; the fake seconds until the table
    should be looked at again (None: the game is over).

    People act on the messages as they see them: a button that a paced edit
    has not drawn yet is not there to press, so they look again a little
    later (as someone would who sees the table message lag behind)."""
    table = await world.table_any()
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None:
        return None
    if game.phase is Phase.HAND_OVER:
        if "Next hand" not in labels_of(world.table_message()):
            return LOOK_AGAIN_S  # the hand's end is not shown yet
        first = next(s.user_id for s in table.seats if s.user_id is not None)
        await world.click(world.by_id(first), "Next hand")
    else:
        seat = game.waited_on()
        if seat is None or table.seats[seat].user_id is None:
            return 1.0  # a computer player's turn: the clock moves it
        try:
            await world.act(table)
        except simcord.SetupError as exc:
            if "No matching component" not in str(exc):
                raise
            return LOOK_AGAIN_S  # their hand does not show the turn yet
    return think.uniform(*THINK_S)


@dataclass
class Run:
    traffic: Traffic
    watch: Stopwatch
    cpu_s: float
    rss_mb: float
    rss_per_table_kb: float
    resume_s: float
    restart_s: float
    play_requests: int
    play_fake_s: float  # of the fake clock, from the end of the set-up to the end of play
    unowned_waits: int
    fake_s: float  # of the fake clock, from the end of the set-up to the end
    cap: EditCap | None  # with --old-messages
    budget_per_s: float  # [discord] rest_per_s: of all the processes together


def tail_s(bot: SpadesBot, tables: int) -> float:
    """Fake seconds enough for the turn notices still delayed to come due
    and for a request to each table to go out within the bot's REST budget:
    a restart before that would cut a mention's replacement in two (the old
    one deleted, the database not told), and the new bot's delete of it
    again would be answered 404."""
    per_s = bot.settings.discord.rest_per_s
    budget_s = tables / per_s if per_s > 0 else 0.0
    return bot.settings.clock.first_notice_s + budget_s + 5.0


async def advance_in_steps(env: simcord.Env, seconds: float, step: float = 1.0) -> None:
    """Move SimCord's clock ``seconds`` on, a fake second at a time: each step
    settles what came due (a burst of paced requests) within its own patience."""
    moved = 0.0
    while moved < seconds:
        with patient(env, SETTLE_SETUP_S):
            await env.advance_time(min(step, seconds - moved))
        moved += step


async def wait_out(env: simcord.Env, tries: int = 5) -> None:
    """Settle, patiently. A time step SimCord took on its own, on the wall
    clock, while the machine was too busy to finish it within SETTLE_S,
    fails the next settle once; the one after it waits on."""
    for attempt in range(tries):
        try:
            with patient(env, SETTLE_SETUP_S):
                await env.settle()
            return
        except TimeoutError:
            if attempt == tries - 1:
                raise


def lap(what: str, since: float) -> float:
    """Say how long (wall clock) a part of the run took; now."""
    now = time.perf_counter()
    print(f"{what}: {now - since:.0f} s")
    return now


async def run(
    folder: Path,
    tables: int,
    active: int,
    seconds: float,
    seed: int,
    cap_status: int | None,
    processes: int = 1,
) -> Run:
    """``cap_status``: with table messages two hours old, the edit cap's
    answer (429 or 400); None: table messages as new as the set-up."""
    seeds = itertools.count(seed)

    def make_bot() -> TimedBot:
        # The defaults, the REST budgets ([discord] rest_per_s,
        # table_edits_per_channel_s) included: they are what keeps a bot
        # with many tables under Discord's limits.
        settings = Settings(database=DatabaseSettings(path=folder / "spades.db"))
        made = TimedBot(settings, seed_source=lambda: next(seeds))
        made.processes = processes
        return made

    bots = [make_bot()]
    bot = bots[0]
    think = random.Random(seed)
    async with simcord.run(bot, settle_timeout=SETTLE_S) as env:
        traffic = Traffic(lambda: env.now().timestamp())
        # Off during the set-up, which stands for days of play before.
        cap = None if cap_status is None else EditCap(env, status=cap_status, on=False)
        with ExitStack() as modelled:
            if cap is not None:
                modelled.enter_context(cap.applied())  # under the counting
            modelled.enter_context(counted(traffic))
            try:
                bot.app.subscribe(traffic.committed)
                watch = await Stopwatch.on(env, bot.app.store)
                baseline = rss_mb()
                # The set-up stands for days of play: it is not paced (nor
                # measured), so it does not wait on the REST budget.
                paced = bot.outbox.budget
                bot.outbox.budget = Budget(per_s=0, per_channel_s=0)
                opening = time.perf_counter()
                aged = posted_earlier(env, TWO_HOURS_S) if cap is not None else nullcontext()
                with patient(env, SETTLE_SETUP_S), aged:
                    worlds = []
                    for number in range(tables):
                        world = timed_world(env, lambda: bot, watch)
                        await open_table(world, solo=number < active and number % SOLO_EVERY == 0)
                        worlds.append(world)
                    # The tables' first turn notices, days ago. The set-up is
                    # the driver's work, not the bot's: SimCord does not
                    # track it, so their delay runs on the wall clock, and
                    # what is left of it must pass before play begins.
                    await bot.app.wait_background()
                    await env.settle()
                print(
                    f"{tables} tables open in {time.perf_counter() - opening:.0f} s,"
                    f" {active} in play, for {seconds:.0f} fake seconds"
                )
                bot.outbox.budget = paced
                if cap is not None:
                    cap.on = True
                bot.wait_on_fake_clock(env)

                traffic.recording = True
                cpu = time.process_time()
                phase = time.perf_counter()
                started = env.now().timestamp()
                reported = 0

                def ahead_of(start: float) -> float:
                    return env.now().timestamp() - start

                due = [(started + think.uniform(*THINK_S), n) for n in range(active)]
                heapq.heapify(due)
                while due and due[0][0] < started + seconds:
                    at, number = heapq.heappop(due)
                    ahead = at - env.now().timestamp()
                    if ahead > 0:
                        with patient(env, SETTLE_SETUP_S):
                            await env.advance_time(ahead)
                    try:
                        wait: float | None = await take_turn(worlds[number], think)
                    except TimeoutError:
                        # SimCord gave up waiting (SETTLE_S) for the bot's work
                        # behind this turn; it is still tracked: wait it out.
                        traffic.stalls += 1
                        await wait_out(env)
                        wait = 1.0
                    if traffic.actions >= reported + 1000:
                        reported = traffic.actions
                        print(f"... {reported} actions at fake second {ahead_of(started):.0f}")
                    if wait is not None:
                        heapq.heappush(due, (env.now().timestamp() + wait, number))
                phase = lap("play", phase)
                # What is still waiting for its REST turn goes out.
                await advance_in_steps(env, tail_s(bot, tables))
                await wait_out(env)
                phase = lap("what was still waiting after it", phase)
                cpu_s = time.process_time() - cpu
                play_requests = len(traffic.requests)
                play_fake_s = env.now().timestamp() - started
                describe_play(traffic, watch, bot.unowned_waits)

                # Games end during play too (a team below the losing score).
                still_open = len(await bot.app.tables.unfinished())
                restarted = make_bot()
                restarted.env = env
                bots.append(restarted)
                restart_started = time.perf_counter()
                with patient(env, SETTLE_RESTART_S):
                    await env.restart_bot(restarted)
                restart_s = time.perf_counter() - restart_started
                # Every table redrawn by the restarted bot, within its budget.
                await advance_in_steps(env, tail_s(restarted, tables))
                await wait_out(env)
                lap("the restart, every table redrawn", phase)
                assert restarted.resumed_in is not None, "the restarted bot never started"
                resumed = len(await restarted.app.tables.unfinished())
                assert resumed == still_open, f"tables lost: {resumed} of {still_open} resumed"
                end_rss = rss_mb()
                fake_s = env.now().timestamp() - started
            finally:
                # A restart leaves the old bot as a crash would: its store open.
                for made in bots:
                    await made.store.close()
    return Run(
        traffic,
        watch,
        cpu_s,
        end_rss,
        (end_rss - baseline) * 1024 / tables,
        restarted.resumed_in,
        restart_s,
        play_requests,
        play_fake_s,
        sum(made.unowned_waits for made in bots),
        fake_s,
        cap,
        bot.settings.discord.rest_per_s,
    )


def statuses_of(requests: list[Request]) -> tuple[int, int, Counter[int]]:
    """Of ``requests``' answers: the 429s, the other 4xx, and every status but
    429 with its count."""
    statuses = Counter(r.status for r in requests if r.status is not None)
    real_429 = statuses.pop(429, 0)
    invalid = sum(n for status, n in statuses.items() if 400 <= status < 500)
    return real_429, invalid, statuses


def describe_play(traffic: Traffic, watch: Stopwatch, unowned_waits: int) -> None:
    """The figures of the play, printed as soon as it is over (whatever
    becomes of the restart after it)."""
    actions = max(traffic.actions, 1)
    play = traffic.requests
    print(
        f"{traffic.actions} accepted actions, {len(watch.log.answers)} interactions,"
        f" {traffic.stalls} turns outlasted SimCord's settle timeout ({SETTLE_S} s),"
        f" {unowned_waits} waits on purpose on the wall clock"
    )
    print(f"REST requests per accepted action during play ({len(play)} requests):")
    for route, n in Counter(r.route for r in play).most_common():
        print(f"  {n / actions:7.3f}  {route}")
    real_429, _invalid, statuses = statuses_of(play)
    print(
        f"during play: the global budget's peak per fake second"
        f" {peak_per_second([r.fake for r in play if r.token])},"
        f" interaction routes' {peak_per_second([r.fake for r in play if not r.token])};"
        f" 429s: {traffic.modelled_429} over the modelled global limit,"
        f" {traffic.token_429} over a token's own, {real_429} answered;"
        f" 401s of expired tokens: {traffic.expired_401};"
        f" other answers: {dict(statuses) or 'none'}"
    )
    for kind, through_token in (("the global budget", True), ("interaction routes", False)):
        made = sum(1 for r in play if r.token == through_token)
        print(f"  {made / actions:7.3f} per accepted action on {kind}")
    edits = traffic.table_edits
    print(
        f"table message edits: {edits[True]} through interaction tokens,"
        f" {edits[False]} through the bot's token"
    )
    for name, values in (("response", watch.log.answers), ("shown", traffic.shown)):
        if values:
            print(
                f"{name}: p50 {_ms(values, 0.5):.2f} ms, p99 {_ms(values, 0.99):.2f} ms,"
                f" max {max(values) * 1000:.2f} ms"
            )


def report(result: Run, tables: int, active: int, processes: int = 1) -> dict[str, Any]:
    traffic = result.traffic
    actions = max(traffic.actions, 1)
    play = traffic.requests[: result.play_requests]
    real_429, invalid, statuses = statuses_of(traffic.requests)
    peak = peak_per_second([r.fake for r in traffic.requests if r.token])
    interaction_peak = peak_per_second([r.fake for r in traffic.requests if not r.token])
    # Discord's invalid requests: 401, 403 and 429 answers, those a request
    # loop waits out and sends again included, and the modelled ones.
    waited_out = 0 if result.cap is None else result.cap.waited_out
    modelled = traffic.modelled_429 + traffic.token_429 + traffic.expired_401
    counted_invalid = statuses[401] + statuses[403] + real_429 + modelled + waited_out
    global_in_play = sum(1 for r in play if r.token)
    per_table_s = global_in_play / result.play_fake_s / active if result.play_fake_s > 0 else 0.0
    edits = traffic.table_edits
    via_tokens = edits[True] / (edits[True] + edits[False]) if edits.total() else 0.0
    per_10min = counted_invalid * 600.0 / result.fake_s if result.fake_s > 0 else 0.0
    if result.cap is not None:
        print(
            f"old messages: {result.cap.passed} edits of them let through,"
            f" {result.cap.refused} refused by the cap ({waited_out} of them waited out)"
        )
    print(f"{counted_invalid} invalid answers in {result.fake_s:.0f} fake seconds")
    print(
        f"with the restart's redraws: token routes' peak per fake second {peak},"
        f" 429s: {traffic.modelled_429} over the modelled global limit, {real_429} answered;"
        f" other answers: {dict(statuses) or 'none'}"
    )
    print(
        f"cpu {result.cpu_s:.1f} s during play; rss {result.rss_mb:.0f} MB,"
        f" {result.rss_per_table_kb:.1f} KB per live table"
    )
    print(
        f"restart: setup_hook resumed {tables} tables in {result.resume_s:.3f} s,"
        f" whole restart (with every table redrawn) {result.restart_s:.2f} s"
    )
    answers, shown = result.watch.log.answers or [0.0], traffic.shown or [0.0]
    return {
        "tables": tables,
        "active": active,
        "actions": traffic.actions,
        "response_p50_ms": round(_ms(answers, 0.5), 3),
        "response_p99_ms": round(_ms(answers, 0.99), 3),
        "shown_p99_ms": round(_ms(shown, 0.99), 3),
        "rest_per_action": round(len(play) / actions, 3),
        "peak_rest_per_s": peak,
        "rate_limited": traffic.modelled_429 + traffic.token_429 + real_429,
        "invalid_requests": invalid,
        "cpu_ms_per_action": round(result.cpu_s * 1000 / actions, 3),
        "rss_mb": round(result.rss_mb, 1),
        "resume_s": round(result.resume_s, 3),
        "invalid_per_10min": round(per_10min, 1),
        "processes": processes,
        "budget_per_s": result.budget_per_s,
        "global_per_s_peak": peak,
        "interaction_per_s_peak": interaction_peak,
        "global_per_active_table_s": round(per_table_s, 4),
        "table_edits_via_tokens": round(via_tokens, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot", description=__doc__)
    parser.add_argument("--tables", type=int, default=1000, help="live tables")
    parser.add_argument("--active", type=int, default=100, help="of them, tables in play")
    parser.add_argument("--seconds", type=float, default=120.0, help="fake seconds of play")
    parser.add_argument("--seed", type=int, default=1, help="deals and think times")
    parser.add_argument(
        "--old-messages",
        action="store_true",
        help="table messages two hours old, under Discord's cap on editing them",
    )
    parser.add_argument(
        "--cap-status",
        type=int,
        choices=(429, 400),
        default=429,
        help="how the cap answers an edit beyond it (with --old-messages)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="outboxes sharing the token's budget"
    )
    args = parse_args(parser, argv, tables=20, active=4, seconds=20.0)
    if not 1 <= args.active <= args.tables or args.seconds <= 0 or args.processes < 1:
        parser.error("need 1 <= --active <= --tables, --seconds above 0 and --processes >= 1")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        cap_status = args.cap_status if args.old_messages else None
        result = asyncio.run(
            run(
                Path(tmp),
                *(args.tables, args.active, args.seconds, args.seed, cap_status, args.processes),
            )
        )
        figures = report(result, args.tables, args.active, args.processes)
    print(f"wall {time.perf_counter() - started:.1f} s")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
