"""Computer players, stand-ins and idle lobbies, moved by the scheduler alone."""

from __future__ import annotations

import itertools

import pytest

from bot.ai.base import RandomPlayer, register_level
from bot.clock import ClockSettings
from bot.clock.deadlines import CLAIM_MARGIN_S
from bot.game.types import Action, ActionKind, EndReason, Phase
from bot.game.view import PlayerView
from bot.tables.model import Table, TableStatus
from tests.clock.world import GUESTS, HOST, HOUR, World, pending_of

DELAY = 2.0


async def run_until_over(world: World, table_id: int, step: float = HOUR) -> Table:
    for _ in range(10_000):
        table = await world.current(table_id)
        if table.status is not TableStatus.PLAYING:
            return table
        await world.clock.advance(step)
    raise AssertionError("the game never ended")


def engine_actions(table: Table) -> list[Action]:
    assert table.game is not None
    return list(table.game.actions)


@pytest.mark.parametrize(
    "clock_settings",
    [ClockSettings(computer_delay_s=DELAY, stand_in_default=True, stand_in_level="random")],
)
async def test_four_computers_play_a_whole_game_through_the_scheduler_alone(
    world: World,
) -> None:
    # The host never shows up: after the first limit a computer stands in for
    # them, and from then on four computer players play the game out.
    table = await world.table_with_computers("random", turn_limit_s=300, target=250)
    t0 = world.clock.now()
    finished = await run_until_over(world, table.id)
    assert finished.status is TableStatus.FINISHED
    assert finished.result is not None
    assert finished.result.reason in (EndReason.TARGET, EndReason.LOSING_SCORE)
    assert finished.game is not None and finished.game.hand_number >= 2
    # Seats 1-3 bid first, one delay apart; then the host's clock runs.
    host_turn = t0 + 3 * DELAY
    assert [(n.what, n.seat, n.at - host_turn) for n in world.notifier.notes] == [
        ("remind", 0, 150),
        ("stood_in", 0, 300 + CLAIM_MARGIN_S),
    ]
    # Every move waited the configured delay after the previous one.
    times = [a.at for a in engine_actions(finished) if a.kind is not ActionKind.LOOK]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= DELAY
    assert pending_of(world.clk.scheduler, table.id) == []


async def test_computers_act_after_the_delay_and_the_person_plays_in_between(
    world: World,
) -> None:
    table = await world.table_with_computers("random", target=250)
    player = RandomPlayer(5)
    for _ in range(5000):
        table = await world.current(table.id)
        if table.status is not TableStatus.PLAYING:
            break
        game = table.game
        assert game is not None
        if game.phase is Phase.HAND_OVER:
            table = await world.svc.next_hand(table.id, HOST, table.version)
            continue
        if game.waited_on() == 0:
            # The person answers a little later, as people do.
            await world.clock.advance(30)
            table = await world.current(table.id)
            assert table.game is not None
            from bot.game.view import view_of

            action = player.decide(view_of(table.game, 0))
            if action.kind is ActionKind.BID:
                await world.svc.bid(table.id, HOST, action.value, table.version)
            else:
                await world.svc.play(table.id, HOST, action.value, table.version)
            continue
        before = table.version
        await world.clock.advance(DELAY - 0.5)
        assert (await world.current(table.id)).version == before
        await world.clock.advance(0.5)
        assert (await world.current(table.id)).version > before
    assert table.status is TableStatus.FINISHED
    assert world.notifier.notes == []


async def test_restarts_never_stall_computer_players(world: World) -> None:
    table = await world.table_with_computers("random")
    # Host at seat 0 deals; seat 1, a computer, bids first.
    assert table.game is not None and table.game.waited_on() == 1
    await world.restart()
    await world.clock.advance(DELAY)
    table = await world.current(table.id)
    assert table.game is not None and table.game.waited_on() == 2
    # Down across the next computer's moment: it acts as soon as the bot is back,
    # and the one after it a delay later.
    await world.restart(down_for_s=HOUR)
    back = world.clock.now()
    table = await world.current(table.id)
    assert table.game is not None and table.game.waited_on() == 3
    await world.clock.advance(DELAY)
    table = await world.current(table.id)
    assert table.game is not None and table.game.waited_on() == 0
    assert [(a.seat, a.at - back) for a in engine_actions(table)[1:]] == [(2, 0), (3, DELAY)]


