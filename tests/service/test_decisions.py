"""Decisions the service makes for forged and concurrent clicks, so that a
slash command and its button get the same answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import refusals
from bot.game.view import view_of
from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService
from db.sql import Deadline
from db.store import Change, Store
from tests.service.conftest import dump
from tests.service.driver import (
    GUESTS,
    HOST,
    Chooser,
    FakeClock,
    seated_table,
    seed_counter,
    waited_user,
)

WATCHER = 8888


async def _to_first_card(service: TableService) -> Table:
    """A started table with four people, waiting for a card to be played."""
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    chooser = Chooser(9)
    while table.game is not None and table.game.phase.value != "playing":
        table = await chooser.step(service, table)
    return table


def _to_act(table: Table) -> tuple[int, int]:
    """The user waited on and a card they may play."""
    assert table.game is not None
    user = waited_user(table)
    seat = table.seat_of(user)
    assert seat is not None
    legal = view_of(table.game, seat).legal_cards
    return user, (legal & -legal).bit_length() - 1


async def test_ten_people_pressing_join_at_once_are_all_answered(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    people = list(range(2000, 2010))
    outcomes = await asyncio.gather(
        *(service.join(table.id, user, table.version) for user in people),
        return_exceptions=True,
    )
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    final = await service.get(table.id)
    seated = [u for u in people if final.is_seated(u)]
    assert len(seated) == 3 and final.seated_count == 4
    assert sorted(final.spectators) == sorted(set(people) - set(seated))
    assert final.version == table.version + 10


async def test_leave_and_look_take_the_table_as_it_is(service: TableService) -> None:
    table = await service.create(1, 500, HOST)
    drawn = await service.join(table.id, GUESTS[0], table.version)
    await service.join(table.id, GUESTS[1], drawn.version)
    left = await service.leave(table.id, GUESTS[0], drawn.version - 1)
    assert not left.is_seated(GUESTS[0]) and left.is_seated(GUESTS[1])
    blind = await seated_table(service, channel=501, preset="blind-nil")
    blind = await service.start(blind.id, HOST, blind.version)
    bidder = blind.seats[1].user_id
    assert bidder is not None
    await service.join(blind.id, WATCHER, blind.version)
    looked = await service.look(blind.id, bidder, blind.version - 1)
    assert looked.game is not None and looked.game.looked[1]


async def test_a_spectator_coming_does_not_outdate_a_card(service: TableService) -> None:
    table = await _to_first_card(service)
    user, card = _to_act(table)
    watched = await service.join(table.id, WATCHER, table.version)
    assert watched.is_spectator(WATCHER) and watched.version == table.version + 1
    played = await service.play(table.id, user, card, table.version)
    assert played.version == table.version + 2
    # A card played is a change the players see: a click drawn before it is not.
    nxt, other = _to_act(played)
    with pytest.raises(refusals.StaleAction):
        await service.play(table.id, nxt, other, watched.version)
    unwatched = await service.leave(table.id, WATCHER, played.version)
    again = await service.play(table.id, nxt, other, played.version)
    assert again.version == unwatched.version + 1


async def test_a_spectator_before_a_restart_does_not_outdate_a_card(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table = await _to_first_card(service)
    user, card = _to_act(table)
    await service.join(table.id, WATCHER, table.version)
    reopened = await TableService.open(store, now=clock, seed_source=seed_counter())
    played = await reopened.play(table.id, user, card, table.version)
    assert played.version == table.version + 2
    nxt, other = _to_act(played)
    before = await dump(store)
    with pytest.raises(refusals.StaleAction):
        await reopened.play(table.id, nxt, other, table.version + 1)
    assert await dump(store) == before
    # Reopened once more: the card is a visible change, also read from the log.
    again = await TableService.open(store, now=clock, seed_source=seed_counter())
    with pytest.raises(refusals.StaleAction):
        await again.play(table.id, nxt, other, table.version + 1)
    assert await dump(store) == before


@pytest.mark.parametrize("preset", ["standard", "low-club", "cardgames"])
async def test_looking_without_blind_nil_is_refused(
    service: TableService, store: Store, preset: str
) -> None:
    table = await seated_table(service, preset=preset)
    table = await service.start(table.id, HOST, table.version)
    user = waited_user(table)
    before = await dump(store)
    with pytest.raises(refusals.Malformed):
        await service.look(table.id, user, table.version)
    assert await dump(store) == before
    assert await service.get(table.id) == table


async def test_looking_after_bidding_is_refused(service: TableService, store: Store) -> None:
    table = await seated_table(service, preset="blind-nil")
    table = await service.start(table.id, HOST, table.version)
    user = waited_user(table)
    table = await service.look(table.id, user, table.version)
    table = await service.bid(table.id, user, 3, table.version)
    before = await dump(store)
    with pytest.raises(refusals.Malformed):
        await service.look(table.id, user, table.version)
    assert await dump(store) == before


async def test_the_loser_of_a_rematch_race_is_told_it_started(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    finished = await service.resign(table.id, HOST, table.version)
    assert finished.status is TableStatus.FINISHED
    outcomes = await asyncio.gather(
        service.rematch(table.id, HOST, finished.version),
        service.rematch(table.id, GUESTS[0], finished.version, swap_teams=True),
        return_exceptions=True,
    )
    started = [o for o in outcomes if isinstance(o, Table)]
    lost = [o for o in outcomes if not isinstance(o, Table)]
    assert len(started) == 1 and started[0].game_number == 2
    assert len(lost) == 1 and isinstance(lost[0], refusals.RematchStarted)
    assert lost[0].code == "rematch_started"
    assert lost[0].message == "the rematch has already started"
    # A rematch click on the playing game itself is still "not over".
    with pytest.raises(refusals.NotOver) as caught:
        await service.rematch(table.id, HOST, started[0].version)
    assert not isinstance(caught.value, refusals.RematchStarted)


async def test_no_claim_at_a_stand_in_table(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table = await _to_first_card(service)
    clock.advance(table.rules.turn_limit_s + 10)
    waited = table.game.waited_on() if table.game else None
    assert waited is not None
    claimant = table.seats[(waited + 1) % 4].user_id
    assert claimant is not None
    before = await dump(store)
    with pytest.raises(refusals.NoClaimAtStandIn) as caught:
        await service.claim_timeout(table.id, claimant, table.version, stand_in=True)
    assert caught.value.code == "no_claim_at_stand_in"
    assert "no win to claim" in caught.value.message
    assert await dump(store) == before
    claimed = await service.claim_timeout(table.id, claimant, table.version)
    assert claimed.status is TableStatus.FINISHED


class Recorder:
    """A planner that arms one deadline per step, due at the step's time, and
    notes what it was shown and handed back."""

    def __init__(self) -> None:
        self.planned: list[tuple[Table, float, tuple[Deadline, ...]]] = []
        self.adopted: list[tuple[int, tuple[Deadline, ...]]] = []

    def deadlines_for(self, table: Table, now: float) -> tuple[Deadline, ...]:
        deadlines = (Deadline(table.id, "turn", now, {"version": table.version}),)
        self.planned.append((table, now, deadlines))
        return deadlines

    def adopt(self, owner: int, deadlines: tuple[Deadline, ...]) -> None:
        self.adopted.append((owner, deadlines))


async def test_a_step_plans_the_new_table_and_its_deadlines_are_written_with_it(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    received: list[tuple[Any, Change | None]] = []
    commit = store.commit_action

    async def spy(table_id: int, version: int, entry: Any, change: Change | None = None) -> Any:
        received.append((entry, change))
        return await commit(table_id, version, entry, change)

    monkeypatch.setattr(store, "commit_action", spy)
    planner = Recorder()
    service = await TableService.open(store, now=clock, seed_source=seed_counter())
    service.plan_with(planner)
    lobby = await service.create(1, 501, HOST)
    joined = await service.join(lobby.id, GUESTS[0], lobby.version)
    prospective, now, deadlines = planner.planned[-1]
    assert prospective == joined and prospective.version == lobby.version + 1
    entry, change = received[-1]
    # The plan's time is the action's: the one reading of the clock.
    assert entry.at == now == joined.updated_at
    assert change is not None and change.seats and change.deadlines == deadlines
    assert planner.adopted[-1] == (joined.id, deadlines)
    assert await store.load_deadlines() == list(deadlines)
    table = await _to_first_card(service)
    user, card = _to_act(table)
    played = await service.play(table.id, user, card, table.version)
    prospective, now, deadlines = planner.planned[-1]
    assert prospective.version == table.version + 1 == played.version
    assert prospective.game is not None and played.game is not None
    assert prospective.game.observable() == played.game.observable()
    # A card changes nothing but the log (the game is its log) and the deadlines.
    assert received[-1][1] == Change(deadlines=deadlines)
    assert await _stored_deadlines(store, table.id) == list(deadlines)
    calls = len(planner.planned)
    with pytest.raises(refusals.StaleAction):
        await service.play(table.id, user, card, table.version)
    with pytest.raises(refusals.NotSeated):
        await service.leave(table.id, WATCHER, played.version)
    # A refused action plans nothing, writes nothing, hands nothing back.
    assert len(planner.planned) == calls == len(planner.adopted)
    assert await _stored_deadlines(store, table.id) == list(deadlines)


async def _stored_deadlines(store: Store, table_id: int) -> list[Deadline]:
    return [d for d in await store.load_deadlines() if d.owner == table_id]


async def test_a_step_plans_a_new_game_without_its_id(store: Store, clock: FakeClock) -> None:
    planner = Recorder()
    service = await TableService.open(store, now=clock, seed_source=seed_counter())
    service.plan_with(planner)
    table = await seated_table(service)
    started = await service.start(table.id, HOST, table.version)
    seen = planner.planned[-1][0]
    assert seen.status is TableStatus.PLAYING and seen.game_number == 1
    assert seen.game_id is None and started.game_id is not None
    assert seen.game is started.game and seen.version == started.version
