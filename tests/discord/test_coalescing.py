"""Table messages within the [discord] edit budgets: changes that come close
together become one edit, the newest state is always the one shown, and the
rate stays within the budgets over SimCord's clock.

The outbox waits for its turns on the application's clock, which SimCord
holds still until a test moves it: these tests move it with ``advance_time``.
(That no request goes through an interaction token older than Discord allows
is tested in tests/discord/test_hand_messages.py,
test_a_hand_older_than_the_token_is_never_edited_and_its_row_goes.)
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Coroutine
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord
from simcord import HttpLogEntry

from bot.config import DiscordSettings, Settings
from bot.game.types import Phase
from bot.render.table import table_message
from bot.tables.model import Table
from cogs.components import message_fields
from cogs.outbox import POST, Budget, Outbox
from tests.discord.conftest import fast_settings
from tests.discord.harness import Message, World, buttons_of, embed_text
from tests.discord.test_hand_messages import requests_with, token_of

# Sleeps longer than half a second wait for advance_time, not for the wall clock.
pytestmark = pytest.mark.simcord(settle_timeout=0.5)

EPSILON = 1e-6


@pytest.fixture
def discord_settings() -> DiscordSettings:
    return DiscordSettings()  # the defaults a real bot runs with


@pytest.fixture
def settings(tmp_path: Path, discord_settings: DiscordSettings) -> Settings:
    return fast_settings(tmp_path / "spades.db").model_copy(update={"discord": discord_settings})


class StampedRequests(list[HttpLogEntry]):
    """SimCord's request log, with the simulated instant of every request."""

    def __init__(self, env: simcord.Env) -> None:
        super().__init__(env.http_requests)
        self.env = env
        self.at: list[float] = [float("nan")] * len(self)

    def append(self, entry: HttpLogEntry) -> None:
        super().append(entry)
        self.at.append(self.env.now().timestamp())


def stamp(world: World) -> StampedRequests:
    log = StampedRequests(world.env)
    world.env.backend.http_requests = log
    return log


def table_writes(log: StampedRequests, since: int, channel_id: int | None = None) -> list[float]:
    """When the outbox's requests in channels (table messages, turn notices) were made."""
    prefix = "/channels/" if channel_id is None else f"/channels/{channel_id}/"
    return [
        at
        for entry, at in zip(log[since:], log.at[since:], strict=True)
        if entry.method in ("POST", "PATCH", "DELETE")
        and entry.path.startswith(prefix)
        and "/messages" in entry.path
    ]


def edits_of(world: World, message_id: int, since: int) -> int:
    """Edits of the message: the bot's own, and those through the token of a
    press on it (its @original), whichever route each rode."""
    paths = {f"/channels/{world.channel.id}/messages/{message_id}"}
    backend = world.env.backend
    paths |= {
        f"/webhooks/{backend.application_id}/{i.token}/messages/@original"
        for i in backend.interactions.values()
        if i.message_id == message_id
    }
    requests = world.env.http_requests[since:]
    return sum(1 for r in requests if r.method == "PATCH" and r.path in paths)


def most_within(instants: list[float], seconds: float) -> int:
    """The most instants in any window of ``seconds``."""
    ordered = sorted(instants)
    return max(
        (sum(1 for at in ordered if start <= at < start + seconds - EPSILON) for start in ordered),
        default=0,
    )


async def bidding(world: World) -> Table:
    """Four people at a table whose bidding has begun, every change shown."""
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.new_table(people[0], target=250)
    for person in people[1:]:
        await world.click(person, "Join")
    await world.env.advance_time(1)
    await world.click(people[0], "Start")
    await world.env.advance_time(2)  # shown a second later, and a second passed since
    table = await world.table()
    assert table.game is not None and table.game.phase is Phase.BIDDING
    return table


