"""Private hands stay live across a restart, for as long as Discord allows.

A hand message is edited through its interaction's token, which Discord
accepts for 15 minutes. The bot writes the token down when a hand is opened,
so a restarted bot keeps that hand current; it never tries an expired token
and deletes the row it was kept in.
"""

from __future__ import annotations

import pytest
import simcord
from simcord import MemberActor

from bot.app import HandMessageRow
from bot.game.types import Phase
from bot.tables.model import Table
from tests.discord.harness import World, buttons_of
from tests.discord.privacy import PrivacyWatch

pytestmark = pytest.mark.simcord(settle_timeout=5.0)

MINUTE = 60.0


async def started(world: World) -> tuple[Table, MemberActor]:
    """A game in its bidding, and the person who bids after the current one."""
    people = [world.user(n) for n in ("alice", "bob", "carol", "dave")]
    await world.seat_four(*people, target=250)
    await world.click(people[0], "Start")
    table = await world.table()
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    return table, world.by_id(table.seats[(seat + 1) % 4].user_id or 0)


def can_bid(hand: simcord.ResponseMessage) -> bool:
    return any(b.label == "3" and not b.disabled for b in buttons_of(hand))


def token_of(world: World, hand: simcord.ResponseMessage) -> str:
    """The token of the interaction that answered with ``hand`` (clicks on
    it answer with it too, later)."""
    answers = [
        i
        for i in world.env.backend.interactions.values()
        if i.message_id == hand.id or hand.id in i.followup_ids
    ]
    return min(answers, key=lambda i: i.id).token


def last_token(world: World, user: MemberActor) -> str:
    """The token of the user's latest interaction."""
    mine = [i for i in world.env.backend.interactions.values() if i.user_id == user.id]
    return max(mine, key=lambda i: i.id).token


def requests_with(world: World, token: str, since: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in world.env.http_requests[since:] if token in r.path]


async def rows(world: World, user: MemberActor) -> list[tuple[int, str]]:
    """(table id, token) of the user's hands kept in the database."""
    async with world.bot.store.connection.execute(
        "SELECT table_id, token FROM live_hands WHERE user_id = ?", (user.id,)
    ) as cursor:
        return [(row[0], row[1]) for row in await cursor.fetchall()]


async def test_a_hand_opened_before_a_restart_comes_alive_at_its_owners_turn(
    world: World,
) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    table, next_up = await started(world)
    hand = await world.my_hand(next_up)
    assert not can_bid(hand)
    token = token_of(world, hand)
    assert await rows(world, next_up) == [(table.id, token)]

    await world.restart()
    watch.watch(world.bot.app.tables)
    since = len(world.env.http_requests)
    await world.act(await world.table())  # the person before next_up bids

    # The new bot edited the old message through its token: next_up's turn
    # shows on the hand they opened before the restart, without a click. The
    # hand is the follow-up of the My hand press: edited by its id, never as
    # the token's @original (which is the public table message).
    assert can_bid(world.message(hand.id))
    follow_up = f"/webhooks/{world.env.backend.application_id}/{token}/messages/{hand.id}"
    edits = requests_with(world, token, since)
    assert edits and set(edits) == {f"PATCH {follow_up}"}
    clicked = await next_up.click(world.message(hand.id), label="3")
    assert clicked.response is not None and clicked.response.id == hand.id
    after = await world.table()
    assert after.game is not None and 3 in after.game.bids
    # Nobody saw a card that was neither theirs nor played.
    assert watch.violations() == []


async def test_a_hand_clicked_before_a_restart_stays_live_through_its_newest_token(
    world: World,
) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    table, _next_up = await started(world)
    assert table.game is not None
    first = world.by_id(table.seats[table.game.waited_on() or 0].user_id or 0)
    hand = await world.my_hand(first)
    await first.click(hand, label="3")  # answered by editing the hand: a newer token
    assert last_token(world, first) != token_of(world, hand)
    # Within five minutes of the one it holds, the database keeps the older
    # token (good for 14 minutes): a click costs no second write.
    token = token_of(world, hand)
    assert await rows(world, first) == [(table.id, token)]

    await world.restart()
    watch.watch(world.bot.app.tables)
    since = len(world.env.http_requests)
    playing = await world.play_until(lambda t: t.game is not None and t.game.phase is Phase.PLAYING)
    assert playing.game is not None and playing.game.waited_on() == playing.seat_of(first.id)

    # The first to bid leads: their hand, clicked before the restart, offers cards now.
    assert any(
        b.custom_id.startswith("spades:play:") and not b.disabled
        for b in buttons_of(world.message(hand.id))
    )
    assert requests_with(world, token, since)
    assert watch.violations() == []


async def test_one_write_per_hand_opened_not_per_redraw(world: World) -> None:
    table, next_up = await started(world)
    writes: list[int] = []  # the owners of the hands written down
    keep = world.bot.app.keep_hand_message

    async def counted(row: HandMessageRow) -> None:
        writes.append(row.user_id)
        await keep(row)

    world.bot.app.keep_hand_message = counted  # type: ignore[method-assign]
    hand = await world.my_hand(next_up)
    await world.act(table)  # next_up's turn comes: the hand is redrawn
    assert can_bid(world.message(hand.id))
    assert writes.count(next_up.id) == 1
    # Clicking the hand answers with a new token, kept in memory: the bid is
    # one write, and the database's token is still good.
    await next_up.click(world.message(hand.id), label="3")
    assert writes.count(next_up.id) == 1
    assert await rows(world, next_up) == [(table.id, token_of(world, hand))]
    # Five minutes on, a click's token is written down, so that a restart
    # finds one with most of its life ahead.
    await world.env.advance_time(6 * MINUTE)
    fresh = await world.my_hand(next_up)
    assert writes.count(next_up.id) == 2
    assert await rows(world, next_up) == [(table.id, token_of(world, fresh))]


@pytest.mark.parametrize("restart_first", [False, True])
async def test_a_hand_older_than_the_token_is_never_edited_and_its_row_goes(
    world: World, restart_first: bool
) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    table, next_up = await started(world)
    hand = await world.my_hand(next_up)
    token = token_of(world, hand)
    assert await rows(world, next_up) == [(table.id, token)]
    drawn = world.message(hand.id).components

    if restart_first:
        await world.restart()
        await world.env.advance_time(15 * MINUTE)
    else:
        await world.env.advance_time(15 * MINUTE)
        await world.restart()
    watch.watch(world.bot.app.tables)
    since = len(world.env.http_requests)
    await world.act(await world.table())  # next_up's turn comes

    assert requests_with(world, token, since) == []
    assert world.message(hand.id).components == drawn  # still as drawn at first
    assert await rows(world, next_up) == []
    # A fresh hand works as always, and is the one kept live.
    fresh = await world.my_hand(next_up)
    assert can_bid(fresh)
    assert await rows(world, next_up) == [(table.id, token_of(world, fresh))]
    assert watch.violations() == []


async def test_the_row_goes_when_the_game_ends(world: World) -> None:
    table, next_up = await started(world)
    await world.my_hand(next_up)
    assert len(await rows(world, next_up)) == 1
    asked = await next_up.slash(world.channel, "spades resign")
    assert asked.response is not None
    await next_up.click(asked.response, label="Yes, resign")
    finished = await world.table(table.id)
    assert not finished.is_open
    assert await rows(world, next_up) == []
