"""Table messages and turn notices through the tokens of presses on the table
message, off the bot's global budget, while a token is under 14 minutes old."""

from __future__ import annotations

import discord
import simcord
from simcord import MemberActor

from bot.tables.model import Table
from tests.discord.harness import World, my_hand_of
from tests.discord.privacy import PrivacyWatch
from tests.discord.test_coalescing import edits_of
from tests.discord.test_hand_messages import can_bid, started, token_of

FOURTEEN_MINUTES_S = 14 * 60


def original_of(world: World, pressed: simcord.InteractionResult) -> str:
    """The @original path of the token of the My hand press that gave ``pressed``."""
    token = token_of(world, my_hand_of(pressed))
    return f"/webhooks/{world.env.backend.application_id}/{token}/messages/@original"


def requests(world: World, since: int, method: str, path: str) -> int:
    return sum(1 for r in world.env.http_requests[since:] if (r.method, r.path) == (method, path))


def bot_edits(world: World, since: int) -> int:
    """Edits of the table message through the bot's own token."""
    path = f"/channels/{world.channel.id}/messages/{world.table_message().id}"
    return requests(world, since, "PATCH", path)


def bids_made(table: Table) -> int:
    assert table.game is not None
    return sum(1 for bid in table.game.bids if bid is not None)


async def bid_of(world: World, user: MemberActor) -> None:
    """``user`` bids 3 on their live hand (opening one if needed)."""
    await user.click(await world.editable_hand(user), label="3")


async def test_my_hand_is_a_deferred_update_with_the_hand_as_a_private_follow_up(
    world: World,
) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    table, next_up = await started(world)
    before = world.table_message()
    pressed = await world.click(next_up, "My hand")
    # The press's answer is the table message itself, left as it was.
    assert pressed.response is not None and pressed.response.id == before.id
    assert not pressed.response.ephemeral
    hand = my_hand_of(pressed)
    assert hand.ephemeral and f"Table {table.id}" in hand.content
    assert world.table_message().content == before.content
    # The hand stays live through its token: it shows next_up's turn when it comes.
    assert not can_bid(hand)
    await world.act(await world.table())
    assert can_bid(world.message(hand.id))
    assert watch.violations() == []


async def test_table_edits_ride_the_presss_token_until_it_is_14_minutes_old(
    world: World,
) -> None:
    table, next_up = await started(world)
    waited_on = world.by_id(table.seats[table.game.waited_on() or 0].user_id or 0)  # type: ignore[union-attr]
    pressed = await world.click(waited_on, "My hand")
    original = original_of(world, pressed)
    since = len(world.env.http_requests)
    await waited_on.click(my_hand_of(pressed), label="3")
    await world.env.advance_time(2)
    # The bid is shown through a press's token, not the bot's budget.
    assert bot_edits(world, since) == 0
    assert edits_of(world, world.table_message().id, since) >= 1

    # 14 minutes on, the same token is never used again: the bot's route serves.
    await world.env.advance_time(FOURTEEN_MINUTES_S)
    since = len(world.env.http_requests)
    opened = await next_up.slash(world.channel, "spades hand")  # no press on the table
    assert opened.response is not None
    await next_up.click(opened.response, label="3")
    await world.env.advance_time(2)
    assert requests(world, since, "PATCH", original) == 0
    assert bot_edits(world, since) >= 1
    # No press's token at all: every edit of the table message is the bot's.
    assert edits_of(world, world.table_message().id, since) == bot_edits(world, since)
    after = await world.table()
    assert after.game is not None and bids_made(after) == 2


async def test_turn_notices_are_follow_ups_of_the_token_and_deleted_through_it(
    world: World,
) -> None:
    # A table that talks in its own channel (no thread), where follow-ups go.
    me = world.guild.me
    assert me is not None
    world.channel = world.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    table, next_up = await started(world)
    waited_on = world.by_id(table.seats[table.game.waited_on() or 0].user_id or 0)  # type: ignore[union-attr]
    pressed = await world.click(waited_on, "My hand")
    token = token_of(world, my_hand_of(pressed))
    follow_ups = f"/webhooks/{world.env.backend.application_id}/{token}"
    channel_posts = f"/channels/{world.channel.id}/messages"
    since = len(world.env.http_requests)
    await waited_on.click(my_hand_of(pressed), label="3")
    await world.env.advance_time(2)
    # next_up is told through the token, pinged, in the table's channel.
    assert requests(world, since, "POST", follow_ups) == 1
    assert requests(world, since, "POST", channel_posts) == 0
    told = [m for m in world.channel.history() if "your turn" in m.content]
    assert told and told[-1].content.startswith(f"<@{next_up.id}>")
    notice_id = told[-1].id
    # next_up bids: their notice is deleted through the token that posted it.
    since = len(world.env.http_requests)
    await bid_of(world, next_up)
    await world.env.advance_time(2)
    assert requests(world, since, "DELETE", f"{follow_ups}/messages/{notice_id}") == 1
    assert notice_id not in [m.id for m in world.channel.history()]


async def test_a_refused_token_falls_back_to_the_bot_with_the_latest_state(
    world: World,
) -> None:
    table, next_up = await started(world)
    waited_on = world.by_id(table.seats[table.game.waited_on() or 0].user_id or 0)  # type: ignore[union-attr]
    pressed = await world.click(waited_on, "My hand")
    original = original_of(world, pressed)
    # Discord no longer knows the token (as after its 15 minutes).
    world.env.inject_error("PATCH", original, status=404, code=10015, times=None)
    since = len(world.env.http_requests)
    await waited_on.click(my_hand_of(pressed), label="3")
    await world.env.advance_time(2)
    assert requests(world, since, "PATCH", original) == 1  # tried once, then dropped
    assert bot_edits(world, since) == 1
    latest = await world.table()
    assert bids_made(latest) == 1
    assert f"spades:hand:{latest.id}:{latest.version}" in str(world.table_message().components)
    # The next change goes the bot's way at once, the token forgotten (no new
    # press on the table message: /spades hand answers with the hand itself).
    since = len(world.env.http_requests)
    opened = await next_up.slash(world.channel, "spades hand")
    assert opened.response is not None
    await next_up.click(opened.response, label="3")
    await world.env.advance_time(2)
    assert requests(world, since, "PATCH", original) == 0
    assert bot_edits(world, since) == 1
