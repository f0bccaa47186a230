"""A seat a computer plays for a late person (a stand-in) may be taken over
between hands like a computer player's: the newcomer then plays it in person."""

from __future__ import annotations

import pytest

from bot.game.types import Phase
from bot.tables.model import Seat
from tests.discord.harness import World, labels_of
from tests.discord.test_claim import HOUR, settings  # noqa: F401 (settings: a fixture)
from tests.discord.test_seat_takeover import ask, seat_menu

pytestmark = pytest.mark.simcord(settle_timeout=5.0)


async def test_the_seat_of_a_late_player_goes_to_a_watcher(world: World) -> None:
    alice, bob, carol = world.user("alice"), world.user("bob"), world.user("carol")
    await world.new_table(alice, turn_limit=720, stand_in=True)
    await world.click(bob, "Join")
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    for _ in range(200):  # alice plays; bob never does, so a computer plays for him
        table = await world.table()
        assert table.game is not None
        if table.game.phase is Phase.HAND_OVER:
            break
        if table.game.waited_on() == 0:
            await world.act(table)
        else:
            await world.env.advance_time(12 * HOUR + 5)
    app = world.bot.app
    assert app.snapshot(await world.table()).away_seats == {1}

    options = [o["label"] for o in seat_menu(world.table_message())["options"]]
    assert options[0] == "West: a computer plays for the late player"
    await ask(world, carol, 1)
    await world.click(alice, "Accept the request")
    table = await world.table()
    assert table.seats[1] == Seat(user_id=carol.id) and not table.is_seated(bob.id)
    assert app.snapshot(table).away_seats == frozenset()  # carol plays it herself

    await world.click(alice, "Next hand")
    for _ in range(10):  # the computers bid before her; nobody bids for carol
        table = await world.table()
        assert table.game is not None
        if table.game.waited_on() == 1:
            break
        await world.act(table)
    await world.env.advance_time(60)
    table = await world.table()
    assert table.game is not None and table.game.waited_on() == 1
    assert table.game.bids[1] is None
    assert "My hand" in labels_of(world.table_message())