async def test_bids_close_together_become_one_edit_showing_the_last(world: World) -> None:
    table = await bidding(world)
    message_id = world.table_message().id
    since = len(world.env.http_requests)
    for _ in range(4):
        await world.act(await world.table())
    bid_all = await world.table()
    assert bid_all.game is not None and bid_all.game.phase is Phase.PLAYING
    # The first bid is shown at once; the three after it wait for the next
    # turn of the channel, a second later, and are shown by one edit.
    assert edits_of(world, message_id, since) == 1
    shown_first = embed_text(world.table_message())
    await world.env.advance_time(0.9)
    assert edits_of(world, message_id, since) == 1
    assert embed_text(world.table_message()) == shown_first
    await world.env.advance_time(0.1)
    assert edits_of(world, message_id, since) == 2
    await world.env.advance_time(5)
    assert edits_of(world, message_id, since) == 2  # nothing more to show
    assert embed_text(world.table_message()) == await rendered(world, bid_all)
    assert table.version < bid_all.version


async def rendered(world: World, table: Table) -> str:
    """The text of ``table``'s message as the bot draws it now."""
    snapshot = world.bot.app.snapshot(await world.table(table.id))
    spec = table_message(snapshot.table, claim_open=snapshot.claim_open, stand_in=snapshot.stand_in)
    drawn = SimpleNamespace(embeds=[message_fields(spec)["embed"]])
    return embed_text(cast(Message, drawn))


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
async def test_a_rate_limit_during_a_burst_still_ends_showing_the_latest(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.new_table(alice)
    await world.env.advance_time(1)
    message = world.table_message()
    since = len(world.env.http_requests)
    world.env.inject_error("PATCH", f"/channels/*/messages/{message.id}", status=429)
    await world.click(bob, "Join", message)  # shown at once: refused with a 429
    await world.click(carol, "Join", message)
    await world.env.advance_time(0.5)
    await world.click(dave, "Join", message)  # while the presenter backs off
    assert f"<@{bob.id}>" not in embed_text(world.table_message())
    await world.env.advance_time(0.5)  # the retry, with everything since
    shown = embed_text(world.table_message())
    assert all(f"<@{user.id}>" in shown for user in (bob, carol, dave))
    await world.env.advance_time(5)
    assert edits_of(world, message.id, since) == 2  # the refused edit and the retry
    assert embed_text(world.table_message()) == await rendered(world, await world.table())


async def seated_in(world: World, channel: simcord.ChannelHandle) -> list[int]:
    table = await world.bot.app.tables.in_channel(channel.id)
    assert table is not None
    return [seat.user_id for seat in table.seats if seat.user_id is not None]


# Slow budgets: every wait of the presenter is much longer than the clicks
# take on the wall clock, so only advance_time ends it.
@pytest.mark.parametrize(
    "discord_settings", [DiscordSettings(table_edits_per_channel_s=5, rest_per_s=0.25)]
)
@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own budget, measured
async def test_ten_tables_changing_at_once_stay_within_both_budgets(
    world: World, discord_settings: DiscordSettings
) -> None:
    log = stamp(world)
    channels = [world.guild.create_text_channel(f"spades-{n}") for n in range(10)]
    people = {c.id: [world.user(f"p{c.id}-{seat}") for seat in range(4)] for c in channels}
    for channel in channels:
        # Each table is opened with two requests: its message, then its thread.
        await people[channel.id][0].slash(channel, "spades new")
        for _second in range(9):
            await world.env.advance_time(1)
    since = len(log)
    for channel in channels:  # thirty changes in one instant
        message = world.table_message(channel)
        for person in people[channel.id][1:]:
            await world.click(person, "Join", message)
    for _second in range(60):  # a second at a time: each advance must settle in 0.5 s
        await world.env.advance_time(1)

    for channel in channels:
        assert await seated_in(world, channel) == [p.id for p in people[channel.id]]
        shown = embed_text(world.table_message(channel))
        assert all(f"<@{p.id}>" in shown for p in people[channel.id])
        writes = table_writes(log, since, channel.id)
        gaps = [later - earlier for earlier, later in itertools.pairwise(writes)]
        assert all(gap >= discord_settings.table_edits_per_channel_s - EPSILON for gap in gaps)
    every = table_writes(log, since)
    assert most_within(every, 1 / discord_settings.rest_per_s) == 1
    # The budget did hold some back: ten edits at one per 4 s take 36 s.
    assert max(every) - min(every) >= 36 - EPSILON


async def test_a_hand_is_not_redrawn_when_nothing_changed_for_its_owner(world: World) -> None:
    table = await bidding(world)
    assert table.game is not None
    first = table.game.waited_on()
    assert first is not None
    # The owner bids third: the first bid changes nothing they can do.
    owner = world.by_id(table.seats[(first + 2) % 4].user_id or 0)
    hand = await world.my_hand(owner)
    token = token_of(world, hand)
    since = len(world.env.http_requests)
    # (The press's token may edit the table message meanwhile: counted are
    # the requests to the hand message.)
    hand_path = f"/messages/{hand.id}"
    await world.act(table)
    await world.env.advance_time(2)
    assert [r for r in requests_with(world, token, since) if r.endswith(hand_path)] == []
    await world.act(await world.table())  # now it is the owner's turn
    await world.env.advance_time(2)
    assert len([r for r in requests_with(world, token, since) if r.endswith(hand_path)]) == 1
    assert any(b.label == "3" and not b.disabled for b in buttons_of(world.message(hand.id)))


@pytest.mark.usefixtures("no_fresh_tokens")  # the bot's own route is refused
async def test_an_edit_refused_for_a_permission_waits_for_permissions_to_change(
    world: World,
) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await world.new_table(alice)
    await world.env.advance_time(1)
    message = world.table_message()
    since = len(world.env.http_requests)
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013, times=None)
    await world.click(bob, "Join", message)
    await world.env.advance_time(2)
    assert edits_of(world, message.id, since) == 1  # refused
    assert len(alice.user.dm_channel.history()) == 1  # the host is told, once
    for person in (carol, dave):
        await world.click(person, "Join", message)
        await world.env.advance_time(2)
    assert edits_of(world, message.id, since) == 1  # not tried again: it would be refused
    assert len(alice.user.dm_channel.history()) == 1

    world.env.backend.faults.clear()
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    me = world.guild.me
    assert me is not None
    await channel.set_permissions(me, overwrite=discord.PermissionOverwrite(send_messages=True))
    await world.env.advance_time(2)
    assert edits_of(world, message.id, since) == 2
    shown = embed_text(world.table_message())
    assert all(f"<@{user.id}>" in shown for user in (bob, carol, dave))


