"""Should two processes ever both hold a table (a shard moved while its old
process lingers), the version check inside the database lets exactly one of
two racing actions commit; the loser changes nothing and reads the table
afresh."""

from __future__ import annotations

import asyncio

from bot.game.types import Phase
from bot.game.view import view_of
from bot.refusals import StaleAction
from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService

from .cores import GUILDS, Now, open_core, started_table

ROUNDS = 40


async def _next_move(tables: TableService, table: Table, choice: int) -> Table:
    """The waited-on person's ``choice``-th legal move (bids and cards)."""
    game = table.game
    assert game is not None
    seat = game.waited_on()
    assert seat is not None
    user = table.seats[seat].user_id
    assert user is not None
    view = view_of(game, seat)
    if game.phase is Phase.BIDDING:
        bids = [b for b in view.legal_bids if b >= 0]
        return await tables.bid(table.id, user, bids[choice % len(bids)], table.version)
    cards = [c for c in range(52) if view.legal_cards >> c & 1]
    return await tables.play(table.id, user, cards[choice % len(cards)], table.version)


async def test_two_cores_racing_on_one_table_commit_exactly_one_action(
    store_location: str,
) -> None:
    now = Now()
    # Both claim shard 0: the misconfiguration the database must survive.
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "0", now),
    )
    try:
        table = await started_table(first.tables, GUILDS[0], 100)
        assert (await second.tables.get(table.id)).version == table.version
        for round_no in range(ROUNDS):
            views = [await core.tables.get(table.id) for core in (first, second)]
            assert views[0].version == views[1].version == table.version
            results = await asyncio.gather(
                _next_move(first.tables, views[0], round_no),
                _next_move(second.tables, views[1], round_no + 1),
                return_exceptions=True,
            )
            won = [r for r in results if isinstance(r, Table)]
            lost = [r for r in results if not isinstance(r, Table)]
            assert len(won) == 1, results
            assert len(lost) == 1 and isinstance(lost[0], StaleAction), results
            table = won[0]
            assert table.version == views[0].version + 1
            assert table.status is TableStatus.PLAYING
        log = await first.store.action_log(table.id)
        assert [e.seq for e in log] == list(range(1, table.version + 1))
    finally:
        await first.close()
        await second.close()
