"""Answers to a claim of the rest made against an older version of the table:
each opponent decides on their own, so an answer made before another
opponent's (both seeing the claim as it was made) holds, also across a
restart; an answer to a claim no longer waiting stays stale."""

from __future__ import annotations

import pytest

from bot import refusals
from bot.game.state import Game
from bot.game.types import Phase
from bot.tables.model import Table
from bot.tables.service import TableService
from db.store import Store
from tests.service.driver import FakeClock, seated_table, seed_counter


def user_at(table: Table, seat: int) -> int:
    user = table.seats[seat & 3].user_id
    assert user is not None
    return user


def game_of(table: Table) -> Game:
    assert table.game is not None
    return table.game


async def claimed(service: TableService) -> tuple[Table, int]:
    """Four people, bids made, the first leader claims the rest: the table
    and the claimer's seat."""
    table = await seated_table(service)
    table = await service.start(table.id, user_at(table, 0), table.version)
    while game_of(table).phase is Phase.BIDDING:
        table = await service.bid(table.id, user_at(table, game_of(table).to_act), 3, table.version)
    claimer = game_of(table).to_act
    table = await service.claim_rest(table.id, user_at(table, claimer), table.version)
    assert table.game is not None and table.game.rest.waiting
    return table, claimer


@pytest.mark.parametrize("second_accepts", [True, False])
async def test_both_opponents_answer_the_claim_as_they_saw_it(
    service: TableService, second_accepts: bool
) -> None:
    table, claimer = await claimed(service)
    shown = table.version  # both opponents' buttons carry it
    await service.answer_rest(table.id, user_at(table, claimer + 1), shown, True)
    after = await service.answer_rest(table.id, user_at(table, claimer + 3), shown, second_accepts)
    game = after.game
    assert game is not None and after.version == shown + 2
    if second_accepts:
        assert game.phase is Phase.HAND_OVER and game.hand_records[-1].claim is not None
    else:
        assert game.phase is Phase.PLAYING and not game.rest.waiting
        assert game.waited_on() == claimer


async def test_an_answer_holds_through_a_spectator_and_another_answer(
    service: TableService,
) -> None:
    table, claimer = await claimed(service)
    shown = table.version
    await service.join(table.id, 4242, table.version)  # watches: not seen by players
    await service.answer_rest(table.id, user_at(table, claimer + 1), shown, True)
    after = await service.answer_rest(table.id, user_at(table, claimer + 3), shown, True)
    assert after.game is not None and after.game.phase is Phase.HAND_OVER


async def test_the_claim_s_version_is_read_back_after_a_restart(
    service: TableService, store: Store, clock: FakeClock
) -> None:
    table, claimer = await claimed(service)
    shown = table.version
    await service.answer_rest(table.id, user_at(table, claimer + 1), shown, True)
    restarted = await TableService.open(store, now=clock, seed_source=seed_counter())
    after = await restarted.answer_rest(table.id, user_at(table, claimer + 3), shown, True)
    assert after.game is not None and after.game.phase is Phase.HAND_OVER


async def test_an_answer_to_a_claim_no_longer_waiting_is_stale_and_the_new_claim_s_hold(
    service: TableService,
) -> None:
    table, claimer = await claimed(service)
    shown = table.version
    table = await service.answer_rest(table.id, user_at(table, claimer + 1), shown, False)
    with pytest.raises(refusals.StaleAction):  # refused: nothing to answer
        await service.answer_rest(table.id, user_at(table, claimer + 3), shown, True)
    # The claimer plays on, and the next player; the claimer's partner then
    # claims, asking the same two opponents: the old claim's buttons do not
    # answer the new one.
    for _ in range(2):
        game = game_of(table)
        card = game.legal_cards(game.to_act)[0]
        table = await service.play(table.id, user_at(table, game.to_act), card, table.version)
    assert game_of(table).to_act == (claimer + 2) & 3
    table = await service.claim_rest(table.id, user_at(table, claimer + 2), table.version)
    assert table.game is not None and (claimer + 3) & 3 in table.game.rest.opponents()
    with pytest.raises(refusals.StaleAction):
        await service.answer_rest(table.id, user_at(table, claimer + 3), shown, True)
    after = await service.get(table.id)
    assert after.version == table.version and after.game is not None
    assert after.game.rest.waiting and after.game.rest.accepted == 0
    # The new claim's own answers, both made on its first showing, hold.
    shown = table.version
    await service.answer_rest(table.id, user_at(table, claimer + 1), shown, True)
    after = await service.answer_rest(table.id, user_at(table, claimer + 3), shown, True)
    assert after.game is not None and after.game.phase is Phase.HAND_OVER
