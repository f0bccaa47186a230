"""Taking over a computer's seat between hands, at the table service: who may
ask, when, the host's answer, and what a restart keeps."""

from __future__ import annotations

import pytest

from bot import refusals
from bot.game.types import Phase
from bot.tables.kinds import SEAT_ASK, SEAT_GIVEN, SEAT_REFUSED
from bot.tables.model import Seat, SeatRequest, Table
from bot.tables.service import TableService
from db.store import Store
from tests.backends import game_results
from tests.service.driver import GUESTS, HOST, Chooser, FakeClock, seated_table, seed_counter

WATCHER, OTHER = 2001, 2002
NONE: frozenset[int] = frozenset()


async def between_hands(service: TableService, table: Table, chooser: Chooser) -> Table:
    """Play on until the current hand is over (not the game: the seeds are
    chosen so that it goes on)."""
    table = await chooser.step(service, table)
    while table.game is not None and table.game.phase is not Phase.HAND_OVER:
        table = await chooser.step(service, table)
    assert table.game is not None and not table.game.over
    return table


async def one_person_and_computers(
    service: TableService, channel: int = 500, watchers: bool = True
) -> Table:
    table = await seated_table(
        service, channel=channel, humans=1, computer_level="heuristic", watchers=watchers
    )
    table = await service.start(table.id, HOST, table.version)
    if watchers:
        table = await service.join(table.id, WATCHER, table.version)
    return table


async def test_a_watcher_asks_the_host_accepts_and_the_seat_is_theirs(
    service: TableService, store: Store
) -> None:
    table = await one_person_and_computers(service)
    assert table.spectators == (WATCHER,)
    table = await between_hands(service, table, Chooser(1))
    asked = await service.ask_seat(table.id, WATCHER, table.version, 1, NONE)
    assert asked.seat_request == SeatRequest(WATCHER, 1)
    assert asked.version == table.version + 1
    given = await service.answer_seat(table.id, HOST, asked.version, True, NONE)
    assert given.seats[1] == Seat(user_id=WATCHER)
    assert given.spectators == ()
    assert given.seat_request is None
    with pytest.raises(refusals.NoSeatRequest):  # a second press of Accept
        await service.answer_seat(table.id, HOST, asked.version, True, NONE)
    log = await store.action_log(table.id)
    assert [e.kind for e in log[-2:]] == [SEAT_ASK, SEAT_GIVEN]
    assert log[-1].payload == {
        "seat": 1,
        "user_id": WATCHER,
        "bot_level": "heuristic",
        "owner": None,
    }
    stored = await store.load_table(table.id)
    assert stored is not None and (stored.seats[1].seat, stored.seats[1].user_id) == (1, WATCHER)
    dealt = await service.next_hand(table.id, WATCHER, given.version)
    assert dealt.game is not None and dealt.game.phase is Phase.BIDDING
    # The game's record keeps the seats of its start: it had computer players.
    over = await service.resign(table.id, WATCHER, dealt.version)
    assert over.game is not None and over.game.over
    [result] = await game_results(store, table.id)
    assert [(s["user_id"], s["bot_level"]) for s in result["seats"]] == [
        (HOST, None),
        (None, "heuristic"),
        (None, "heuristic"),
        (None, "heuristic"),
    ]


async def test_a_declined_request_leaves_the_computer_in_its_seat(
    service: TableService, store: Store
) -> None:
    table = await between_hands(service, await one_person_and_computers(service), Chooser(2))
    asked = await service.ask_seat(table.id, WATCHER, table.version, 3, NONE)
    declined = await service.answer_seat(table.id, HOST, asked.version, False, NONE)
    assert declined.seats[3].is_computer and declined.seat_request is None
    assert declined.spectators == (WATCHER,)
    assert (await store.action_log(table.id))[-1].kind == SEAT_REFUSED
    # A second press of either button: nothing left to answer.
    with pytest.raises(refusals.NoSeatRequest):
        await service.answer_seat(table.id, HOST, asked.version, True, NONE)


