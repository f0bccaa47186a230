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
