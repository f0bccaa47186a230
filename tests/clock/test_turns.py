"""The turn clock over the real service and store, on a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import ClockSettings
from bot.clock.deadlines import CLAIM_MARGIN_S, notice_offsets
from bot.game.refusals import ClaimRefused
from bot.game.types import EndReason, Phase
from bot.tables.model import Table, TableStatus
from tests.clock.world import GUESTS, HOST, HOUR, World, pending_of

LIMIT = 48 * HOUR
USERS = (HOST, *GUESTS)


def waited_user(table: Table) -> int:
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    user = table.seats[seat].user_id
    assert user is not None
    return user


def opponent_of(table: Table, user: int) -> int:
    seat = table.seat_of(user)
    assert seat is not None
    other = table.seats[(seat + 1) & 3].user_id
    assert other is not None
    return other


def partner_of(table: Table, user: int) -> int:
    seat = table.seat_of(user)
    assert seat is not None
    other = table.seats[(seat + 2) & 3].user_id
    assert other is not None
    return other


async def bid_for_waited(world: World, table: Table, bid: int = 3) -> Table:
    return await world.svc.bid(table.id, waited_user(table), bid, table.version)


async def test_reminders_then_claim_at_the_right_times(world: World) -> None:
    table = await world.table_of_four()
    t0 = world.clock.now()
    late = table.game.waited_on() if table.game else None
    await world.clock.advance(24 * HOUR - 1)
    assert world.notifier.notes == []
    await world.clock.advance(1)
    [half] = world.notifier.notes
    assert (half.what, half.at - t0, half.seat, half.left_s) == (
        "remind",
        24 * HOUR,
        late,
        24 * HOUR,
    )
    await world.clock.advance(23 * HOUR)
    assert [(n.what, n.at - t0, n.left_s) for n in world.notifier.notes[1:]] == [
        ("remind", 47 * HOUR, HOUR)
    ]
    assert not world.clk.claim_open(await world.current(table.id))
    await world.clock.advance(HOUR)
    assert world.notifier.of("claim_open") == []
    await world.clock.advance(CLAIM_MARGIN_S)
    [claim] = world.notifier.of("claim_open")
    assert claim.at - t0 == LIMIT + CLAIM_MARGIN_S
    assert world.clk.claim_open(await world.current(table.id))
    await world.clock.advance(10 * 24 * HOUR)
    assert len(world.notifier.notes) == 3


async def test_claim_refused_before_the_limit_and_to_the_late_team(world: World) -> None:
    table = await world.table_of_four()
    late = waited_user(table)
    await world.clock.advance(LIMIT - 60)
    table = await world.current(table.id)
    with pytest.raises(ClaimRefused, match="has not passed yet"):
        await world.svc.claim_timeout(table.id, opponent_of(table, late), table.version)
    await world.clock.advance(60 + CLAIM_MARGIN_S)
    table = await world.current(table.id)
    assert world.clk.claim_open(table)
    for own_team in (late, partner_of(table, late)):
        with pytest.raises(ClaimRefused, match="other team"):
            await world.svc.claim_timeout(table.id, own_team, table.version)
    assert (await world.current(table.id)).status is TableStatus.PLAYING
    won = await world.svc.claim_timeout(table.id, opponent_of(table, late), table.version)
    assert won.status is TableStatus.FINISHED
    assert won.result is not None and won.result.reason is EndReason.TIMEOUT
    assert won.result.seat == won.seat_of(late)
    assert pending_of(world.clk.scheduler, table.id) == []
    assert not world.clk.claim_open(won)


async def test_acting_just_before_the_limit_cancels_the_claim(world: World) -> None:
    table = await world.table_of_four()
    t0 = world.clock.now()
    first = waited_user(table)
    await world.clock.advance(LIMIT - 1)
    table = await bid_for_waited(world, table)
    assert waited_user(table) != first
    await world.clock.advance(2 * HOUR)
    assert world.notifier.of("claim_open") == []
    # The next player's own clock started with the bid.
    await world.clock.advance(LIMIT)
    [claim] = world.notifier.of("claim_open")
    assert claim.at - t0 == 2 * LIMIT - 1 + CLAIM_MARGIN_S
    reminded = {n.seat for n in world.notifier.of("remind")}
    assert reminded == {table.seat_of(first), table.seat_of(waited_user(table))}


async def test_restart_between_arming_and_firing(world: World) -> None:
    table = await world.table_of_four()
    t0 = world.clock.now()
    await world.clock.advance(12 * HOUR)
    await world.restart()
    await world.clock.advance(12 * HOUR)
    assert [(n.what, n.at - t0) for n in world.notifier.notes] == [("remind", 24 * HOUR)]
    await world.restart(down_for_s=HOUR)
    await world.clock.advance(LIMIT)
    assert [(n.what, n.at - t0) for n in world.notifier.notes] == [
        ("remind", 24 * HOUR),
        ("remind", 47 * HOUR),
        ("claim_open", LIMIT + CLAIM_MARGIN_S),
    ]
    assert world.clk.claim_open(await world.current(table.id))


async def test_limit_passed_while_down_fires_at_once_and_once(world: World) -> None:
    table = await world.table_of_four()
    t0 = world.clock.now()
    await world.clock.advance(HOUR)
    await world.restart(down_for_s=3 * 24 * HOUR)
    # No stale reminders: one claim announcement, as soon as the bot is back.
    assert [(n.what, n.at - t0) for n in world.notifier.notes] == [("claim_open", 73 * HOUR)]
    await world.restart(down_for_s=HOUR)
    await world.clock.advance(24 * HOUR)
    assert len(world.notifier.notes) == 1
    table = await world.current(table.id)
    late = waited_user(table)
    won = await world.svc.claim_timeout(table.id, opponent_of(table, late), table.version)
    assert won.status is TableStatus.FINISHED


async def test_reminder_passed_while_down_is_sent_once_late(world: World) -> None:
    await world.table_of_four()
    t0 = world.clock.now()
    await world.restart(down_for_s=30 * HOUR)
    assert [(n.what, n.at - t0, n.left_s) for n in world.notifier.notes] == [
        ("remind", 30 * HOUR, 18 * HOUR)
    ]
    await world.clock.advance(17 * HOUR)
    assert [n.at - t0 for n in world.notifier.of("remind")] == [30 * HOUR, 47 * HOUR]


async def test_spectators_joining_do_not_restart_or_repeat_reminders(world: World) -> None:
    table = await world.table_of_four()
    t0 = world.clock.now()
    await world.clock.advance(30 * HOUR)
    for watcher in (2001, 2002):
        table = await world.svc.join(table.id, watcher, table.version)
    await world.clock.advance(LIMIT)
    assert [(n.what, n.at - t0) for n in world.notifier.notes] == [
        ("remind", 24 * HOUR),
        ("remind", 47 * HOUR),
        ("claim_open", LIMIT + CLAIM_MARGIN_S),
    ]
    await world.svc.join(table.id, 2003, table.version)
    await world.clock.advance(HOUR)
    assert len(world.notifier.notes) == 3


@pytest.mark.parametrize("clock_settings", [ClockSettings(lobby_idle_s=None)])
async def test_a_thousand_tables_reach_the_limit_at_the_same_moment(world: World) -> None:
    tables: list[Table] = []
    for _ in range(20):  # in batches: the store's round trips overlap
        tables += await asyncio.gather(*(world.table_of_four(turn_limit_s=600) for _ in range(50)))
    t0 = world.clock.now()
    assert len(world.clk.scheduler) == 1000
    await world.clock.advance(600)
    assert world.notifier.of("claim_open") == []
    await world.clock.advance(CLAIM_MARGIN_S)
    claims = world.notifier.of("claim_open")
    assert sorted(n.table_id for n in claims) == sorted(t.id for t in tables)
    assert {n.at - t0 for n in claims} == {600 + CLAIM_MARGIN_S}
    assert len(world.clk.scheduler) == 0


@pytest.mark.parametrize("limit", [300, 3600, 12 * 3600])
async def test_short_limits_get_only_the_reminders_that_fit(world: World, limit: int) -> None:
    await world.table_of_four(turn_limit_s=limit)
    t0 = world.clock.now()
    await world.clock.advance(limit + CLAIM_MARGIN_S)
    expected = [limit / 2] if limit <= 3600 else [limit / 2, limit - 3600]
    assert [n.at - t0 for n in world.notifier.of("remind")] == expected
    assert len(world.notifier.of("claim_open")) == 1


def test_later_notice_points_are_spread_and_inside_the_limit() -> None:
    settings = ClockSettings(
        notice_after_s=(10.0,), notice_at_fractions=(0.5,), notice_before_s=(3600.0, 60.0)
    )
    assert notice_offsets(settings, 48 * 3600) == [10.0, 24 * 3600, 47 * 3600, 48 * 3600 - 60]
    assert notice_offsets(settings, 300) == [10.0, 150.0, 240.0]
    assert notice_offsets(settings, 60) == []
    with pytest.raises(ValueError):
        ClockSettings(notice_at_fractions=(1.5,))
    with pytest.raises(ValueError):
        ClockSettings(remind_at_fractions=(1.5,))  # the name of earlier versions


async def test_game_over_by_play_drops_the_deadlines(world: World) -> None:
    table = await world.table_of_four()
    user = waited_user(table)
    resigned = await world.svc.resign(table.id, user, table.version)
    assert resigned.status is TableStatus.FINISHED
    assert pending_of(world.clk.scheduler, table.id) == []
    await world.clock.advance(3 * LIMIT)
    assert world.notifier.notes == []


async def test_hand_over_waits_on_nobody(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=600)
    assert table.game is not None
    # Play the whole hand at once through the service, then wait a long time.
    from bot.ai.base import RandomPlayer
    from bot.game.view import view_of

    player = RandomPlayer(3)
    while table.game is not None and table.game.phase in (Phase.BIDDING, Phase.PLAYING):
        seat = table.game.waited_on()
        assert seat is not None
        action = player.decide(view_of(table.game, seat))
        user = table.seats[seat].user_id
        assert user is not None
        if action.kind.value == "bid":
            table = await world.svc.bid(table.id, user, action.value, table.version)
        else:
            table = await world.svc.play(table.id, user, action.value, table.version)
    assert table.game is not None and table.game.phase is Phase.HAND_OVER
    await world.clock.advance(LIMIT)
    assert world.notifier.notes == []
    assert pending_of(world.clk.scheduler, table.id) == []