async def test_every_refusal_changes_nothing(service: TableService, store: Store) -> None:
    table = await one_person_and_computers(service)
    with pytest.raises(refusals.NotBetweenHands):  # the first hand is being bid
        await service.ask_seat(table.id, WATCHER, table.version, 1, NONE)
    table = await between_hands(service, table, Chooser(3))
    with pytest.raises(refusals.AlreadySeated):
        await service.ask_seat(table.id, HOST, table.version, 1, NONE)
    with pytest.raises(refusals.NotAComputer):
        await service.ask_seat(table.id, WATCHER, table.version, 0, NONE)
    with pytest.raises(refusals.NoSeatRequest):
        await service.answer_seat(table.id, HOST, table.version, True, NONE)
    asked = await service.ask_seat(table.id, WATCHER, table.version, 2, NONE)
    with pytest.raises(refusals.SeatRequestPending):
        await service.ask_seat(table.id, OTHER, asked.version, 1, NONE)
    with pytest.raises(refusals.HostOnly):
        await service.answer_seat(table.id, WATCHER, asked.version, True, NONE)
    assert (await service.get(table.id)).version == asked.version
    assert len(await store.action_log(table.id)) == asked.version

    closed = await one_person_and_computers(service, channel=501, watchers=False)
    closed = await between_hands(service, closed, Chooser(4))
    with pytest.raises(refusals.ClosedToWatchers):
        await service.ask_seat(closed.id, WATCHER, closed.version, 1, NONE)


async def test_the_next_deal_drops_a_request_left_unanswered(service: TableService) -> None:
    table = await between_hands(service, await one_person_and_computers(service), Chooser(5))
    asked = await service.ask_seat(table.id, WATCHER, table.version, 1, NONE)
    dealt = await service.next_hand(table.id, HOST, asked.version)
    assert dealt.seat_request is None
    with pytest.raises(refusals.NoSeatRequest):
        await service.answer_seat(table.id, HOST, asked.version, True, NONE)


async def test_a_seat_a_computer_plays_for_a_late_person_may_be_asked_for(
    service: TableService,
) -> None:
    table = await seated_table(service, humans=2, computer_level="heuristic")
    table = await service.start(table.id, HOST, table.version)
    table = await service.join(table.id, WATCHER, table.version)
    table = await between_hands(service, table, Chooser(6))
    late = frozenset({1})  # the guest at seat 1 timed out; a computer plays for them
    with pytest.raises(refusals.NotAComputer):
        await service.ask_seat(table.id, WATCHER, table.version, 1, NONE)
    asked = await service.ask_seat(table.id, WATCHER, table.version, 1, late)
    with pytest.raises(refusals.NotAComputer):  # the guest came back meanwhile
        await service.answer_seat(table.id, HOST, asked.version, True, NONE)
    given = await service.answer_seat(table.id, HOST, asked.version, True, late)
    assert given.seats[1] == Seat(user_id=WATCHER)
    assert GUESTS[0] not in {s.user_id for s in given.seats}


@pytest.mark.parametrize("watchers_between", [0, 2])
async def test_a_waiting_request_survives_a_restart(
    service: TableService, store: Store, clock: FakeClock, watchers_between: int
) -> None:
    table = await between_hands(service, await one_person_and_computers(service), Chooser(7))
    asked = await service.ask_seat(table.id, WATCHER, table.version, 2, NONE)
    for n in range(watchers_between):  # spectators coming leave it waiting
        await service.join(table.id, 3000 + n, asked.version)
    resumed = await TableService.open(store, now=clock, seed_source=seed_counter())
    again = await resumed.get(table.id)
    assert again.seat_request == SeatRequest(WATCHER, 2)
    assert again.version == asked.version + watchers_between
    # The Accept button drawn with the request still answers it.
    given = await resumed.answer_seat(table.id, HOST, asked.version, True, NONE)
    assert given.seats[2] == Seat(user_id=WATCHER)
    answered = await TableService.open(store, now=clock, seed_source=seed_counter())
    assert (await answered.get(table.id)).seat_request is None
