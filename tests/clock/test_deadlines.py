"""The turn clock's planning without I/O (``deadlines_for``) and what it tells
the table message (``view``, ``claim_allowed``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.clock import ClockSettings, ClockView, Deadline
from bot.clock.deadlines import ARCHIVE, CLAIM_MARGIN_S, COMPUTER, LOBBY, TURN, planned_deadlines
from bot.tables.model import Seat, TableStatus
from db.clock_store import TableClockState
from tests.clock.world import GUESTS, HOST, HOUR, World, pending_of

LIMIT = 600.0
DELAY = 2.0
STAND_IN = ClockSettings(computer_delay_s=DELAY, stand_in_level="random")


async def stored(world: World) -> list[Deadline]:
    assert world.store is not None
    return sorted(await world.store.load_deadlines(), key=lambda d: d.key)


async def test_planning_is_pure_and_matches_what_is_armed(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    rows = await stored(world)
    planned = world.clk.deadlines_for(table)
    # No write, no await: the same question gets the same answer.
    assert world.clk.deadlines_for(table) == planned
    assert await stored(world) == rows
    assert planned == tuple(pending_of(world.clk.scheduler, table.id))
    assert table.game is not None
    seat = table.game.waited_on()
    [turn] = planned
    assert (turn.kind, turn.due_at, turn.data["seat"], turn.data["stage"]) == (
        TURN,
        table.game.waiting_since + LIMIT / 2,
        seat,
        0,
    )


async def test_a_pending_deadline_for_the_same_turn_keeps_its_progress(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clock.advance(LIMIT / 2)
    [reminded] = world.notifier.of("remind")
    pending = world.clk.scheduler.pending(table.id, TURN)
    assert pending is not None and pending.data["stage"] == 1
    # A spectator's arrival changes the table, not the turn.
    table = await world.svc.join(table.id, 2001, table.version)
    [kept] = world.clk.deadlines_for(table)
    assert kept is pending
    # A move starts the next player's turn: a fresh deadline at its first stage.
    waited = table.seats[reminded.seat or 0].user_id
    assert waited is not None
    table = await world.svc.bid(table.id, waited, 3, table.version)
    [fresh] = world.clk.deadlines_for(table)
    assert fresh.data["stage"] == 0 and fresh.data["seat"] != reminded.seat
    assert fresh.due_at == world.clock.now() + LIMIT / 2


async def test_a_passed_limit_without_stand_in_needs_no_deadline(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S)
    assert len(world.notifier.of("claim_open")) == 1
    assert world.clk.deadlines_for(await world.current(table.id)) == ()


async def test_computer_seats_get_a_computer_deadline(world: World) -> None:
    table = await world.table_with_computers("random")
    assert table.game is not None and table.game.waited_on() == 1
    [move] = world.clk.deadlines_for(table)
    assert (move.kind, move.due_at, move.data["seat"]) == (
        COMPUTER,
        table.game.waiting_since + DELAY,
        1,
    )
    # The same table with a person in seat 1 waits on that person instead.
    person = replace(table, seats=(table.seats[0], Seat(user_id=GUESTS[0]), *table.seats[2:]))
    [turn] = world.clk.deadlines_for(person)
    assert (turn.kind, turn.data["seat"]) == (TURN, 1)


@pytest.mark.parametrize("clock_settings", [ClockSettings(lobby_idle_s=24 * HOUR)])
async def test_a_lobby_is_planned_to_close_after_its_idle_time(world: World) -> None:
    lobby = await world.svc.create(1, 77, HOST)
    [idle] = world.clk.deadlines_for(lobby)
    assert (idle.kind, idle.due_at) == (LOBBY, lobby.updated_at + 24 * HOUR)
    # A change about to be committed restarts the idle time.
    touched = replace(lobby, updated_at=lobby.updated_at + HOUR)
    [later] = world.clk.deadlines_for(touched)
    assert later.due_at == lobby.updated_at + 25 * HOUR
    cancelled = await world.svc.cancel(lobby.id, HOST, lobby.version)
    assert world.clk.deadlines_for(cancelled) == ()


@pytest.mark.parametrize("clock_settings", [ClockSettings(lobby_idle_s=None)])
async def test_lobbies_stay_open_without_an_idle_time(world: World) -> None:
    lobby = await world.svc.create(1, 77, HOST)
    assert world.clk.deadlines_for(lobby) == ()


@pytest.mark.parametrize("clock_settings", [STAND_IN])
async def test_a_stand_in_is_planned_for_a_late_seat(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clk.set_stand_in(table.id, True)
    assert table.game is not None and table.game.waited_on() == 1
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S)
    assert world.clk.view(await world.current(table.id)).away_seats == {1}
    # The stand-in moved at once (the delay counts from the start of the turn);
    # planned again, seat 1's turn is a computer's.
    moved = await world.current(table.id)
    assert moved.game is not None and moved.game.waited_on() == 2
    [move] = world.clk.deadlines_for(table)
    assert (move.kind, move.due_at, move.data["seat"]) == (
        COMPUTER,
        table.game.waiting_since + DELAY,
        1,
    )
    # The next game gives the seat back to its owner: planned as theirs at once.
    next_game = replace(table, game_number=table.game_number + 1)
    [turn] = world.clk.deadlines_for(next_game)
    assert (turn.kind, turn.data["seat"]) == (TURN, 1)
    assert world.clk.view(next_game).away_seats == frozenset()


@pytest.mark.parametrize("clock_settings", [STAND_IN])
async def test_a_stand_in_switched_on_after_the_limit_still_takes_over(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clock.advance(LIMIT + 10 * HOUR)
    assert len(world.notifier.of("claim_open")) == 1
    table = await world.current(table.id)
    assert world.clk.deadlines_for(table) == ()
    await world.clk.set_stand_in(table.id, True)
    [takeover] = world.clk.deadlines_for(table)
    assert (takeover.kind, takeover.data["stage"]) == (TURN, 1)
    assert takeover.due_at < world.clock.now()
    await world.clock.advance(0)
    assert [n.seat for n in world.notifier.of("stood_in")] == [1]
    assert not world.clk.view(await world.current(table.id)).claim_open


async def test_the_view_follows_the_turn(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    assert world.clk.view(table) == ClockView(
        claim_open=False, stand_in=False, away_seats=frozenset()
    )
    assert world.clk.claim_allowed(table)
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S)
    table = await world.current(table.id)
    assert world.clk.view(table) == ClockView(
        claim_open=True, stand_in=False, away_seats=frozenset()
    )


@pytest.mark.parametrize("clock_settings", [STAND_IN])
async def test_no_claim_is_ever_announced_at_a_stand_in_table(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clk.set_stand_in(table.id, True)
    late = table.seats[1].user_id
    assert late is not None
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S)
    table = await world.current(table.id)
    assert not world.clk.claim_allowed(table)
    assert world.clk.view(table) == ClockView(
        claim_open=False, stand_in=True, away_seats=frozenset({1})
    )
    # Back, then late again when their turn comes round.
    assert await world.clk.take_back(table, late)
    await world.clock.advance(10 * LIMIT)
    # Nobody answers any more: a computer stands in for each in turn.
    assert [n.seat for n in world.notifier.of("stood_in")] == [1, 2, 3, 0, 1]
    assert world.notifier.of("claim_open") == []
    assert not world.clk.view(await world.current(table.id)).claim_open


@pytest.mark.parametrize("clock_settings", [STAND_IN])
async def test_away_seats_after_a_restart_count_only_in_their_own_game(world: World) -> None:
    table = await world.table_of_four(turn_limit_s=LIMIT)
    await world.clk.set_stand_in(table.id, True)
    await world.clock.advance(LIMIT + CLAIM_MARGIN_S)
    await world.restart()
    playing = await world.current(table.id)
    assert world.clk.view(playing).away_seats == {1}
    resigned = await world.svc.resign(playing.id, HOST, playing.version)
    await world.restart()
    # The seat stays recorded until a new game starts, but a next game that is
    # about to start is planned with seat 1 played by its owner.
    assert (await world.clk.clock_store.load_all())[table.id].away_seats == {1}
    assert world.clk.view(resigned).away_seats == frozenset()
    next_game = replace(table, game_number=resigned.game_number + 1)
    assert world.clk.view(next_game).away_seats == frozenset()
    [turn] = world.clk.deadlines_for(next_game)
    assert (turn.kind, turn.data["seat"]) == (TURN, 1)


async def test_a_table_that_is_over_keeps_only_its_threads_archiving(world: World) -> None:
    world.clk.archive_after_s = LIMIT
    table = await world.table_of_four(turn_limit_s=LIMIT)
    assert [d.kind for d in world.clk.deadlines_for(replace(table, thread_id=77))] == [TURN]
    over = replace(table, status=TableStatus.FINISHED, updated_at=5000.0)
    assert world.clk.deadlines_for(over) == ()  # no thread to archive
    [archive] = world.clk.deadlines_for(replace(over, thread_id=77))
    assert (archive.kind, archive.due_at) == (ARCHIVE, 5000.0 + LIMIT)
    # Pending (or stored across a restart), it is kept as it is.
    later = replace(over, thread_id=77, updated_at=6000.0)
    settings, now = world.clk.settings, world.clock.now()
    pending = {ARCHIVE: archive}
    planned = planned_deadlines(later, TableClockState(), settings, now, pending, (), LIMIT)
    assert planned[0] is archive
    # Without a setting for it, no thread is archived.
    assert planned_deadlines(later, TableClockState(), settings, now, {}, (), None) == ()


async def test_a_finished_tables_thread_is_archived_after_a_restart(world: World) -> None:
    world.archive_after_s = LIMIT
    await world.restart()
    table = await world.table_of_four()
    await world.svc.set_thread(table.id, 77)
    ended_at = world.clock.now()
    table = await world.svc.resign(table.id, HOST, table.version)
    await world.restart(down_for_s=LIMIT / 2)
    assert world.notifier.of("archive_thread") == []
    await world.clock.advance(LIMIT / 2 - 1)
    assert world.notifier.of("archive_thread") == []
    world.notifier.end_owed = True  # the end of the game is not posted yet: it waits
    await world.clock.advance(10)
    assert world.notifier.of("archive_thread") == []
    world.notifier.end_owed = False
    await world.clock.advance(1)
    [archived] = world.notifier.of("archive_thread")
    assert archived.table_id == table.id and archived.at > ended_at + LIMIT
    assert await stored(world) == []  # done: nothing left to fire


async def test_a_rematch_drops_the_archiving(world: World) -> None:
    world.archive_after_s = LIMIT
    await world.restart()
    table = await world.table_of_four()
    await world.svc.set_thread(table.id, 77)
    table = await world.svc.resign(table.id, HOST, table.version)
    assert [d.kind for d in await stored(world)] == [ARCHIVE]
    await world.svc.rematch(table.id, HOST, table.version, swap_teams=False)
    await world.clock.advance(2 * LIMIT)
    assert world.notifier.of("archive_thread") == []