async def test_a_refused_computer_move_falls_back_to_a_legal_one(world: World) -> None:
    class Cheater:
        """Bids 14, which the engine refuses."""

        def __init__(self, seed: int | None = None) -> None:
            self.honest = RandomPlayer(seed)

        def decide(self, view: PlayerView) -> Action:
            if view.phase is Phase.BIDDING:
                return Action(ActionKind.BID, view.seat, 14)
            return self.honest.decide(view)

    register_level("cheater-for-tests", Cheater)
    table = await world.table_with_computers("cheater-for-tests")
    await world.clock.advance(3 * DELAY)
    table = await world.current(table.id)
    assert [a.kind for a in engine_actions(table)] == [ActionKind.BID] * 3
    assert all(1 <= a.value <= 13 or a.value == 0 for a in engine_actions(table))


@pytest.mark.parametrize(
    "clock_settings", [ClockSettings(computer_delay_s=DELAY, stand_in_level="random")]
)
async def test_stand_in_plays_a_late_seat_until_its_owner_takes_it_back(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=600)
    await world.clk.set_stand_in(table.id, True)
    t0 = world.clock.now()
    late = table.seats[1].user_id
    assert late is not None and table.game is not None and table.game.waited_on() == 1
    await world.clock.advance(600)
    assert world.notifier.of("stood_in") == []
    await world.clock.advance(CLAIM_MARGIN_S)
    [stood] = world.notifier.of("stood_in")
    assert (stood.seat, stood.at - t0) == (1, 600 + CLAIM_MARGIN_S)
    assert world.clk.view(await world.current(table.id)).away_seats == {1}
    await world.clock.advance(DELAY)
    table = await world.current(table.id)
    assert [a.seat for a in engine_actions(table)] == [1]
    assert not world.clk.claim_open(table)  # the computer plays instead of a claim
    # Seats 2, 3 and 0 bid in time; seat 1 is away: the computer bids for it.
    for user in (GUESTS[1], GUESTS[2], HOST):
        await world.clock.advance(60)
        table = await world.current(table.id)
        table = await world.svc.bid(table.id, user, 3, table.version)
    assert table.game is not None and table.game.phase is Phase.PLAYING
    # Seat 1 leads the first trick; its owner opens their hand before the
    # computer moves, and takes the seat back.
    assert table.game.waited_on() == 1
    await world.clock.advance(DELAY / 2)
    assert await world.clk.take_back(table, late)
    assert not await world.clk.take_back(table, late)
    assert world.clk.view(await world.current(table.id)).away_seats == frozenset()
    back = world.clock.now()
    moves = len(engine_actions(table))
    # Their own clock runs again from the moment they came back.
    await world.clock.advance(600)
    assert len(engine_actions(await world.current(table.id))) == moves
    assert [n.at - back for n in world.notifier.of("remind")][-1:] == [300]
    table = await world.current(table.id)
    assert table.game is not None
    card = next(c for c in range(52) if table.game.playable_mask(1) >> c & 1)
    table = await world.svc.play(table.id, late, card, table.version)
    assert engine_actions(table)[-1].seat == 1
    assert world.notifier.of("claim_open") == []


async def test_stand_in_option_survives_a_restart(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=600)
    assert not world.clk.stand_in(table.id)
    await world.clk.set_stand_in(table.id, True)
    await world.restart(down_for_s=700)
    assert world.clk.stand_in(table.id)
    assert world.clk.view(await world.current(table.id)).away_seats == {1}
    assert [n.what for n in world.notifier.notes] == ["stood_in"]


@pytest.mark.parametrize("clock_settings", [ClockSettings(lobby_idle_s=24 * HOUR)])
async def test_an_idle_lobby_is_closed_with_a_message(world: World) -> None:
    lobby = await world.svc.create(1, 77, HOST)
    await world.clock.advance(23 * HOUR)
    lobby = await world.svc.join(lobby.id, GUESTS[0], lobby.version)
    await world.clock.advance(2 * HOUR)
    assert (await world.current(lobby.id)).status is TableStatus.LOBBY
    await world.restart()
    await world.clock.advance(22 * HOUR)
    closed = await world.current(lobby.id)
    assert closed.status is TableStatus.CANCELLED
    [note] = world.notifier.notes
    assert (note.what, note.table_id) == ("lobby_closed", lobby.id)
    assert pending_of(world.clk.scheduler, lobby.id) == []
    # The channel is free for a new table.
    await world.svc.create(1, 77, HOST)


async def test_a_started_lobby_is_not_closed(world: World) -> None:
    table = await world.table_of_four()
    await world.clock.advance(30 * 24 * HOUR)
    assert world.notifier.of("lobby_closed") == []
    assert (await world.current(table.id)).status is TableStatus.PLAYING
