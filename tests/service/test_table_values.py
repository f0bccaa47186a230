"""A table is a value: what the service hands out never changes afterwards,
whatever later actions, refusals and failed writes do."""

from __future__ import annotations

import copy

import pytest

from bot.game.refusals import IllegalAction
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService
from bot.tables.step import Write, engine_write, step
from db.sql import Deadline
from tests.service.driver import HOST, Chooser, seated_table


async def test_every_table_handed_out_stays_as_it_was(service: TableService) -> None:
    table = await seated_table(service, humans=2, revokes="allowed")
    table = await service.start(table.id, HOST, table.version)
    chooser = Chooser(7, revoke_rate=0.2)
    kept: list[tuple[Table, Table]] = []
    for _ in range(120):
        if table.status is not TableStatus.PLAYING:
            break
        kept.append((table, copy.deepcopy(table)))
        table = await chooser.step(service, table)
    assert len(kept) > 50
    for handed_out, as_it_was in kept:
        assert handed_out == as_it_was
    assert await service.get(table.id) is table  # the newest value, kept as it is


async def test_a_refused_action_leaves_the_held_table_as_it_was(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    before = copy.deepcopy(table)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    other = table.seats[(seat + 1) & 3].user_id
    assert other is not None
    with pytest.raises(IllegalAction):
        await service.bid(table.id, other, 3, table.version)  # not their turn
    assert await service.get(table.id) is table and table == before


def test_a_copy_of_a_game_is_independent_of_it() -> None:
    game = Game.new(preset("standard"), 5)
    seat = game.waited_on()
    assert seat is not None
    copied = game.copy()
    assert copied == game
    copied.apply(Action(ActionKind.BID, seat, 3, 1.0))
    assert game == Game.new(preset("standard"), 5) and copied != game


async def test_a_step_is_a_pure_function_of_table_action_and_time(service: TableService) -> None:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    assert table.game is not None
    seat = table.game.waited_on()
    assert seat is not None
    user = table.seats[seat].user_id
    before = copy.deepcopy(table)

    def bid(at_table: Table, at: float) -> Write:
        return engine_write(at_table, user, at_table.version, ActionKind.BID, 3, at)

    def plan(after: Table, now: float) -> tuple[Deadline, ...]:
        return (Deadline(after.id, "turn", now + after.rules.turn_limit_s),)

    made = step(table, bid, 1234.5, plan)
    # The same arguments make the same step, and the table stepped from is untouched.
    assert step(table, bid, 1234.5, plan) == made and table == before
    assert made.table.version == table.version + 1 and made.entry.at == 1234.5
    assert made.entry.kind == ActionKind.BID.value and made.entry.payload["value"] == 3
    assert made.table.game is not None and made.table.game.bids[seat] == 3
    limit = table.rules.turn_limit_s
    assert made.deadlines == (Deadline(table.id, "turn", 1234.5 + limit),)
    assert made.change is not None and made.change.deadlines == made.deadlines
    assert step(table, bid, 1234.5).deadlines is None  # no plan: the stored ones stay
    other = table.seats[(seat + 1) & 3].user_id

    def out_of_turn(at_table: Table, at: float) -> Write:
        return engine_write(at_table, other, at_table.version, ActionKind.BID, 3, at)

    with pytest.raises(IllegalAction):
        step(table, out_of_turn, 1234.5, plan)
    assert table == before