class FakeTime:
    """A clock that a nap moves on: each request's instant is exact."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.sent: dict[str, list[float]] = {}
        self.tasks: list[asyncio.Task[Any]] = []

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self.tasks.append(task)
        return task

    async def nap(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)

    def outbox(self, budget: Budget) -> Outbox:
        outbox = Outbox(lambda: self.now, budget, spawn=self.spawn)
        outbox.sleep = self.nap
        return outbox

    def put(self, outbox: Outbox, name: str, number: int, channel_id: int | None) -> None:
        async def send() -> str:
            self.sent.setdefault(name, []).append(self.now)
            return POST

        kind = "table" if channel_id is not None else "notice"
        outbox.put((kind, number), send, channel_id=channel_id)

    async def until_idle(self) -> None:
        while any(not task.done() for task in self.tasks):
            await asyncio.gather(*self.tasks, return_exceptions=True)


async def test_the_outbox_spaces_requests_out_without_one_channel_holding_up_the_others() -> None:
    time = FakeTime(100.0)
    outbox = time.outbox(Budget(per_s=4, per_channel_s=1.0))
    for number in (1, 2, 3):  # three tables in channel "a"
        time.put(outbox, "a", number, channel_id=1)
    for number in (4, 5):  # two in channel "b"
        time.put(outbox, "b", number, channel_id=2)
    time.put(outbox, "line", 6, channel_id=None)
    await time.until_idle()
    assert time.sent["a"] == [100.0, 101.0, 102.0]
    # Another channel takes the free turns between those of "a", a quarter
    # of a second from every one already given out.
    assert time.sent["b"] == [100.25, 101.25]
    assert time.sent["line"] == [100.5]
    assert outbox.requests == {POST: 6}
    time.now = 110.0  # the past is no longer in the way
    time.put(outbox, "a", 1, channel_id=1)
    await time.until_idle()
    assert time.sent["a"][-1] == 110.0


async def test_a_budget_of_zero_is_no_limit() -> None:
    time = FakeTime(5.0)
    outbox = time.outbox(Budget(per_s=0, per_channel_s=0))
    for number in range(100):
        time.put(outbox, "a", number, channel_id=1)
    await time.until_idle()
    assert set(time.sent["a"]) == {5.0} and len(time.sent["a"]) == 100
